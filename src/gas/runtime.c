/*
 * Reference-counted start-up and shut-down of boot, mem and gas.
 */
#include "gas/xg_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_nic.h"
#include "gas/xg_team.h"
#include "mem/xg_mem.h"

static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static int runtime_refs;
static xg_runtime_state_t runtime_state = XG_RUNTIME_NEVER;

xg_runtime_state_t xg_runtime_state(void)
{
    return __atomic_load_n(&runtime_state, __ATOMIC_ACQUIRE);
}

static void runtime_print_stats(void)
{
    uint64_t hits, misses;

    xg_gas_nlb_stats(&hits, &misses);
    fprintf(stderr, "xgas[pe %d] stats: nlb hits %llu misses %llu "
            "(hit rate %.2f%%), symmetric heap peak %llu of %llu bytes\n",
            xg_gas.me, (unsigned long long)hits, (unsigned long long)misses,
            (hits + misses) ? 100.0 * (double)hits / (double)(hits + misses)
                            : 100.0,
            (unsigned long long)xg_mem.heap.peak,
            (unsigned long long)xg_mem.heap_size);
}

/* Leaves the job: completes communication, waits for every PE, reports. */
static void runtime_shutdown(int at_exit)
{
    xg_gas_quiet();
    /* before the PEs part: a PE stops serving the NIC route after it */
    xg_gas_nic_drain();
    /* not a barrier of the collective engine: a PE's finalize must never
     * complete another PE's shmem_barrier_all (see boot/watch.c) */
    xg_boot_finalize_sync(at_exit);
    if (xg_config.stats) {
        runtime_print_stats();
    }
    xg_team_fini();
    xg_gas_fini();
    xg_mem_fini();
    xg_boot_set_state(XG_PE_FINALIZED);
    __atomic_store_n(&runtime_state, XG_RUNTIME_FINALIZED, __ATOMIC_RELEASE);
}

/* exit() while initialized.  Status 0 (returning from main without
 * finalizing) finalizes collectively, as OpenSHMEM programs expect.  Any
 * other status is a failure: waiting in the finalize barrier would hang the
 * job, so the PE just leaves and xgasrun ends the others. */
static void runtime_at_exit(int exit_status, void *arg)
{
    (void)arg;
    pthread_mutex_lock(&runtime_lock);
    if ((runtime_refs > 0) && (exit_status == 0)) {
        runtime_refs = 0;
        runtime_shutdown(1);
    }
    pthread_mutex_unlock(&runtime_lock);
}

static xg_status_t runtime_startup(void)
{
    xg_status_t status;

    status = xg_boot_init();
    if (status != XG_OK) {
        return status;
    }
    status = xg_mem_init();
    if (status == XG_OK) {
        status = xg_gas_init();
    }
    if (status != XG_OK) {
        return status;
    }
    xg_boot_set_state(XG_PE_INITIALIZED);
    if (runtime_state == XG_RUNTIME_NEVER) {
        on_exit(runtime_at_exit, NULL);
    }
    xg_gas_barrier();
    return XG_OK;
}

xg_status_t xg_runtime_init(void)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&runtime_lock);
    if (runtime_refs == 0) {
        status = runtime_startup();
        if (status == XG_OK) {
            __atomic_store_n(&runtime_state, XG_RUNTIME_ACTIVE,
                             __ATOMIC_RELEASE);
        }
    }
    if (status == XG_OK) {
        runtime_refs++;
    }
    pthread_mutex_unlock(&runtime_lock);
    return status;
}

xg_status_t xg_runtime_fini(void)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&runtime_lock);
    if (runtime_refs == 0) {
        status = XG_ERR_NOT_INITIALIZED;
    } else if (--runtime_refs == 0) {
        runtime_shutdown(0);
    }
    pthread_mutex_unlock(&runtime_lock);
    return status;
}
