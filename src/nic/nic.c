/*
 * The process's software NIC: its life cycle (opened and closed by the
 * runtime, runtime/xg_runtime.h, for Portals and for the NIC route of
 * gas), configuration, transport endpoint and counters, and PtlAbort.
 * Progress -- the receive dispatch and the progress thread -- is in
 * progress.c, sending in tx.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_tx_int.h"
#include "nic/xg_nic_wire_int.h"

/* ------------------------------------------------------------------------
 * PtlAbort (Portals 4.3); how the waiters meet it is blocking.c
 * --------------------------------------------------------------------- */

void xg_nic_abort(void)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    xg_wait_t wait;

    if (nic == NULL) {
        return;
    }
    atomic_store_explicit(&nic->aborted, 1, memory_order_seq_cst);
    xg_wait_init(&wait);
    while (atomic_load_explicit(&nic->waiters, memory_order_seq_cst) != 0) {
        if (xg_nic_engine_thread()) {
            break; /* called from engine code: nobody waits on us */
        }
        xg_wait_backoff(&wait);
    }
}

/* ------------------------------------------------------------------------
 * Life cycle
 * --------------------------------------------------------------------- */

/* XGAS_NIC_RNDV, in the order of its row's words */
enum {
    NIC_RNDV_SETTING_GET,
    NIC_RNDV_SETTING_TRIGGERED
};

/* The settings, once the transport has said how large a packet is: the
 * bytes a rendezvous header carries must fit in one packet, which only the
 * transport knows (the configuration table cannot check it). */
static xg_status_t nic_configure(xg_nic_t *nic)
{
    nic->eager_limit    = xg_config.nic_eager_limit;
    nic->rndv_eager     = xg_config.nic_rndv_eager;
    nic->rndv_triggered = (xg_config.nic_rndv == NIC_RNDV_SETTING_TRIGGERED);
    nic->hashing        = xg_config.nic_hash;
    nic->held_size      = xg_config.nic_unexpected_size;
    nic->spin_ns        = (xg_config.nic_spin_us > 0)
                              ? (uint64_t)xg_config.nic_spin_us * 1000u
                              : 0;
    if (nic->rndv_eager > nic->max_payload) {
        xg_error("nic",
                 "XGAS_NIC_RNDV_EAGER=%zu is more than one packet "
                 "carries (%zu bytes with XGAS_NIC_SLOT_SIZE=%zu): set it "
                 "to at most %zu, or raise XGAS_NIC_SLOT_SIZE",
                 (size_t)nic->rndv_eager, nic->max_payload,
                 (size_t)xg_config.nic_slot_size, nic->max_payload);
        return XG_ERR_INVALID_PARAM;
    }
    return XG_OK;
}

/* Stops receiving for good (close, or exit): the packets already in the
 * inbound queue are handled -- requests to closed NIs are refused,
 * so their initiators hear PTL_NI_UNDELIVERABLE -- and every later sender
 * is refused by the transport at once.  Then what is queued for peers
 * (those refusals included) gets a bounded last chance to leave. */
static void nic_close_endpoint(xg_nic_t *nic)
{
    int i;

    xg_nic_progress_close(nic);
    for (i = 0; (i < 1000) && (atomic_load_explicit(&nic->backlog,
                                                    memory_order_relaxed) != 0);
         i++) {
        xg_nic_progress_once(nic);
        usleep(100);
    }
}

void xg_nic_exit(void)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);

    if (nic != NULL) {
        xg_nic_hooks_shutdown(); /* while progress still runs */
        xg_nic_stop_progress(nic);
        nic_close_endpoint(nic);
    }
}

