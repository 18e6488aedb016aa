/*
 * Portals atomic operations on every datatype, elementwise.  Elements are
 * moved with memcpy (the target of an atomic may sit anywhere in a
 * region); signed sums and products wrap like their unsigned counterparts
 * instead of invoking undefined overflow.  Atomicity comes from the caller:
 * the target applies operations under its NI lock, so they are atomic with
 * respect to every other Portals operation on that NI, as the
 * specification requires.
 */
#include <complex.h>
#include <string.h>

#include "nic/xg_nic.h"
#include "nic/xg_nic_atomic.h"

enum {
    CLASS_INT     = 1u << 0,
    CLASS_FLOAT   = 1u << 1,
    CLASS_COMPLEX = 1u << 2
};

static unsigned atomic_class(ptl_datatype_t type)
{
    switch (type) {
    case PTL_INT8_T: case PTL_UINT8_T: case PTL_INT16_T: case PTL_UINT16_T:
    case PTL_INT32_T: case PTL_UINT32_T: case PTL_INT64_T: case PTL_UINT64_T:
        return CLASS_INT;
    case PTL_FLOAT: case PTL_DOUBLE: case PTL_LONG_DOUBLE:
        return CLASS_FLOAT;
    case PTL_FLOAT_COMPLEX: case PTL_DOUBLE_COMPLEX:
    case PTL_LONG_DOUBLE_COMPLEX:
        return CLASS_COMPLEX;
    default:
        return 0;
    }
}

size_t xg_nic_atomic_size(ptl_datatype_t type)
{
    switch (type) {
    case PTL_INT8_T: case PTL_UINT8_T:              return 1;
    case PTL_INT16_T: case PTL_UINT16_T:            return 2;
    case PTL_INT32_T: case PTL_UINT32_T:
    case PTL_FLOAT:                                 return 4;
    case PTL_INT64_T: case PTL_UINT64_T:
    case PTL_DOUBLE: case PTL_FLOAT_COMPLEX:        return 8;
    case PTL_DOUBLE_COMPLEX:                        return 16;
    case PTL_LONG_DOUBLE:                           return sizeof(long double);
    case PTL_LONG_DOUBLE_COMPLEX:
        return sizeof(long double complex);
    default:                                        return 0;
    }
}

int xg_nic_atomic_valid(ptl_op_t op, ptl_datatype_t type)
{
    unsigned cls = atomic_class(type);

    if (cls == 0) {
        return 0;
    }
    switch (op) {
    case PTL_SUM: case PTL_PROD: case PTL_SWAP: case PTL_CSWAP:
    case PTL_CSWAP_NE:
        return 1;
    case PTL_MIN: case PTL_MAX: case PTL_CSWAP_LE: case PTL_CSWAP_LT:
    case PTL_CSWAP_GE: case PTL_CSWAP_GT:
        return (cls & (CLASS_INT | CLASS_FLOAT)) != 0;
    case PTL_LOR: case PTL_LAND: case PTL_LXOR: case PTL_BOR: case PTL_BAND:
    case PTL_BXOR: case PTL_MSWAP:
        return cls == CLASS_INT;
    default:
        return 0;
    }
}

/*
 * One kernel per datatype: the loop over the elements is shared, the
 * operations a class of types supports differ.  Each CASES macro expands
 * to the switch cases computing r from the target t, the source s and the
 * compare operand c (U: the unsigned twin of an integer type, for wrapping
 * arithmetic).  Unsupported operations were refused by xg_nic_atomic_valid.
 */
#define XG_ATOMIC_SWAP_CASES                                               \
    case PTL_SUM:      r = t + s; break;                                   \
    case PTL_PROD:     r = t * s; break;                                   \
    case PTL_SWAP:     r = s; break;                                       \
    case PTL_CSWAP:    r = (c == t) ? s : t; break;                        \
    case PTL_CSWAP_NE: r = (c != t) ? s : t; break;

#define XG_ATOMIC_ORDERED_CASES                                            \
    case PTL_MIN:      r = (s < t) ? s : t; break;                         \
    case PTL_MAX:      r = (s > t) ? s : t; break;                         \
    case PTL_CSWAP_LE: r = (c <= t) ? s : t; break;                        \
    case PTL_CSWAP_LT: r = (c < t) ? s : t; break;                         \
    case PTL_CSWAP_GE: r = (c >= t) ? s : t; break;                        \
    case PTL_CSWAP_GT: r = (c > t) ? s : t; break;

