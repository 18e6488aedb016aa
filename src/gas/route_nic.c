/*
 * The NIC route of gas (xg_gas_nic.h).
 */
#include "gas/xg_gas_nic.h"

#include <stdio.h>
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "nic/xg_nic.h"
#include "xport/xg_xport.h"

#define NIC_FN "gas"

/* Element operations of a strided transfer issued between completions. */
#define NIC_STRIDED_BATCH 256

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_md_t md;
    ptl_handle_md_t md_copy; /* md whose data the NIC copies at issue:
                                    * operands of non-blocking atomics */
    ptl_handle_ct_t ct;
    ptl_handle_le_t le;
    ptl_pt_index_t pt;
    ptl_ni_limits_t limits;
    uint64_t issued;      /* operations handed to the NIC */
    uint64_t failed_seen; /* failures reported by complete */
} gas_nic;

/* Gives up in xg_gas_nic_open: logs what failed and undoes the rest. */
static xg_status_t nic_open_failed(const char *what, int ret)
{
    xg_error("gas",
             "the NIC route (XGAS_ROUTE=nic, or PEs on other "
             "nodes): %s failed (Portals code %d); the software NIC cannot "
             "carry the operations of gas",
             what, ret);
    xg_gas_nic_close();
    return xg_nic_status(ret) == XG_OK ? XG_ERR_INTERNAL : xg_nic_status(ret);
}

/* XGAS_ROUTE's words, in the order of its row (xg_gas_config.h) */
enum {
    ROUTE_SETTING_DIRECT,
    ROUTE_SETTING_NIC
};

int xg_gas_nic_wanted(void)
{
    xg_boot_identity_t job;

    xg_boot_identity(&job);
    return (xg_config.route == ROUTE_SETTING_NIC) || (job.nnodes > 1);
}

xg_status_t xg_gas_nic_open(void)
{
    ptl_ni_limits_t limits;
    xg_nic_entry_desc_t le;
    ptl_md_t md;
    /* XGAS_ROUTE=nic: every PE through the NIC; else the PEs of other
     * nodes only */
    int all = xg_config.route == ROUTE_SETTING_NIC;
    int ret, pe;

    if (!xg_gas_nic_wanted()) {
        return XG_OK;
    }
    if (!xg_nic_is_initialized()) {
        return nic_open_failed("finding the NIC started", PTL_NO_INIT);
    }
    gas_nic.ni = gas_nic.md = gas_nic.md_copy = PTL_INVALID_HANDLE;
    gas_nic.ct = gas_nic.le = PTL_INVALID_HANDLE;
    gas_nic.pt              = PTL_PT_ANY;
    atomic_store_explicit(&xg_gas.nic_route, 1, memory_order_relaxed);
    ret = xg_nic_ni_init(NIC_FN, PTL_IFACE_DEFAULT,
                         PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY,
                         NULL, &limits, &gas_nic.ni);
    if (ret != PTL_OK) {
        return nic_open_failed("opening its NI", ret);
    }
    /* the last index: the same on every PE, and the one a Portals program
     * that asks for PTL_PT_ANY gets last */
    gas_nic.pt = (ptl_pt_index_t)limits.max_pt_index;
    ret        = xg_nic_pt_alloc(NIC_FN, gas_nic.ni, 0, PTL_EQ_NONE, gas_nic.pt,
                                 &gas_nic.pt);
    if (ret != PTL_OK) {
        return nic_open_failed("allocating its portal index", ret);
    }
    memset(&le, 0, sizeof(le));
    le.is_le     = 1;
    le.start     = (void *)xg_gas.heap_lo;
    le.length    = xg_mem.part_size;
    le.ct_handle = PTL_CT_NONE;
    le.uid       = PTL_UID_ANY;
    le.options   = PTL_LE_OP_PUT | PTL_LE_OP_GET | PTL_LE_EVENT_LINK_DISABLE |
                 PTL_LE_EVENT_COMM_DISABLE;
    ret = xg_nic_entry_append(NIC_FN, gas_nic.ni, gas_nic.pt, &le,
                              PTL_PRIORITY_LIST, NULL, &gas_nic.le, PTL_CT_NONE,
                              0);
    if (ret != PTL_OK) {
        return nic_open_failed("exposing the symmetric memory", ret);
    }
    ret = xg_nic_ct_alloc(NIC_FN, gas_nic.ni, &gas_nic.ct);
    if (ret != PTL_OK) {
        return nic_open_failed("allocating a counter", ret);
    }
    memset(&md, 0, sizeof(md));
    md.start   = NULL;
    md.length  = PTL_SIZE_MAX;
    md.options = PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_CT_ACK |
                 PTL_MD_EVENT_CT_REPLY;
    md.eq_handle = PTL_EQ_NONE;
    md.ct_handle = gas_nic.ct;
    ret          = xg_nic_md_bind(NIC_FN, gas_nic.ni, &md, &gas_nic.md);
    if (ret == PTL_OK) {
        md.options |= PTL_MD_VOLATILE;
        ret = xg_nic_md_bind(NIC_FN, gas_nic.ni, &md, &gas_nic.md_copy);
    }
    if (ret != PTL_OK) {
        return nic_open_failed("binding a memory descriptor", ret);
    }
    gas_nic.limits = limits;
    for (pe = 0; pe < xg_mem.npes; pe++) {
        if (all || !xg_boot_same_node(pe)) {
            xg_gas_set_route(pe, XG_GAS_ROUTE_NIC);
        }
    }
    xg_gas.poll_remote = 1;
    atomic_store_explicit(&xg_gas.nic_route, 2, memory_order_release);
    return XG_OK;
}

