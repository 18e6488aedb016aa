/*
 * ARMCI set-up and shut-down, errors, topology and progress.
 *
 * Bootstrap: xgas joins the job the way every xgas program does -- under
 * mpirun through its PMIx server (boot/pmix.c).  The PGAS runtime starts
 * collectively over the whole job, so libarmci starts it where every
 * process of an MPI job takes part anyway: in MPI_Init (and
 * MPI_Init_thread), which it wraps through MPI's profiling interface, and
 * stops it in MPI_Finalize.  ARMCI_Init then involves only the processes
 * of its communicator -- half of the job may run ARMCI while the other
 * half waits in MPI (Global Arrays' comm_init does).  Where the wrapper
 * did not run (Fortran's MPI_INIT, or another tool's wrapper won),
 * ARMCI_Init starts the runtime, collectively over the job, and
 * ARMCI_Finalize stops it.  ARMCI_Init checks that MPI and xgas see the
 * same job: MPI_COMM_WORLD rank r must be xgas PE r.  ARMCI's world is a
 * duplicate of the communicator it is given; its process p is the PE of
 * that communicator's rank p in MPI_COMM_WORLD.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/armci/armci_int.h"
#include "runtime/xg_runtime.h"
#include "xgas.h"

xg_armci_t xg_armci = {.comm         = MPI_COMM_NULL,
                       .node_comm    = MPI_COMM_NULL,
                       .masters_comm = MPI_COMM_NULL};

/* Who started the PGAS runtime: MPI_Init's wrapper, or ARMCI_Init. */
enum {
    ARMCI_XGAS_OFF,
    ARMCI_XGAS_BY_MPI,
    ARMCI_XGAS_BY_ARMCI
};
static int armci_xgas;

static void armci_start_xgas(const char *routine, int how)
{
    xg_status_t status;

    if (armci_xgas != ARMCI_XGAS_OFF) {
        return;
    }
    /* ARMCI users size memory by their problem: the heap is the node's
     * (unless SHMEM_SYMMETRIC_SIZE says otherwise; docs/armci.md) */
    xg_runtime_heap_from_node();
    status = xg_runtime_init(XG_RUNTIME_PGAS);
    if (status != XG_OK) {
        xg_armci_fail(routine,
                      "cannot start xgas (%s); the messages above "
                      "say why",
                      xg_status_str(status));
    }
    armci_xgas = how;
}

static void armci_stop_xgas(int how)
{
    if (armci_xgas == how) {
        /* collective: every PE leaves xgas together */
        xg_runtime_fini(XG_RUNTIME_PGAS);
        armci_xgas = ARMCI_XGAS_OFF;
    }
}

/* MPI's profiling interface: the job starts xgas with MPI. */
XG_ARMCI_API int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);

    if (rc == MPI_SUCCESS) {
        armci_start_xgas("MPI_Init", ARMCI_XGAS_BY_MPI);
    }
    return rc;
}

XG_ARMCI_API int MPI_Init_thread(int *argc, char ***argv, int required,
                                 int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);

    if (rc == MPI_SUCCESS) {
        armci_start_xgas("MPI_Init_thread", ARMCI_XGAS_BY_MPI);
    }
    return rc;
}

XG_ARMCI_API int MPI_Finalize(void)
{
    armci_stop_xgas(ARMCI_XGAS_BY_MPI);
    return PMPI_Finalize();
}

/* ---- errors --------------------------------------------------------------- */

void xg_armci_not_running(const char *routine)
{
    xg_armci_fail(routine,
                  "called %s: call it between ARMCI_Init and "
                  "ARMCI_Finalize",
                  xg_armci.finalized ? "after ARMCI_Finalize"
                                     : "before ARMCI_Init");
}

void xg_armci_bad_proc(const char *routine, int proc)
{
    xg_armci_check_running(routine);
    xg_armci_fail(routine,
                  "process %d is out of range: ARMCI has %d "
                  "processes (0..%d)",
                  proc, xg_armci.nproc, xg_armci.nproc - 1);
}

