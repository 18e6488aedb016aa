/*
 * The start-up sequence of xg_runtime.h: components counted, layers brought
 * up in order and taken down in reverse.
 */
#include "runtime/xg_runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "gas/coll/xg_internal_area.h"
#include "gas/coll/xg_team.h"
#include "gas/xg_gas.h"
#include "gas/xg_gas_nic.h"
#include "mem/xg_mem.h"
#include "nic/xg_nic.h"
#include "xport/xg_xport.h"

/* Everything below is guarded by runtime_lock; the states are also read
 * without it. */
static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static int runtime_refs[XG_RUNTIME_COMPONENTS];
static _Atomic xg_runtime_state_t runtime_states[XG_RUNTIME_COMPONENTS];
static int runtime_nic_up;   /* the NIC is open */
static int runtime_pgas_nic; /* the running gas routes through it */
static int runtime_exit_set; /* runtime_at_exit is registered */

xg_runtime_state_t xg_runtime_state(xg_runtime_component_t component)
{
    return atomic_load_explicit(&runtime_states[component],
                                memory_order_acquire);
}

void xg_runtime_heap_from_node(void)
{
    pthread_mutex_lock(&runtime_lock);
    xg_mem_size_from_node(1);
    pthread_mutex_unlock(&runtime_lock);
}

static void runtime_set_state(xg_runtime_component_t component,
                              xg_runtime_state_t state)
{
    atomic_store_explicit(&runtime_states[component], state,
                          memory_order_release);
}

static void runtime_print_stats(void)
{
    uint64_t hits, misses;

    xg_gas_nlb_stats(&hits, &misses);
    fprintf(stderr,
            "xgas[pe %d] stats: nlb hits %llu misses %llu "
            "(hit rate %.2f%%), symmetric heap peak %llu of %llu bytes\n",
            xg_gas.me, (unsigned long long)hits, (unsigned long long)misses,
            (hits + misses) ? 100.0 * (double)hits / (double)(hits + misses)
                            : 100.0,
            (unsigned long long)xg_mem.heap.peak,
            (unsigned long long)xg_mem.heap_size);
    xg_gas_region_print_stats();
}

/* The NIC is needed while Portals has a user or gas routes through it. */
static void runtime_nic_release(void)
{
    if (runtime_nic_up && (runtime_refs[XG_RUNTIME_NIC] == 0) &&
        !runtime_pgas_nic) {
        xg_nic_close();
        runtime_nic_up = 0;
    }
}

/* Leaves the job: completes communication, waits for every PE, reports,
 * then takes the layers down in reverse order. */
static void runtime_pgas_stop(int at_exit)
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
    runtime_pgas_nic = 0;
    runtime_nic_release();
    xg_mem_fini();
    xg_boot_set_state(XG_PE_FINALIZED);
    runtime_set_state(XG_RUNTIME_PGAS, XG_RUNTIME_FINALIZED);
}

/* exit() while a component is up: see xg_runtime.h.  Nothing here may
 * wait for the thread that calls exit: on the NIC's engine (the progress
 * thread, a poller -- maybe a signal handler interrupted it) the PE cannot
 * finalize, since finalizing needs that thread's progress, nor stop the
 * NIC; inside a network provider (a fault there whose handler calls exit)
 * it holds the provider's locks, which the NIC's close needs; and if
 * runtime_lock is held (exit from a signal handler that interrupted
 * shmem_init or shmem_finalize, or from a thread while another is in
 * one) the PE leaves without taking anything down.  The launcher then
 * reports the exit as it is (a PE that exits 0 without shmem_finalize
 * fails the job). */