int xg_gas_nic_is_open(void)
{
    return atomic_load_explicit(&xg_gas.nic_route, memory_order_acquire) == 2;
}

ptl_handle_ni_t xg_gas_nic_ni(void)
{
    return gas_nic.ni;
}

const ptl_ni_limits_t *xg_gas_nic_limits(void)
{
    return &gas_nic.limits;
}

void xg_gas_nic_drain(void)
{
    if (atomic_load_explicit(&xg_gas.nic_route, memory_order_acquire) == 2) {
        (void)xg_gas_nic_complete();
    }
}

void xg_gas_nic_close(void)
{
    if (atomic_load_explicit(&xg_gas.nic_route, memory_order_relaxed) == 0) {
        return;
    }
    xg_gas.poll_remote = 0;
    atomic_store_explicit(&xg_gas.nic_route, 1, memory_order_release);
    if (gas_nic.md != PTL_INVALID_HANDLE) {
        xg_nic_md_release(NIC_FN, gas_nic.md);
    }
    if (gas_nic.md_copy != PTL_INVALID_HANDLE) {
        xg_nic_md_release(NIC_FN, gas_nic.md_copy);
    }
    if (gas_nic.ct != PTL_INVALID_HANDLE) {
        xg_nic_ct_free(NIC_FN, gas_nic.ct);
    }
    if (gas_nic.le != PTL_INVALID_HANDLE) {
        xg_nic_entry_unlink(NIC_FN, gas_nic.le, 1, PTL_CT_NONE, 0);
    }
    if (gas_nic.pt != PTL_PT_ANY) {
        xg_nic_pt_free(NIC_FN, gas_nic.ni, gas_nic.pt);
    }
    if (gas_nic.ni != PTL_INVALID_HANDLE) {
        xg_nic_ni_fini(NIC_FN, gas_nic.ni);
    }
    memset(&gas_nic, 0, sizeof(gas_nic));
    atomic_store_explicit(&xg_gas.nic_route, 0, memory_order_release);
}

unsigned xg_gas_poll_remote(void)
{
    /* a waiting thread holds back no atomic: what it waits for may
     * depend on one (amo_batch.c) */
    xg_gas_amo_batch_flush(-1);
    return xg_nic_poll();
}

uint64_t xg_gas_nic_offset(const void *remote)
{
    uint64_t off = xg_gas_offset(remote);

    return (off != UINT64_MAX) ? off : (uintptr_t)remote - xg_gas.heap_lo;
}

/* The fields every operation of the route shares; the batched atomics
 * to @pe go first (the operation sees and follows them). */
static void nic_op_init(xg_nic_op_t *op, xg_nic_op_kind_t kind,
                        const void *remote, size_t len, int pe)
{
    xg_gas_amo_batch_flush(pe);
    xg_nic_op_init(op, kind, gas_nic.md, 0, len);
    xg_nic_op_target(op, xg_nic_phys_id(pe), gas_nic.pt,
                     xg_gas_nic_offset(remote));
    op->ack_req = PTL_ACK_REQ;
    op->put_md  = gas_nic.md;
}

/* Hands @op to the NIC, counted before it can complete.  Puts by the
 * network's RMA complete first: an operation through the NIC (a signal
 * after its data, a lock word after the critical section's puts) never
 * overtakes them, whatever the provider orders. */
