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

/* @addr on @pe as a TYPE pointer the CPU atomics can use, or the job ends;
 * named for the routine that expands it. */
#define XG_AMO_TARGET(TYPE, addr, pe)                                      \
    ((TYPE *)xg_shmem_atomic_target(__func__, (addr), sizeof(TYPE), (pe)))

#define XG_AMO_DEFINE_STANDARD(TYPE, TYPENAME)                             \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_compare_swap(TYPE *dest,      \
                                                          TYPE cond,       \
                                                          TYPE value,      \
                                                          int pe)          \
    {                                                                      \
        /* on failure the builtin stores the current value in cond; on    \
         * success cond already equals it: either way, the old value */    \
        __atomic_compare_exchange_n(XG_AMO_TARGET(TYPE, dest, pe), &cond,  \
                                    value, 0, __ATOMIC_SEQ_CST,            \
                                    __ATOMIC_SEQ_CST);                     \
        return cond;                                                       \
    }                                                                      \
                                                                           \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_fetch_inc(TYPE *dest, int pe) \
    {                                                                      \
        return __atomic_fetch_add(XG_AMO_TARGET(TYPE, dest, pe), 1,        \
                                  __ATOMIC_SEQ_CST);                       \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_inc(TYPE *dest, int pe)       \
    {                                                                      \
        __atomic_add_fetch(XG_AMO_TARGET(TYPE, dest, pe), 1,               \
                           __ATOMIC_SEQ_CST);                              \
    }                                                                      \
                                                                           \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_fetch_add(TYPE *dest,         \
                                                       TYPE value, int pe) \
    {                                                                      \
        return __atomic_fetch_add(XG_AMO_TARGET(TYPE, dest, pe), value,    \
                                  __ATOMIC_SEQ_CST);                       \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_add(TYPE *dest, TYPE value,   \
                                                 int pe)                   \
    {                                                                      \
        __atomic_add_fetch(XG_AMO_TARGET(TYPE, dest, pe), value,           \
                           __ATOMIC_SEQ_CST);                              \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_compare_swap_nbi(TYPE *fetch, \
                                                              TYPE *dest,  \
                                                              TYPE cond,   \
                                                              TYPE value,  \
                                                              int pe)      \
    {                                                                      \
        __atomic_compare_exchange_n(XG_AMO_TARGET(TYPE, dest, pe), &cond,  \
                                    value, 0, __ATOMIC_SEQ_CST,            \
                                    __ATOMIC_SEQ_CST);                     \
        *fetch = cond;                                                     \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_fetch_inc_nbi(TYPE *fetch,    \
                                                           TYPE *dest,     \
                                                           int pe)         \
    {                                                                      \
        *fetch = __atomic_fetch_add(XG_AMO_TARGET(TYPE, dest, pe), 1,      \
                                    __ATOMIC_SEQ_CST);                     \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_fetch_add_nbi(TYPE *fetch,    \
                                                           TYPE *dest,     \
                                                           TYPE value,     \
                                                           int pe)         \
    {                                                                      \
        *fetch = __atomic_fetch_add(XG_AMO_TARGET(TYPE, dest, pe), value,  \
                                    __ATOMIC_SEQ_CST);                     \
    }

XG_SHMEM_AMO_STANDARD_TYPES(XG_AMO_DEFINE_STANDARD)

#define XG_AMO_DEFINE_EXTENDED(TYPE, TYPENAME)                             \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_fetch(const TYPE *source,     \
                                                   int pe)                 \
    {                                                                      \
        TYPE value;                                                        \
                                                                           \
        __atomic_load(XG_AMO_TARGET(const TYPE, source, pe), &value,       \
                      __ATOMIC_ACQUIRE);                                   \
        return value;                                                      \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_set(TYPE *dest, TYPE value,   \
                                                 int pe)                   \
    {                                                                      \
        __atomic_store(XG_AMO_TARGET(TYPE, dest, pe), &value,              \
                       __ATOMIC_RELEASE);                                  \
    }                                                                      \
                                                                           \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_swap(TYPE *dest, TYPE value,  \
                                                  int pe)                  \
    {                                                                      \
        TYPE old;                                                          \
                                                                           \
        __atomic_exchange(XG_AMO_TARGET(TYPE, dest, pe), &value, &old,     \
                          __ATOMIC_SEQ_CST);                               \
        return old;                                                        \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_fetch_nbi(TYPE *fetch,        \
                                                       const TYPE *source, \
                                                       int pe)             \
    {                                                                      \
        __atomic_load(XG_AMO_TARGET(const TYPE, source, pe), fetch,        \
                      __ATOMIC_ACQUIRE);                                   \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_swap_nbi(TYPE *fetch,         \
                                                      TYPE *dest,          \
                                                      TYPE value, int pe)  \
    {                                                                      \
        __atomic_exchange(XG_AMO_TARGET(TYPE, dest, pe), &value, fetch,    \
                          __ATOMIC_SEQ_CST);                               \
    }

XG_SHMEM_AMO_EXTENDED_TYPES(XG_AMO_DEFINE_EXTENDED)

#define XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, OP)                       \
    XG_EXPORT TYPE shmem_##TYPENAME##_atomic_fetch_##OP(TYPE *dest,        \
                                                        TYPE value,        \
                                                        int pe)            \
    {                                                                      \
        return __atomic_fetch_##OP(XG_AMO_TARGET(TYPE, dest, pe), value,   \
                                   __ATOMIC_SEQ_CST);                      \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_##OP(TYPE *dest, TYPE value,  \
                                                  int pe)                  \
    {                                                                      \
        __atomic_##OP##_fetch(XG_AMO_TARGET(TYPE, dest, pe), value,        \
                              __ATOMIC_SEQ_CST);                           \
    }                                                                      \
                                                                           \
    XG_EXPORT void shmem_##TYPENAME##_atomic_fetch_##OP##_nbi(TYPE *fetch, \
                                                              TYPE *dest,  \
                                                              TYPE value,  \
                                                              int pe)      \
    {                                                                      \
        *fetch = __atomic_fetch_##OP(XG_AMO_TARGET(TYPE, dest, pe), value, \
                                     __ATOMIC_SEQ_CST);                    \
    }

#define XG_AMO_DEFINE_BITWISE(TYPE, TYPENAME)                              \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, and)                          \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, or)                           \
    XG_AMO_DEFINE_BITWISE_OP(TYPE, TYPENAME, xor)

XG_SHMEM_AMO_BITWISE_TYPES(XG_AMO_DEFINE_BITWISE)

/* The deprecated names are aliases: the same code under a second symbol. */
#define XG_AMO_ALIAS(TYPENAME, OP)                                         \
    XG_EXPORT __attribute__((alias("shmem_" #TYPENAME "_atomic_" #OP)))

#define XG_AMO_DEFINE_DEPRECATED(TYPE, TYPENAME)                           \
    XG_AMO_ALIAS(TYPENAME, compare_swap)                                   \
    TYPE shmem_##TYPENAME##_cswap(TYPE *dest, TYPE cond, TYPE value,       \
                                  int pe);                                 \
    XG_AMO_ALIAS(TYPENAME, fetch_add)                                      \
    TYPE shmem_##TYPENAME##_fadd(TYPE *dest, TYPE value, int pe);          \
    XG_AMO_ALIAS(TYPENAME, fetch_inc)                                      \
    TYPE shmem_##TYPENAME##_finc(TYPE *dest, int pe);                      \
    XG_AMO_ALIAS(TYPENAME, add)                                            \
    void shmem_##TYPENAME##_add(TYPE *dest, TYPE value, int pe);           \
    XG_AMO_ALIAS(TYPENAME, inc)                                            \
    void shmem_##TYPENAME##_inc(TYPE *dest, int pe);

XG_SHMEM_AMO_DEPRECATED_TYPES(XG_AMO_DEFINE_DEPRECATED)

#define XG_AMO_DEFINE_DEPRECATED_EXTENDED(TYPE, TYPENAME)                  \
    XG_AMO_ALIAS(TYPENAME, fetch)                                          \
    TYPE shmem_##TYPENAME##_fetch(const TYPE *source, int pe);             \
    XG_AMO_ALIAS(TYPENAME, set)                                            \
    void shmem_##TYPENAME##_set(TYPE *dest, TYPE value, int pe);           \
    XG_AMO_ALIAS(TYPENAME, swap)                                           \
    TYPE shmem_##TYPENAME##_swap(TYPE *dest, TYPE value, int pe);

XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES(XG_AMO_DEFINE_DEPRECATED_EXTENDED)
