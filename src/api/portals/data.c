/*
 * Portals 4: data movement -- put, get, the atomics -- and their triggered
 * forms, which only add (trig_ct_handle, threshold).
 */
#include <string.h>

#include "api/portals/ptl_int.h"

/* An operation of @kind on @length bytes at @local_offset of @md, fired
 * when @trig reaches @threshold (PTL_CT_NONE: at once). */
static void op_init(xg_nic_op_t *op, xg_nic_op_kind_t kind, ptl_handle_md_t md,
                    ptl_size_t local_offset, ptl_size_t length,
                    ptl_handle_ct_t trig, ptl_size_t threshold)
{
    xg_nic_op_init(op, kind, md, local_offset, length);
    op->trig_ct   = trig;
    op->threshold = threshold;
}

static void op_target(xg_nic_op_t *op, ptl_process_t target_id,
                      ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                      ptl_size_t remote_offset, void *user_ptr,
                      ptl_hdr_data_t hdr_data)
{
    xg_nic_op_target(op, target_id, pt_index, remote_offset);
    op->match_bits = match_bits;
    op->user_ptr   = user_ptr;
    op->hdr_data   = hdr_data;
}

static int check_ack(const char *fn, ptl_ack_req_t ack_req)
{
    if (ack_req > PTL_OC_ACK_REQ) {
        return xg_ptl_bad_arg(fn,
                              "ack_req %u is not one of PTL_NO_ACK_REQ, "
                              "PTL_ACK_REQ, PTL_CT_ACK_REQ, PTL_OC_ACK_REQ",
                              ack_req);
    }
    return PTL_OK;
}

/* @swap: the operation comes from PtlSwap (which alone takes the swaps). */
static int check_atomic(const char *fn, ptl_op_t operation,
                        ptl_datatype_t datatype, ptl_size_t length, int swap,
                        const void *operand)
{
    size_t elem;

    if ((operation >= PTL_OP_LAST) || (datatype >= PTL_DATATYPE_LAST)) {
        return xg_ptl_bad_arg(fn,
                              "operation %u or datatype %u is out of "
                              "range",
                              operation, datatype);
    }
    if (!xg_nic_atomic_valid(operation, datatype)) {
        return xg_ptl_bad_arg(fn,
                              "operation %u is not defined for datatype "
                              "%u (bitwise and logical operations take "
                              "integers; MIN, MAX and ordered swaps no "
                              "complex numbers)",
                              operation, datatype);
    }
    if (swap != (operation >= PTL_SWAP)) {
        return xg_ptl_bad_arg(fn, "operation %u belongs to %s", operation,
                              swap ? "PtlAtomic/PtlFetchAtomic" : "PtlSwap");
    }
    elem = xg_nic_atomic_size(datatype);
    if ((operation > PTL_SWAP) && (length != elem)) {
        return xg_ptl_bad_arg(fn,
                              "conditional and masked swaps work on one "
                              "element: length %llu should be %zu",
                              (unsigned long long)length, elem);
    }
    if ((operation > PTL_SWAP) && (operand == NULL)) {
        return xg_ptl_bad_arg(fn, "operation %u needs an operand", operation);
    }
    return PTL_OK;
}

static int do_put(const char *fn, ptl_handle_md_t md_handle,
                  ptl_size_t local_offset, ptl_size_t length,
                  ptl_ack_req_t ack_req, ptl_process_t target_id,
                  ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                  ptl_size_t remote_offset, void *user_ptr,
                  ptl_hdr_data_t hdr_data, ptl_handle_ct_t trig,
                  ptl_size_t threshold)
{
    xg_nic_op_t op;
    int ret = check_ack(fn, ack_req);

    if (ret != PTL_OK) {
        return ret;
    }
    op_init(&op, XG_NIC_OP_PUT, md_handle, local_offset, length, trig,
            threshold);
    op.ack_req = ack_req;
    op_target(&op, target_id, pt_index, match_bits, remote_offset, user_ptr,
              hdr_data);
    return xg_nic_issue(fn, &op);
}

static int do_get(const char *fn, ptl_handle_md_t md_handle,
                  ptl_size_t local_offset, ptl_size_t length,
                  ptl_process_t target_id, ptl_pt_index_t pt_index,
                  ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                  void *user_ptr, ptl_handle_ct_t trig, ptl_size_t threshold)
{
    xg_nic_op_t op;

    op_init(&op, XG_NIC_OP_GET, md_handle, local_offset, length, trig,
            threshold);
    op_target(&op, target_id, pt_index, match_bits, remote_offset, user_ptr, 0);
    return xg_nic_issue(fn, &op);
}

