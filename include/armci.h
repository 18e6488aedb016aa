/*
 * ARMCI on xgas (libarmci): the one-sided interface of Global Arrays and
 * NWChem, with the names and signatures of the published armci.h (as
 * ARMCI-MPI ships it), implemented over xgas's global address space and
 * software NIC.  Link with -larmci (pkg-config armci); docs/armci.md.
 *
 * ARMCI programs are MPI programs: this header includes <mpi.h>, a
 * program calls MPI_Init before ARMCI_Init, and it is started by mpirun,
 * whose PMIx server xgas joins (docs/armci.md, "Starting").  Process ids
 * are ranks of the communicator ARMCI was initialized with
 * (MPI_COMM_WORLD unless ARMCI_Init_mpi_comm says otherwise).
 *
 * Every ARMCI_* routine of the profiling interface is a weak alias of its
 * PARMCI_* twin: a tool or a test defines ARMCI_Put and calls PARMCI_Put.
 * A bad argument (a process out of range, a remote address outside memory
 * from ARMCI_Malloc, a stride level above ARMCI_MAX_STRIDE_LEVEL, a
 * strided extent that overflows) ends the job with a message naming the
 * routine, the value and what to pass instead.
 */
#ifndef XGAS_ARMCI_H
#define XGAS_ARMCI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This armci.h is xgas's (ARMCI-MPI defines ARMCI_MPI instead). */
#define ARMCI_XGAS 1

/* Stride levels of the strided routines: count[] has stride_levels + 1
 * entries, at most ARMCI_MAX_STRIDE_LEVEL + 1. */
#define ARMCI_MAX_STRIDE_LEVEL 8

/* Accumulate element types: int, long, float, double, complex (two
 * floats), double complex (two doubles). */
enum ARMCI_Acc_e {
    ARMCI_ACC_INT,
    ARMCI_ACC_LNG,
    ARMCI_ACC_FLT,
    ARMCI_ACC_DBL,
    ARMCI_ACC_CPL,
    ARMCI_ACC_DCP
};

typedef long armci_size_t;

/* ---- set-up ------------------------------------------------------------- */

int ARMCI_Init(void);
int ARMCI_Init_args(int *argc, char ***argv);
int ARMCI_Init_thread(int armci_requested);
int ARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int ARMCI_Init_mpi_comm(MPI_Comm comm);
int ARMCI_Initialized(void);
int ARMCI_Finalize(void);
void ARMCI_Cleanup(void);
void ARMCI_Error(const char *msg, int code);

/* ---- memory ------------------------------------------------------------- */

/* Collective: each process passes its size (0 allowed); base_ptrs[p] is
 * process p's address of its part (NULL where p asked for 0 bytes). */
int ARMCI_Malloc(void **base_ptrs, armci_size_t size);
int ARMCI_Free(void *ptr);
void *ARMCI_Malloc_local(armci_size_t size);
int ARMCI_Free_local(void *ptr);

void ARMCI_Access_begin(void *ptr);
void ARMCI_Access_end(void *ptr);

/* ---- synchronization ---------------------------------------------------- */

void ARMCI_Barrier(void);
void ARMCI_Fence(int proc);
void ARMCI_AllFence(void);

/* ---- contiguous, strided, flagged --------------------------------------- */

void ARMCI_Copy(void *src, void *dst, int size);

int ARMCI_Get(void *src, void *dst, int size, int target);
int ARMCI_Put(void *src, void *dst, int size, int target);
int ARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes,
              int proc);

int ARMCI_PutS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
               int dst_stride_ar[], int count[], int stride_levels, int proc);
int ARMCI_GetS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
               int dst_stride_ar[], int count[], int stride_levels, int proc);
int ARMCI_AccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
               void *dst_ptr, int dst_stride_ar[], int count[],
               int stride_levels, int proc);

int ARMCI_Put_flag(void *src, void *dst, int size, int *flag, int value,
                   int proc);
int ARMCI_PutS_flag(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                    int dst_stride_ar[], int count[], int stride_levels,
                    int *flag, int value, int proc);

/* ---- non-blocking -------------------------------------------------------- */

/* A handle names the operations started with it; its contents are xgas's
 * business.  Initialize it before use; an aggregate handle collects
 * several operations for one wait. */
typedef struct armci_hdl_s {
    int aggregate;
    int active;
    void *pending;
    long reserved[2];
} armci_hdl_t;

void ARMCI_INIT_HANDLE(armci_hdl_t *hdl);
void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *handle);
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *handle);

int ARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int ARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int ARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes,
                int proc, armci_hdl_t *hdl);