static void runtime_at_exit(int exit_status, void *arg)
{
    (void)arg;
    if (pthread_mutex_trylock(&runtime_lock) != 0) {
        return;
    }
    if (xg_nic_engine_thread() || xg_xport_in_provider()) {
        pthread_mutex_unlock(&runtime_lock);
        return;
    }
    if ((runtime_refs[XG_RUNTIME_PGAS] > 0) && (exit_status == 0)) {
        runtime_refs[XG_RUNTIME_PGAS] = 0;
        runtime_pgas_stop(1);
    }
    if (runtime_nic_up) {
        xg_nic_exit();
    }
    pthread_mutex_unlock(&runtime_lock);
}

/* boot and xport: joined and opened once, for the life of the process. */
static xg_status_t runtime_base_start(void)
{
    xg_status_t status = xg_boot_init();

    if (status == XG_OK) {
        status = xg_xport_open();
    }
    if ((status == XG_OK) && !runtime_exit_set) {
        runtime_exit_set = (on_exit(runtime_at_exit, NULL) == 0);
    }
    return status;
}

static xg_status_t runtime_nic_start(void)
{
    xg_status_t status = XG_OK;

    if (!runtime_nic_up) {
        status         = xg_nic_open();
        runtime_nic_up = (status == XG_OK);
    }
    return status;
}

static xg_status_t runtime_pgas_start(void)
{
    xg_status_t status;
    int route_nic;

    status = runtime_base_start();
    if (status != XG_OK) {
        return status;
    }
    route_nic = xg_gas_nic_wanted();
    status =
        xg_mem_init(xg_gas_internal_size(xg_boot.npes, xg_config.teams_max));
    if (status != XG_OK) {
        return status;
    }
    if (route_nic) {
        status = runtime_nic_start();
        if ((status != XG_OK) && (xg_boot.nnodes > 1)) {
            xg_error("runtime",
                     "the software NIC, through which this PE "
                     "reaches the PEs of the other %d nodes, did not start "
                     "(%s); fix what the message above names",
                     xg_boot.nnodes - 1, xg_status_str(status));
            return status;
        }
        if (status != XG_OK) {
            xg_error("runtime",
                     "XGAS_ROUTE=nic: the software NIC did not "
                     "start (%s); fix what the message above names, or "
                     "unset XGAS_ROUTE to use the direct route",
                     xg_status_str(status));
            return status;
        }
        runtime_pgas_nic = 1;
    }
    status = xg_gas_init();
    if (status != XG_OK) {
        runtime_pgas_nic = 0;
        runtime_nic_release();
        return status;
    }
    xg_team_init();
    xg_boot_set_state(XG_PE_INITIALIZED);
    xg_gas_barrier();
    return XG_OK;
}

static xg_status_t runtime_start(xg_runtime_component_t component)
{
    xg_status_t status;

    if (component == XG_RUNTIME_PGAS) {
        return runtime_pgas_start();
    }
    status = runtime_base_start();
    return (status == XG_OK) ? runtime_nic_start() : status;
}

xg_status_t xg_runtime_init(xg_runtime_component_t component)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&runtime_lock);
    if (runtime_refs[component] == 0) {
        status = runtime_start(component);
        if (status == XG_OK) {
            runtime_set_state(component, XG_RUNTIME_ACTIVE);
        }
    }
    if (status == XG_OK) {
        runtime_refs[component]++;
    }
    pthread_mutex_unlock(&runtime_lock);
    return status;
}

xg_status_t xg_runtime_fini(xg_runtime_component_t component)
{
    xg_status_t status = XG_OK;

    pthread_mutex_lock(&runtime_lock);
    if (runtime_refs[component] == 0) {
        status = XG_ERR_NOT_INITIALIZED;
    } else if (--runtime_refs[component] == 0) {
        if (component == XG_RUNTIME_PGAS) {
            runtime_pgas_stop(0);
        } else {
            /* first: Portals calls from here on return PTL_NO_INIT */
            runtime_set_state(component, XG_RUNTIME_FINALIZED);
            runtime_nic_release();
        }
    }
    pthread_mutex_unlock(&runtime_lock);
    return status;
}
