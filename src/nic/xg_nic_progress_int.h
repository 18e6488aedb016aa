/*
 * Progress (progress.c): the receive dispatch, the poller role and the
 * progress thread.
 */
#ifndef XG_NIC_PROGRESS_INT_H
#define XG_NIC_PROGRESS_INT_H

#include <stdatomic.h>
#include <stddef.h>

#include "base/xg_wait.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_wire_int.h"
#include "xgas_status.h"

/* (xg_nic_engine_thread, in xg_nic.h, tells a thread that runs the
 * engine's code as the NIC: it must not wait for the NIC's progress.) */
/* Starts the progress thread if it is not running (first NI). */
xg_status_t xg_nic_start_progress(xg_nic_t *nic);
/* Stops it (PtlFini; tests and the fuzzer then drive progress by hand
 * with xg_nic_progress_once, and a later PtlNIInit does not restart it
 * while the NIC lives on). */
void xg_nic_stop_progress(xg_nic_t *nic);
/* Receives one packet (progress thread, or a test driving it); takes and
 * keeps NI locks in nic->rx_locked until xg_nic_rx_release(). */
void xg_nic_rx_packet(xg_nic_t *nic, const void *buf, size_t len);
void xg_nic_rx_release(xg_nic_t *nic);
/* Runs one progress iteration if no other thread is polling: returns the
 * work done, 0 if another thread holds the poller role.  Wait loops call
 * it, so a waiting thread serves the NIC itself instead of waiting for
 * the progress thread to wake up. */
unsigned xg_nic_progress_once(xg_nic_t *nic);
void xg_nic_count_malformed(xg_nic_t *nic, xg_nic_wire_err_t why);
/* A wait or poll routine starts (PTL_OK) -- or, after PtlAbort, must not
 * (PTL_ABORTED, nothing to undo).  Every PTL_OK is paired with
 * xg_nic_wait_leave(). */
int xg_nic_wait_enter(xg_nic_t *nic);
void xg_nic_wait_leave(xg_nic_t *nic);
/* hooks.c: runs the handler calls queued on @ni, without its lock during
 * the calls (the poller, holding @ni as nic->rx_locked). */
void xg_nic_hooks_drain(xg_nic_t *nic, xg_nic_ni_t *ni);
/* Calls the shutdown listeners (xg_nic_on_shutdown): first thing of a
 * close or of the exit handler, no NIC lock held. */
void xg_nic_hooks_shutdown(void);
/* Frees @ni's handler queue (teardown, NI lock held). */
void xg_nic_hooks_fini(xg_nic_ni_t *ni);
/* Stops receiving for good: handles what the inbound queue holds and
 * closes it (see nic_close_endpoint). */
void xg_nic_progress_close(xg_nic_t *nic);
static inline int xg_nic_aborted(xg_nic_t *nic)
{
    return atomic_load_explicit(&nic->aborted, memory_order_acquire) != 0;
}

#endif
