/*
 * OpenSHMEM point-to-point synchronization: wait_until and test, their
 * _all/_any/_some and _vector forms for every synchronization type, the
 * deprecated shmem_TYPENAME_wait, shmem_wait and shmem_wait_until, and
 * shmem_signal_wait_until.
 *
 * The objects waited on are symmetric objects of this PE that other PEs (or
 * threads) write with puts, atomics or stores.  Every routine checks its
 * arguments once -- library running, comparison operator valid, the whole
 * array symmetric and naturally aligned -- then only reads.  Each read is an
 * acquire load: it sees whole values only (never a torn update), and once a
 * flag satisfies the condition, everything its writer stored before setting
 * it (and ordered with shmem_fence/quiet, or by the release of an atomic)
 * is visible to the code after the wait.
 *
 * Waiting polls with xg_wait_backoff, so 8 PEs waiting on 2 cores still let
 * the writer run.  wait_until_all waits for each element in turn (each is
 * seen to satisfy the condition at some point during the call, as the
 * specification asks); _any and _some rescan the whole set on every poll.
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
#include <stdio.h>

#include "api/shmem/shmem_int.h"
#include "api/shmem/shmem_types.h"
#include "base/xg_wait.h"

/* Where the next _any scan of this thread starts (modulo nelems). */
static __thread size_t p2p_any_next;

static int p2p_cmp_valid(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ:
    case SHMEM_CMP_NE:
    case SHMEM_CMP_GT:
    case SHMEM_CMP_GE:
    case SHMEM_CMP_LT:
    case SHMEM_CMP_LE:
        return 1;
    default:
        return 0;
    }
}

XG_NORETURN XG_NOINLINE static void p2p_bad_cmp(const char *routine, int cmp)
{
    xg_shmem_fail(routine, "comparison operator %d is not one of "
                  "SHMEM_CMP_EQ (%d), SHMEM_CMP_NE (%d), SHMEM_CMP_GT (%d), "
                  "SHMEM_CMP_GE (%d), SHMEM_CMP_LT (%d), SHMEM_CMP_LE (%d)",
                  cmp, SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE,
                  SHMEM_CMP_LT, SHMEM_CMP_LE);
}

XG_NORETURN XG_NOINLINE static void p2p_bad_nelems(const char *routine,
                                                   size_t nelems, size_t size)
{
    xg_shmem_fail(routine, "nelems %zu of %zu-byte elements overflows the "
                  "address space: pass the number of elements of ivars",
                  nelems, size);
}

XG_NORETURN XG_NOINLINE static void p2p_null_array(const char *routine,
                                                   const char *name,
                                                   size_t nelems)
{
    xg_shmem_fail(routine, "%s is NULL but nelems is %zu: pass an array of "
                  "nelems elements", name, nelems);
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
        xg_shmem_misaligned(routine, ivars, size);
    }
    xg_shmem_local(routine, ivars, nelems * size);
}

/* An array argument other than ivars must exist when nelems > 0. */
static inline void p2p_check_array(const char *routine, const char *name,
                                   const void *array, size_t nelems)
{
    if (xg_unlikely((array == NULL) && (nelems != 0))) {
        p2p_null_array(routine, name, nelems);
    }
}

static inline int p2p_in_set(const int *status, size_t i)
{
    return (status == NULL) || (status[i] == 0);
}

static int p2p_set_empty(const int *status, size_t nelems)
{
    size_t i;

    for (i = 0; i < nelems; i++) {
        if (p2p_in_set(status, i)) {
            return 0;
        }
    }
    return 1;
}

/*
 * The internals of one type.  The scalar and _vector forms share them: a
 * comparison value is values[i * stride], stride 0 for one value for all
 * elements, 1 for one value per element.
 *
 *   p2p_T_holds: the condition on a value already read;
 *   p2p_T_wait:  waits until *ivar satisfies the condition, returns the
 *                value that did;
 *   p2p_T_all:   waits for each element of the set in turn;
 *   p2p_T_any:   one scan from the thread's rotating start: the index of
 *                a satisfying element, or SIZE_MAX;
 *   p2p_T_some:  one scan: stores the satisfying indices, returns how many.
 */
