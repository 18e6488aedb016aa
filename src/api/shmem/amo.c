/*
 * OpenSHMEM atomic memory operations, blocking and non-blocking, with the
 * deprecated OpenSHMEM 1.3 names as aliases.
 *
 * Each routine is one gas atomic (gas/xg_gas_ops.h) on the operand's bits:
 * on this node, translate (alignment check, PE range check, NLB hit, bounds
 * check), then one CPU atomic instruction on the translated address, with
 * no lock anywhere.  Since all PEs reach an object through the same
 * physical pages, a CPU atomic on it is atomic with respect to the atomics
 * of every other PE; the operand must be naturally aligned for that, which
 * gas checks.  float and double move their bits as a same-size integer
 * (fetch, set, swap).
 *
 * Memory order (gas's): read-modify-write operations are sequentially
 * consistent; on x86 every locked instruction is a full barrier anyway, so
 * this costs nothing there.  set is a release store and fetch an acquire
 * load: on x86 (TSO) a plain mov each, where a sequentially consistent
 * store would need an xchg.  That is enough for the usual pattern (write
 * data, set a flag; fetch the flag, read the data); the specification
 * orders operations on different objects only through shmem_fence and
 * shmem_quiet.
 *
 * The non-blocking fetching forms (_nbi) complete before they return, which
 * the specification allows: it only requires completion at shmem_quiet.
 * The routines without a result (add, inc, set, and, or, xor) to a PE
 * reached through the NIC are issued and complete at the context's quiet
 * (gas's xg_gas_amo_nbi_slow), so a stream of them is pipelined; on this
 * node they are the same CPU atomic as the rest.
 */
#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"

/* What a call site does, for its slow path. */
typedef struct amo_site {
    const char *routine;
    xg_gas_amo_t op;
    size_t size;
    int updating; /* no result wanted: may complete at quiet */
} amo_site_t;

/* The whole gas operation (NLB miss, globals, errors): a status ends the
 * job.  The parameters come in the registers the routine received its own
 * (dest, value, pe), so the fast path moves nothing before the call. */
static XG_NOINLINE uint64_t amo_slow(const void *dest, uint64_t value, int pe,
                                     uint64_t cond, xg_gas_ctx_t *gctx,
                                     const amo_site_t *site)
{
    xg_gas_amo_result_t result = {0, XG_OK};

    if (site->updating) {
        result.status = xg_gas_amo_nbi_slow(gctx, site->op, (void *)dest,
                                            site->size, value, pe);
    } else {
        result = xg_gas_amo(gctx, site->op, (void *)dest, site->size, value,
                            cond, pe);
    }
    if (xg_unlikely(result.status != XG_OK)) {
        xg_shmem_status_fail(site->routine, result.status, dest, site->size,
                             pe);
    }
    return result.old;
}

/*
 * One gas atomic, described by @site, on the object at @dest on world PE
 * @pe: the direct route inline, everything else in amo_slow, which the
 * fast path tail-calls, so the fast path needs no stack frame.
 */
static XG_ALWAYS_INLINE uint64_t amo_do(xg_gas_ctx_t *gctx,
                                        const amo_site_t *site,
                                        const void *dest, uint64_t value,
                                        uint64_t cond, int pe)
{
    uint64_t old;

    if (xg_likely(xg_gas_amo_direct(site->op, (void *)dest, site->size, value,
                                    cond, &old, pe))) {
        return old;
    }
    return amo_slow(dest, value, pe, cond, gctx, site);
}