static int do_atomic(const char *fn, ptl_handle_md_t md_handle,
                     ptl_size_t local_offset, ptl_size_t length,
                     ptl_ack_req_t ack_req, ptl_process_t target_id,
                     ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                     ptl_size_t remote_offset, void *user_ptr,
                     ptl_hdr_data_t hdr_data, ptl_op_t operation,
                     ptl_datatype_t datatype, ptl_handle_ct_t trig,
                     ptl_size_t threshold)
{
    xg_nic_op_t op;
    int ret = check_ack(fn, ack_req);

    if (ret == PTL_OK) {
        ret = check_atomic(fn, operation, datatype, length, 0, NULL);
    }
    if (ret != PTL_OK) {
        return ret;
    }
    op_init(&op, XG_NIC_OP_ATOMIC, md_handle, local_offset, length, trig,
            threshold);
    op.ack_req     = ack_req;
    op.atomic_op   = operation;
    op.atomic_type = datatype;
    op_target(&op, target_id, pt_index, match_bits, remote_offset, user_ptr,
              hdr_data);
    return xg_nic_issue(fn, &op);
}

static int do_fetch(const char *fn, xg_nic_op_kind_t kind,
                    ptl_handle_md_t get_md, ptl_size_t get_off,
                    ptl_handle_md_t put_md, ptl_size_t put_off,
                    ptl_size_t length, ptl_process_t target_id,
                    ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                    ptl_size_t remote_offset, void *user_ptr,
                    ptl_hdr_data_t hdr_data, const void *operand,
                    ptl_op_t operation, ptl_datatype_t datatype,
                    ptl_handle_ct_t trig, ptl_size_t threshold)
{
    xg_nic_op_t op;
    int ret = check_atomic(fn, operation, datatype, length,
                           kind == XG_NIC_OP_SWAP, operand);

    if (ret != PTL_OK) {
        return ret;
    }
    op_init(&op, kind, get_md, get_off, length, trig, threshold);
    op.put_md      = put_md;
    op.put_offset  = put_off;
    op.atomic_op   = operation;
    op.atomic_type = datatype;
    if ((kind == XG_NIC_OP_SWAP) && (operand != NULL)) {
        memcpy(op.operand, operand, xg_nic_atomic_size(datatype));
    }
    op_target(&op, target_id, pt_index, match_bits, remote_offset, user_ptr,
              hdr_data);
    return xg_nic_issue(fn, &op);
}

static int check_trig(const char *fn, ptl_handle_ct_t trig_ct_handle)
{
    if (trig_ct_handle == PTL_CT_NONE) {
        return xg_ptl_bad_arg(fn, "trig_ct_handle is PTL_CT_NONE: a "
                                  "triggered operation needs a counter");
    }
    return PTL_OK;
}

XG_PTL_API int PtlPut(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                      ptl_size_t length, ptl_ack_req_t ack_req,
                      ptl_process_t target_id, ptl_pt_index_t pt_index,
                      ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                      void *user_ptr, ptl_hdr_data_t hdr_data)
{
    XG_PTL_CHECK_INIT();
    return do_put(__func__, md_handle, local_offset, length, ack_req, target_id,
                  pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                  PTL_CT_NONE, 0);
}
XG_PPTL(PtlPut)

XG_PTL_API int PtlGet(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                      ptl_size_t length, ptl_process_t target_id,
                      ptl_pt_index_t pt_index, ptl_match_bits_t match_bits,
                      ptl_size_t remote_offset, void *user_ptr)
{
    XG_PTL_CHECK_INIT();
    return do_get(__func__, md_handle, local_offset, length, target_id,
                  pt_index, match_bits, remote_offset, user_ptr, PTL_CT_NONE,
                  0);
}
XG_PPTL(PtlGet)

XG_PTL_API int PtlAtomic(ptl_handle_md_t md_handle, ptl_size_t local_offset,
                         ptl_size_t length, ptl_ack_req_t ack_req,
                         ptl_process_t target_id, ptl_pt_index_t pt_index,
                         ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                         void *user_ptr, ptl_hdr_data_t hdr_data,
                         ptl_op_t operation, ptl_datatype_t datatype)
{
    XG_PTL_CHECK_INIT();
    return do_atomic(__func__, md_handle, local_offset, length, ack_req,
                     target_id, pt_index, match_bits, remote_offset, user_ptr,
                     hdr_data, operation, datatype, PTL_CT_NONE, 0);
}
XG_PPTL(PtlAtomic)

XG_PTL_API int PtlFetchAtomic(
    ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
    ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
    ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype)
{
    XG_PTL_CHECK_INIT();
    return do_fetch(__func__, XG_NIC_OP_FETCH, get_md_handle, local_get_offset,
                    put_md_handle, local_put_offset, length, target_id,
                    pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                    NULL, operation, datatype, PTL_CT_NONE, 0);
}
XG_PPTL(PtlFetchAtomic)

XG_PTL_API int PtlSwap(ptl_handle_md_t get_md_handle,
                       ptl_size_t local_get_offset,
                       ptl_handle_md_t put_md_handle,
                       ptl_size_t local_put_offset, ptl_size_t length,
                       ptl_process_t target_id, ptl_pt_index_t pt_index,
                       ptl_match_bits_t match_bits, ptl_size_t remote_offset,
                       void *user_ptr, ptl_hdr_data_t hdr_data,
                       const void *operand, ptl_op_t operation,
                       ptl_datatype_t datatype)
{
    XG_PTL_CHECK_INIT();
    return do_fetch(__func__, XG_NIC_OP_SWAP, get_md_handle, local_get_offset,
                    put_md_handle, local_put_offset, length, target_id,
                    pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                    operand, operation, datatype, PTL_CT_NONE, 0);
}
XG_PPTL(PtlSwap)

