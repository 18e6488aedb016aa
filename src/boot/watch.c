/*
 * Never hang silently, PE side: publishes what this PE is blocked in (for
 * the launcher's hang reports, see xg_ctl.h) and ends the job when a wait
 * can never end because a PE it waits for has entered shmem_finalize.  It
 * also holds the finalize barrier, which is apart from every other barrier
 * so that one PE's finalize cannot complete another PE's collective.
 *
 * Everything here runs from the slow rounds of xg_wait_backoff (a wait that
 * already yields the CPU) or from finalize: never on the data path.
 *
 * The peer check is sound because every collective sends all the signals a
 * PE owes before the PE leaves the call, and a PE publishes FINALIZING
 * (release) only after its last collective.  A waiter that sees a member
 * FINALIZING (acquire) and then still finds its condition false on its
 * next poll waits for a signal that was never sent: the PEs called
 * different sequences of collectives.
 */
#include <stdio.h>
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"

enum {
    WATCH_PUBLISHED = 1, /* the description is out */
    WATCH_SCAN_MAX  = 16 /* members looked at per back-off round */
};

/* Writes the description of @what into this PE's slot.  If another thread
 * of the PE is writing its own, this one is left out (the slot shows one
 * wait of the PE). */
static void watch_publish(const xg_wait_what_t *what)
{
    xg_ctl_wait_t *slot = &xg_boot.ctl->pe[xg_boot.rank].wait;
    uint64_t gen = atomic_load_explicit(&slot->gen, memory_order_relaxed);
    char detail[XG_CTL_WAIT_DETAIL];

    detail[0] = '\0';
    if (what->describe != NULL) {
        what->describe(what, detail, sizeof(detail));
    }
    if ((gen & 1) || !atomic_compare_exchange_strong_explicit(
                         &slot->gen, &gen, gen + 1, memory_order_acquire,
                         memory_order_relaxed)) {
        return;
    }
    atomic_thread_fence(memory_order_release);
    xg_ctl_text_store(slot->routine,
                      (what->routine != NULL) ? what->routine : "",
                      sizeof(slot->routine));
    xg_ctl_text_store(slot->detail, detail, sizeof(slot->detail));
    atomic_store_explicit(&slot->object, what->object, memory_order_relaxed);
    atomic_store_explicit(&slot->peer, what->peer, memory_order_relaxed);
    atomic_store_explicit(&slot->gen, gen + 2, memory_order_release);
}

static XG_NORETURN void watch_peer_left(const xg_wait_what_t *what, int pe)
{
    char detail[XG_CTL_WAIT_DETAIL];
    const char *left =
        (atomic_load_explicit(&xg_boot.ctl->pe[pe].state,
                              memory_order_relaxed) == XG_PE_EXITING)
            ? "has called exit() (or returned from main), which finalizes,"
            : "has called shmem_finalize";

    detail[0] = '\0';
    if (what->describe != NULL) {
        what->describe(what, detail, sizeof(detail));
    }
    if (detail[0] != '\0') {
        strncat(detail, ")", sizeof(detail) - strlen(detail) - 1);
    }
    xg_log_emit(XG_LOG_ERROR, "shmem",
                "%s: PE %d %s while this PE (PE %d) still waits in a call "
                "PE %d takes part in%s%s: the PEs called different "
                "sequences of collective routines (PE %d called one fewer, "
                "or this PE one more: an extra barrier, a heap routine or a "
                "collective on one PE only); ending the job",
                what->routine, pe, left, xg_boot.rank, pe,
                (detail[0] != '\0') ? " (" : "", detail, pe);
    xg_boot_abort(1);
}

/*
 * Looks at up to WATCH_SCAN_MAX members of @what, from where the previous
 * round stopped; a member seen in finalize is remembered, and if it is
 * still remembered at the next round (the wait polled its condition in
 * between and found it false), the job ends.
 */
static void watch_members(xg_wait_t *wait)
{
    const xg_wait_what_t *what = wait->what;
    unsigned cursor            = wait->watched >> 16;
    uint32_t state;
    int i, r, pe;

    if ((wait->watched & 0xffffu) > WATCH_PUBLISHED) {
        watch_peer_left(what,
                        (int)(wait->watched & 0xffffu) - WATCH_PUBLISHED - 1);
    }
    for (i = 0; (i < WATCH_SCAN_MAX) && (i < what->member_count); i++) {
        r = (int)(cursor % (unsigned)what->member_count);
        cursor++;
        pe = what->member_start + r * what->member_stride;
        if ((pe < 0) || (pe >= xg_boot.npes) || (pe == xg_boot.rank)) {
            continue;
        }
        state = atomic_load_explicit(&xg_boot.ctl->pe[pe].state,
                                     memory_order_acquire);
        /* not FINALIZED: a PE gets there only once every PE entered
         * finalize, and a finalized PE may be about to initialize again
         * (its peers then wait for it in the start-up barrier) */
        if ((state == XG_PE_FINALIZING) || (state == XG_PE_EXITING)) {
            wait->watched = WATCH_PUBLISHED + 1 + (unsigned)pe;
            return;
        }
    }
    wait->watched = (cursor << 16) | WATCH_PUBLISHED;
}

static void watch_hook(xg_wait_t *wait)
{
    xg_ctl_wait_t *slot = &xg_boot.ctl->pe[xg_boot.rank].wait;

    if (wait->watched == 0) {
        watch_publish(wait->what);
        wait->watched = WATCH_PUBLISHED;
        return;
    }
    atomic_fetch_add_explicit(&slot->heartbeat, 1, memory_order_relaxed);
    if (wait->what->member_count > 0) {
        watch_members(wait);
    }
}

void xg_boot_watch_start(void)
{
    xg_wait_hook = watch_hook;
}

/* ---- finalize ----------------------------------------------------------- */

static void watch_describe_fini(const xg_wait_what_t *what, char *buf,
                                size_t len)
{
    const xg_ctl_t *ctl = what->arg;

    snprintf(buf, len,
             "finalize: waiting for the other PEs to call "
             "shmem_finalize (%u of %u have)",
             (unsigned)atomic_load_explicit(&ctl->fini_arrived,
                                            memory_order_relaxed),
             (unsigned)xg_boot.ctl_pes);
}

void xg_boot_finalize_sync(int at_exit)
{
    xg_ctl_t *ctl       = xg_boot.ctl;
    xg_wait_what_t what = {.routine  = "shmem_finalize",
                           .peer     = -1,
                           .describe = watch_describe_fini,
                           .arg      = ctl};
    uint32_t epoch;
    xg_wait_t wait;

    xg_boot_set_state(at_exit ? XG_PE_EXITING : XG_PE_FINALIZING);
    epoch = atomic_load_explicit(&ctl->fini_epoch, memory_order_acquire);
    if (atomic_fetch_add_explicit(&ctl->fini_arrived, 1,
                                  memory_order_acq_rel) ==
        (uint32_t)xg_boot.ctl_pes - 1) {
        atomic_store_explicit(&ctl->fini_arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&ctl->fini_epoch, epoch + 1,
                              memory_order_release);
    } else {
        xg_wait_init(&wait);
        xg_wait_watch(&wait, &what);
        while (atomic_load_explicit(&ctl->fini_epoch, memory_order_acquire) ==
               epoch) {
            xg_wait_backoff(&wait);
        }
    }
    /* the PEs of the other nodes (their own control areas) */
    (void)xg_boot_fence_nodes(1);
}