void xg_armci_xfer_fail(const char *routine, xg_status_t status,
                        const void *addr, size_t len, int proc)
{
    char where[256];

    xg_armci_check_running(routine);
    xg_gas_region_describe(addr, xg_armci_pe(proc), where, sizeof(where));
    switch (status) {
    case XG_ERR_NOT_SYMMETRIC:
        xg_armci_fail(routine,
                      "address %p is not inside memory from "
                      "ARMCI_Malloc on process %d (%s): pass base_ptrs[%d] "
                      "from ARMCI_Malloc plus an offset within the "
                      "allocation",
                      addr, proc, where, proc);
    case XG_ERR_OUT_OF_BOUNDS:
        xg_armci_fail(routine,
                      "%zu bytes at %p run past the end of the "
                      "ARMCI_Malloc allocation of process %d that holds "
                      "them (%s), or the strided extent overflows: check "
                      "the size, counts and strides",
                      len, addr, proc, where);
    case XG_ERR_INVALID_PARAM:
        xg_armci_fail(routine,
                      "the request on %zu bytes at %p of process "
                      "%d is not valid: an accumulate's length must be "
                      "whole elements of its type, vectors need their "
                      "pointer arrays",
                      len, addr, proc);
    case XG_ERR_MISALIGNED:
        xg_armci_fail(routine,
                      "address %p of process %d is not aligned to "
                      "%zu bytes, the size of the word",
                      addr, proc, len);
    default:
        xg_armci_fail(routine,
                      "the operation on %zu bytes at %p of process "
                      "%d failed (%s): the messages above say why",
                      len, addr, proc, xg_status_str(status));
    }
}

XG_ARMCI_API void ARMCI_Error(const char *msg, int code)
{
    xg_log_emit(XG_LOG_ERROR, "armci",
                "ARMCI_Error: %s (code %d): ending "
                "the job",
                (msg != NULL) ? msg : "(no message)", code);
    fflush(stdout);
    fflush(stderr);
    MPI_Abort((xg_armci.comm != MPI_COMM_NULL) ? xg_armci.comm : MPI_COMM_WORLD,
              (code != 0) ? code : 1);
    exit((code != 0) ? code : 1); /* MPI_Abort does not return */
}

/* ---- set-up --------------------------------------------------------------- */

/* Domains: a process's domain is named by the lowest process it reaches
 * by load and store; numbered in order of those. */
static void armci_domains(void)
{
    int *lowest = malloc((size_t)xg_armci.nproc * sizeof(int));
    int mine    = xg_armci.me, p, d;

    xg_armci.domain_of = malloc((size_t)xg_armci.nproc * sizeof(int));
    if ((lowest == NULL) || (xg_armci.domain_of == NULL)) {
        xg_armci_fail("ARMCI_Init",
                      "no memory for the table of %d "
                      "processes",
                      xg_armci.nproc);
    }
    for (p = 0; p < xg_armci.nproc; p++) {
        if (xg_gas_region_direct(xg_armci_pe(p))) {
            mine = p;
            break;
        }
    }
    MPI_Allgather(&mine, 1, MPI_INT, lowest, 1, MPI_INT, xg_armci.comm);
    xg_armci.domains = 0;
    for (p = 0; p < xg_armci.nproc; p++) {
        if (lowest[p] == p) {
            xg_armci.domain_of[p] = xg_armci.domains++;
        } else {
            xg_armci.domain_of[p] = xg_armci.domain_of[lowest[p]];
        }
    }
    d = xg_armci.domain_of[xg_armci.me];
    MPI_Comm_split(xg_armci.comm, d, xg_armci.me, &xg_armci.node_comm);
    MPI_Comm_split(xg_armci.comm,
                   (lowest[xg_armci.me] == xg_armci.me) ? 0 : MPI_UNDEFINED,
                   xg_armci.me, &xg_armci.masters_comm);
    free(lowest);
}

