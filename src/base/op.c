/*
 * The typed-operation table (xg_op.h).  Each operation's arithmetic is
 * written once, as an XG_OPX_* expression of the destination d, the
 * source s and the operand x in the element type T (U: the type integer
 * arithmetic is done in, unsigned so that it wraps instead of overflowing;
 * narrow types go through unsigned int, which cannot overflow either).
 * The reduction loops, the general loop and the atomic form are all built
 * from these expressions.
 */
#include <complex.h>
#include <string.h>

#include "base/xg_op.h"

#define XG_OPX_SUM(T, U, d, s, x)      ((T)((U)(d) + (U)(s)))
#define XG_OPX_PROD(T, U, d, s, x)     ((T)((U)(d) * (U)(s)))
#define XG_OPX_MIN(T, U, d, s, x)      (((s) < (d)) ? (s) : (d))
#define XG_OPX_MAX(T, U, d, s, x)      (((s) > (d)) ? (s) : (d))
#define XG_OPX_BAND(T, U, d, s, x)     ((T)((d) & (s)))
#define XG_OPX_BOR(T, U, d, s, x)      ((T)((d) | (s)))
#define XG_OPX_BXOR(T, U, d, s, x)     ((T)((d) ^ (s)))
#define XG_OPX_LAND(T, U, d, s, x)     ((T)(((d) != 0) && ((s) != 0)))
#define XG_OPX_LOR(T, U, d, s, x)      ((T)(((d) != 0) || ((s) != 0)))
#define XG_OPX_LXOR(T, U, d, s, x)     ((T)(((d) != 0) != ((s) != 0)))
#define XG_OPX_ACC(T, U, d, s, x)      ((T)((U)(d) + (U)(x) * (U)(s)))
#define XG_OPX_SWAP(T, U, d, s, x)     (s)
#define XG_OPX_CSWAP(T, U, d, s, x)    (((x) == (d)) ? (s) : (d))
#define XG_OPX_CSWAP_NE(T, U, d, s, x) (((x) != (d)) ? (s) : (d))
#define XG_OPX_CSWAP_LE(T, U, d, s, x) (((x) <= (d)) ? (s) : (d))
#define XG_OPX_CSWAP_LT(T, U, d, s, x) (((x) < (d)) ? (s) : (d))
#define XG_OPX_CSWAP_GE(T, U, d, s, x) (((x) >= (d)) ? (s) : (d))
#define XG_OPX_CSWAP_GT(T, U, d, s, x) (((x) > (d)) ? (s) : (d))
#define XG_OPX_MSWAP(T, U, d, s, x) \
    ((T)(((U)(d) & ~(U)(x)) | ((U)(s) & (U)(x))))
#define XG_OPX_FETCH(T, U, d, s, x) (d)

/*
 * The operations of each class of types, as lists X(OP, ...) (the rest of
 * the arguments passed through): ordered types (integers and reals) add
 * MIN, MAX and the ordered compare-and-swaps to what complex types have;
 * integers add the bitwise and logical operations and MSWAP.  KERNEL
 * lists hold the element-wise operations, OTHER lists the rest.
 */
#define XG_OPS_KERNEL_ANY(X, ...) X(SUM, __VA_ARGS__) X(PROD, __VA_ARGS__)
#define XG_OPS_KERNEL_ORDERED(X, ...) \
    XG_OPS_KERNEL_ANY(X, __VA_ARGS__) X(MIN, __VA_ARGS__) X(MAX, __VA_ARGS__)
/* clang-format off */
#define XG_OPS_KERNEL_INT(X, ...)                                          \
    XG_OPS_KERNEL_ORDERED(X, __VA_ARGS__) X(BAND, __VA_ARGS__)             \
    X(BOR, __VA_ARGS__) X(BXOR, __VA_ARGS__) X(LAND, __VA_ARGS__)          \
    X(LOR, __VA_ARGS__) X(LXOR, __VA_ARGS__)
/* clang-format on */
/* clang-format off */
#define XG_OPS_OTHER_ANY(X, ...)                                           \
    X(ACC, __VA_ARGS__) X(SWAP, __VA_ARGS__) X(CSWAP, __VA_ARGS__)         \
    X(CSWAP_NE, __VA_ARGS__) X(FETCH, __VA_ARGS__)
