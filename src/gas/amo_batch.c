/*
 * Batched atomics and small puts of the NIC route (xg_gas_nic.h,
 * "Batched atomics").
 *
 * A non-fetching add, and, or or xor to a PE of another node, or a put
 * of a word, costs a message of its own: on a network whose every message
 * is a system call and a wake-up of the target's poller (tcp), the rate
 * is a few hundred thousand per second, and GUPS-like programs spend
 * their time in per-message costs.  Nobody waits for such an operation
 * before the next quiet, so the route holds it back: up to XGAS_AMO_BATCH
 * of them for one PE travel as one put of records (xg_gas_amo_wire.h:
 * offset, operation, size, operand or bytes) to a portal index of their
 * own, whose payload handler applies them at the target in order --
 * atomics with CPU atomics, atomic against the NIC's own atomics and those
 * of same-node PEs, which are CPU atomics on the same words too
 * (nic/atomic.c).  The put is one operation of gas's NIC counter, so
 * quiet completes it like any other.
 *
 * The process keeps a few open batches (BATCH_SLOTS, one PE each, chosen
 * by PE number; another PE on a taken slot sends the old batch first),
 * each under a spinlock, whatever context and thread the atomics come
 * from: an atomic counts as a NIC operation of its context when it is
 * added (xg_gas_ctx_nic_op), and a quiet that read the count sends every
 * open batch before it waits (xg_gas_nic_complete does).  Batches are sent when full; by
 * every fence and quiet; before any other operation of this PE through
 * the NIC to that PE (route_nic.c: a set, a fetching atomic, a get or put
 * sees and follows the atomics before it, in issue order as without
 * batching); whenever a thread of this PE waits in the library
 * (xg_gas_poll_remote): a signal or flag set by an atomic is never held
 * back while its sender waits for the answer; and, for a sender that
 * does not call the library again (it computes, or spins on its own
 * memory), by the flusher thread once a batch has been open for
 * BATCH_HOLD_NS.  The flusher starts with the first batch and sleeps on
 * a futex while none is open: a program without batches has no thread,
 * and one whose batches fill up is woken only when one opens after none
 * was.
 *
 * A word put is different: alone, it is a write of the network's RMA,
 * which the target's provider applies as its waiting thread reads its
 * queues, while a batch's message takes the target's NIC and an
 * acknowledgement (8-byte put ping-pong across two virtual nodes: 4 us
 * as a write, 17 us batched).  So the first word put after a wait, quiet
 * or fence of this process goes as a write -- a ping-pong's answer, a
 * flag -- and the next ones, a stream, join the batch, as does any put to
 * a PE whose batch is open already.
 */
#include "gas/xg_gas_nic.h"

#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_spinlock.h"
#include "base/xg_time.h"
#include "gas/xg_gas_amo_wire.h"
#include "mem/xg_mem.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_hooks.h"

#define BATCH_FN "gas batched atomics"

/* Open batches (a power of two). */
#define BATCH_SLOTS 8

/* How long a batch waits for more records before the flusher sends it. */
#define BATCH_HOLD_NS 50000

typedef struct batch_slot {
    xg_spinlock_t lock;
    _Atomic int pe;          /* -1: no open batch */
    _Atomic uint64_t opened; /* xg_time_ns when it opened */
    uint32_t n;              /* records */
    uint64_t sent;           /* batch.sends when it last sent a batch */
    xg_gas_amo_rec_t rec[XG_GAS_AMO_REC_MAX];
} batch_slot_t;

static struct {
    int open;
    uint32_t records; /* per batch: XGAS_AMO_BATCH, capped */
    ptl_pt_index_t pt;
    ptl_handle_le_t le;
    xg_nic_hooks_t hooks;
    batch_slot_t *slot; /* BATCH_SLOTS of them, allocated at open */
    pthread_t flusher;
    _Atomic int flusher_state; /* 0 none, 1 starting or running, 2 stop */
    _Atomic int flusher_sleeps;
    _Atomic uint64_t sends;     /* batches sent so far */
    _Atomic uint64_t completed; /* the first this many are complete */
} batch = {.pt = PTL_PT_ANY, .le = PTL_INVALID_HANDLE}; /* closed */

/* Open batches: a wait sends them when not 0. */
_Atomic uint32_t xg_gas_amo_batched;

/* Word puts issued since this process last waited, quieted or fenced. */
static _Atomic uint32_t puts_since_wait;

static void batch_futex(_Atomic uint32_t *word, int op, uint32_t value,
                        const struct timespec *timeout)
{
    syscall(SYS_futex, (uint32_t *)word, op, value, timeout, NULL, 0);
}