xg_status_t xg_nic_open(void)
{
    pthread_mutexattr_t attr;
    xg_boot_identity_t job;
    xg_nic_t *nic;
    xg_status_t status;
    int i;

    nic = calloc(1, sizeof(*nic));
    if (nic == NULL) {
        return XG_ERR_NO_MEMORY;
    }
    status = xg_pkt_open(&nic->xport);
    if (status != XG_OK) {
        free(nic);
        return status;
    }
    nic->mtu         = nic->xport.ops.mtu(nic->xport.ep);
    nic->max_payload = nic->mtu - sizeof(xg_nic_wire_t);
    status           = nic_configure(nic);
    if (status != XG_OK) {
        free(nic);
        return status;
    }
    /* receiving again after an earlier close stopped it */
    nic->xport.ops.rx_open(nic->xport.ep);
    nic->rank = nic->xport.rank;
    nic->npes = nic->xport.npes;
    nic->uid  = (ptl_uid_t)getuid();
    /* the job as boot names it: the same in every PE */
    xg_boot_identity(&job);
    nic->jid       = (ptl_jid_t)job.job_id;
    nic->networked = (job.nnodes > 1);
    nic->peers     = calloc((size_t)nic->npes, sizeof(*nic->peers));
    nic->busy      = calloc(2 * (size_t)nic->npes, sizeof(*nic->busy));
    if ((nic->peers == NULL) || (nic->busy == NULL)) {
        free(nic->peers);
        free(nic->busy);
        free(nic);
        return XG_ERR_NO_MEMORY;
    }
    for (i = 0; i < nic->npes; i++) {
        xg_spinlock_init(&nic->peers[i].lock);
    }
    xg_spinlock_init(&nic->busy_lock);
    xg_spinlock_init(&nic->poll_lock);
    /* adaptive: the poller holds an NI lock for a batch of packets; an
     * application thread that wants it meanwhile spins briefly instead of
     * going to sleep in the kernel (and costing the poller a wake-up) */
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        pthread_mutex_init(&nic->ni[i].lock, &attr);
        nic->ni[i].index = (unsigned)i;
        nic->ni[i].nic   = nic;
    }
    pthread_mutexattr_destroy(&attr);
    atomic_store_explicit(&xg_nic_global, nic, memory_order_release);
    return XG_OK;
}

static void nic_print_stats(const xg_nic_t *nic)
{
    uint64_t bad = 0;
    int i;

    for (i = 0; i < XG_WIRE_ERR_LAST; i++) {
        bad += atomic_load_explicit(&nic->malformed[i], memory_order_relaxed);
    }
    fprintf(stderr,
            "xgas[pe %d] nic: %llu packets received, %llu "
            "malformed, %llu unusable\n",
            nic->rank,
            (unsigned long long)atomic_load_explicit(&nic->rx_packets,
                                                     memory_order_relaxed),
            (unsigned long long)bad,
            (unsigned long long)atomic_load_explicit(&nic->rx_dropped,
                                                     memory_order_relaxed));
}

void xg_nic_close(void)
{
    xg_nic_t *nic = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    xg_nic_txq_t *q;
    int i;

    /* hook providers leave the NIC alone from here on; progress still
     * runs for what they finish meanwhile */
    xg_nic_hooks_shutdown();
    xg_nic_stop_progress(nic);
    /* what is still queued for peers gets a bounded last chance to leave
     * before the memory it points into goes away */
    for (i = 0; (i < 1000) && (atomic_load_explicit(&nic->backlog,
                                                    memory_order_relaxed) != 0);
         i++) {
        xg_nic_progress_once(nic);
        usleep(100);
    }
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        if (xg_nic_ni_is_open(&nic->ni[i])) {
            xg_nic_ni_teardown(&nic->ni[i]);
        }
    }
    nic_close_endpoint(nic);
    if (xg_config.stats) {
        nic_print_stats(nic);
    }
    atomic_store_explicit(&xg_nic_global, NULL, memory_order_release);
    for (i = 0; i < XG_NIC_NUM_NI; i++) {
        xg_pool_fini(&nic->ni[i].eq_pool);
        xg_pool_fini(&nic->ni[i].ct_pool);
        xg_pool_fini(&nic->ni[i].md_pool);
        xg_pool_fini(&nic->ni[i].me_pool);
        xg_pool_fini(&nic->ni[i].tgt_pool);
        xg_pool_fini(&nic->ni[i].uh_pool);
        xg_pool_fini(&nic->ni[i].trig_pool);
        pthread_mutex_destroy(&nic->ni[i].lock);
    }
    for (i = 0; i < nic->npes; i++) {
        while ((q = nic->peers[i].head) != NULL) {
            nic->peers[i].head = q->next;
            free(q->owned);
            free(q);
        }
    }
    while ((q = nic->txq_free) != NULL) {
        nic->txq_free = q->next;
        free(q);
    }
    free(nic->peers);
    free(nic->busy);
    free(nic);
}
