/*
 * OpenSHMEM point-to-point synchronization: wait_until and test, their
 * _all/_any/_some and _vector forms for every synchronization type, the
 * deprecated shmem_TYPENAME_wait, shmem_wait and shmem_wait_until, and
 * shmem_signal_wait_until.
 *
 * The objects waited on are symmetric objects of this PE that other PEs (or
 * threads) write with puts, atomics or stores.  Every routine checks its
 * arguments once -- library running, comparison operator valid, the whole
 * array symmetric and naturally aligned -- then makes one gas call (the
 * wait and test family of gas/xg_gas_ops.h), which only reads.  Each read
 * is an acquire load: it sees whole values only (never a torn update), and
 * once a flag satisfies the condition, everything its writer stored before
 * setting it (and ordered with shmem_fence/quiet, or by the release of an
 * atomic) is visible to the code after the wait.
 *
 * Waiting (in gas) polls with xg_wait_backoff, so 8 PEs waiting on 2 cores
 * still let the writer run.  wait_until_all waits for each element in turn
 * (each is seen to satisfy the condition at some point during the call, as
 * the specification asks); _any and _some rescan the whole set on every
 * poll.
 * _any starts each scan at the element after the one the calling thread
 * returned last, so a series of calls returns every satisfying element in
 * turn and none is starved by a lower index that stays true.
 *
 * Set semantics shared by the array forms: status == NULL includes every
 * element; otherwise status[i] == 0 includes element i and any other value
 * (the specification uses 1) excludes it.  An empty set (nelems == 0 or
 * every element excluded) makes wait_until_all return at once, _any return
 * SIZE_MAX and _some return 0; test_all returns 1 for it (every element of
 * an empty set holds; the specification's text says both 1 and 0 here, its
 * return-value section says 1, and that is also what wait_until_all
 * implies).
 */
#include <stdint.h>

#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"

static int p2p_cmp_valid(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ:
    case SHMEM_CMP_NE:
    case SHMEM_CMP_GT:
    case SHMEM_CMP_GE:
    case SHMEM_CMP_LT:
    case SHMEM_CMP_LE: return 1;
    default: return 0;
    }
}

XG_NORETURN XG_NOINLINE static void p2p_bad_cmp(const char *routine, int cmp)
{
    xg_shmem_fail(routine,
                  "comparison operator %d is not one of "
                  "SHMEM_CMP_EQ (%d), SHMEM_CMP_NE (%d), SHMEM_CMP_GT (%d), "
                  "SHMEM_CMP_GE (%d), SHMEM_CMP_LT (%d), SHMEM_CMP_LE (%d)",
                  cmp, SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE,
                  SHMEM_CMP_LT, SHMEM_CMP_LE);
}

XG_NORETURN XG_NOINLINE static void p2p_bad_nelems(const char *routine,
                                                   size_t nelems, size_t size)
{
    xg_shmem_fail(routine,
                  "nelems %zu of %zu-byte elements overflows the "
                  "address space: pass the number of elements of ivars",
                  nelems, size);
}

XG_NORETURN XG_NOINLINE static void p2p_null_array(const char *routine,
                                                   const char *name,
                                                   size_t nelems)
{
    xg_shmem_fail(routine,
                  "%s is NULL but nelems is %zu: pass an array of "
                  "nelems elements",
                  name, nelems);
}

/*
 * The checks every routine makes before it reads: the library is running,
 * @cmp is a SHMEM_CMP_* operator, and @nelems objects of @size bytes at
 * @ivars are symmetric memory of this PE aligned to @size (with @nelems 0
 * nothing is read, and @ivars is not looked at).  Any failure ends the job
 * with a message naming @routine.  Cost: one translation of this PE's
 * address, as for a put.
 */
static inline void p2p_check(const char *routine, const void *ivars,
                             size_t nelems, size_t size, int cmp)
{
    xg_shmem_check_init(routine);
    if (xg_unlikely(!p2p_cmp_valid(cmp))) {
        p2p_bad_cmp(routine, cmp);
    }
    if (nelems == 0) {
        return;
    }
    if (xg_unlikely(nelems > SIZE_MAX / size)) {
        p2p_bad_nelems(routine, nelems, size);
    }
    if (xg_unlikely(((uintptr_t)ivars & (size - 1)) != 0)) {
        xg_shmem_status_fail(routine, XG_ERR_MISALIGNED, ivars, size,
                             xg_gas.me);
    }
    xg_shmem_check_local(routine, ivars, nelems * size);
}

/* An array argument other than ivars must exist when nelems > 0. */
static inline void p2p_check_array(const char *routine, const char *name,
                                   const void *array, size_t nelems)
{
    if (xg_unlikely((array == NULL) && (nelems != 0))) {
        p2p_null_array(routine, name, nelems);
    }
}