#define XG_ATOMIC_INT_CASES(T, U)                                          \
    XG_ATOMIC_ORDERED_CASES                                                \
    case PTL_SUM:      r = (T)(U)((U)t + (U)s); break;                     \
    case PTL_PROD:     r = (T)(U)((U)t * (U)s); break;                     \
    case PTL_SWAP:     r = s; break;                                       \
    case PTL_CSWAP:    r = (c == t) ? s : t; break;                        \
    case PTL_CSWAP_NE: r = (c != t) ? s : t; break;                        \
    case PTL_LOR:      r = (T)((t != 0) || (s != 0)); break;               \
    case PTL_LAND:     r = (T)((t != 0) && (s != 0)); break;               \
    case PTL_LXOR:     r = (T)((t != 0) != (s != 0)); break;               \
    case PTL_BOR:      r = (T)(t | s); break;                              \
    case PTL_BAND:     r = (T)(t & s); break;                              \
    case PTL_BXOR:     r = (T)(t ^ s); break;                              \
    case PTL_MSWAP:    r = (T)(((U)t & (U)~(U)c) | ((U)s & (U)c)); break;

#define XG_ATOMIC_KERNEL(name, T, CASES)                                   \
static void name(ptl_op_t op, uint8_t *tgt, const uint8_t *src,            \
                 const uint8_t *operand, uint8_t *fetch, size_t count)     \
{                                                                          \
    T t, s, r, c = 0;                                                      \
    size_t i;                                                              \
                                                                           \
    if (operand != NULL) {                                                 \
        memcpy(&c, operand, sizeof(c));                                    \
    }                                                                      \
    for (i = 0; i < count; i++) {                                          \
        memcpy(&t, tgt + i * sizeof(T), sizeof(T));                        \
        memcpy(&s, src + i * sizeof(T), sizeof(T));                        \
        if (fetch != NULL) {                                               \
            memcpy(fetch + i * sizeof(T), &t, sizeof(T));                  \
        }                                                                  \
        switch (op) {                                                      \
        CASES                                                              \
        default: r = t; break;                                             \
        }                                                                  \
        memcpy(tgt + i * sizeof(T), &r, sizeof(T));                        \
    }                                                                      \
}

#define XG_ATOMIC_INT(name, T, U)                                          \
    XG_ATOMIC_KERNEL(name, T, XG_ATOMIC_INT_CASES(T, U))
#define XG_ATOMIC_FLOAT(name, T)                                           \
    XG_ATOMIC_KERNEL(name, T, XG_ATOMIC_ORDERED_CASES XG_ATOMIC_SWAP_CASES)
/* complex types have no order: sums, products and swaps only */
#define XG_ATOMIC_COMPLEX(name, T)                                         \
    XG_ATOMIC_KERNEL(name, T, XG_ATOMIC_SWAP_CASES)

XG_ATOMIC_INT(atomic_i8, int8_t, uint8_t)
XG_ATOMIC_INT(atomic_u8, uint8_t, uint8_t)
XG_ATOMIC_INT(atomic_i16, int16_t, uint16_t)
XG_ATOMIC_INT(atomic_u16, uint16_t, uint16_t)
XG_ATOMIC_INT(atomic_i32, int32_t, uint32_t)
XG_ATOMIC_INT(atomic_u32, uint32_t, uint32_t)
XG_ATOMIC_INT(atomic_i64, int64_t, uint64_t)
XG_ATOMIC_INT(atomic_u64, uint64_t, uint64_t)
XG_ATOMIC_FLOAT(atomic_flt, float)
XG_ATOMIC_FLOAT(atomic_dbl, double)
XG_ATOMIC_FLOAT(atomic_ldbl, long double)
XG_ATOMIC_COMPLEX(atomic_cflt, float complex)
XG_ATOMIC_COMPLEX(atomic_cdbl, double complex)
XG_ATOMIC_COMPLEX(atomic_cldbl, long double complex)

typedef void (*atomic_func_t)(ptl_op_t, uint8_t *, const uint8_t *,
                              const uint8_t *, uint8_t *, size_t);

static const atomic_func_t atomic_funcs[PTL_DATATYPE_LAST] = {
    [PTL_INT8_T]              = atomic_i8,
    [PTL_UINT8_T]             = atomic_u8,
    [PTL_INT16_T]             = atomic_i16,
    [PTL_UINT16_T]            = atomic_u16,
    [PTL_INT32_T]             = atomic_i32,
    [PTL_UINT32_T]            = atomic_u32,
    [PTL_FLOAT]               = atomic_flt,
    [PTL_INT64_T]             = atomic_i64,
    [PTL_UINT64_T]            = atomic_u64,
    [PTL_DOUBLE]              = atomic_dbl,
    [PTL_FLOAT_COMPLEX]       = atomic_cflt,
    [PTL_DOUBLE_COMPLEX]      = atomic_cdbl,
    [PTL_LONG_DOUBLE]         = atomic_ldbl,
    [PTL_LONG_DOUBLE_COMPLEX] = atomic_cldbl,
};

void xg_nic_atomic_apply(ptl_op_t op, ptl_datatype_t type, uint8_t *target,
                         const uint8_t *src, const uint8_t *operand,
                         uint8_t *fetch, size_t count)
{
    if ((type < PTL_DATATYPE_LAST) && xg_nic_atomic_valid(op, type)) {
        atomic_funcs[type](op, target, src, operand, fetch, count);
    }
}
