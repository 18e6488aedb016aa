/*
 * ARMCI read-modify-write and mutexes.
 *
 * ARMCI_Rmw is gas's region read-modify-write: a CPU atomic on the same
 * node, an active message through the NIC (served by the target's
 * progress thread, or by its application thread with XGAS_AM_THREAD=0).
 *
 * Mutexes are gas's MCS queue locks (fair: waiters get a mutex in the
 * order they asked) with their queue's tail on the hosting process: a
 * batch of `count` mutexes per process of a group is one region holding
 * an 8-byte lock object for every (hosting process, mutex), in which each
 * member keeps its own queue node.
 */
#include <stdlib.h>
#include <string.h>

#include "api/armci/armci_int.h"

struct armcix_mutex_hdl_s {
    ARMCI_Group group; /* a copy: the members and their comm */
    xg_gas_region_t *region;
    int max_count;
    int *counts;             /* mutexes each member hosts */
    armcix_mutex_hdl_t next; /* every live batch, for finalize */
};

static armcix_mutex_hdl_t mutex_batches;
static xg_gas_ctx_t mutex_ctx = XG_GAS_CTX_INIT_SHARED;

/* ---- read-modify-write ---------------------------------------------------------- */

XG_ARMCI_API int PARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc)
{
    int pe = xg_armci_check_proc("ARMCI_Rmw", proc);
    xg_gas_amo_result_t r;
    size_t size;
    uint64_t operand;

    if (ploc == NULL) {
        xg_armci_fail("ARMCI_Rmw", "ploc is NULL: pass where the old value "
                                   "goes");
    }
    switch (op) {
    case ARMCI_FETCH_AND_ADD:
        size    = sizeof(int);
        operand = (uint32_t)value;
        break;
    case ARMCI_FETCH_AND_ADD_LONG:
        size    = sizeof(long);
        operand = (uint64_t)(long)value;
        break;
    case ARMCI_SWAP:
        size    = sizeof(int);
        operand = (uint32_t) * (int *)ploc;
        break;
    case ARMCI_SWAP_LONG:
        size    = sizeof(long);
        operand = (uint64_t) * (long *)ploc;
        break;
    default:
        xg_armci_fail("ARMCI_Rmw",
                      "op %d is not ARMCI_FETCH_AND_ADD, "
                      "ARMCI_FETCH_AND_ADD_LONG, ARMCI_SWAP or "
                      "ARMCI_SWAP_LONG",
                      op);
    }
    xg_gas_am_serve();
    r = xg_gas_region_rmw(((op == ARMCI_SWAP) || (op == ARMCI_SWAP_LONG))
                              ? XG_GAS_AMO_SWAP
                              : XG_GAS_AMO_ADD,
                          prem, size, operand, pe);
    if (r.status != XG_OK) {
        xg_armci_xfer_fail("ARMCI_Rmw", r.status, prem, size, proc);
    }
    if (size == sizeof(int)) {
        *(int *)ploc = (int)(uint32_t)r.old;
    } else {
        *(long *)ploc = (long)r.old;
    }
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Rmw);

/* ---- mutex batches -------------------------------------------------------------- */