/* What a blocked wait watches, for hang reports (boot/watch.c). */
typedef struct p2p_watch {
    const void        *ivars;
    size_t             nelems;  /* 1: one variable; more: any/some of a set */
    const char        *type;
    int                cmp;
    int                is_signed;
    unsigned long long value;   /* the first comparison value */
} p2p_watch_t;

static void p2p_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    static const char *const ops[] = {
        [SHMEM_CMP_EQ] = "==", [SHMEM_CMP_NE] = "!=", [SHMEM_CMP_GT] = ">",
        [SHMEM_CMP_GE] = ">=", [SHMEM_CMP_LT] = "<", [SHMEM_CMP_LE] = "<="};
    const p2p_watch_t *w = what->arg;
    const char *op = ((w->cmp >= 0) && ((size_t)w->cmp < XG_ARRAY_SIZE(ops)) &&
                      (ops[w->cmp] != NULL)) ? ops[w->cmp] : "?";
    char value[32];

    if (w->is_signed) {
        snprintf(value, sizeof(value), "%lld", (long long)w->value);
    } else {
        snprintf(value, sizeof(value), "%llu", w->value);
    }
    if (w->nelems == 1) {
        snprintf(buf, len, "waiting until *%p (%s) %s %s", w->ivars, w->type,
                 op, value);
    } else {
        snprintf(buf, len, "waiting until one of %zu variables from %p "
                 "(%s) %s %s%s", w->nelems, w->ivars, w->type, op, value,
                 " (first comparison value)");
    }
}

/* Names @wait for hang reports: @what and @w live in the caller's frame. */
static XG_NOINLINE void p2p_watch(xg_wait_t *wait, xg_wait_what_t *what,
                                  p2p_watch_t *w, const char *routine)
{
    what->routine      = routine;
    what->peer         = -1;
    what->member_count = 0;
    what->describe     = p2p_describe;
    what->arg          = w;
    xg_wait_watch(wait, what);
}