/* clang-format on */
/* clang-format off */
#define XG_OPS_OTHER_ORDERED(X, ...)                                       \
    XG_OPS_OTHER_ANY(X, __VA_ARGS__) X(CSWAP_LE, __VA_ARGS__)              \
    X(CSWAP_LT, __VA_ARGS__) X(CSWAP_GE, __VA_ARGS__) X(CSWAP_GT, __VA_ARGS__)
/* clang-format on */
#define XG_OPS_OTHER_INT(X, ...) \
    XG_OPS_OTHER_ORDERED(X, __VA_ARGS__) X(MSWAP, __VA_ARGS__)

#define XG_OPS_COMPLEX(X, ...) \
    XG_OPS_KERNEL_ANY(X, __VA_ARGS__) XG_OPS_OTHER_ANY(X, __VA_ARGS__)
#define XG_OPS_REAL(X, ...) \
    XG_OPS_KERNEL_ORDERED(X, __VA_ARGS__) XG_OPS_OTHER_ORDERED(X, __VA_ARGS__)
#define XG_OPS_INT(X, ...) \
    XG_OPS_KERNEL_INT(X, __VA_ARGS__) XG_OPS_OTHER_INT(X, __VA_ARGS__)

/* Every type: X(NAME, T, U, KOPS, OPS): its element-wise operations and
 * all of its operations. */
#define XG_OP_TYPES(X)                                                         \
    X(I8, int8_t, unsigned int, XG_OPS_KERNEL_INT, XG_OPS_INT)                 \
    X(U8, uint8_t, unsigned int, XG_OPS_KERNEL_INT, XG_OPS_INT)                \
    X(I16, int16_t, unsigned int, XG_OPS_KERNEL_INT, XG_OPS_INT)               \
    X(U16, uint16_t, unsigned int, XG_OPS_KERNEL_INT, XG_OPS_INT)              \
    X(I32, int32_t, uint32_t, XG_OPS_KERNEL_INT, XG_OPS_INT)                   \
    X(U32, uint32_t, uint32_t, XG_OPS_KERNEL_INT, XG_OPS_INT)                  \
    X(I64, int64_t, uint64_t, XG_OPS_KERNEL_INT, XG_OPS_INT)                   \
    X(U64, uint64_t, uint64_t, XG_OPS_KERNEL_INT, XG_OPS_INT)                  \
    X(FLOAT, float, float, XG_OPS_KERNEL_ORDERED, XG_OPS_REAL)                 \
    X(DOUBLE, double, double, XG_OPS_KERNEL_ORDERED, XG_OPS_REAL)              \
    X(LDOUBLE, long double, long double, XG_OPS_KERNEL_ORDERED, XG_OPS_REAL)   \
    X(CFLOAT, float complex, float complex, XG_OPS_KERNEL_ANY, XG_OPS_COMPLEX) \
    X(CDOUBLE, double complex, double complex, XG_OPS_KERNEL_ANY,              \
      XG_OPS_COMPLEX)                                                          \
    X(CLDOUBLE, long double complex, long double complex, XG_OPS_KERNEL_ANY,   \
      XG_OPS_COMPLEX)

/* ---- sizes and validity ------------------------------------------------- */

#define XG_OP_SIZE_ROW(NAME, T, U, KOPS, OPS) [XG_TYPE_##NAME] = sizeof(T),
static const unsigned char op_type_size[XG_TYPE_COUNT] = {
    XG_OP_TYPES(XG_OP_SIZE_ROW)};