static armcix_mutex_hdl_t mutexes_create(const char *routine, int count,
                                         ARMCI_Group *group)
{
    xg_armci_agree_t agree;
    armcix_mutex_hdl_t hdl;
    xg_status_t status;
    int r;

    xg_armci_check_group(routine, group);
    if (count < 0) {
        xg_armci_fail(routine, "count %d is negative", count);
    }
    hdl = calloc(1, sizeof(*hdl));
    if (hdl != NULL) {
        hdl->counts    = malloc((size_t)group->size * sizeof(int));
        hdl->group.abs = malloc((size_t)group->size * sizeof(int));
    }
    if ((hdl == NULL) || (hdl->counts == NULL) || (hdl->group.abs == NULL)) {
        xg_armci_fail(routine, "no memory for the mutexes of %d processes",
                      group->size);
    }
    MPI_Comm_dup(group->comm, &hdl->group.comm); /* outlives the group */
    hdl->group.rank = group->rank;
    hdl->group.size = group->size;
    memcpy(hdl->group.abs, group->abs, (size_t)group->size * sizeof(int));
    MPI_Allgather(&count, 1, MPI_INT, hdl->counts, 1, MPI_INT, group->comm);
    for (r = 0; r < group->size; r++) {
        if (hdl->counts[r] > hdl->max_count) {
            hdl->max_count = hdl->counts[r];
        }
    }
    agree.comm = group->comm;
    status = xg_gas_region_alloc((size_t)hdl->max_count * (size_t)group->size *
                                     sizeof(uint64_t),
                                 xg_armci_agree_max, &agree, &hdl->region);
    if (status == XG_ERR_NO_MEMORY) {
        xg_armci_no_room(routine, (uint64_t)hdl->max_count *
                                      (uint64_t)group->size * sizeof(uint64_t));
    }
    if (status != XG_OK) {
        xg_armci_fail(routine,
                      "cannot allocate %d mutexes per process "
                      "(%s)",
                      hdl->max_count, xg_status_str(status));
    }
    if (hdl->region != NULL) {
        /* lock objects start free on every member before any is used */
        memset(xg_gas_region_base(hdl->region), 0,
               xg_gas_region_size(hdl->region));
    }
    xg_armci_barrier(routine, group);
    hdl->next     = mutex_batches;
    mutex_batches = hdl;
    return hdl;
}

/* @sync: wait for the members first (finalize has, with everyone). */
static void mutexes_destroy(const char *routine, armcix_mutex_hdl_t hdl,
                            int sync)
{
    armcix_mutex_hdl_t *link = &mutex_batches;

    while ((*link != NULL) && (*link != hdl)) {
        link = &(*link)->next;
    }
    if (*link == NULL) {
        xg_armci_fail(routine,
                      "the handle %p is not a live batch of "
                      "mutexes",
                      (void *)hdl);
    }
    *link = hdl->next;
    /* nobody holds or waits for one any more */
    if (sync) {
        xg_armci_barrier(routine, &hdl->group);
    }
    if (hdl->region != NULL) {
        xg_gas_region_free(hdl->region);
    }
    MPI_Comm_free(&hdl->group.comm);
    free(hdl->counts);
    free(hdl->group.abs);
    free(hdl);
}

/* The lock object of (@mutex, group rank @proc) and its home PE. */
static void *mutex_object(const char *routine, armcix_mutex_hdl_t hdl,
                          int mutex, int proc, int *home_p)
{
    xg_armci_check_running(routine);
    if (hdl == NULL) {
        xg_armci_fail(routine, "no mutexes: call ARMCI_Create_mutexes (or "
                               "ARMCIX_Create_mutexes_hdl) first");
    }
    if ((proc < 0) || (proc >= hdl->group.size)) {
        xg_armci_fail(routine,
                      "process %d is out of range: the mutexes' "
                      "group has %d processes",
                      proc, hdl->group.size);
    }
    if ((mutex < 0) || (mutex >= hdl->counts[proc])) {
        xg_armci_fail(routine,
                      "mutex %d does not exist on process %d, "
                      "which hosts %d (0..%d)",
                      mutex, proc, hdl->counts[proc], hdl->counts[proc] - 1);
    }
    *home_p = xg_armci_pe(hdl->group.abs[proc]);
    return (uint64_t *)xg_gas_region_base(hdl->region) +
           (size_t)proc * (size_t)hdl->max_count + (size_t)mutex;
}

static void mutex_lock(const char *routine, armcix_mutex_hdl_t hdl, int mutex,
                       int proc)
{
    int home;
    void *obj = mutex_object(routine, hdl, mutex, proc, &home);
    xg_status_t status;

    xg_gas_am_serve();
    status = xg_gas_lock_set_at(routine, obj, home);
    if (status == XG_GAS_LOCK_REENTERED) {
        xg_armci_fail(routine,
                      "mutex %d of process %d is already held (or "
                      "awaited) by this process: unlock it first",
                      mutex, proc);
    } else if (status != XG_OK) {
        xg_armci_fail(routine, "locking mutex %d of process %d failed (%s)",
                      mutex, proc, xg_status_str(status));
    }
}