#define XG_P2P_DEFINE_INTERNALS(TYPE, TYPENAME)                            \
    static inline int p2p_##TYPENAME##_holds(TYPE cur, int cmp,            \
                                             TYPE value)                   \
    {                                                                      \
        switch (cmp) {                                                     \
        case SHMEM_CMP_EQ:                                                 \
            return cur == value;                                           \
        case SHMEM_CMP_NE:                                                 \
            return cur != value;                                           \
        case SHMEM_CMP_GT:                                                 \
            return cur > value;                                            \
        case SHMEM_CMP_GE:                                                 \
            return cur >= value;                                           \
        case SHMEM_CMP_LT:                                                 \
            return cur < value;                                            \
        default: /* SHMEM_CMP_LE: p2p_check accepted nothing else */       \
            return cur <= value;                                           \
        }                                                                  \
    }                                                                      \
                                                                           \
    static inline int p2p_##TYPENAME##_test1(TYPE *ivar, int cmp,          \
                                             TYPE value)                   \
    {                                                                      \
        /* acquire: what the writer stored before the flag is visible      \
         * after it */                                                     \
        return p2p_##TYPENAME##_holds(__atomic_load_n(ivar,                \
                                                      __ATOMIC_ACQUIRE),   \
                                      cmp, value);                         \
    }                                                                      \
                                                                           \
    static inline TYPE p2p_##TYPENAME##_wait(const char *routine,          \
                                             TYPE *ivar, int cmp,          \
                                             TYPE value)                   \
    {                                                                      \
        TYPE cur = __atomic_load_n(ivar, __ATOMIC_ACQUIRE);                \
        p2p_watch_t w = {ivar, 1, #TYPE, cmp, !((TYPE)0 < (TYPE)-1),       \
                         (unsigned long long)value};                       \
        xg_wait_what_t what;                                               \
        xg_wait_t wait;                                                    \
                                                                           \
        if (p2p_##TYPENAME##_holds(cur, cmp, value)) {                     \
            return cur;                                                    \
        }                                                                  \
        xg_wait_init(&wait);                                               \
        p2p_watch(&wait, &what, &w, routine);                              \
        do {                                                               \
            xg_wait_backoff(&wait);                                        \
            cur = __atomic_load_n(ivar, __ATOMIC_ACQUIRE);                 \
        } while (!p2p_##TYPENAME##_holds(cur, cmp, value));                \
        return cur;                                                        \
    }                                                                      \
                                                                           \
    static void p2p_##TYPENAME##_all(const char *routine, TYPE *ivars,     \
                                     size_t nelems,                        \
                                     const int *status, int cmp,           \
                                     const TYPE *values, size_t stride)    \
    {                                                                      \
        size_t i;                                                          \
                                                                           \
        for (i = 0; i < nelems; i++) {                                     \
            if (p2p_in_set(status, i)) {                                   \
                p2p_##TYPENAME##_wait(routine, &ivars[i], cmp,             \
                                      values[i * stride]);                 \
            }                                                              \
        }                                                                  \
    }                                                                      \
                                                                           \
    static int p2p_##TYPENAME##_test_all(TYPE *ivars, size_t nelems,       \
                                         const int *status, int cmp,       \
                                         const TYPE *values,               \
                                         size_t stride)                    \
    {                                                                      \
        size_t i;                                                          \
                                                                           \
        for (i = 0; i < nelems; i++) {                                     \
            if (p2p_in_set(status, i) &&                                   \
                !p2p_##TYPENAME##_test1(&ivars[i], cmp,                    \
                                        values[i * stride])) {             \
                return 0;                                                  \
            }                                                              \
        }                                                                  \
        return 1;                                                          \
    }                                                                      \
                                                                           \
    static size_t p2p_##TYPENAME##_any(TYPE *ivars, size_t nelems,         \
                                       const int *status, int cmp,         \
                                       const TYPE *values, size_t stride)  \
    {                                                                      \
        size_t k, i;                                                       \
                                                                           \
        if (nelems == 0) {                                                 \
            return SIZE_MAX;                                               \
        }                                                                  \
        i = p2p_any_next % nelems;                                         \
        for (k = 0; k < nelems; k++) {                                     \
            if (p2p_in_set(status, i) &&                                   \
                p2p_##TYPENAME##_test1(&ivars[i], cmp,                     \
                                       values[i * stride])) {              \
                p2p_any_next = i + 1;                                      \
                return i;                                                  \
            }                                                              \
            i = (i + 1 == nelems) ? 0 : i + 1;                             \
        }                                                                  \
        return SIZE_MAX;                                                   \
    }                                                                      \
                                                                           \
    static size_t p2p_##TYPENAME##_some(TYPE *ivars, size_t nelems,        \
                                        size_t *indices,                   \
                                        const int *status, int cmp,        \
                                        const TYPE *values, size_t stride) \
    {                                                                      \
        size_t i, count = 0;                                               \
                                                                           \
        for (i = 0; i < nelems; i++) {                                     \
            if (p2p_in_set(status, i) &&                                   \
                p2p_##TYPENAME##_test1(&ivars[i], cmp,                     \
                                       values[i * stride])) {              \
                indices[count++] = i;                                      \
            }                                                              \
        }                                                                  \
        return count;                                                      \
    }                                                                      \
                                                                           \
    static size_t p2p_##TYPENAME##_wait_any(const char *routine,           \
                                            TYPE *ivars, size_t nelems,    \
                                            const int *status, int cmp,    \
                                            const TYPE *values,            \
                                            size_t stride)                 \
    {                                                                      \
        size_t i;                                                          \
        p2p_watch_t w = {ivars, nelems, #TYPE, cmp, !((TYPE)0 < (TYPE)-1), \
                         0};                                               \
        xg_wait_what_t what;                                               \
        xg_wait_t wait;                                                    \
                                                                           \
        if (p2p_set_empty(status, nelems)) {                               \
            return SIZE_MAX;                                               \
        }                                                                  \
        w.value = (unsigned long long)values[0];                           \
        xg_wait_init(&wait);                                               \
        p2p_watch(&wait, &what, &w, routine);                              \
        while ((i = p2p_##TYPENAME##_any(ivars, nelems, status, cmp,       \
                                         values, stride)) == SIZE_MAX) {   \
            xg_wait_backoff(&wait);                                        \
        }                                                                  \
        return i;                                                          \
    }                                                                      \
                                                                           \
    static size_t p2p_##TYPENAME##_wait_some(const char *routine,          \
                                             TYPE *ivars, size_t nelems,   \
                                             size_t *indices,              \
                                             const int *status, int cmp,   \
                                             const TYPE *values,           \
                                             size_t stride)                \
    {                                                                      \
        size_t count;                                                      \
        p2p_watch_t w = {ivars, nelems, #TYPE, cmp, !((TYPE)0 < (TYPE)-1), \
                         0};                                               \
        xg_wait_what_t what;                                               \
        xg_wait_t wait;                                                    \
                                                                           \
        if (p2p_set_empty(status, nelems)) {                               \
            return 0;                                                      \
        }                                                                  \
        w.value = (unsigned long long)values[0];                           \
        xg_wait_init(&wait);                                               \
        p2p_watch(&wait, &what, &w, routine);                              \
        while ((count = p2p_##TYPENAME##_some(ivars, nelems, indices,      \
                                              status, cmp, values,         \
                                              stride)) == 0) {             \
            xg_wait_backoff(&wait);                                        \
        }                                                                  \
        return count;                                                      \
    }