static xg_status_t nic_issue(const xg_nic_op_t *op)
{
    int ret;

    if (xg_unlikely(xg_xport_rma_outstanding()) &&
        (xg_xport_rma_complete() != XG_OK)) {
        return XG_ERR_UNREACHABLE;
    }
    __atomic_add_fetch(&gas_nic.issued, 1, __ATOMIC_SEQ_CST);
    ret = xg_nic_issue(NIC_FN, op);
    if (ret != PTL_OK) {
        __atomic_sub_fetch(&gas_nic.issued, 1, __ATOMIC_SEQ_CST);
    }
    return xg_nic_status(ret);
}

xg_status_t xg_gas_nic_send_copy(ptl_pt_index_t pt, const void *buf, size_t len,
                                 int pe)
{
    xg_nic_op_t op;

    xg_nic_op_init(&op, XG_NIC_OP_PUT, gas_nic.md_copy,
                   (ptl_size_t)(uintptr_t)buf, len);
    xg_nic_op_target(&op, xg_nic_phys_id(pe), pt, 0);
    op.ack_req = PTL_ACK_REQ;
    return nic_issue(&op);
}

/* @len bytes at local @local to or from symmetric @remote, issued. */
static xg_status_t nic_transfer(int put, const void *local, const void *remote,
                                size_t len, int pe)
{
    xg_nic_op_t op;

    nic_op_init(&op, put ? XG_NIC_OP_PUT : XG_NIC_OP_GET, remote, len, pe);
    op.local_offset = (ptl_size_t)(uintptr_t)local;
    return nic_issue(&op);
}

/*
 * Complete when, at some moment, every issued operation is: the counter
 * is read before the issue count, so each completion it shows belongs to
 * an operation counted in that issue count (issue counts first), and the
 * two being equal means none of those is outstanding.  The NIC's poll
 * waits (and drives progress meanwhile) until the counter reaches the
 * issue count it was given; operations issued by other threads since then
 * make the loop go round again.
 */
static xg_status_t nic_wait_counter(ptl_handle_ct_t ct, uint64_t *issued,
                                    uint64_t *failed_seen, const char *what,
                                    uint64_t *upto_p)
{
    ptl_ct_event_t done = {0, 0};
    ptl_size_t want;
    uint64_t failed;
    int ret;

    for (;;) {
        want = __atomic_load_n(issued, __ATOMIC_SEQ_CST);
        ret =
            xg_nic_ct_poll(NIC_FN, &ct, &want, 1, XG_NIC_FOREVER, &done, NULL);
        if (ret != PTL_OK) {
            xg_error("gas",
                     "waiting for %s ended early (Portals code %d): "
                     "the NIC was aborted or shut down",
                     what, ret);
            return XG_ERR_UNREACHABLE;
        }
        if (done.success + done.failure ==
            __atomic_load_n(issued, __ATOMIC_SEQ_CST)) {
            break;
        }
    }
    if (upto_p != NULL) {
        *upto_p = want;
    }
    failed = __atomic_exchange_n(failed_seen, done.failure, __ATOMIC_ACQ_REL);
    if (done.failure > failed) {
        xg_error("gas",
                 "%llu %s failed (a target PE left the job or "
                 "refused them)",
                 (unsigned long long)(done.failure - failed), what);
        return XG_ERR_UNREACHABLE;
    }
    return XG_OK;
}

xg_status_t xg_gas_nic_wait_ct(ptl_handle_ct_t ct, uint64_t *issued,
                               uint64_t *failed_seen, const char *what,
                               uint64_t *upto_p)
{
    xg_status_t status =
        nic_wait_counter(ct, issued, failed_seen, what, upto_p);

    /* and those of the network's RMA */
    return (status == XG_OK) ? xg_xport_rma_complete() : status;
}

/* A put or get by the network's RMA (a PE of another node): a get waits
 * for its data; a blocking put for its source buffer (a small one is
 * copied out at once); a non-blocking one for nothing.  What is left
 * outstanding counts in @ctx, as the NIC's operations. */
static xg_status_t nic_wire_rma(xg_gas_ctx_t *ctx, int put, int nbi,
                                void *local, const void *remote, size_t len,
                                int pe)
{
    xg_xport_rma_mode_t mode =
        nbi ? XG_XPORT_RMA_COUNT
            : (put ? XG_XPORT_RMA_LOCAL : XG_XPORT_RMA_WAIT);
    xg_status_t status;
    int counted = 0;

    /* the batches to @pe take effect first: the network's RMA could
     * overtake the NIC's messages (rare: a program mixing them), also
     * those sent when one filled or by the flusher thread */
    if (xg_gas_amo_batch_unfinished(pe)) {
        (void)xg_gas_nic_complete();
    }
    /* (a get reads what this PE's earlier puts wrote: the transport
     * keeps them in order) */
    status = xg_xport_rma(put, pe, local, xg_gas_nic_offset(remote), len, mode,
                          &counted);
    if (counted) {
        xg_gas_ctx_nic_op(ctx);
    }
    return status;
}