_Static_assert((SHMEM_CMP_EQ == XG_GAS_CMP_EQ) &&
                   (SHMEM_CMP_NE == XG_GAS_CMP_NE) &&
                   (SHMEM_CMP_GT == XG_GAS_CMP_GT) &&
                   (SHMEM_CMP_GE == XG_GAS_CMP_GE) &&
                   (SHMEM_CMP_LT == XG_GAS_CMP_LT) &&
                   (SHMEM_CMP_LE == XG_GAS_CMP_LE),
               "SHMEM_CMP_* are passed to gas as they are");

/* gas's description of TYPE (its name appears in hang reports). */
#define P2P_TYPE(TYPE) \
    ((xg_gas_int_t){sizeof(TYPE), !((TYPE)0 < (TYPE)-1), #TYPE})

/*
 * The gas calls of one type, with the comparison values as gas takes them:
 * a comparison value is values[i * stride], stride 0 for one value for all
 * elements, 1 for one value per element.
 */
#define XG_P2P_DEFINE_INTERNALS(TYPE, TYPENAME)                                \
    static inline TYPE p2p_##TYPENAME##_wait(const char *routine, TYPE *ivar,  \
                                             int cmp, TYPE value)              \
    {                                                                          \
        return (TYPE)xg_gas_wait(routine, ivar, P2P_TYPE(TYPE), cmp,           \
                                 (uint64_t)value);                             \
    }                                                                          \
                                                                               \
    static inline int p2p_##TYPENAME##_test1(TYPE *ivar, int cmp, TYPE value)  \
    {                                                                          \
        return xg_gas_test(ivar, P2P_TYPE(TYPE), cmp, (uint64_t)value);        \
    }                                                                          \
                                                                               \
    static inline void p2p_##TYPENAME##_all(                                   \
        const char *routine, TYPE *ivars, size_t nelems, const int *status,    \
        int cmp, const TYPE *values, size_t stride)                            \
    {                                                                          \
        xg_gas_wait_all(routine, ivars, nelems, status, P2P_TYPE(TYPE), cmp,   \
                        values, stride);                                       \
    }                                                                          \
                                                                               \
    static inline int p2p_##TYPENAME##_test_all(                               \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *values, size_t stride)                                     \
    {                                                                          \
        return xg_gas_test_all(ivars, nelems, status, P2P_TYPE(TYPE), cmp,     \
                               values, stride);                                \
    }                                                                          \
                                                                               \
    static inline size_t p2p_##TYPENAME##_any(                                 \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *values, size_t stride)                                     \
    {                                                                          \
        return xg_gas_test_any(ivars, nelems, status, P2P_TYPE(TYPE), cmp,     \
                               values, stride);                                \
    }                                                                          \
                                                                               \
    static inline size_t p2p_##TYPENAME##_some(                                \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,        \
        int cmp, const TYPE *values, size_t stride)                            \
    {                                                                          \
        return xg_gas_test_some(ivars, nelems, indices, status,                \
                                P2P_TYPE(TYPE), cmp, values, stride);          \
    }                                                                          \
                                                                               \
    static inline size_t p2p_##TYPENAME##_wait_any(                            \
        const char *routine, TYPE *ivars, size_t nelems, const int *status,    \
        int cmp, const TYPE *values, size_t stride)                            \
    {                                                                          \
        return xg_gas_wait_any(routine, ivars, nelems, status, P2P_TYPE(TYPE), \
                               cmp, values, stride);                           \
    }                                                                          \
                                                                               \
    static inline size_t p2p_##TYPENAME##_wait_some(                           \
        const char *routine, TYPE *ivars, size_t nelems, size_t *indices,      \
        const int *status, int cmp, const TYPE *values, size_t stride)         \
    {                                                                          \
        return xg_gas_wait_some(routine, ivars, nelems, indices, status,       \
                                P2P_TYPE(TYPE), cmp, values, stride);          \
    }

