/*
 * OpenSHMEM atomic memory operations, blocking and non-blocking, with the
 * deprecated OpenSHMEM 1.3 names as aliases.
 *
 * Every PE is on this node and maps the others' symmetric memory, so an
 * atomic operation is: translate (PE range check, alignment check, NLB hit,
 * bounds check), then one CPU atomic instruction on the translated address.
 * No lock is taken anywhere.  Since all PEs reach an object through the same
 * physical pages, a CPU atomic on it is atomic with respect to the atomics
 * of every other PE; the operand must be naturally aligned for that, which
 * the translation checks.  float and double go through the size-generic
 * builtins (__atomic_load, __atomic_store, __atomic_exchange), which move
 * their bits as a same-size integer.
 *
 * Memory order: read-modify-write operations are sequentially consistent;
 * on x86 every locked instruction is a full barrier anyway, so this costs
 * nothing there.  set is a release store and fetch an acquire load: on x86
 * (TSO) a plain mov each, where a sequentially consistent store would need
 * an xchg.  That is enough for the usual pattern (write data, set a flag;
 * fetch the flag, read the data); the specification orders operations on
 * different objects only through shmem_fence and shmem_quiet.
 *
 * The non-blocking fetching forms (_nbi) complete before they return, which
 * the specification allows: it only requires completion at shmem_quiet.
 */
#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"

/*
 * XG_AMO_CORE(RET, NAME, TYPE, ADDR, (PARAMS), (ARGS), EXPR) defines
 * amo_NAME(routine, PARAMS): check that ADDR (a TYPE pointer among the
 * parameters) is naturally aligned, translate it for world PE pe into
 * `ptr`, and evaluate EXPR on it.  The slow path of the translation (NLB
 * miss, bad input) lives in a separate function, amo_slow_NAME, which the
 * fast path tail-calls: the fast path then needs no stack frame or saved
 * registers.  Operations without a result return a dummy 0.
 */
#define XG_AMO_ROUTINE_PARAMS(...) (const char *routine, __VA_ARGS__)
#define XG_AMO_ROUTINE_ARGS(...) (routine, __VA_ARGS__)
#define XG_AMO_CALLER_ARGS(...) (__func__, __VA_ARGS__)

#define XG_AMO_CORE(RET, NAME, TYPE, ADDR, PARAMS, ARGS, EXPR)            \
    static XG_NOINLINE RET amo_slow_##NAME XG_AMO_ROUTINE_PARAMS PARAMS    \
    {                                                                      \
        TYPE *ptr = xg_shmem_target_slow(routine, ADDR, sizeof(TYPE), pe); \
                                                                           \
        return (EXPR);                                                     \
    }                                                                      \
                                                                           \
    static XG_ALWAYS_INLINE RET amo_##NAME XG_AMO_ROUTINE_PARAMS PARAMS    \
    {                                                                      \
        TYPE *ptr;                                                         \
                                                                           \
        if (xg_unlikely(((uintptr_t)(ADDR) & (sizeof(TYPE) - 1)) != 0)) {  \
            xg_shmem_misaligned(routine, ADDR, sizeof(TYPE));              \
        }                                                                  \
        ptr = xg_gas_translate_fast(ADDR, sizeof(TYPE), pe);               \
        if (xg_unlikely(ptr == NULL)) {                                    \
            return amo_slow_##NAME XG_AMO_ROUTINE_ARGS ARGS;               \
        }                                                                  \
        return (EXPR);                                                     \
    }

/* An atomic with a result (RET) and one without, each with its context
 * form: shmem_NAME and shmem_ctx_NAME. */