xg_status_t xg_gas_nic_complete(void)
{
    xg_status_t status;
    uint64_t batches;

    /* batched operations count as issued: they go out first */
    xg_gas_amo_batch_flush(-1);
    batches = xg_gas_amo_batch_sends();
    status =
        xg_gas_nic_wait_ct(gas_nic.ct, &gas_nic.issued, &gas_nic.failed_seen,
                           "operations through the NIC", NULL);
    if (status == XG_OK) {
        xg_gas_amo_batch_completed(batches);
    }
    return status;
}

int xg_gas_nic_fence(void)
{
    if (!xg_xport_rma_ordered()) {
        return 0;
    }
    if (atomic_load_explicit(&xg_gas.nic_route, memory_order_acquire) == 2) {
        /* a failure is logged there; the fence has no status */
        (void)nic_wait_counter(gas_nic.ct, &gas_nic.issued,
                               &gas_nic.failed_seen,
                               "operations through the NIC", NULL);
    }
    return 1;
}

xg_status_t xg_gas_nic_rma(xg_gas_ctx_t *ctx, int put, int nbi, void *local,
                           const void *remote, size_t len, int pe)
{
    xg_status_t status;

    if (xg_xport_rma_reaches(pe, local, len)) {
        return nic_wire_rma(ctx, put, nbi, local, remote, len, pe);
    }
    status = nic_transfer(put, local, remote, len, pe);
    if (status != XG_OK) {
        return status;
    }
    if (nbi) {
        xg_gas_ctx_nic_op(ctx); /* any thread may complete it */
        return XG_OK;
    }
    return xg_gas_nic_complete();
}

xg_status_t xg_gas_nic_write_ordered(xg_gas_ctx_t *ctx, void *remote,
                                     uint64_t value, int pe)
{
    if (!xg_xport_rma_ordered() ||
        !xg_xport_rma_reaches(pe, &value, sizeof(value))) {
        return XG_ERR_UNSUPPORTED;
    }
    /* a blocking put of this size is injected: @value is copied at once */
    return nic_wire_rma(ctx, 1, 0, &value, remote, sizeof(value), pe);
}

xg_status_t xg_gas_nic_strided(int put, void *dst, const void *src, size_t elem,
                               ptrdiff_t dst_stride, ptrdiff_t src_stride,
                               size_t count, int pe)
{
    xg_status_t status = XG_OK;
    size_t i, run = 1;

    /* both sides contiguous: one run of every element */
    if (((size_t)dst_stride == elem) && ((size_t)src_stride == elem)) {
        run = count;
    }
    for (i = 0; (i < count) && (status == XG_OK); i += run) {
        const char *d = (const char *)dst + i * (size_t)dst_stride;
        const char *s = (const char *)src + i * (size_t)src_stride;

        status = put ? nic_transfer(1, s, d, run * elem, pe)
                     : nic_transfer(0, d, s, run * elem, pe);
        /* bounded: the NIC holds a limited number of operations in
         * flight, and a long strided transfer must not run out of them */
        if ((status == XG_OK) && ((i / run + 1) % NIC_STRIDED_BATCH == 0)) {
            status = xg_gas_nic_complete();
        }
    }
    /* what was issued completes even if a later issue failed */
    if (xg_gas_nic_complete() != XG_OK) {
        status = (status == XG_OK) ? XG_ERR_UNREACHABLE : status;
    }
    return status;
}