#define XG_OP_VALID_BIT(OP, ...) | (1u << XG_OP_##OP)
#define XG_OP_VALID_ROW(NAME, T, U, KOPS, OPS) \
    [XG_TYPE_##NAME] = 0 OPS(XG_OP_VALID_BIT, NAME),
static const uint32_t op_valid[XG_TYPE_COUNT] = {XG_OP_TYPES(XG_OP_VALID_ROW)};

size_t xg_op_type_size(xg_op_type_t type)
{
    return ((unsigned)type < XG_TYPE_COUNT) ? op_type_size[type] : 0;
}

int xg_op_valid(xg_op_t op, xg_op_type_t type)
{
    return ((unsigned)type < XG_TYPE_COUNT) && ((unsigned)op < XG_OP_COUNT) &&
           ((op_valid[type] >> op) & 1u);
}

/* ---- reduction loops ---------------------------------------------------- */

#define XG_OP_KERNEL_FN(OP, NAME, T, U)                                       \
    static void op_kernel_##NAME##_##OP(void *dst, const void *src, size_t n) \
    {                                                                         \
        T *restrict d       = dst;                                            \
        const T *restrict s = src;                                            \
        size_t i;                                                             \
                                                                              \
        for (i = 0; i < n; i++) {                                             \
            d[i] = XG_OPX_##OP(T, U, d[i], s[i], 0);                          \
        }                                                                     \
    }
#define XG_OP_KERNEL_FNS(NAME, T, U, KOPS, OPS) \
    KOPS(XG_OP_KERNEL_FN, NAME, T, U)
XG_OP_TYPES(XG_OP_KERNEL_FNS)

#define XG_OP_KERNEL_ENTRY(OP, NAME) [XG_OP_##OP] = op_kernel_##NAME##_##OP,
#define XG_OP_KERNEL_ROW(NAME, T, U, KOPS, OPS) \
    [XG_TYPE_##NAME] = {KOPS(XG_OP_KERNEL_ENTRY, NAME)},
static const xg_op_kernel_t op_kernels[XG_TYPE_COUNT][XG_OP_KERNEL_COUNT] = {
    XG_OP_TYPES(XG_OP_KERNEL_ROW)};

xg_op_kernel_t xg_op_kernel(xg_op_t op, xg_op_type_t type)
{
    if (((unsigned)type >= XG_TYPE_COUNT) ||
        ((unsigned)op >= XG_OP_KERNEL_COUNT)) {
        return NULL;
    }
    return op_kernels[type][op];
}

/* ---- any operation, any alignment --------------------------------------- */

/* Elements are moved with memcpy: a Portals target may sit anywhere. */
#define XG_OP_APPLY_CASE(OP, T, U)      \
    case XG_OP_##OP:                    \
        r = XG_OPX_##OP(T, U, d, s, x); \
        break;
#define XG_OP_APPLY_FN(NAME, T, U, KOPS, OPS)                                 \
    static void op_apply_##NAME(xg_op_t op, uint8_t *dst, const uint8_t *src, \
                                const uint8_t *operand, uint8_t *fetch,       \
                                size_t n)                                     \
    {                                                                         \
        T d, r, s = 0, x = 0;                                                 \
        size_t i;                                                             \
                                                                              \
        if (operand != NULL) {                                                \
            memcpy(&x, operand, sizeof(x));                                   \
        }                                                                     \
        for (i = 0; i < n; i++) {                                             \
            memcpy(&d, dst + i * sizeof(T), sizeof(T));                       \
            if (src != NULL) {                                                \
                memcpy(&s, src + i * sizeof(T), sizeof(T));                   \
            }                                                                 \
            if (fetch != NULL) {                                              \
                memcpy(fetch + i * sizeof(T), &d, sizeof(T));                 \
            }                                                                 \
            switch (op) {                                                     \
                OPS(XG_OP_APPLY_CASE, T, U)                                   \
            default: continue; /* invalid for the type: no change */          \
            }                                                                 \
            if (op != XG_OP_FETCH) { /* no write: d may be shared */          \
                memcpy(dst + i * sizeof(T), &r, sizeof(T));                   \
            }                                                                 \
        }                                                                     \
    }
XG_OP_TYPES(XG_OP_APPLY_FN)

typedef void (*op_apply_fn_t)(xg_op_t, uint8_t *, const uint8_t *,
                              const uint8_t *, uint8_t *, size_t);

#define XG_OP_APPLY_ROW(NAME, T, U, KOPS, OPS) \
    [XG_TYPE_##NAME] = op_apply_##NAME,
static const op_apply_fn_t op_apply[XG_TYPE_COUNT] = {
    XG_OP_TYPES(XG_OP_APPLY_ROW)};

void xg_op_apply(xg_op_t op, xg_op_type_t type, void *dst, const void *src,
                 const void *operand, void *fetch, size_t n)
{
    if ((unsigned)type < XG_TYPE_COUNT) {
        op_apply[type](op, dst, src, operand, fetch, n);
    }
}

/* ---- one element with CPU atomics --------------------------------------- */

/*
 * On a word W: the integer operations the CPU has instructions for use
 * them; every other one computes the new word with xg_op_apply and
 * installs it with compare-and-swap, retrying while another CPU changed
 * the word in between.  A result equal to the word read is not written:
 * the operation then takes effect at that read.
 */
#define XG_OP_ATOMIC_FN(W)                                                   \
    static void op_atomic_##W(xg_op_t op, xg_op_type_t type, W *t,           \
                              const void *src, const void *operand,          \
                              void *fetch)                                   \
    {                                                                        \
        W s       = 0, old, new;                                             \
        int instr = (type <= XG_TYPE_U64); /* instructions for integers */   \
                                                                             \
        if (src != NULL) {                                                   \
            memcpy(&s, src, sizeof(s));                                      \
        }                                                                    \
        switch (instr ? op : XG_OP_COUNT) {                                  \
        case XG_OP_SUM: old = __atomic_fetch_add(t, s, __ATOMIC_SEQ_CST);    \
            break;                                                           \
        case XG_OP_BAND:                                                     \
            old = __atomic_fetch_and(t, s, __ATOMIC_SEQ_CST);                \
            break;                                                           \
        case XG_OP_BOR: old = __atomic_fetch_or(t, s, __ATOMIC_SEQ_CST);     \
            break;                                                           \
        case XG_OP_BXOR:                                                     \
            old = __atomic_fetch_xor(t, s, __ATOMIC_SEQ_CST);                \
            break;                                                           \
        case XG_OP_SWAP:                                                     \
            old = __atomic_exchange_n(t, s, __ATOMIC_SEQ_CST);               \
            break;                                                           \
        case XG_OP_CSWAP:                                                    \
            old = 0;                                                         \
            if (operand != NULL) {                                           \
                memcpy(&old, operand, sizeof(old));                          \
            }                                                                \
            __atomic_compare_exchange_n(t, &old, s, 0, __ATOMIC_SEQ_CST,     \
                                        __ATOMIC_SEQ_CST);                   \
            break;                                                           \
        case XG_OP_FETCH: old = __atomic_load_n(t, __ATOMIC_SEQ_CST); break; \
        default:                                                             \
            old = __atomic_load_n(t, __ATOMIC_SEQ_CST);                      \
            do {                                                             \
                new = old;                                                   \
                xg_op_apply(op, type, &new, src, operand, NULL, 1);          \
            } while ((new != old) && !__atomic_compare_exchange_n(           \
                                         t, &old, new, 1, __ATOMIC_SEQ_CST,  \
                                         __ATOMIC_SEQ_CST));                 \
            break;                                                           \
        }                                                                    \
        if (fetch != NULL) {                                                 \
            memcpy(fetch, &old, sizeof(old));                                \
        }                                                                    \
    }
XG_OP_ATOMIC_FN(uint8_t)
XG_OP_ATOMIC_FN(uint16_t)
XG_OP_ATOMIC_FN(uint32_t)
XG_OP_ATOMIC_FN(uint64_t)

int xg_op_atomic(xg_op_t op, xg_op_type_t type, void *target, const void *src,
                 const void *operand, void *fetch)
{
    size_t size = xg_op_type_size(type);

    if (((uintptr_t)target & (size - 1)) != 0) {
        return 0;
    }
    switch (size) {
    case 1: op_atomic_uint8_t(op, type, target, src, operand, fetch); break;
    case 2: op_atomic_uint16_t(op, type, target, src, operand, fetch); break;
    case 4: op_atomic_uint32_t(op, type, target, src, operand, fetch); break;
    case 8: op_atomic_uint64_t(op, type, target, src, operand, fetch); break;
    default: return 0;
    }
    return 1;
}