static int armci_init(const char *routine, int level, MPI_Comm comm)
{
    int mpi_init = 0, mpi_fin = 0, wrank, wsize, p, *world_rank;
    MPI_Group world_group, group;

    if (xg_armci.init_count > 0) {
        xg_armci.init_count++; /* Global Arrays initializes more than once */
        return 0;
    }
    MPI_Initialized(&mpi_init);
    MPI_Finalized(&mpi_fin);
    if (!mpi_init || mpi_fin) {
        xg_armci_fail(routine,
                      "MPI is %s: ARMCI programs are MPI programs, "
                      "call MPI_Init before %s",
                      mpi_fin ? "finalized" : "not initialized", routine);
    }
    if (comm == MPI_COMM_NULL) {
        xg_armci_fail(routine, "the communicator is MPI_COMM_NULL: pass the "
                               "communicator of ARMCI's processes");
    }
    armci_start_xgas(routine, ARMCI_XGAS_BY_ARMCI);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if ((wrank != xg_rank()) || (wsize != xg_size())) {
        xg_armci_fail(routine,
                      "this process is rank %d of %d in "
                      "MPI_COMM_WORLD but PE %d of %d in xgas: MPI and xgas "
                      "must see one job -- start the program with mpirun "
                      "(xgas joins mpirun's PMIx server); under xgasrun each "
                      "MPI process is a job of its own",
                      wrank, wsize, xg_rank(), xg_size());
    }
    MPI_Comm_dup(comm, &xg_armci.comm);
    MPI_Comm_rank(xg_armci.comm, &xg_armci.me);
    MPI_Comm_size(xg_armci.comm, &p);
    xg_armci.pe_of = malloc((size_t)p * sizeof(int));
    world_rank     = malloc((size_t)p * sizeof(int));
    if ((xg_armci.pe_of == NULL) || (world_rank == NULL)) {
        xg_armci_fail(routine, "no memory for the table of %d processes", p);
    }
    /* process i of ARMCI's world is its MPI_COMM_WORLD rank's PE */
    MPI_Comm_group(xg_armci.comm, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (wrank = 0; wrank < p; wrank++) {
        world_rank[wrank] = wrank;
    }
    MPI_Group_translate_ranks(group, p, world_rank, world_group,
                              xg_armci.pe_of);
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    free(world_rank);
    xg_armci.identity = (p == xg_size());
    for (wrank = 0; wrank < p; wrank++) {
        xg_armci.identity &= (xg_armci.pe_of[wrank] == wrank);
    }
    xg_armci.thread_level = level;
    xg_armci.nproc        = p;
    armci_domains();
    {
        MPI_Comm world;

        MPI_Comm_dup(xg_armci.comm, &world);
        xg_armci_group_from_comm(&xg_armci.world, world);
    }
    xg_armci.dflt       = xg_armci.world;
    xg_armci.init_count = 1;
    xg_armci.finalized  = 0;
    return 0;
}

XG_ARMCI_API int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm)
{
    return armci_init("ARMCI_Init_thread_comm", armci_requested, comm);
}
XG_ARMCI_WEAK(ARMCI_Init_thread_comm);

XG_ARMCI_API int PARMCI_Init_thread(int armci_requested)
{
    return armci_init("ARMCI_Init_thread", armci_requested, MPI_COMM_WORLD);
}
XG_ARMCI_WEAK(ARMCI_Init_thread);

XG_ARMCI_API int PARMCI_Init(void)
{
    return armci_init("ARMCI_Init", MPI_THREAD_SINGLE, MPI_COMM_WORLD);
}
XG_ARMCI_WEAK(ARMCI_Init);

XG_ARMCI_API int PARMCI_Init_args(int *argc, char ***argv)
{
    (void)argc; /* MPI_Init took the command line already */
    (void)argv;
    return armci_init("ARMCI_Init_args", MPI_THREAD_SINGLE, MPI_COMM_WORLD);
}
XG_ARMCI_WEAK(ARMCI_Init_args);

XG_ARMCI_API int PARMCI_Init_mpi_comm(MPI_Comm comm)
{
    return armci_init("ARMCI_Init_mpi_comm", MPI_THREAD_SINGLE, comm);
}
XG_ARMCI_WEAK(ARMCI_Init_mpi_comm);

XG_ARMCI_API int PARMCI_Initialized(void)
{
    return xg_armci.init_count > 0;
}
XG_ARMCI_WEAK(ARMCI_Initialized);

static void armci_free_comm(MPI_Comm *comm)
{
    if (*comm != MPI_COMM_NULL) {
        MPI_Comm_free(comm);
    }
}

/* What ARMCI holds of MPI and xgas, released (no synchronization). */
static void armci_release(void)
{
    ARMCI_Group world = xg_armci.world;

    armci_free_comm(&xg_armci.node_comm);
    armci_free_comm(&xg_armci.masters_comm);
    armci_free_comm(&xg_armci.comm);
    armci_free_comm(&world.comm);
    free(world.abs);
    free(xg_armci.pe_of);
    free(xg_armci.domain_of);
    memset(&xg_armci.world, 0, sizeof(xg_armci.world));
    xg_armci.dflt       = xg_armci.world;
    xg_armci.pe_of      = NULL;
    xg_armci.domain_of  = NULL;
    xg_armci.nproc      = 0;
    xg_armci.init_count = 0;
}

XG_ARMCI_API int PARMCI_Finalize(void)
{
    xg_armci_check_running("ARMCI_Finalize");
    if (--xg_armci.init_count > 0) {
        return 0;
    }
    xg_armci_all_fence("ARMCI_Finalize");
    xg_armci_barrier("ARMCI_Finalize", &xg_armci.world);
    xg_armci_mutexes_fini();
    xg_armci_allocations_fini();
    armci_release();
    xg_armci.finalized = 1;
    armci_stop_xgas(ARMCI_XGAS_BY_ARMCI);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Finalize);