#define XG_AMO_FETCHING(RET, NAME, TYPE, ADDR, PARAMS, ARGS, EXPR)        \
    XG_AMO_CORE(RET, NAME, TYPE, ADDR, PARAMS, ARGS, EXPR)                 \
    XG_SHMEM_DEFINE(RET, NAME, PARAMS,                                     \
                    return amo_##NAME XG_AMO_CALLER_ARGS ARGS;)

#define XG_AMO_UPDATING(NAME, TYPE, ADDR, PARAMS, ARGS, EXPR)             \
    XG_AMO_CORE(int, NAME, TYPE, ADDR, PARAMS, ARGS, ((EXPR), 0))          \
    XG_SHMEM_DEFINE(void, NAME, PARAMS,                                    \
                    (void)amo_##NAME XG_AMO_CALLER_ARGS ARGS;)

/*
 * The operations on a translated pointer, one set per type: the builtins
 * are generic, but compare_swap, fetch, set and swap need a local object
 * (float and double move through the size-generic forms, as bits).
 */
#define XG_AMO_DEFINE_CSWAP(TYPE, TYPENAME)                                \
    static inline TYPE amo_op_cswap_##TYPENAME(TYPE *ptr, TYPE cond,       \
                                               TYPE value)                 \
    {                                                                      \
        /* on failure the builtin stores the current value in cond; on    \
         * success cond already equals it: either way, the old value */    \
        __atomic_compare_exchange(ptr, &cond, &value, 0, __ATOMIC_SEQ_CST, \
                                  __ATOMIC_SEQ_CST);                       \
        return cond;                                                       \
    }

XG_SHMEM_AMO_STANDARD_TYPES(XG_AMO_DEFINE_CSWAP)

#define XG_AMO_DEFINE_OPS(TYPE, TYPENAME)                                  \
    static inline TYPE amo_op_fetch_##TYPENAME(const TYPE *ptr)            \
    {                                                                      \
        TYPE value;                                                        \
                                                                           \
        __atomic_load(ptr, &value, __ATOMIC_ACQUIRE);                      \
        return value;                                                      \
    }                                                                      \
                                                                           \
    static inline int amo_op_set_##TYPENAME(TYPE *ptr, TYPE value)         \
    {                                                                      \
        __atomic_store(ptr, &value, __ATOMIC_RELEASE);                     \
        return 0;                                                          \
    }                                                                      \
                                                                           \
    static inline TYPE amo_op_swap_##TYPENAME(TYPE *ptr, TYPE value)       \
    {                                                                      \
        TYPE old;                                                          \
                                                                           \
        __atomic_exchange(ptr, &value, &old, __ATOMIC_SEQ_CST);            \
        return old;                                                        \
    }

XG_SHMEM_AMO_EXTENDED_TYPES(XG_AMO_DEFINE_OPS)

#define XG_SEQ __ATOMIC_SEQ_CST

#define XG_AMO_DEFINE_STANDARD(TYPE, TYPENAME)                             \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_compare_swap, TYPE, dest,      \
                    (TYPE *dest, TYPE cond, TYPE value, int pe),           \
                    (dest, cond, value, pe),                               \
                    amo_op_cswap_##TYPENAME(ptr, cond, value))             \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_fetch_inc, TYPE, dest,         \
                    (TYPE *dest, int pe), (dest, pe),                      \
                    __atomic_fetch_add(ptr, 1, XG_SEQ))                    \
    XG_AMO_UPDATING(TYPENAME##_atomic_inc, TYPE, dest,                     \
                    (TYPE *dest, int pe), (dest, pe),                      \
                    __atomic_add_fetch(ptr, 1, XG_SEQ))                    \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_fetch_add, TYPE, dest,         \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    __atomic_fetch_add(ptr, value, XG_SEQ))                \
    XG_AMO_UPDATING(TYPENAME##_atomic_add, TYPE, dest,                     \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    __atomic_add_fetch(ptr, value, XG_SEQ))                \
    XG_AMO_UPDATING(TYPENAME##_atomic_compare_swap_nbi, TYPE, dest,        \
                    (TYPE *fetch, TYPE *dest, TYPE cond, TYPE value,       \
                     int pe),                                              \
                    (fetch, dest, cond, value, pe),                        \
                    *fetch = amo_op_cswap_##TYPENAME(ptr, cond, value))    \
    XG_AMO_UPDATING(TYPENAME##_atomic_fetch_inc_nbi, TYPE, dest,           \
                    (TYPE *fetch, TYPE *dest, int pe), (fetch, dest, pe),  \
                    *fetch = __atomic_fetch_add(ptr, 1, XG_SEQ))           \
    XG_AMO_UPDATING(TYPENAME##_atomic_fetch_add_nbi, TYPE, dest,           \
                    (TYPE *fetch, TYPE *dest, TYPE value, int pe),         \
                    (fetch, dest, value, pe),                              \
                    *fetch = __atomic_fetch_add(ptr, value, XG_SEQ))

XG_SHMEM_AMO_STANDARD_TYPES(XG_AMO_DEFINE_STANDARD)

#define XG_AMO_DEFINE_EXTENDED(TYPE, TYPENAME)                             \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_fetch, const TYPE, source,     \
                    (const TYPE *source, int pe), (source, pe),            \
                    amo_op_fetch_##TYPENAME(ptr))                          \
    XG_AMO_UPDATING(TYPENAME##_atomic_set, TYPE, dest,                     \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    amo_op_set_##TYPENAME(ptr, value))                     \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_swap, TYPE, dest,              \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    amo_op_swap_##TYPENAME(ptr, value))                    \
    XG_AMO_UPDATING(TYPENAME##_atomic_fetch_nbi, const TYPE, source,       \
                    (TYPE *fetch, const TYPE *source, int pe),             \
                    (fetch, source, pe),                                   \
                    *fetch = amo_op_fetch_##TYPENAME(ptr))                 \
    XG_AMO_UPDATING(TYPENAME##_atomic_swap_nbi, TYPE, dest,                \
                    (TYPE *fetch, TYPE *dest, TYPE value, int pe),         \
                    (fetch, dest, value, pe),                              \
                    *fetch = amo_op_swap_##TYPENAME(ptr, value))

XG_SHMEM_AMO_EXTENDED_TYPES(XG_AMO_DEFINE_EXTENDED)

#define XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, OP)                       \
    XG_AMO_FETCHING(TYPE, TYPENAME##_atomic_fetch_##OP, TYPE, dest,        \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    __atomic_fetch_##OP(ptr, value, XG_SEQ))               \
    XG_AMO_UPDATING(TYPENAME##_atomic_##OP, TYPE, dest,                    \
                    (TYPE *dest, TYPE value, int pe), (dest, value, pe),   \
                    __atomic_##OP##_fetch(ptr, value, XG_SEQ))             \
    XG_AMO_UPDATING(TYPENAME##_atomic_fetch_##OP##_nbi, TYPE, dest,        \
                    (TYPE *fetch, TYPE *dest, TYPE value, int pe),         \
                    (fetch, dest, value, pe),                              \
                    *fetch = __atomic_fetch_##OP(ptr, value, XG_SEQ))

#define XG_AMO_DEFINE_BITWISE(TYPE, TYPENAME)                              \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, and)                          \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, or)                           \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, xor)

XG_SHMEM_AMO_BITWISE_TYPES(XG_AMO_DEFINE_BITWISE)

/* The deprecated names are more names for the same code: weak symbols,
 * each with its pshmem_ name, like every routine.  They alias the strong
 * pshmem_ symbol of the current name (an alias of a weak symbol would not
 * follow a tool's replacement of it anyway). */
#define XG_AMO_ALIAS(RET, OLD, NEW, PARAMS)                                \
    XG_SHMEM_API RET OLD PARAMS __attribute__((alias("p" #NEW)));          \
    extern __typeof__(OLD) p##OLD                                          \
        __attribute__((alias("p" #NEW), visibility("default")));

#define XG_AMO_DEFINE_DEPRECATED(TYPE, TYPENAME)                           \
    XG_AMO_ALIAS(TYPE, shmem_##TYPENAME##_cswap,                           \
                 shmem_##TYPENAME##_atomic_compare_swap,                   \
                 (TYPE *dest, TYPE cond, TYPE value, int pe))              \
    XG_AMO_ALIAS(TYPE, shmem_##TYPENAME##_fadd,                            \
                 shmem_##TYPENAME##_atomic_fetch_add,                      \
                 (TYPE *dest, TYPE value, int pe))                         \
    XG_AMO_ALIAS(TYPE, shmem_##TYPENAME##_finc,                            \
                 shmem_##TYPENAME##_atomic_fetch_inc, (TYPE *dest, int pe)) \
    XG_AMO_ALIAS(void, shmem_##TYPENAME##_add,                             \
                 shmem_##TYPENAME##_atomic_add,                            \
                 (TYPE *dest, TYPE value, int pe))                         \
    XG_AMO_ALIAS(void, shmem_##TYPENAME##_inc,                             \
                 shmem_##TYPENAME##_atomic_inc, (TYPE *dest, int pe))

XG_SHMEM_AMO_DEPRECATED_TYPES(XG_AMO_DEFINE_DEPRECATED)

#define XG_AMO_DEFINE_DEPRECATED_EXTENDED(TYPE, TYPENAME)                  \
    XG_AMO_ALIAS(TYPE, shmem_##TYPENAME##_fetch,                           \
                 shmem_##TYPENAME##_atomic_fetch,                          \
                 (const TYPE *source, int pe))                             \
    XG_AMO_ALIAS(void, shmem_##TYPENAME##_set,                             \
                 shmem_##TYPENAME##_atomic_set,                            \
                 (TYPE *dest, TYPE value, int pe))                         \
    XG_AMO_ALIAS(TYPE, shmem_##TYPENAME##_swap,                            \
                 shmem_##TYPENAME##_atomic_swap,                           \
                 (TYPE *dest, TYPE value, int pe))

XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES(XG_AMO_DEFINE_DEPRECATED_EXTENDED)