static void mutex_unlock(const char *routine, armcix_mutex_hdl_t hdl, int mutex,
                         int proc)
{
    int home;
    void *obj = mutex_object(routine, hdl, mutex, proc, &home);
    xg_status_t status;

    /* what this process wrote in the critical section lands first */
    xg_armci_all_fence(routine);
    status = xg_gas_lock_clear_at(&mutex_ctx, obj, home);
    if (status == XG_GAS_LOCK_FREE) {
        xg_armci_fail(routine, "mutex %d of process %d is not locked", mutex,
                      proc);
    } else if (status == XG_GAS_LOCK_NOT_MINE) {
        xg_armci_fail(routine,
                      "mutex %d of process %d is held by another "
                      "process, not this one",
                      mutex, proc);
    } else if (status != XG_OK) {
        xg_armci_fail(routine,
                      "unlocking mutex %d of process %d failed "
                      "(%s)",
                      mutex, proc, xg_status_str(status));
    }
}

XG_ARMCI_API int PARMCI_Create_mutexes(int count)
{
    xg_armci_check_running("ARMCI_Create_mutexes");
    if (xg_armci.mutexes != NULL) {
        xg_armci_fail("ARMCI_Create_mutexes",
                      "mutexes exist already: call "
                      "ARMCI_Destroy_mutexes before creating others (or "
                      "use ARMCIX_Create_mutexes_hdl for several batches)");
    }
    xg_armci.mutexes =
        mutexes_create("ARMCI_Create_mutexes", count, &xg_armci.world);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Create_mutexes);

XG_ARMCI_API int PARMCI_Destroy_mutexes(void)
{
    xg_armci_check_running("ARMCI_Destroy_mutexes");
    if (xg_armci.mutexes == NULL) {
        xg_armci_fail("ARMCI_Destroy_mutexes",
                      "there are no mutexes: "
                      "ARMCI_Create_mutexes was not called");
    }
    mutexes_destroy("ARMCI_Destroy_mutexes", xg_armci.mutexes, 1);
    xg_armci.mutexes = NULL;
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Destroy_mutexes);

XG_ARMCI_API void PARMCI_Lock(int mutex, int proc)
{
    mutex_lock("ARMCI_Lock", xg_armci.mutexes, mutex, proc);
}
XG_ARMCI_WEAK(ARMCI_Lock);

XG_ARMCI_API void PARMCI_Unlock(int mutex, int proc)
{
    mutex_unlock("ARMCI_Unlock", xg_armci.mutexes, mutex, proc);
}
XG_ARMCI_WEAK(ARMCI_Unlock);

XG_ARMCI_API armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count,
                                                          ARMCI_Group *pgroup)
{
    return mutexes_create(__func__, count, pgroup);
}

XG_ARMCI_API int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl)
{
    xg_armci_check_running(__func__);
    if (hdl == xg_armci.mutexes) {
        xg_armci.mutexes = NULL;
    }
    mutexes_destroy(__func__, hdl, 1);
    return 0;
}

XG_ARMCI_API void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    mutex_lock(__func__, hdl, mutex, proc);
}

XG_ARMCI_API int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    int home, taken = 0;
    void *obj          = mutex_object(__func__, hdl, mutex, proc, &home);
    xg_status_t status = xg_gas_lock_test_at(obj, home, &taken);

    if (status == XG_GAS_LOCK_REENTERED) {
        xg_armci_fail(__func__,
                      "mutex %d of process %d is already held "
                      "(or awaited) by this process: unlock it first",
                      mutex, proc);
    }
    if (status != XG_OK) {
        xg_armci_fail(__func__, "trying mutex %d of process %d failed (%s)",
                      mutex, proc, xg_status_str(status));
    }
    if (!taken) {
        xg_gas_am_serve(); /* a loop of tries serves what waits for us */
    }
    return !taken;
}

XG_ARMCI_API void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    mutex_unlock(__func__, hdl, mutex, proc);
}

void xg_armci_mutexes_fini(void)
{
    while (mutex_batches != NULL) {
        mutexes_destroy("ARMCI_Finalize", mutex_batches, 0);
    }
    xg_armci.mutexes = NULL;
}
