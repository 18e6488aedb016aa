/*
 * xbrtime atomics: void routines on 4- and 8-byte integers, each one gas
 * atomic operation on the target word.  As in the published runtime,
 * land/lor/lxor are bitwise (its eamoand/eamoor/eamoxor) and min/max
 * exist for the unsigned types; unlike it, long and unsigned long use
 * their full width (the published code used 32-bit operations for them).
 *
 * compare_swap is declared with no swap operand and no result; the
 * published code compares the target with whatever an unset register
 * holds.  Here it is defined as a claim: the target becomes comp_val if
 * it holds 0, and stays unchanged otherwise.
 */
#include "api/xbrtime/xbrtime_int.h"

static XG_ALWAYS_INLINE void amo(const char *routine, xg_gas_amo_t op,
                                 void *dest, size_t size, uint64_t value,
                                 uint64_t cond, int pe)
{
    xg_status_t status = xg_gas_amo(&xg_xbrtime_ctx, op, dest, size, value,
                                    cond, NULL, pe);

    if (xg_unlikely(status != XG_OK)) {
        xg_xbrtime_access_fail(routine, status, dest, size, pe);
    }
}

/* Unsigned minimum or maximum: a compare-and-swap retried while the
 * target still needs changing (gas has no min/max operation). */
static XG_NOINLINE void amo_minmax(const char *routine, int want_max,
                                   void *dest, size_t size, uint64_t value,
                                   int pe)
{
    uint64_t old, seen;
    xg_status_t status;

    status = xg_gas_amo(&xg_xbrtime_ctx, XG_GAS_AMO_FETCH, dest, size, 0, 0,
                        &old, pe);
    while ((status == XG_OK) && (want_max ? (value > old) : (value < old))) {
        status = xg_gas_amo(&xg_xbrtime_ctx, XG_GAS_AMO_CSWAP, dest, size,
                            value, old, &seen, pe);
        if (seen == old) {
            return;
        }
        old = seen;
    }
    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, dest, size, pe);
    }
}

#define XBR_DEFINE_AMO_OP(TYPE, NAME, OP, GASOP)                           \
    XG_XBRTIME_API void xbrtime_##NAME##_atomic_##OP(TYPE *dest,           \
                                                     TYPE op_val, int pe)  \
    {                                                                      \
        amo(__func__, GASOP, dest, sizeof(TYPE), (uint64_t)op_val, 0, pe); \
    }
#define XBR_DEFINE_AMO_MINMAX(TYPE, NAME, OP, WANT_MAX)                    \
    XG_XBRTIME_API void xbrtime_##NAME##_atomic_##OP(TYPE *dest,           \
                                                     TYPE op_val, int pe)  \
    {                                                                      \
        amo_minmax(__func__, WANT_MAX, dest, sizeof(TYPE),                 \
                   (uint64_t)op_val, pe);                                  \
    }
#define XBR_DEFINE_AMO(TYPE, NAME, COLL, BITS, AMO, UAMO)                  \
    XBRTIME_IF_##AMO(                                                      \
        XBR_DEFINE_AMO_OP(TYPE, NAME, add, XG_GAS_AMO_ADD)                 \
        XBR_DEFINE_AMO_OP(TYPE, NAME, land, XG_GAS_AMO_AND)                \
        XBR_DEFINE_AMO_OP(TYPE, NAME, lor, XG_GAS_AMO_OR)                  \
        XBR_DEFINE_AMO_OP(TYPE, NAME, lxor, XG_GAS_AMO_XOR)                \
        XG_XBRTIME_API void xbrtime_##NAME##_atomic_compare_swap(          \
            TYPE *dest, TYPE comp_val, int pe)                             \
        {                                                                  \
            amo(__func__, XG_GAS_AMO_CSWAP, dest, sizeof(TYPE),            \
                (uint64_t)comp_val, 0, pe);                                \
        })                                                                 \
    XBRTIME_IF_##UAMO(                                                     \
        XBR_DEFINE_AMO_MINMAX(TYPE, NAME, min, 0)                          \
        XBR_DEFINE_AMO_MINMAX(TYPE, NAME, max, 1))
XBRTIME_TYPE_TABLE(XBR_DEFINE_AMO)
#undef XBR_DEFINE_AMO
#undef XBR_DEFINE_AMO_MINMAX
#undef XBR_DEFINE_AMO_OP