xg_gas_amo_result_t xg_gas_nic_amo(xg_gas_amo_t op, void *dst, size_t size,
                                   uint64_t value, uint64_t cond, int pe)
{
    static const ptl_op_t ptl_ops[] = {
        [XG_GAS_AMO_ADD] = PTL_SUM,   [XG_GAS_AMO_AND] = PTL_BAND,
        [XG_GAS_AMO_OR] = PTL_BOR,    [XG_GAS_AMO_XOR] = PTL_BXOR,
        [XG_GAS_AMO_SWAP] = PTL_SWAP, [XG_GAS_AMO_CSWAP] = PTL_CSWAP,
        [XG_GAS_AMO_SET] = PTL_SWAP,  [XG_GAS_AMO_FETCH] = PTL_SUM};
    union {
        uint32_t u32;
        uint64_t u64;
    } in, out, cmp;
    xg_gas_amo_result_t result = {0, XG_OK};
    int swap = (op == XG_GAS_AMO_SWAP) || (op == XG_GAS_AMO_CSWAP) ||
               (op == XG_GAS_AMO_SET);
    xg_nic_op_t nop;

    /* a fetch adds 0 */
    if (op == XG_GAS_AMO_FETCH) {
        value = 0;
    }
    if (size == 4) {
        in.u32  = (uint32_t)value;
        cmp.u32 = (uint32_t)cond;
    } else {
        in.u64  = value;
        cmp.u64 = cond;
    }
    out.u64 = 0;
    nic_op_init(&nop, swap ? XG_NIC_OP_SWAP : XG_NIC_OP_FETCH, dst, size, pe);
    nop.local_offset = (ptl_size_t)(uintptr_t)&out;
    nop.put_offset   = (ptl_size_t)(uintptr_t)&in;
    nop.atomic_op    = ptl_ops[op];
    nop.atomic_type  = (size == 4) ? PTL_UINT32_T : PTL_UINT64_T;
    memcpy(nop.operand, &cmp, size);
    result.status = nic_issue(&nop);
    if (result.status == XG_OK) {
        result.status = xg_gas_nic_complete();
    }
    if ((result.status == XG_OK) && (op != XG_GAS_AMO_SET)) {
        result.old = (size == 4) ? out.u32 : out.u64;
    }
    return result;
}

xg_status_t xg_gas_nic_amo_nbi(xg_gas_ctx_t *ctx, xg_gas_amo_t op, void *dst,
                               size_t size, uint64_t value, int pe)
{
    static const ptl_op_t ptl_ops[] = {[XG_GAS_AMO_ADD] = PTL_SUM,
                                       [XG_GAS_AMO_AND] = PTL_BAND,
                                       [XG_GAS_AMO_OR]  = PTL_BOR,
                                       [XG_GAS_AMO_XOR] = PTL_BXOR};
    union {
        uint32_t u32;
        uint64_t u64;
    } in;
    xg_status_t status;
    xg_nic_op_t nop;

    if ((op != XG_GAS_AMO_ADD) && (op != XG_GAS_AMO_AND) &&
        (op != XG_GAS_AMO_OR) && (op != XG_GAS_AMO_XOR)) {
        /* Portals has no atomic without a result for a swap */
        return xg_gas_nic_amo(op, dst, size, value, 0, pe).status;
    }
    if (size == 4) {
        in.u32 = (uint32_t)value;
    } else {
        in.u64 = value;
    }
    nic_op_init(&nop, XG_NIC_OP_ATOMIC, dst, size, pe);
    /* the NIC copies the operand when it takes the operation */
    nop.md           = gas_nic.md_copy;
    nop.local_offset = (ptl_size_t)(uintptr_t)&in;
    nop.atomic_op    = ptl_ops[op];
    nop.atomic_type  = (size == 4) ? PTL_UINT32_T : PTL_UINT64_T;
    status           = nic_issue(&nop);
    if (status == XG_OK) {
        xg_gas_ctx_nic_op(ctx); /* complete at the context's quiet */
    }
    return status;
}

xg_status_t xg_gas_nic_amo_op(xg_op_t op, xg_op_type_t type, void *dst,
                              const void *src, const void *operand, void *fetch,
                              int pe)
{
    size_t size   = xg_op_type_size(type);
    uint64_t zero = 0, old = 0;
    int swap = (op >= XG_OP_SWAP) && (op <= XG_OP_MSWAP);
    ptl_op_t ptl_op;
    ptl_datatype_t ptl_type;
    xg_nic_op_t nop;
    xg_status_t status;

    /* a fetch ORs zero into the bits: nothing changes, not even a -0.0 */
    if ((size > sizeof(uint64_t)) ||
        !xg_nic_atomic_of((op == XG_OP_FETCH) ? XG_OP_BOR : op,
                          (op == XG_OP_FETCH) ? XG_TYPE_INT(size, 0) : type,
                          &ptl_op, &ptl_type)) {
        return XG_ERR_UNSUPPORTED;
    }
    nic_op_init(&nop, swap ? XG_NIC_OP_SWAP : XG_NIC_OP_FETCH, dst, size, pe);
    nop.local_offset = (ptl_size_t)(uintptr_t)&old;
    nop.put_offset = (ptl_size_t)(uintptr_t)((op == XG_OP_FETCH) ? &zero : src);
    nop.atomic_op  = ptl_op;
    nop.atomic_type = ptl_type;
    if (operand != NULL) {
        memcpy(nop.operand, operand, size);
    }
    status = nic_issue(&nop);
    if (status == XG_OK) {
        status = xg_gas_nic_complete();
    }
    if ((status == XG_OK) && (fetch != NULL)) {
        memcpy(fetch, &old, size);
    }
    return status;
}