/* Wait: 0 when done.  Test: 0 when complete, non-zero while in flight. */
int ARMCI_Wait(armci_hdl_t *hdl);
int ARMCI_Test(armci_hdl_t *hdl);
int ARMCI_WaitProc(int proc);
int ARMCI_WaitAll(void);

int ARMCI_NbPutS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                 int dst_stride_ar[], int count[], int stride_levels, int proc,
                 armci_hdl_t *hdl);
int ARMCI_NbGetS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                 int dst_stride_ar[], int count[], int stride_levels, int proc,
                 armci_hdl_t *hdl);
int ARMCI_NbAccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                 void *dst_ptr, int dst_stride_ar[], int count[],
                 int stride_levels, int proc, armci_hdl_t *hdl);

/* Local strided copies between a patch at ptr and a packed buffer. */
void armci_write_strided(void *ptr, int stride_levels, int stride_arr[],
                         int count[], char *buf);
void armci_read_strided(void *ptr, int stride_levels, int stride_arr[],
                        int count[], char *buf);

/* ---- vectors ------------------------------------------------------------- */

typedef struct {
    void **src_ptr_array; /* where each segment comes from */
    void **dst_ptr_array; /* where each segment goes */
    int bytes;            /* bytes of every segment */
    int ptr_array_len;    /* segments */
} armci_giov_t;

int ARMCI_PutV(armci_giov_t *iov, int iov_len, int proc);
int ARMCI_GetV(armci_giov_t *iov, int iov_len, int proc);
int ARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int iov_len,
               int proc);
int ARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *handle);
int ARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *handle);
int ARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int iov_len,
                 int proc, armci_hdl_t *handle);

/* ---- single values ------------------------------------------------------- */

int ARMCI_PutValueInt(int src, void *dst, int proc);
int ARMCI_PutValueLong(long src, void *dst, int proc);
int ARMCI_PutValueFloat(float src, void *dst, int proc);
int ARMCI_PutValueDouble(double src, void *dst, int proc);
int ARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_GetValueInt(void *src, int proc);
long ARMCI_GetValueLong(void *src, int proc);
float ARMCI_GetValueFloat(void *src, int proc);
double ARMCI_GetValueDouble(void *src, int proc);

/* ---- mutexes and read-modify-write -------------------------------------- */

int ARMCI_Create_mutexes(int count);
int ARMCI_Destroy_mutexes(void);
void ARMCI_Lock(int mutex, int proc);
void ARMCI_Unlock(int mutex, int proc);

enum ARMCI_Rmw_e {
    ARMCI_FETCH_AND_ADD,      /* int */
    ARMCI_FETCH_AND_ADD_LONG, /* long */
    ARMCI_SWAP,               /* int */
    ARMCI_SWAP_LONG           /* long */
};

/* Fetch-and-add of value into *prem on proc (*ploc gets the old value),
 * or swap of *ploc and *prem. */
int ARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);

/* ---- groups -------------------------------------------------------------- */

/* A group of processes and its communicator (comm is MPI_COMM_NULL on a
 * process that is not a member). */
typedef struct {
    MPI_Comm comm;
    int rank; /* this process's rank in the group, -1: none */
    int size;
    int *abs; /* group rank -> absolute process id */
} ARMCI_Group;

void ARMCI_Group_create(int grp_size, int *pid_list, ARMCI_Group *group_out);
void ARMCI_Group_create_child(int grp_size, int *pid_list,
                              ARMCI_Group *group_out,
                              ARMCI_Group *group_parent);
void ARMCI_Group_free(ARMCI_Group *group);
int ARMCI_Group_rank(ARMCI_Group *group, int *rank);
void ARMCI_Group_size(ARMCI_Group *group, int *size);
void ARMCI_Group_set_default(ARMCI_Group *group);
void ARMCI_Group_get_default(ARMCI_Group *group_out);
void ARMCI_Group_get_world(ARMCI_Group *group_out);
int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank);
int ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group);
int ARMCI_Free_group(void *ptr, ARMCI_Group *group);

/* The group's communicator (Global Arrays asks for it). */
MPI_Comm armci_group_comm(ARMCI_Group *group);

/* ---- the message layer --------------------------------------------------- */

#include <message.h>

/* ---- topology ------------------------------------------------------------ */

/* Domains: the processes whose memory this one reaches by load and store
 * (one node; every process alone when XGAS_ROUTE=nic). */
enum armci_domain_e {
    ARMCI_DOMAIN_SMP
};
typedef int armci_domain_t;

int armci_domain_nprocs(armci_domain_t domain, int id);
int armci_domain_id(armci_domain_t domain, int glob_proc_id);
int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id);
int armci_domain_my_id(armci_domain_t domain);
int armci_domain_count(armci_domain_t domain);
int armci_domain_same_id(armci_domain_t domain, int proc);