/* The description of the routine being defined, for amo_do. */
#define XG_AMO_SITE(OP, TYPE) \
    static const amo_site_t site = {__func__, XG_GAS_AMO_##OP, sizeof(TYPE), 0};
/* ... of a routine without a result (shmem_atomic_add, _inc, _set, _and,
 * _or, _xor), which OpenSHMEM completes at the next quiet. */
#define XG_AMO_SITE_UPDATING(OP, TYPE) \
    static const amo_site_t site = {__func__, XG_GAS_AMO_##OP, sizeof(TYPE), 1};

/* A TYPE value as the bits gas operates on, and back (float and double
 * keep their representation; integers their two's complement). */
#define XG_AMO_DEFINE_BITS(TYPE, TYPENAME)                           \
    typedef union {                                                  \
        TYPE value;                                                  \
        uint32_t u32;                                                \
        uint64_t u64;                                                \
    } amo_bits_##TYPENAME##_t;                                       \
                                                                     \
    static XG_ALWAYS_INLINE uint64_t amo_bits_##TYPENAME(TYPE value) \
    {                                                                \
        amo_bits_##TYPENAME##_t bits = {.u64 = 0};                   \
                                                                     \
        bits.value = value;                                          \
        return (sizeof(TYPE) == 4) ? bits.u32 : bits.u64;            \
    }                                                                \
                                                                     \
    static XG_ALWAYS_INLINE TYPE amo_value_##TYPENAME(uint64_t raw)  \
    {                                                                \
        amo_bits_##TYPENAME##_t bits;                                \
                                                                     \
        if (sizeof(TYPE) == 4) {                                     \
            bits.u32 = (uint32_t)raw;                                \
        } else {                                                     \
            bits.u64 = raw;                                          \
        }                                                            \
        return bits.value;                                           \
    }

XG_SHMEM_AMO_EXTENDED_TYPES(XG_AMO_DEFINE_BITS)

/* OP on DEST of TYPE with VALUE and COND (TYPE values): the old value. */
#define XG_AMO_CALL(TYPE, TYPENAME, DEST, VALUE, COND)                         \
    amo_value_##TYPENAME(amo_do(gctx, &site, DEST, amo_bits_##TYPENAME(VALUE), \
                                amo_bits_##TYPENAME(COND), pe))

/* A fetching atomic, its non-blocking form (the old value stored to
 * *fetch) and, for an updating one, the form without a result. */
#define XG_AMO_FETCHING(TYPE, TYPENAME, NAME, OP, PARAMS, VALUE, COND) \
    XG_SHMEM_DEFINE(TYPE, TYPENAME##_atomic_##NAME,                    \
                    (TYPE * dest PARAMS int pe),                       \
                    XG_AMO_SITE(OP, TYPE) return XG_AMO_CALL(          \
                        TYPE, TYPENAME, dest, VALUE, COND);)           \
    XG_SHMEM_DEFINE(void, TYPENAME##_atomic_##NAME##_nbi,              \
                    (TYPE * fetch, TYPE * dest PARAMS int pe),         \
                    XG_AMO_SITE(OP, TYPE) *fetch =                     \
                        XG_AMO_CALL(TYPE, TYPENAME, dest, VALUE, COND);)

#define XG_AMO_UPDATING(TYPE, TYPENAME, NAME, OP, PARAMS, VALUE) \
    XG_SHMEM_DEFINE(void, TYPENAME##_atomic_##NAME,              \
                    (TYPE * dest PARAMS int pe),                 \
                    XG_AMO_SITE_UPDATING(OP, TYPE)(void)         \
                        XG_AMO_CALL(TYPE, TYPENAME, dest, VALUE, (TYPE)0);)

#define XG_AMO_COMMA ,

#define XG_AMO_DEFINE_STANDARD(TYPE, TYPENAME)                              \
    XG_AMO_FETCHING(                                                        \
        TYPE, TYPENAME, compare_swap, CSWAP,                                \
        XG_AMO_COMMA TYPE cond XG_AMO_COMMA TYPE value XG_AMO_COMMA, value, \
        cond)                                                               \
    XG_AMO_FETCHING(TYPE, TYPENAME, fetch_inc, ADD, XG_AMO_COMMA, (TYPE)1,  \
                    (TYPE)0)                                                \
    XG_AMO_UPDATING(TYPE, TYPENAME, inc, ADD, XG_AMO_COMMA, (TYPE)1)        \
    XG_AMO_FETCHING(TYPE, TYPENAME, fetch_add, ADD,                         \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value, (TYPE)0)   \
    XG_AMO_UPDATING(TYPE, TYPENAME, add, ADD,                               \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value)

XG_SHMEM_AMO_STANDARD_TYPES(XG_AMO_DEFINE_STANDARD)

#define XG_AMO_DEFINE_EXTENDED(TYPE, TYPENAME)                      \
    XG_SHMEM_DEFINE(TYPE, TYPENAME##_atomic_fetch,                  \
                    (const TYPE *source, int pe),                   \
                    XG_AMO_SITE(FETCH, TYPE) return XG_AMO_CALL(    \
                        TYPE, TYPENAME, source, (TYPE)0, (TYPE)0);) \
    XG_SHMEM_DEFINE(void, TYPENAME##_atomic_fetch_nbi,              \
                    (TYPE * fetch, const TYPE *source, int pe),     \
                    XG_AMO_SITE(FETCH, TYPE) *fetch = XG_AMO_CALL(  \
                        TYPE, TYPENAME, source, (TYPE)0, (TYPE)0);) \
    XG_AMO_UPDATING(TYPE, TYPENAME, set, SET,                       \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value)    \
    XG_AMO_FETCHING(TYPE, TYPENAME, swap, SWAP,                     \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value, (TYPE)0)

XG_SHMEM_AMO_EXTENDED_TYPES(XG_AMO_DEFINE_EXTENDED)

#define XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, NAME, OP)                \
    XG_AMO_FETCHING(TYPE, TYPENAME, fetch_##NAME, OP,                     \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value, (TYPE)0) \
    XG_AMO_UPDATING(TYPE, TYPENAME, NAME, OP,                             \
                    XG_AMO_COMMA TYPE value XG_AMO_COMMA, value)

#define XG_AMO_DEFINE_BITWISE(TYPE, TYPENAME)          \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, and, AND) \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, or, OR)   \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, xor, XOR)

XG_SHMEM_AMO_BITWISE_TYPES(XG_AMO_DEFINE_BITWISE)

/* The deprecated names are more names for the same code: weak symbols,
 * each with its pshmem_ name, like every routine.  They alias the strong
 * pshmem_ symbol of the current name (an alias of a weak symbol would not
 * follow a tool's replacement of it anyway). */
#define XG_AMO_ALIAS(OLD, NEW)            \
    XG_EXPORT_ALIAS(OLD, p##NEW) XG_WEAK; \
    XG_EXPORT_ALIAS(p##OLD, p##NEW);

#define XG_AMO_DEFINE_DEPRECATED(TYPE, TYPENAME)                               \
    XG_AMO_ALIAS(shmem_##TYPENAME##_cswap,                                     \
                 shmem_##TYPENAME##_atomic_compare_swap)                       \
    XG_AMO_ALIAS(shmem_##TYPENAME##_fadd, shmem_##TYPENAME##_atomic_fetch_add) \
    XG_AMO_ALIAS(shmem_##TYPENAME##_finc, shmem_##TYPENAME##_atomic_fetch_inc) \
    XG_AMO_ALIAS(shmem_##TYPENAME##_add, shmem_##TYPENAME##_atomic_add)        \
    XG_AMO_ALIAS(shmem_##TYPENAME##_inc, shmem_##TYPENAME##_atomic_inc)

XG_SHMEM_AMO_DEPRECATED_TYPES(XG_AMO_DEFINE_DEPRECATED)

#define XG_AMO_DEFINE_DEPRECATED_EXTENDED(TYPE, TYPENAME)                   \
    XG_AMO_ALIAS(shmem_##TYPENAME##_fetch, shmem_##TYPENAME##_atomic_fetch) \
    XG_AMO_ALIAS(shmem_##TYPENAME##_set, shmem_##TYPENAME##_atomic_set)     \
    XG_AMO_ALIAS(shmem_##TYPENAME##_swap, shmem_##TYPENAME##_atomic_swap)

XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES(XG_AMO_DEFINE_DEPRECATED_EXTENDED)