XG_ARMCI_API void ARMCI_Cleanup(void)
{
    /* local: what this process has in flight completes, its ARMCI state
     * goes; no other process is waited for (xgas leaves with the process,
     * at exit) */
    if (xg_armci.nproc != 0) {
        xg_armci_all_fence("ARMCI_Cleanup");
        armci_release();
    }
}

/* ---- topology --------------------------------------------------------------- */

static void armci_check_domain(const char *routine, armci_domain_t domain)
{
    xg_armci_check_running(routine);
    if (domain != ARMCI_DOMAIN_SMP) {
        xg_armci_fail(routine,
                      "domain %d is not ARMCI_DOMAIN_SMP (%d), the "
                      "only one",
                      domain, ARMCI_DOMAIN_SMP);
    }
}

/* A domain id: a negative one means this process's domain (as classic
 * ARMCI takes it; Global Arrays asks ga_cluster_nprocs(-1)). */
static int armci_domain_of_id(const char *routine, int id)
{
    if (id < 0) {
        return xg_armci.domain_of[xg_armci.me];
    }
    if (id >= xg_armci.domains) {
        xg_armci_fail(routine,
                      "domain id %d is out of range: there are %d "
                      "domains",
                      id, xg_armci.domains);
    }
    return id;
}

XG_ARMCI_API int armci_domain_nprocs(armci_domain_t domain, int id)
{
    int p, n = 0;

    armci_check_domain(__func__, domain);
    id = armci_domain_of_id(__func__, id);
    for (p = 0; p < xg_armci.nproc; p++) {
        n += (xg_armci.domain_of[p] == id);
    }
    return n;
}

XG_ARMCI_API int armci_domain_id(armci_domain_t domain, int glob_proc_id)
{
    armci_check_domain(__func__, domain);
    xg_armci_check_proc(__func__, glob_proc_id);
    return xg_armci.domain_of[glob_proc_id];
}

XG_ARMCI_API int armci_domain_glob_proc_id(armci_domain_t domain, int id,
                                           int loc_proc_id)
{
    int p, n = 0;

    armci_check_domain(__func__, domain);
    id = armci_domain_of_id(__func__, id);
    for (p = 0; p < xg_armci.nproc; p++) {
        if ((xg_armci.domain_of[p] == id) && (n++ == loc_proc_id)) {
            return p;
        }
    }
    xg_armci_fail(__func__,
                  "process %d of domain %d does not exist: the "
                  "domain has %d processes",
                  loc_proc_id, id, n);
}

XG_ARMCI_API int armci_domain_my_id(armci_domain_t domain)
{
    armci_check_domain(__func__, domain);
    return xg_armci.domain_of[xg_armci.me];
}

XG_ARMCI_API int armci_domain_count(armci_domain_t domain)
{
    armci_check_domain(__func__, domain);
    return xg_armci.domains;
}

XG_ARMCI_API int armci_domain_same_id(armci_domain_t domain, int proc)
{
    armci_check_domain(__func__, domain);
    xg_armci_check_proc(__func__, proc);
    return xg_armci.domain_of[proc] == xg_armci.domain_of[xg_armci.me];
}

XG_ARMCI_API int ARMCI_Same_node(int proc)
{
    int pe = xg_armci_check_proc(__func__, proc);

    return (proc == xg_armci.me) || xg_gas_region_direct(pe);
}

XG_ARMCI_API int ARMCI_Uses_shm(void)
{
    xg_armci_check_running(__func__);
    return armci_domain_nprocs(ARMCI_DOMAIN_SMP,
                               xg_armci.domain_of[xg_armci.me]) > 1;
}

XG_ARMCI_API int ARMCI_Uses_shm_grp(ARMCI_Group *group)
{
    int r, n = 0;

    xg_armci_check_group(__func__, group);
    for (r = 0; r < group->size; r++) {
        n += xg_armci.domain_of[group->abs[r]] ==
             xg_armci.domain_of[xg_armci.me];
    }
    return n > 1;
}

XG_ARMCI_API void ARMCI_Set_shm_limit(unsigned long shmemlimit)
{
    /* a hint with nothing to limit: shared memory is the symmetric heap,
     * sized once when the job starts, from the node's memory or by
     * SHMEM_SYMMETRIC_SIZE (docs/armci.md) */
    (void)shmemlimit;
}

XG_ARMCI_API void ARMCIX_Progress(void)
{
    xg_armci_check_running(__func__);
    xg_gas_am_serve();
}
