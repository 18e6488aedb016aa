/*
 * ARMCI one-sided operations: contiguous, strided and vector put, get and
 * accumulate, blocking and non-blocking, single values, flagged puts, and
 * the local strided copies.  Each checks its arguments and makes one call
 * into gas's regions.
 *
 * Blocking puts and accumulates return when the local buffer may be
 * reused, gets when the data is here; what a put or accumulate through
 * the NIC still has in flight completes at ARMCI_Fence, ARMCI_Barrier, or
 * a later get from the same allocation (location consistency).
 * Non-blocking operations record in their handle where they are in
 * flight; with a NULL handle ARMCI_WaitAll (or a fence) completes them.
 */
#include <string.h>

#include "api/armci/armci_int.h"

/* ---- helpers ---------------------------------------------------------------- */

void xg_armci_acc(const char *routine, int datatype, const void *scale,
                  xg_gas_acc_t *acc)
{
    size_t size;

    memset(acc, 0, sizeof(*acc));
    switch (datatype) {
    case ARMCI_ACC_INT:
        acc->type = XG_TYPE_INT(sizeof(int), 1);
        size      = sizeof(int);
        break;
    case ARMCI_ACC_LNG:
        acc->type = XG_TYPE_INT(sizeof(long), 1);
        size      = sizeof(long);
        break;
    case ARMCI_ACC_FLT:
        acc->type = XG_TYPE_FLOAT;
        size      = sizeof(float);
        break;
    case ARMCI_ACC_DBL:
        acc->type = XG_TYPE_DOUBLE;
        size      = sizeof(double);
        break;
    case ARMCI_ACC_CPL:
        acc->type = XG_TYPE_CFLOAT;
        size      = 2 * sizeof(float);
        break;
    case ARMCI_ACC_DCP:
        acc->type = XG_TYPE_CDOUBLE;
        size      = 2 * sizeof(double);
        break;
    default:
        xg_armci_fail(routine,
                      "datatype %d is not an accumulate type: use "
                      "ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL or _DCP",
                      datatype);
    }
    if (scale == NULL) {
        xg_armci_fail(routine, "scale is NULL: pass a pointer to one "
                               "element of the datatype");
    }
    memcpy(acc->scale, scale, size);
}

/* Records in @hdl (NULL: implicit) where an operation stays in flight. */
static void armci_hdl_add(armci_hdl_t *hdl, xg_gas_region_t *pending)
{
    if ((hdl == NULL) || (pending == NULL)) {
        return;
    }
    if (!hdl->active || (hdl->pending == NULL)) {
        hdl->pending = pending;
    } else if (hdl->pending != pending) {
        hdl->pending = XG_GAS_PENDING_MANY;
    }
    hdl->active = 1;
}

static xg_status_t armci_xfer(const char *routine, xg_gas_xfer_t kind,
                              const xg_gas_acc_t *acc, void *dst,
                              const void *src, int bytes, int proc,
                              armci_hdl_t *hdl, int nb)
{
    int pe                   = xg_armci_check_proc(routine, proc);
    xg_gas_region_t *pending = NULL;
    xg_status_t status;

    if (xg_unlikely(bytes < 0)) {
        xg_armci_fail(routine, "size %d is negative", bytes);
    }
    status = xg_gas_region_xfer(kind, acc, dst, src, (size_t)bytes, pe,
                                nb ? &pending : NULL);
    if (xg_unlikely(status != XG_OK)) {
        xg_armci_xfer_fail(routine, status,
                           (kind == XG_GAS_XFER_GET) ? src : dst, (size_t)bytes,
                           proc);
    }
    armci_hdl_add(hdl, pending);
    return 0;
}

/* ARMCI's strided description as gas's shape (the job ends on a bad
 * one). */