XG_PTL_API int PtlAtomicSync(void)
{
    XG_PTL_CHECK_INIT();
    return xg_nic_atomic_sync();
}
XG_PPTL(PtlAtomicSync)

XG_PTL_API int PtlTriggeredPut(
    ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length,
    ptl_ack_req_t ack_req, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, ptl_handle_ct_t trig_ct_handle,
    ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (check_trig(__func__, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    return do_put(__func__, md_handle, local_offset, length, ack_req, target_id,
                  pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                  trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredPut)

XG_PTL_API int PtlTriggeredGet(ptl_handle_md_t md_handle,
                               ptl_size_t local_offset, ptl_size_t length,
                               ptl_process_t target_id, ptl_pt_index_t pt_index,
                               ptl_match_bits_t match_bits,
                               ptl_size_t remote_offset, void *user_ptr,
                               ptl_handle_ct_t trig_ct_handle,
                               ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (check_trig(__func__, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    return do_get(__func__, md_handle, local_offset, length, target_id,
                  pt_index, match_bits, remote_offset, user_ptr, trig_ct_handle,
                  threshold);
}
XG_PPTL(PtlTriggeredGet)

XG_PTL_API int PtlTriggeredAtomic(
    ptl_handle_md_t md_handle, ptl_size_t local_offset, ptl_size_t length,
    ptl_ack_req_t ack_req, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype,
    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (check_trig(__func__, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    return do_atomic(__func__, md_handle, local_offset, length, ack_req,
                     target_id, pt_index, match_bits, remote_offset, user_ptr,
                     hdr_data, operation, datatype, trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredAtomic)

XG_PTL_API int PtlTriggeredFetchAtomic(
    ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
    ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
    ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, ptl_op_t operation, ptl_datatype_t datatype,
    ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (check_trig(__func__, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    return do_fetch(__func__, XG_NIC_OP_FETCH, get_md_handle, local_get_offset,
                    put_md_handle, local_put_offset, length, target_id,
                    pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                    NULL, operation, datatype, trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredFetchAtomic)

XG_PTL_API int PtlTriggeredSwap(
    ptl_handle_md_t get_md_handle, ptl_size_t local_get_offset,
    ptl_handle_md_t put_md_handle, ptl_size_t local_put_offset,
    ptl_size_t length, ptl_process_t target_id, ptl_pt_index_t pt_index,
    ptl_match_bits_t match_bits, ptl_size_t remote_offset, void *user_ptr,
    ptl_hdr_data_t hdr_data, const void *operand, ptl_op_t operation,
    ptl_datatype_t datatype, ptl_handle_ct_t trig_ct_handle,
    ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    if (check_trig(__func__, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    return do_fetch(__func__, XG_NIC_OP_SWAP, get_md_handle, local_get_offset,
                    put_md_handle, local_put_offset, length, target_id,
                    pt_index, match_bits, remote_offset, user_ptr, hdr_data,
                    operand, operation, datatype, trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredSwap)

static int do_ct_trig(const char *fn, xg_nic_op_kind_t kind,
                      ptl_handle_ct_t ct_handle, ptl_ct_event_t value,
                      ptl_handle_ct_t trig_ct_handle, ptl_size_t threshold)
{
    xg_nic_op_t op;

    if (check_trig(fn, trig_ct_handle) != PTL_OK) {
        return PTL_ARG_INVALID;
    }
    if ((kind == XG_NIC_OP_CT_INC) && (value.success != 0) &&
        (value.failure != 0)) {
        return xg_ptl_bad_arg(fn, "increment sets both success and failure: "
                                  "only one may be non-zero");
    }
    op_init(&op, kind, PTL_INVALID_HANDLE, 0, 0, trig_ct_handle, threshold);
    op.ct       = ct_handle;
    op.ct_value = value;
    return xg_nic_issue(fn, &op);
}

XG_PTL_API int PtlTriggeredCTInc(ptl_handle_ct_t ct_handle,
                                 ptl_ct_event_t increment,
                                 ptl_handle_ct_t trig_ct_handle,
                                 ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    return do_ct_trig(__func__, XG_NIC_OP_CT_INC, ct_handle, increment,
                      trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredCTInc)

XG_PTL_API int PtlTriggeredCTSet(ptl_handle_ct_t ct_handle,
                                 ptl_ct_event_t new_ct,
                                 ptl_handle_ct_t trig_ct_handle,
                                 ptl_size_t threshold)
{
    XG_PTL_CHECK_INIT();
    return do_ct_trig(__func__, XG_NIC_OP_CT_SET, ct_handle, new_ct,
                      trig_ct_handle, threshold);
}
XG_PPTL(PtlTriggeredCTSet)