int ARMCI_Same_node(int proc);

/* Whether processes of this node share memory (they do, through the PVAS
 * region); the limit is a hint: the symmetric heap bounds the memory. */
int ARMCI_Uses_shm(void);
void ARMCI_Set_shm_limit(unsigned long shmemlimit);
int ARMCI_Uses_shm_grp(ARMCI_Group *group);

/* Memory on a named device: xgas has one kind of memory, every device
 * name gets it. */
int ARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char *device);
int ARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes,
                              ARMCI_Group *group, const char *device);
int ARMCI_Free_memdev(void *ptr);

/* ---- PARMCI: the profiling interface ------------------------------------- */

int PARMCI_Init(void);
int PARMCI_Init_args(int *argc, char ***argv);
int PARMCI_Init_thread(int armci_requested);
int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int PARMCI_Init_mpi_comm(MPI_Comm comm);
int PARMCI_Initialized(void);
int PARMCI_Finalize(void);
int PARMCI_Malloc(void **base_ptrs, armci_size_t size);
int PARMCI_Free(void *ptr);
void *PARMCI_Malloc_local(armci_size_t size);
int PARMCI_Free_local(void *ptr);
void PARMCI_Barrier(void);
void PARMCI_Fence(int proc);
void PARMCI_AllFence(void);
void PARMCI_Access_begin(void *ptr);
void PARMCI_Access_end(void *ptr);
int PARMCI_Get(void *src, void *dst, int size, int target);
int PARMCI_Put(void *src, void *dst, int size, int target);
int PARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes,
               int proc);
int PARMCI_PutS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                int dst_stride_ar[], int count[], int stride_levels, int proc);
int PARMCI_GetS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                int dst_stride_ar[], int count[], int stride_levels, int proc);
int PARMCI_AccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                void *dst_ptr, int dst_stride_ar[], int count[],
                int stride_levels, int proc);
int PARMCI_Put_flag(void *src, void *dst, int size, int *flag, int value,
                    int proc);
int PARMCI_PutS_flag(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                     int dst_stride_ar[], int count[], int stride_levels,
                     int *flag, int value, int proc);
int PARMCI_PutV(armci_giov_t *iov, int iov_len, int proc);
int PARMCI_GetV(armci_giov_t *iov, int iov_len, int proc);
int PARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int iov_len,
                int proc);
int PARMCI_Wait(armci_hdl_t *hdl);
int PARMCI_Test(armci_hdl_t *hdl);
int PARMCI_WaitProc(int proc);
int PARMCI_WaitAll(void);
int PARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int PARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes,
                 int proc, armci_hdl_t *hdl);
int PARMCI_NbPutS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                  int dst_stride_ar[], int count[], int stride_levels, int proc,
                  armci_hdl_t *hdl);
int PARMCI_NbGetS(void *src_ptr, int src_stride_ar[], void *dst_ptr,
                  int dst_stride_ar[], int count[], int stride_levels, int proc,
                  armci_hdl_t *hdl);
int PARMCI_NbAccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                  void *dst_ptr, int dst_stride_ar[], int count[],
                  int stride_levels, int proc, armci_hdl_t *hdl);
int PARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc,
                  armci_hdl_t *handle);
int PARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc,
                  armci_hdl_t *handle);
int PARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int iov_len,
                  int proc, armci_hdl_t *handle);
int PARMCI_PutValueInt(int src, void *dst, int proc);
int PARMCI_PutValueLong(long src, void *dst, int proc);
int PARMCI_PutValueFloat(float src, void *dst, int proc);
int PARMCI_PutValueDouble(double src, void *dst, int proc);
int PARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int PARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int PARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *hdl);
int PARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *hdl);
int PARMCI_GetValueInt(void *src, int proc);
long PARMCI_GetValueLong(void *src, int proc);
float PARMCI_GetValueFloat(void *src, int proc);
double PARMCI_GetValueDouble(void *src, int proc);
int PARMCI_Create_mutexes(int count);
int PARMCI_Destroy_mutexes(void);
void PARMCI_Lock(int mutex, int proc);
void PARMCI_Unlock(int mutex, int proc);
int PARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);
int PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes,
                         const char *device);
int PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes,
                               ARMCI_Group *group, const char *device);
int PARMCI_Free_memdev(void *ptr);

void parmci_msg_barrier(void);
void parmci_msg_group_barrier(ARMCI_Group *group);

#ifdef __cplusplus
}
#endif

#endif