static void armci_shape(const char *routine, const int *src_stride,
                        const int *dst_stride, const int *count, int levels,
                        xg_gas_shape_t *shape)
{
    int i;

    if ((levels < 0) || (levels > ARMCI_MAX_STRIDE_LEVEL)) {
        xg_armci_fail(routine,
                      "stride_levels %d is outside 0..%d "
                      "(ARMCI_MAX_STRIDE_LEVEL)",
                      levels, ARMCI_MAX_STRIDE_LEVEL);
    }
    if ((count == NULL) ||
        ((levels > 0) && ((src_stride == NULL) || (dst_stride == NULL)))) {
        xg_armci_fail(routine,
                      "count%s is NULL: pass stride_levels + 1 "
                      "counts and stride_levels strides per side",
                      (count == NULL) ? "" : " or a stride array");
    }
    memset(shape, 0, sizeof(*shape));
    shape->levels = levels;
    for (i = 0; i <= levels; i++) {
        if (count[i] < 0) {
            xg_armci_fail(routine,
                          "count[%d] is %d: counts cannot be "
                          "negative",
                          i, count[i]);
        }
        shape->count[i] = (size_t)count[i];
    }
    for (i = 0; i < levels; i++) {
        if ((src_stride[i] < 0) || (dst_stride[i] < 0)) {
            xg_armci_fail(routine,
                          "stride %d of level %d is negative: "
                          "strides are byte distances >= 0",
                          (src_stride[i] < 0) ? src_stride[i] : dst_stride[i],
                          i);
        }
        shape->src_stride[i] = (size_t)src_stride[i];
        shape->dst_stride[i] = (size_t)dst_stride[i];
    }
}

static int armci_strided(const char *routine, xg_gas_xfer_t kind,
                         const xg_gas_acc_t *acc, void *src_ptr,
                         int src_stride_ar[], void *dst_ptr,
                         int dst_stride_ar[], int count[], int stride_levels,
                         int proc, armci_hdl_t *hdl, int nb)
{
    int pe                   = xg_armci_check_proc(routine, proc);
    xg_gas_region_t *pending = NULL;
    xg_gas_shape_t shape;
    xg_status_t status;

    armci_shape(routine, src_stride_ar, dst_stride_ar, count, stride_levels,
                &shape);
    status = xg_gas_region_xfer_strided(kind, acc, dst_ptr, src_ptr, &shape, pe,
                                        nb ? &pending : NULL);
    if (status != XG_OK) {
        xg_status_t ext;
        size_t extent = xg_gas_shape_extent(kind, &shape, &ext);

        xg_armci_xfer_fail(routine, status,
                           (kind == XG_GAS_XFER_GET) ? src_ptr : dst_ptr,
                           extent, proc);
    }
    armci_hdl_add(hdl, pending);
    return 0;
}

static int armci_vector(const char *routine, xg_gas_xfer_t kind,
                        const xg_gas_acc_t *acc, armci_giov_t *iov, int iov_len,
                        int proc, armci_hdl_t *hdl, int nb)
{
    int pe = xg_armci_check_proc(routine, proc), i;
    xg_gas_region_t *pending;
    xg_status_t status;

    if ((iov_len < 0) || ((iov_len > 0) && (iov == NULL))) {
        xg_armci_fail(routine,
                      "iov_len is %d with iov %p: pass iov_len >= "
                      "0 descriptors",
                      iov_len, (void *)iov);
    }
    for (i = 0; i < iov_len; i++) {
        if ((iov[i].bytes < 0) || (iov[i].ptr_array_len < 0)) {
            xg_armci_fail(routine,
                          "iov[%d] has bytes %d and ptr_array_len "
                          "%d: neither may be negative",
                          i, iov[i].bytes, iov[i].ptr_array_len);
        }
        pending = NULL;
        status  = xg_gas_region_xfer_vector(
             kind, acc, iov[i].dst_ptr_array,
             (const void *const *)iov[i].src_ptr_array, (size_t)iov[i].bytes,
             (size_t)iov[i].ptr_array_len, pe, nb ? &pending : NULL);
        if (status != XG_OK) {
            void **remote = (kind == XG_GAS_XFER_GET) ? iov[i].src_ptr_array
                                                      : iov[i].dst_ptr_array;

            xg_armci_xfer_fail(routine, status,
                               (remote != NULL) ? remote[0] : NULL,
                               (size_t)iov[i].bytes, proc);
        }
        armci_hdl_add(hdl, pending);
    }
    return 0;
}