/* The exported routines of one type: check, then one internal call. */
#define XG_P2P_DEFINE_ROUTINES(TYPE, TYPENAME)                                 \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until(TYPE *ivar, int cmp,       \
                                                    TYPE cmp_value)            \
    {                                                                          \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), cmp);                       \
        p2p_##TYPENAME##_wait(__func__, ivar, cmp, cmp_value);                 \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until)                                   \
                                                                               \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until_all(                       \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        TYPE cmp_value)                                                        \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_##TYPENAME##_all(__func__, ivars, nelems, status, cmp, &cmp_value, \
                             0);                                               \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_all)                               \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_any(                     \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        TYPE cmp_value)                                                        \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        return p2p_##TYPENAME##_wait_any(__func__, ivars, nelems, status, cmp, \
                                         &cmp_value, 0);                       \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_any)                               \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_some(                    \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,        \
        int cmp, TYPE cmp_value)                                               \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "indices", indices, nelems);                 \
        return p2p_##TYPENAME##_wait_some(__func__, ivars, nelems, indices,    \
                                          status, cmp, &cmp_value, 0);         \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_some)                              \
                                                                               \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until_all_vector(                \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *cmp_values)                                                \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        p2p_##TYPENAME##_all(__func__, ivars, nelems, status, cmp, cmp_values, \
                             1);                                               \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_all_vector)                        \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_any_vector(              \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *cmp_values)                                                \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        return p2p_##TYPENAME##_wait_any(__func__, ivars, nelems, status, cmp, \
                                         cmp_values, 1);                       \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_any_vector)                        \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_some_vector(             \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,        \
        int cmp, const TYPE *cmp_values)                                       \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "indices", indices, nelems);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        return p2p_##TYPENAME##_wait_some(__func__, ivars, nelems, indices,    \
                                          status, cmp, cmp_values, 1);         \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_some_vector)                       \
                                                                               \
    XG_SHMEM_API int shmem_##TYPENAME##_test(TYPE *ivar, int cmp,              \
                                             TYPE cmp_value)                   \
    {                                                                          \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), cmp);                       \
        return p2p_##TYPENAME##_test1(ivar, cmp, cmp_value);                   \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test)                                         \
                                                                               \
    XG_SHMEM_API int shmem_##TYPENAME##_test_all(TYPE *ivars, size_t nelems,   \
                                                 const int *status, int cmp,   \
                                                 TYPE cmp_value)               \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        return p2p_##TYPENAME##_test_all(ivars, nelems, status, cmp,           \
                                         &cmp_value, 0);                       \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_all)                                     \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_any(                           \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        TYPE cmp_value)                                                        \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        return p2p_##TYPENAME##_any(ivars, nelems, status, cmp, &cmp_value,    \
                                    0);                                        \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_any)                                     \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_some(                          \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,        \
        int cmp, TYPE cmp_value)                                               \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "indices", indices, nelems);                 \
        return p2p_##TYPENAME##_some(ivars, nelems, indices, status, cmp,      \
                                     &cmp_value, 0);                           \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_some)                                    \
                                                                               \
    XG_SHMEM_API int shmem_##TYPENAME##_test_all_vector(                       \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *cmp_values)                                                \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        return p2p_##TYPENAME##_test_all(ivars, nelems, status, cmp,           \
                                         cmp_values, 1);                       \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_all_vector)                              \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_any_vector(                    \
        TYPE *ivars, size_t nelems, const int *status, int cmp,                \
        const TYPE *cmp_values)                                                \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        return p2p_##TYPENAME##_any(ivars, nelems, status, cmp, cmp_values,    \
                                    1);                                        \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_any_vector)                              \
                                                                               \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_some_vector(                   \
        TYPE *ivars, size_t nelems, size_t *indices, const int *status,        \
        int cmp, const TYPE *cmp_values)                                       \
    {                                                                          \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);                 \
        p2p_check_array(__func__, "indices", indices, nelems);                 \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);           \
        return p2p_##TYPENAME##_some(ivars, nelems, indices, status, cmp,      \
                                     cmp_values, 1);                           \
    }                                                                          \
    XG_PSHMEM(shmem_##TYPENAME##_test_some_vector)

#define XG_P2P_DEFINE(TYPE, TYPENAME)       \
    XG_P2P_DEFINE_INTERNALS(TYPE, TYPENAME) \
    XG_P2P_DEFINE_ROUTINES(TYPE, TYPENAME)
XG_SHMEM_SYNC_TYPES(XG_P2P_DEFINE)
XG_SHMEM_SYNC_DEPRECATED_TYPES(XG_P2P_DEFINE)
#undef XG_P2P_DEFINE

XG_SHMEM_API uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp,
                                              uint64_t cmp_value)
{
    p2p_check(__func__, sig_addr, 1, sizeof(*sig_addr), cmp);
    return p2p_uint64_wait(__func__, sig_addr, cmp, cmp_value);
}
XG_PSHMEM(shmem_signal_wait_until)

/* Deprecated (OpenSHMEM 1.4): wait until *ivar != cmp_value. */
#define XG_P2P_DEFINE_WAIT(TYPE, TYPENAME)                                \
    XG_SHMEM_API void shmem_##TYPENAME##_wait(TYPE *ivar, TYPE cmp_value) \
    {                                                                     \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), SHMEM_CMP_NE);         \
        p2p_##TYPENAME##_wait(__func__, ivar, SHMEM_CMP_NE, cmp_value);   \
    }                                                                     \
    XG_PSHMEM(shmem_##TYPENAME##_wait)
XG_SHMEM_SYNC_WAIT_DEPRECATED_TYPES(XG_P2P_DEFINE_WAIT)
#undef XG_P2P_DEFINE_WAIT

XG_SHMEM_API void shmem_wait(long *ivar, long cmp_value)
{
    p2p_check(__func__, ivar, 1, sizeof(*ivar), SHMEM_CMP_NE);
    p2p_long_wait(__func__, ivar, SHMEM_CMP_NE, cmp_value);
}
XG_PSHMEM(shmem_wait)

XG_SHMEM_API void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    p2p_check(__func__, ivar, 1, sizeof(*ivar), cmp);
    p2p_long_wait(__func__, ivar, cmp, cmp_value);
}
XG_PSHMEM(shmem_wait_until)
