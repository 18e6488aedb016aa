/*
 * xbrtime atomics: void routines on 4- and 8-byte integers, each one gas
 * atomic operation on the target word.  As in the published runtime,
 * land/lor/lxor are bitwise (its eamoand/eamoor/eamoxor) and min/max
 * exist for the unsigned types (the typed-operation table's, through
 * xg_gas_amo_op); unlike it, long and unsigned long use their full width
 * (the published code used 32-bit operations for them).
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
    xg_gas_amo_result_t result =
        xg_gas_amo(&xg_xbrtime_ctx, op, dest, size, value, cond, pe);

    if (xg_unlikely(result.status != XG_OK)) {
        xg_xbrtime_access_fail(routine, result.status, dest, size, pe);
    }
}

/* The table operations xg_gas_amo has no case for (unsigned min, max). */
static XG_NOINLINE void amo_op(const char *routine, xg_op_t op,
                               xg_op_type_t type, void *dest, const void *value,
                               int pe)
{
    xg_status_t status =
        xg_gas_amo_op(&xg_xbrtime_ctx, op, type, dest, value, NULL, pe);

    if (status != XG_OK) {
        xg_xbrtime_access_fail(routine, status, dest, xg_op_type_size(type),
                               pe);
    }
}

#define XBR_DEFINE_AMO_OP(TYPE, NAME, OP, GASOP)                              \
    XG_XBRTIME_API void xbrtime_##NAME##_atomic_##OP(TYPE *dest, TYPE op_val, \
                                                     int pe)                  \
    {                                                                         \
        amo(__func__, GASOP, dest, sizeof(TYPE), (uint64_t)op_val, 0, pe);    \
    }
#define XBR_DEFINE_AMO_MINMAX(TYPE, NAME, OP, TABLE_OP)                       \
    XG_XBRTIME_API void xbrtime_##NAME##_atomic_##OP(TYPE *dest, TYPE op_val, \
                                                     int pe)                  \
    {                                                                         \
        amo_op(__func__, TABLE_OP, XG_TYPE_OF(TYPE), dest, &op_val, pe);      \
    }
#define XBR_DEFINE_AMO(TYPE, NAME, COLL, BITS, AMO, UAMO)                     \
    XBRTIME_IF_##AMO(                                                         \
        XBR_DEFINE_AMO_OP(TYPE, NAME, add, XG_GAS_AMO_ADD) XBR_DEFINE_AMO_OP( \
            TYPE, NAME, land, XG_GAS_AMO_AND)                                 \
            XBR_DEFINE_AMO_OP(TYPE, NAME, lor, XG_GAS_AMO_OR)                 \
                XBR_DEFINE_AMO_OP(TYPE, NAME, lxor, XG_GAS_AMO_XOR)           \
                    XG_XBRTIME_API void xbrtime_##NAME##_atomic_compare_swap( \
                        TYPE *dest, TYPE comp_val, int pe) {                  \
                        amo(__func__, XG_GAS_AMO_CSWAP, dest, sizeof(TYPE),   \
                            (uint64_t)comp_val, 0, pe);                       \
                    })                                                        \
        XBRTIME_IF_##UAMO(                                                    \
            XBR_DEFINE_AMO_MINMAX(TYPE, NAME, min, XG_OP_MIN)                 \
                XBR_DEFINE_AMO_MINMAX(TYPE, NAME, max, XG_OP_MAX))
XBRTIME_TYPE_TABLE(XBR_DEFINE_AMO)
#undef XBR_DEFINE_AMO
#undef XBR_DEFINE_AMO_MINMAX
#undef XBR_DEFINE_AMO_OP