/* ---- contiguous --------------------------------------------------------------- */

XG_ARMCI_API int PARMCI_Put(void *src, void *dst, int size, int target)
{
    return armci_xfer("ARMCI_Put", XG_GAS_XFER_PUT, NULL, dst, src, size,
                      target, NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_Put);

XG_ARMCI_API int PARMCI_Get(void *src, void *dst, int size, int target)
{
    return armci_xfer("ARMCI_Get", XG_GAS_XFER_GET, NULL, dst, src, size,
                      target, NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_Get);

XG_ARMCI_API int PARMCI_Acc(int datatype, void *scale, void *src, void *dst,
                            int bytes, int proc)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_Acc", datatype, scale, &acc);
    return armci_xfer("ARMCI_Acc", XG_GAS_XFER_ACC, &acc, dst, src, bytes, proc,
                      NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_Acc);

XG_ARMCI_API int PARMCI_NbPut(void *src, void *dst, int bytes, int proc,
                              armci_hdl_t *hdl)
{
    return armci_xfer("ARMCI_NbPut", XG_GAS_XFER_PUT, NULL, dst, src, bytes,
                      proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbPut);

XG_ARMCI_API int PARMCI_NbGet(void *src, void *dst, int bytes, int proc,
                              armci_hdl_t *hdl)
{
    return armci_xfer("ARMCI_NbGet", XG_GAS_XFER_GET, NULL, dst, src, bytes,
                      proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbGet);

XG_ARMCI_API int PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst,
                              int bytes, int proc, armci_hdl_t *hdl)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_NbAcc", datatype, scale, &acc);
    return armci_xfer("ARMCI_NbAcc", XG_GAS_XFER_ACC, &acc, dst, src, bytes,
                      proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbAcc);

XG_ARMCI_API void ARMCI_Copy(void *src, void *dst, int size)
{
    if (size < 0) {
        xg_armci_fail(__func__, "size %d is negative", size);
    }
    memmove(dst, src, (size_t)size);
}

/* ---- strided ---------------------------------------------------------------- */

#define ARMCI_STRIDED_ARGS                                                  \
    void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[], \
        int count[], int stride_levels
#define ARMCI_STRIDED_PASS \
    src_ptr, src_stride_ar, dst_ptr, dst_stride_ar, count, stride_levels

XG_ARMCI_API int PARMCI_PutS(ARMCI_STRIDED_ARGS, int proc)
{
    return armci_strided("ARMCI_PutS", XG_GAS_XFER_PUT, NULL,
                         ARMCI_STRIDED_PASS, proc, NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_PutS);

XG_ARMCI_API int PARMCI_GetS(ARMCI_STRIDED_ARGS, int proc)
{
    return armci_strided("ARMCI_GetS", XG_GAS_XFER_GET, NULL,
                         ARMCI_STRIDED_PASS, proc, NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_GetS);

XG_ARMCI_API int PARMCI_AccS(int datatype, void *scale, ARMCI_STRIDED_ARGS,
                             int proc)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_AccS", datatype, scale, &acc);
    return armci_strided("ARMCI_AccS", XG_GAS_XFER_ACC, &acc,
                         ARMCI_STRIDED_PASS, proc, NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_AccS);

XG_ARMCI_API int PARMCI_NbPutS(ARMCI_STRIDED_ARGS, int proc, armci_hdl_t *hdl)
{
    return armci_strided("ARMCI_NbPutS", XG_GAS_XFER_PUT, NULL,
                         ARMCI_STRIDED_PASS, proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbPutS);

XG_ARMCI_API int PARMCI_NbGetS(ARMCI_STRIDED_ARGS, int proc, armci_hdl_t *hdl)
{
    return armci_strided("ARMCI_NbGetS", XG_GAS_XFER_GET, NULL,
                         ARMCI_STRIDED_PASS, proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbGetS);

XG_ARMCI_API int PARMCI_NbAccS(int datatype, void *scale, ARMCI_STRIDED_ARGS,
                               int proc, armci_hdl_t *hdl)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_NbAccS", datatype, scale, &acc);
    return armci_strided("ARMCI_NbAccS", XG_GAS_XFER_ACC, &acc,
                         ARMCI_STRIDED_PASS, proc, hdl, 1);
}
XG_ARMCI_WEAK(ARMCI_NbAccS);

/* ---- flagged puts -------------------------------------------------------------- */

/* The flag after the data: the data is complete at the target first. */
static void armci_set_flag(const char *routine, int *flag, int value, int proc)
{
    PARMCI_Fence(proc);
    armci_xfer(routine, XG_GAS_XFER_PUT, NULL, flag, &value, (int)sizeof(value),
               proc, NULL, 0);
}

XG_ARMCI_API int PARMCI_Put_flag(void *src, void *dst, int size, int *flag,
                                 int value, int proc)
{
    armci_xfer("ARMCI_Put_flag", XG_GAS_XFER_PUT, NULL, dst, src, size, proc,
               NULL, 0);
    armci_set_flag("ARMCI_Put_flag", flag, value, proc);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_Put_flag);

XG_ARMCI_API int PARMCI_PutS_flag(ARMCI_STRIDED_ARGS, int *flag, int value,
                                  int proc)
{
    armci_strided("ARMCI_PutS_flag", XG_GAS_XFER_PUT, NULL, ARMCI_STRIDED_PASS,
                  proc, NULL, 0);
    armci_set_flag("ARMCI_PutS_flag", flag, value, proc);
    return 0;
}
XG_ARMCI_WEAK(ARMCI_PutS_flag);

/* ---- vectors ---------------------------------------------------------------- */

XG_ARMCI_API int PARMCI_PutV(armci_giov_t *iov, int iov_len, int proc)
{
    return armci_vector("ARMCI_PutV", XG_GAS_XFER_PUT, NULL, iov, iov_len, proc,
                        NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_PutV);

XG_ARMCI_API int PARMCI_GetV(armci_giov_t *iov, int iov_len, int proc)
{
    return armci_vector("ARMCI_GetV", XG_GAS_XFER_GET, NULL, iov, iov_len, proc,
                        NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_GetV);

XG_ARMCI_API int PARMCI_AccV(int datatype, void *scale, armci_giov_t *iov,
                             int iov_len, int proc)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_AccV", datatype, scale, &acc);
    return armci_vector("ARMCI_AccV", XG_GAS_XFER_ACC, &acc, iov, iov_len, proc,
                        NULL, 0);
}
XG_ARMCI_WEAK(ARMCI_AccV);

XG_ARMCI_API int PARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc,
                               armci_hdl_t *handle)
{
    return armci_vector("ARMCI_NbPutV", XG_GAS_XFER_PUT, NULL, iov, iov_len,
                        proc, handle, 1);
}
XG_ARMCI_WEAK(ARMCI_NbPutV);

XG_ARMCI_API int PARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc,
                               armci_hdl_t *handle)
{
    return armci_vector("ARMCI_NbGetV", XG_GAS_XFER_GET, NULL, iov, iov_len,
                        proc, handle, 1);
}
XG_ARMCI_WEAK(ARMCI_NbGetV);

XG_ARMCI_API int PARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov,
                               int iov_len, int proc, armci_hdl_t *handle)
{
    xg_gas_acc_t acc;

    xg_armci_acc("ARMCI_NbAccV", datatype, scale, &acc);
    return armci_vector("ARMCI_NbAccV", XG_GAS_XFER_ACC, &acc, iov, iov_len,
                        proc, handle, 1);
}
XG_ARMCI_WEAK(ARMCI_NbAccV);

/* ---- single values ------------------------------------------------------------ */

#define ARMCI_VALUE(NAME, TYPE)                                                \
    XG_ARMCI_API int PARMCI_PutValue##NAME(TYPE src, void *dst, int proc)      \
    {                                                                          \
        return armci_xfer("ARMCI_PutValue" #NAME, XG_GAS_XFER_PUT, NULL, dst,  \
                          &src, (int)sizeof(TYPE), proc, NULL, 0);             \
    }                                                                          \
    XG_ARMCI_WEAK(ARMCI_PutValue##NAME);                                       \
    XG_ARMCI_API int PARMCI_NbPutValue##NAME(TYPE src, void *dst, int proc,    \
                                             armci_hdl_t *hdl)                 \
    {                                                                          \
        /* the value lives on this stack: complete before returning */         \
        return armci_xfer("ARMCI_NbPutValue" #NAME, XG_GAS_XFER_PUT, NULL,     \
                          dst, &src, (int)sizeof(TYPE), proc, hdl, 0);         \
    }                                                                          \
    XG_ARMCI_WEAK(ARMCI_NbPutValue##NAME);                                     \
    XG_ARMCI_API TYPE PARMCI_GetValue##NAME(void *src, int proc)               \
    {                                                                          \
        TYPE value;                                                            \
                                                                               \
        armci_xfer("ARMCI_GetValue" #NAME, XG_GAS_XFER_GET, NULL, &value, src, \
                   (int)sizeof(TYPE), proc, NULL, 0);                          \
        return value;                                                          \
    }                                                                          \
    XG_ARMCI_WEAK(ARMCI_GetValue##NAME);

ARMCI_VALUE(Int, int)
ARMCI_VALUE(Long, long)
ARMCI_VALUE(Float, float)
ARMCI_VALUE(Double, double)
#undef ARMCI_VALUE

/* ---- local strided copies ---------------------------------------------------- */

/* Walks the rows of a local patch at @ptr (strides @stride, counts
 * @count) in order, copying each to (@to_buf) or from the packed @buf. */
static void armci_local_strided(const char *routine, void *ptr, int levels,
                                const int *stride, const int *count, char *buf,
                                int to_buf)
{
    xg_gas_shape_t shape;
    size_t idx[ARMCI_MAX_STRIDE_LEVEL] = {0};
    int i;

    armci_shape(routine, stride, stride, count, levels, &shape);
    for (i = 0; i <= levels; i++) {
        if (shape.count[i] == 0) {
            return;
        }
    }
    for (;;) {
        char *row = ptr;

        for (i = 0; i < levels; i++) {
            row += idx[i] * shape.src_stride[i];
        }
        if (to_buf) {
            memcpy(buf, row, shape.count[0]);
        } else {
            memcpy(row, buf, shape.count[0]);
        }
        buf += shape.count[0];
        for (i = 0; i < levels; i++) {
            if (++idx[i] < shape.count[i + 1]) {
                break;
            }
            idx[i] = 0;
        }
        if (i == levels) {
            return;
        }
    }
}

XG_ARMCI_API void armci_write_strided(void *ptr, int stride_levels,
                                      int stride_arr[], int count[], char *buf)
{
    armci_local_strided(__func__, ptr, stride_levels, stride_arr, count, buf,
                        0);
}

XG_ARMCI_API void armci_read_strided(void *ptr, int stride_levels,
                                     int stride_arr[], int count[], char *buf)
{
    armci_local_strided(__func__, ptr, stride_levels, stride_arr, count, buf,
                        1);
}
