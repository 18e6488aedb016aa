/*
 * OpenSHMEM distributed locks: shmem_set_lock, shmem_test_lock,
 * shmem_clear_lock.  The lock is gas's MCS queue lock (gas/lock.c) in the
 * program's own lock object, a symmetric long that starts at 0 on every
 * PE; this file turns its statuses into messages.
 */
#include "api/shmem/shmem_int.h"

/* Ends the job for a translation @status of @lock, which gas reaches on
 * this PE and on PE 0: names the PE whose copy failed. */
XG_NORETURN XG_NOINLINE static void lock_fail(const char *routine,
                                              xg_status_t status, long *lock)
{
    int pe = xg_gas.me;

    if ((status != XG_ERR_MISALIGNED) &&
        (xg_gas_diagnose(lock, sizeof(*lock), pe) == XG_OK)) {
        pe = 0;
    }
    xg_shmem_status_fail(routine, status, lock, sizeof(*lock), pe);
}

XG_SHMEM_API void shmem_set_lock(long *lock)
{
    xg_status_t status = xg_gas_lock_set(__func__, lock);

    if (status == XG_GAS_LOCK_REENTERED) {
        xg_shmem_fail(__func__,
                      "this PE already holds the lock at %p: "
                      "OpenSHMEM locks are not reentrant; call "
                      "shmem_clear_lock first",
                      (void *)lock);
    }
    if (status != XG_OK) {
        lock_fail(__func__, status, lock);
    }
}
XG_PSHMEM(shmem_set_lock)

XG_SHMEM_API int shmem_test_lock(long *lock)
{
    int taken;
    xg_status_t status = xg_gas_lock_test(lock, &taken);

    if (status == XG_GAS_LOCK_REENTERED) {
        /* undefined by the specification; the lock is set, so "already
         * set" is the true answer, and the queue stays intact */
        xg_warn("shmem",
                "shmem_test_lock: this PE (PE %d) already holds "
                "(or waits for) the lock at %p: OpenSHMEM locks are not "
                "reentrant; returning 1 (already set) and leaving the "
                "lock as it was",
                xg_gas.me, (void *)lock);
        return 1;
    }
    if (status != XG_OK) {
        lock_fail(__func__, status, lock);
    }
    return !taken;
}
XG_PSHMEM(shmem_test_lock)

XG_SHMEM_API void shmem_clear_lock(long *lock)
{
    /* the specification: clearing a lock completes puts */
    xg_status_t status = xg_gas_lock_clear(XG_SHMEM_GAS_DEFAULT, lock);

    if (status == XG_GAS_LOCK_FREE) {
        xg_shmem_fail(__func__,
                      "the lock at %p is not held by any PE: "
                      "call shmem_clear_lock only after shmem_set_lock or "
                      "a successful shmem_test_lock",
                      (void *)lock);
    }
    if (status == XG_GAS_LOCK_NOT_MINE) {
        xg_shmem_fail(__func__,
                      "this PE (PE %d) does not hold the lock at "
                      "%p (another PE does, or this PE is still waiting "
                      "for it): only the PE that acquired a lock with "
                      "shmem_set_lock or shmem_test_lock may clear it",
                      xg_gas.me, (void *)lock);
    }
    if (status != XG_OK) {
        lock_fail(__func__, status, lock);
    }
}
XG_PSHMEM(shmem_clear_lock)