/* The entry's landing area: the handler consumes every byte, none lands
 * (as with gas's active messages). */
static uint8_t batch_landing[64];

/* ---- the target's side ------------------------------------------------- */

/* Applies the records of one message; a malformed one fails the whole
 * message, nothing of it applied: it comes from another process. */
static xg_nic_hook_ret_t batch_on_message(const xg_nic_hook_args_t *args)
{
    const xg_gas_amo_rec_t *rec = args->data;
    size_t n                    = 0, i;

    if ((args->offset == 0) && (args->len == args->id->rlength)) {
        n = xg_gas_amo_msg_check(args->data, args->len, xg_mem.part_size);
    }
    if (n == 0) {
        return XG_NIC_HOOK_ERROR;
    }
    for (i = 0; i < n; i++) {
        void *at    = (void *)(xg_gas.heap_lo + xg_gas_amo_rec_offset(&rec[i]));
        unsigned op = xg_gas_amo_rec_op(&rec[i]);

        if (op == XG_GAS_AMO_REC_PUT) {
            memcpy(at, &rec[i].value, xg_gas_amo_rec_size(&rec[i]));
        } else {
            (void)xg_gas_amo_apply((xg_gas_amo_t)op, at,
                                   xg_gas_amo_rec_size(&rec[i]), rec[i].value,
                                   0);
        }
    }
    return XG_NIC_HOOK_CONSUMED;
}

xg_status_t xg_gas_amo_batch_open(void)
{
    const ptl_ni_limits_t *limits = xg_gas_nic_limits();
    size_t most = (size_t)limits->max_volatile_size / sizeof(xg_gas_amo_rec_t);
    xg_nic_entry_desc_t le;
    int ret;

    memset(&batch, 0, sizeof(batch));
    batch.le      = PTL_INVALID_HANDLE;
    batch.pt      = PTL_PT_ANY;
    batch.records = (uint32_t)xg_config.amo_batch;
    if (batch.records > XG_GAS_AMO_REC_MAX) {
        batch.records = XG_GAS_AMO_REC_MAX;
    }
    if (batch.records > most) {
        batch.records = (uint32_t)most; /* one copied put each */
    }
    if (batch.records < 2) {
        return XG_OK; /* XGAS_AMO_BATCH=0 or 1: one message per atomic */
    }
    batch.hooks.payload = batch_on_message;
    ret = xg_nic_pt_alloc(BATCH_FN, xg_gas_nic_ni(), 0, PTL_EQ_NONE,
                          (ptl_pt_index_t)limits->max_pt_index - 3, &batch.pt);
    if (ret == PTL_OK) {
        memset(&le, 0, sizeof(le));
        le.is_le     = 1;
        le.start     = batch_landing;
        le.length    = (ptl_size_t)batch.records * sizeof(xg_gas_amo_rec_t);
        le.ct_handle = PTL_CT_NONE;
        le.uid       = PTL_UID_ANY;
        le.options   = PTL_LE_OP_PUT | PTL_LE_EVENT_LINK_DISABLE |
                     PTL_LE_EVENT_COMM_DISABLE;
        ret = xg_nic_entry_append(BATCH_FN, xg_gas_nic_ni(), batch.pt, &le,
                                  PTL_PRIORITY_LIST, NULL, &batch.le,
                                  PTL_CT_NONE, 0);
    }
    if (ret == PTL_OK) {
        ret = xg_nic_entry_set_hooks(BATCH_FN, batch.le, &batch.hooks);
    }
    if (ret == PTL_OK) {
        batch.slot = calloc(BATCH_SLOTS, sizeof(*batch.slot));
        ret        = (batch.slot != NULL) ? PTL_OK : PTL_NO_SPACE;
    }
    if (ret != PTL_OK) {
        xg_error("gas",
                 "the NIC route: cannot open the portal index of batched "
                 "atomics (Portals code %d); set XGAS_AMO_BATCH=0 to send "
                 "each atomic on its own",
                 ret);
        xg_gas_amo_batch_close();
        return XG_ERR_NO_RESOURCE;
    }
    for (unsigned i = 0; i < BATCH_SLOTS; i++) {
        xg_spinlock_init(&batch.slot[i].lock);
        atomic_store_explicit(&batch.slot[i].pe, -1, memory_order_relaxed);
    }
    batch.open = 1;
    return XG_OK;
}

