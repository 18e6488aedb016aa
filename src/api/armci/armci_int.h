/*
 * Shared internals of libarmci (include/armci.h): the binding's state, its
 * error policy, and the mapping of ARMCI's process ids to xgas PEs.
 *
 * Thin, like every API layer: arguments are checked here, then one call
 * into gas's regions (gas/region/xg_gas_region.h), which libxgas exports
 * for this library.  MPI carries only what ARMCI exposes of it:
 * communicators of groups, the message layer (message.h) and the
 * agreements of collective allocation; every one-sided operation goes
 * through gas.
 */
#ifndef XG_ARMCI_INT_H
#define XG_ARMCI_INT_H

#include <stddef.h>
#include <stdint.h>

#include "armci.h"
#include "armcix.h"
#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "gas/region/xg_gas_region.h"

/* Routines are exported under their published names; the ARMCI_* names of
 * the profiling interface are weak aliases of the PARMCI_* definitions. */
#define XG_ARMCI_API        XG_EXPORT
#define XG_ARMCI_WEAK(name) XG_EXPORT_ALIAS(name, P##name) XG_WEAK

typedef struct xg_armci {
    int init_count; /* ARMCI_Init calls not finalized yet */
    int finalized;  /* the last ARMCI_Finalize ran */
    int me, nproc;  /* in ARMCI's world; nproc 0 before init */
    int identity;   /* ARMCI process p is xgas PE p */
    int *pe_of;     /* ARMCI process -> xgas PE */
    int *domain_of; /* ARMCI process -> its domain (node) */
    int domains;
    int thread_level;
    MPI_Comm comm;         /* the world (a duplicate) */
    MPI_Comm node_comm;    /* this node's processes (SCOPE_NODE) */
    MPI_Comm masters_comm; /* the lowest rank of each node; MPI_COMM_NULL
                              on the others */
    ARMCI_Group world;
    ARMCI_Group dflt;           /* ARMCI_Group_set_default */
    armcix_mutex_hdl_t mutexes; /* ARMCI_Create_mutexes */
} xg_armci_t;

extern xg_armci_t xg_armci;

/* The xgas PE of ARMCI process @proc (checked). */
static inline int xg_armci_pe(int proc)
{
    return xg_likely(xg_armci.identity) ? proc : xg_armci.pe_of[proc];
}

/* Ends the job after "<routine>: <what went wrong>". */
#define xg_armci_fail(routine, ...) xg_fatal_api("armci", routine, __VA_ARGS__)

/* Ends the job for a routine called outside ARMCI_Init..ARMCI_Finalize. */
XG_NORETURN XG_NOINLINE void xg_armci_not_running(const char *routine);

/* Checks that ARMCI runs and @proc is one of its processes (the job ends
 * otherwise); returns its PE. */
XG_NOINLINE void xg_armci_bad_proc(const char *routine, int proc);
static inline int xg_armci_check_proc(const char *routine, int proc)
{
    if (xg_unlikely((unsigned)proc >= (unsigned)xg_armci.nproc)) {
        xg_armci_bad_proc(routine, proc);
    }
    return xg_armci_pe(proc);
}

static inline void xg_armci_check_running(const char *routine)
{
    if (xg_unlikely(xg_armci.nproc == 0)) {
        xg_armci_not_running(routine);
    }
}

/* Ends the job for a gas operation that returned @status on @len remote
 * bytes at @addr of process @proc, saying why in ARMCI's terms. */
XG_NORETURN XG_NOINLINE void xg_armci_xfer_fail(const char *routine,
                                                xg_status_t status,
                                                const void *addr, size_t len,
                                                int proc);

/* The accumulate descriptor of ARMCI type @datatype and @scale (the job
 * ends on a bad type or a NULL scale). */
void xg_armci_acc(const char *routine, int datatype, const void *scale,
                  xg_gas_acc_t *acc);

/* An MPI_Allreduce(MAX) over @comm, for gas's agreements. */
typedef struct xg_armci_agree {
    MPI_Comm comm;
} xg_armci_agree_t;
xg_status_t xg_armci_agree_max(uint64_t *values, size_t n, void *arg);

/* Ends the job because @bytes (the group's largest request) do not fit
 * the symmetric heap: names the request, the heap, how it was sized and
 * what to change. */
XG_NORETURN XG_NOINLINE void xg_armci_no_room(const char *routine,
                                              uint64_t bytes);

/* Collective over @group: allocates @bytes on each member; ptrs[r] is
 * member r's address of its part, NULL where it asked for 0 bytes. */
void xg_armci_malloc_group(const char *routine, void **ptrs, armci_size_t bytes,
                           ARMCI_Group *group);
void xg_armci_free_group(const char *routine, void *ptr, ARMCI_Group *group);

/* Completes every operation of this process (ARMCI_AllFence). */
void xg_armci_all_fence(const char *routine);

/* The barrier of @comm, serving this process's deferred work meanwhile
 * when it is the whole job (gas's barrier); MPI's otherwise. */
void xg_armci_barrier(const char *routine, ARMCI_Group *group);

/* Group helpers (groups.c): fills @group for communicator @comm (which it
 * takes over; MPI_COMM_NULL for a non-member). */
void xg_armci_group_from_comm(ARMCI_Group *group, MPI_Comm comm);
void xg_armci_check_group(const char *routine, const ARMCI_Group *group);

/* Mutex handles (rmw.c): destroys every batch still alive (finalize). */
void xg_armci_mutexes_fini(void);

/* Allocations still alive (malloc.c): freed at finalize. */
void xg_armci_allocations_fini(void);

#endif