/* The exported routines of one type: check, then one internal call. */
#define XG_P2P_DEFINE_ROUTINES(TYPE, TYPENAME)                             \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until(TYPE *ivar, int cmp,   \
                                                    TYPE cmp_value)        \
    {                                                                      \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), cmp);                   \
        p2p_##TYPENAME##_wait(__func__,                                    \
                              ivar, cmp, cmp_value);                       \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until)                               \
                                                                           \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until_all(TYPE *ivars,       \
                                                        size_t nelems,     \
                                                        const int *status, \
                                                        int cmp,           \
                                                        TYPE cmp_value)    \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_##TYPENAME##_all(__func__,                                     \
                             ivars, nelems, status, cmp, &cmp_value, 0);   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_all)                           \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_any(TYPE *ivars,     \
                                                          size_t nelems,   \
                                                          const int *status, \
                                                          int cmp,         \
                                                          TYPE cmp_value)  \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        return p2p_##TYPENAME##_wait_any(__func__,                         \
                                         ivars, nelems, status, cmp,       \
                                         &cmp_value, 0);                   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_any)                           \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_some(TYPE *ivars,    \
                                                           size_t nelems,  \
                                                           size_t *indices, \
                                                           const int *status, \
                                                           int cmp,        \
                                                           TYPE cmp_value) \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "indices", indices, nelems);             \
        return p2p_##TYPENAME##_wait_some(__func__,                        \
                                          ivars, nelems, indices, status,  \
                                          cmp, &cmp_value, 0);             \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_some)                          \
                                                                           \
    XG_SHMEM_API void shmem_##TYPENAME##_wait_until_all_vector(            \
           TYPE *ivars, size_t nelems, const int *status, int cmp,         \
           const TYPE *cmp_values)                                         \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        p2p_##TYPENAME##_all(__func__,                                     \
                             ivars, nelems, status, cmp, cmp_values, 1);   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_all_vector)                    \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_any_vector(          \
           TYPE *ivars, size_t nelems, const int *status, int cmp,         \
           const TYPE *cmp_values)                                         \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        return p2p_##TYPENAME##_wait_any(__func__,                         \
                                         ivars, nelems, status, cmp,       \
                                         cmp_values, 1);                   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_any_vector)                    \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_wait_until_some_vector(         \
           TYPE *ivars, size_t nelems, size_t *indices, const int *status, \
           int cmp, const TYPE *cmp_values)                                \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "indices", indices, nelems);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        return p2p_##TYPENAME##_wait_some(__func__,                        \
                                          ivars, nelems, indices, status,  \
                                          cmp, cmp_values, 1);             \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_wait_until_some_vector)                   \
                                                                           \
    XG_SHMEM_API int shmem_##TYPENAME##_test(TYPE *ivar, int cmp,          \
                                             TYPE cmp_value)               \
    {                                                                      \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), cmp);                   \
        return p2p_##TYPENAME##_test1(ivar, cmp, cmp_value);               \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test)                                     \
                                                                           \
    XG_SHMEM_API int shmem_##TYPENAME##_test_all(TYPE *ivars, size_t nelems, \
                                                 const int *status, int cmp, \
                                                 TYPE cmp_value)           \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        return p2p_##TYPENAME##_test_all(ivars, nelems, status, cmp,       \
                                         &cmp_value, 0);                   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_all)                                 \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_any(TYPE *ivars,           \
                                                    size_t nelems,         \
                                                    const int *status,     \
                                                    int cmp, TYPE cmp_value) \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        return p2p_##TYPENAME##_any(ivars, nelems, status, cmp,            \
                                    &cmp_value, 0);                        \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_any)                                 \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_some(TYPE *ivars,          \
                                                     size_t nelems,        \
                                                     size_t *indices,      \
                                                     const int *status,    \
                                                     int cmp, TYPE cmp_value) \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "indices", indices, nelems);             \
        return p2p_##TYPENAME##_some(ivars, nelems, indices, status, cmp,  \
                                     &cmp_value, 0);                       \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_some)                                \
                                                                           \
    XG_SHMEM_API int shmem_##TYPENAME##_test_all_vector(                   \
           TYPE *ivars, size_t nelems, const int *status, int cmp,         \
           const TYPE *cmp_values)                                         \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        return p2p_##TYPENAME##_test_all(ivars, nelems, status, cmp,       \
                                         cmp_values, 1);                   \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_all_vector)                          \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_any_vector(                \
           TYPE *ivars, size_t nelems, const int *status, int cmp,         \
           const TYPE *cmp_values)                                         \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        return p2p_##TYPENAME##_any(ivars, nelems, status, cmp,            \
                                    cmp_values, 1);                        \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_any_vector)                          \
                                                                           \
    XG_SHMEM_API size_t shmem_##TYPENAME##_test_some_vector(               \
           TYPE *ivars, size_t nelems, size_t *indices, const int *status, \
           int cmp, const TYPE *cmp_values)                                \
    {                                                                      \
        p2p_check(__func__, ivars, nelems, sizeof(TYPE), cmp);             \
        p2p_check_array(__func__, "indices", indices, nelems);             \
        p2p_check_array(__func__, "cmp_values", cmp_values, nelems);       \
        return p2p_##TYPENAME##_some(ivars, nelems, indices, status, cmp,  \
                                     cmp_values, 1);                       \
    }                                                                      \
    XG_PSHMEM(shmem_##TYPENAME##_test_some_vector)

#define XG_P2P_DEFINE(TYPE, TYPENAME)                                      \
    XG_P2P_DEFINE_INTERNALS(TYPE, TYPENAME)                                \
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
#define XG_P2P_DEFINE_WAIT(TYPE, TYPENAME)                                 \
    XG_SHMEM_API void shmem_##TYPENAME##_wait(TYPE *ivar, TYPE cmp_value)  \
    {                                                                      \
        p2p_check(__func__, ivar, 1, sizeof(TYPE), SHMEM_CMP_NE);          \
        p2p_##TYPENAME##_wait(__func__,                                    \
                              ivar, SHMEM_CMP_NE, cmp_value);              \
    }                                                                      \
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