void xg_gas_amo_batch_close(void)
{
    if (atomic_exchange_explicit(&batch.flusher_state, 2,
                                 memory_order_acq_rel) == 1) {
        batch_futex(&xg_gas_amo_batched, FUTEX_WAKE_PRIVATE, 1, NULL);
        pthread_join(batch.flusher, NULL);
    }
    free(batch.slot);
    batch.slot = NULL;
    if (batch.le != PTL_INVALID_HANDLE) {
        xg_nic_entry_unlink(BATCH_FN, batch.le, 1, PTL_CT_NONE, 0);
    }
    if (batch.pt != PTL_PT_ANY) {
        xg_nic_pt_free(BATCH_FN, xg_gas_nic_ni(), batch.pt);
    }
    batch.le   = PTL_INVALID_HANDLE;
    batch.pt   = PTL_PT_ANY;
    batch.open = 0;
}

/* ---- the initiator's side ---------------------------------------------- */

/* Sends the open batch of @slot (its lock held). */
static xg_status_t batch_send(batch_slot_t *slot)
{
    xg_status_t status = xg_gas_nic_send_copy(
        batch.pt, slot->rec, slot->n * sizeof(xg_gas_amo_rec_t),
        atomic_load_explicit(&slot->pe, memory_order_relaxed));

    slot->sent =
        atomic_fetch_add_explicit(&batch.sends, 1, memory_order_acq_rel) + 1;
    slot->n = 0;
    atomic_store_explicit(&slot->pe, -1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&xg_gas_amo_batched, 1, memory_order_relaxed);
    return status;
}

/* Sends the batches open for at least BATCH_HOLD_NS. */
static void batch_flush_old(void)
{
    uint64_t now = xg_time_ns();
    unsigned i;

    for (i = 0; i < BATCH_SLOTS; i++) {
        batch_slot_t *slot = &batch.slot[i];

        if ((atomic_load_explicit(&slot->pe, memory_order_relaxed) < 0) ||
            (now - atomic_load_explicit(&slot->opened, memory_order_relaxed) <
             BATCH_HOLD_NS)) {
            continue;
        }
        xg_spinlock_lock(&slot->lock);
        if (atomic_load_explicit(&slot->pe, memory_order_relaxed) >= 0) {
            (void)batch_send(slot); /* a failure shows at quiet */
        }
        xg_spinlock_unlock(&slot->lock);
    }
}

static void *batch_flusher_main(void *arg)
{
    const struct timespec hold = {0, BATCH_HOLD_NS};
    const struct timespec idle = {0, 100 * 1000000};

    (void)arg;
    while (atomic_load_explicit(&batch.flusher_state, memory_order_acquire) ==
           1) {
        if (atomic_load_explicit(&xg_gas_amo_batched, memory_order_seq_cst) ==
            0) {
            /* a batch that opens now finds the flag set and wakes us, or
             * the futex finds the count moved */
            atomic_store_explicit(&batch.flusher_sleeps, 1,
                                  memory_order_seq_cst);
            batch_futex(&xg_gas_amo_batched, FUTEX_WAIT_PRIVATE, 0, &idle);
            atomic_store_explicit(&batch.flusher_sleeps, 0,
                                  memory_order_relaxed);
            continue;
        }
        nanosleep(&hold, NULL);
        batch_flush_old();
    }
    return NULL;
}

/* The first batch starts the flusher; a batch opening after none was open
 * wakes it. */
static void batch_opened(uint32_t open_before)
{
    int none = 0;

    if (atomic_compare_exchange_strong_explicit(&batch.flusher_state, &none, 1,
                                                memory_order_acq_rel,
                                                memory_order_relaxed)) {
        if (pthread_create(&batch.flusher, NULL, batch_flusher_main, NULL) !=
            0) {
            xg_warn("gas", "batched atomics: cannot start the flusher "
                           "thread; batches wait for the next wait, fence "
                           "or quiet of this PE");
            atomic_store_explicit(&batch.flusher_state, 3,
                                  memory_order_relaxed);
        }
        return;
    }
    if ((open_before == 0) &&
        atomic_load_explicit(&batch.flusher_sleeps, memory_order_seq_cst)) {
        batch_futex(&xg_gas_amo_batched, FUTEX_WAKE_PRIVATE, 1, NULL);
    }
}

/* Adds @rec to the batch to @pe, counted in @ctx. */
static void batch_add(xg_gas_ctx_t *ctx, int pe, xg_gas_amo_rec_t rec,
                      xg_status_t *status_p)
{
    batch_slot_t *slot = &batch.slot[(unsigned)pe & (BATCH_SLOTS - 1u)];
    xg_status_t status = XG_OK, s;

    xg_spinlock_lock(&slot->lock);
    if (atomic_load_explicit(&slot->pe, memory_order_relaxed) != pe) {
        if (slot->n != 0) {
            status = batch_send(slot); /* another PE's batch: out first */
        }
        atomic_store_explicit(&slot->opened, xg_time_ns(),
                              memory_order_relaxed);
        atomic_store_explicit(&slot->pe, pe, memory_order_relaxed);
        batch_opened(atomic_fetch_add_explicit(&xg_gas_amo_batched, 1,
                                               memory_order_seq_cst));
    }
    slot->rec[slot->n] = rec;
    if (++slot->n == batch.records) {
        s      = batch_send(slot);
        status = (status == XG_OK) ? s : status;
    }
    /* counted after it is in the batch: a quiet that sees the count sends
     * the batch (ops.c) */
    xg_gas_ctx_nic_op(ctx);
    xg_spinlock_unlock(&slot->lock);
    *status_p = status;
}

int xg_gas_amo_batch_add(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *dst,
                         size_t size, uint64_t value, int pe,
                         xg_status_t *status_p)
{
    uint64_t off = xg_gas_nic_offset(dst);

    if (!batch.open || (off > XG_GAS_AMO_REC_OFFSET_MASK) ||
        (op > XG_GAS_AMO_XOR)) {
        return 0;
    }
    batch_add(ctx, pe, xg_gas_amo_rec(off, (unsigned)op, size, value),
              status_p);
    return 1;
}

int xg_gas_put_batch_add(xg_gas_ctx_t *ctx, void *dst, const void *src,
                         size_t len, int pe, xg_status_t *status_p)
{
    uint64_t off = xg_gas_nic_offset(dst);

    if (!batch.open || (len == 0) || (len > sizeof(uint64_t)) ||
        (off > XG_GAS_AMO_REC_OFFSET_MASK)) {
        return 0;
    }
    if ((atomic_fetch_add_explicit(&puts_since_wait, 1, memory_order_relaxed) ==
         0) &&
        (atomic_load_explicit(&batch.slot[(unsigned)pe & (BATCH_SLOTS - 1u)].pe,
                              memory_order_relaxed) != pe)) {
        return 0; /* the first since a wait: a write */
    }
    batch_add(ctx, pe, xg_gas_amo_rec_put(off, src, len), status_p);
    return 1;
}

void xg_gas_amo_batch_flush(int pe)
{
    unsigned i;

    if ((pe < 0) &&
        (atomic_load_explicit(&puts_since_wait, memory_order_relaxed) != 0)) {
        /* a wait, quiet or fence: the next word put may be an answer */
        atomic_store_explicit(&puts_since_wait, 0, memory_order_relaxed);
    }
    if (!batch.open || (atomic_load_explicit(&xg_gas_amo_batched,
                                             memory_order_relaxed) == 0)) {
        return;
    }
    for (i = 0; i < BATCH_SLOTS; i++) {
        batch_slot_t *slot = &batch.slot[i];
        int at = atomic_load_explicit(&slot->pe, memory_order_relaxed);

        if ((at < 0) || ((pe >= 0) && (at != pe))) {
            continue;
        }
        xg_spinlock_lock(&slot->lock);
        at = atomic_load_explicit(&slot->pe, memory_order_relaxed);
        if ((at >= 0) && ((pe < 0) || (at == pe))) {
            /* a failure is logged by the NIC and shows at quiet */
            (void)batch_send(slot);
        }
        xg_spinlock_unlock(&slot->lock);
    }
}

/* The batches to @pe left in one slot (whichever sent them: this call,
 * the add that filled one, the flusher thread, an add for another PE of
 * the slot): the slot's last send stands for them all, as the NIC
 * completes operations in no particular order but a completion wait
 * covers every one issued before it. */
int xg_gas_amo_batch_unfinished(int pe)
{
    batch_slot_t *slot;
    uint64_t sent;

    if (!batch.open) {
        return 0;
    }
    slot = &batch.slot[(unsigned)pe & (BATCH_SLOTS - 1u)];
    xg_spinlock_lock(&slot->lock);
    if (atomic_load_explicit(&slot->pe, memory_order_relaxed) == pe) {
        (void)batch_send(slot);
    }
    sent = slot->sent;
    xg_spinlock_unlock(&slot->lock);
    return sent > atomic_load_explicit(&batch.completed, memory_order_acquire);
}

uint64_t xg_gas_amo_batch_sends(void)
{
    return atomic_load_explicit(&batch.sends, memory_order_acquire);
}

void xg_gas_amo_batch_completed(uint64_t sends)
{
    uint64_t was = atomic_load_explicit(&batch.completed, memory_order_relaxed);

    while ((was < sends) && !atomic_compare_exchange_weak_explicit(
                                &batch.completed, &was, sends,
                                memory_order_acq_rel, memory_order_relaxed)) {
    }
}
