/*
 * Waiting on local memory (xg_gas_ops.h): the wait and test family.
 *
 * Every read is an acquire load: it sees whole values only (never a torn
 * update), and once a flag satisfies the condition, everything its writer
 * stored before setting it (and ordered with fence/quiet, or by the
 * release of an atomic) is visible to the code after the wait.  Values
 * are compared as 64-bit integers after sign or zero extension, which
 * gives each 2-, 4- or 8-byte type its own order.
 *
 * Waiting polls with xg_wait_backoff, so 8 PEs waiting on 2 cores still
 * let the writer run, and names what it waits for in hang reports.
 * wait_all waits for each element in turn (each is seen to satisfy the
 * condition at some point during the call); _any and _some rescan the
 * whole set on every poll.  _any starts each scan at the element after
 * the one the calling thread returned last, so a series of calls returns
 * every satisfying element in turn and none is starved by a lower index
 * that stays true.
 */
#include "gas/xg_gas_ops.h"

#include <stdio.h>

#include "base/xg_wait.h"

/* Where the next _any scan of this thread starts (modulo nelems). */
static __thread size_t sync_any_next;

/* Element @i of @base as bits, sign- or zero-extended to 64. */
static inline uint64_t sync_load(const void *base, size_t i, xg_gas_int_t type)
{
    switch (type.size) {
    case 2: {
        uint16_t v =
            __atomic_load_n((const uint16_t *)base + i, __ATOMIC_ACQUIRE);

        return type.is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4: {
        uint32_t v =
            __atomic_load_n((const uint32_t *)base + i, __ATOMIC_ACQUIRE);

        return type.is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    default:
        return __atomic_load_n((const uint64_t *)base + i, __ATOMIC_ACQUIRE);
    }
}

/* The comparison value @i (no ordering needed: it is the caller's). */
static inline uint64_t sync_value(const void *values, size_t i,
                                  xg_gas_int_t type)
{
    switch (type.size) {
    case 2: {
        uint16_t v = ((const uint16_t *)values)[i];

        return type.is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4: {
        uint32_t v = ((const uint32_t *)values)[i];

        return type.is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    default: return ((const uint64_t *)values)[i];
    }
}

static inline int sync_holds(uint64_t cur, xg_gas_int_t type, xg_gas_cmp_t cmp,
                             uint64_t value)
{
    int64_t scur = (int64_t)cur, svalue = (int64_t)value;

    switch (cmp) {
    case XG_GAS_CMP_EQ: return cur == value;
    case XG_GAS_CMP_NE: return cur != value;
    case XG_GAS_CMP_GT: return type.is_signed ? scur > svalue : cur > value;
    case XG_GAS_CMP_GE: return type.is_signed ? scur >= svalue : cur >= value;
    case XG_GAS_CMP_LT: return type.is_signed ? scur < svalue : cur < value;
    default: return type.is_signed ? scur <= svalue : cur <= value;
    }
}

static inline int sync_in_set(const int *status, size_t i)
{
    return (status == NULL) || (status[i] == 0);
}

static int sync_set_empty(const int *status, size_t nelems)
{
    size_t i;

    for (i = 0; i < nelems; i++) {
        if (sync_in_set(status, i)) {
            return 0;
        }
    }
    return 1;
}

/* What a blocked wait watches, for hang reports (boot/watch.c). */
typedef struct sync_watch {
    const void *ivars;
    size_t nelems; /* 1: one variable; more: any/some of a set */
    xg_gas_int_t type;
    xg_gas_cmp_t cmp;
    uint64_t value; /* the first comparison value */
} sync_watch_t;

static void sync_describe(const xg_wait_what_t *what, char *buf, size_t len)
{
    static const char *const ops[] = {
        [XG_GAS_CMP_EQ] = "==", [XG_GAS_CMP_NE] = "!=", [XG_GAS_CMP_GT] = ">",
        [XG_GAS_CMP_GE] = ">=", [XG_GAS_CMP_LT] = "<",  [XG_GAS_CMP_LE] = "<="};
    const sync_watch_t *w = what->arg;
    const char *op        = XG_GAS_CMP_VALID(w->cmp) ? ops[w->cmp] : "?";
    char value[32];

    if (w->type.is_signed) {
        snprintf(value, sizeof(value), "%lld", (long long)w->value);
    } else {
        snprintf(value, sizeof(value), "%llu", (unsigned long long)w->value);
    }
    if (w->nelems == 1) {
        snprintf(buf, len, "waiting until *%p (%s) %s %s", w->ivars,
                 w->type.name, op, value);
    } else {
        snprintf(buf, len,
                 "waiting until one of %zu variables from %p "
                 "(%s) %s %s (first comparison value)",
                 w->nelems, w->ivars, w->type.name, op, value);
    }
}

/* Names @wait for hang reports: @what and @w live in the caller's frame. */
static XG_NOINLINE void sync_watch(xg_wait_t *wait, xg_wait_what_t *what,
                                   sync_watch_t *w, const char *routine)
{
    *what = (xg_wait_what_t){
        .routine = routine, .peer = -1, .describe = sync_describe, .arg = w};
    xg_wait_init(wait);
    xg_wait_watch(wait, what);
}

int xg_gas_test(const void *ivar, xg_gas_int_t type, xg_gas_cmp_t cmp,
                uint64_t value)
{
    return sync_holds(sync_load(ivar, 0, type), type, cmp, value);
}

uint64_t xg_gas_wait(const char *routine, const void *ivar, xg_gas_int_t type,
                     xg_gas_cmp_t cmp, uint64_t value)
{
    uint64_t cur   = sync_load(ivar, 0, type);
    sync_watch_t w = {ivar, 1, type, cmp, value};
    xg_wait_what_t what;
    xg_wait_t wait;

    if (sync_holds(cur, type, cmp, value)) {
        return cur;
    }
    sync_watch(&wait, &what, &w, routine);
    do {
        xg_gas_wait_backoff(&wait);
        cur = sync_load(ivar, 0, type);
    } while (!sync_holds(cur, type, cmp, value));
    return cur;
}

void xg_gas_wait_all(const char *routine, const void *ivars, size_t nelems,
                     const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                     const void *values, size_t stride)
{
    size_t i;

    for (i = 0; i < nelems; i++) {
        if (sync_in_set(status, i)) {
            xg_gas_wait(routine, (const char *)ivars + i * type.size, type, cmp,
                        sync_value(values, i * stride, type));
        }
    }
}

int xg_gas_test_all(const void *ivars, size_t nelems, const int *status,
                    xg_gas_int_t type, xg_gas_cmp_t cmp, const void *values,
                    size_t stride)
{
    size_t i;

    for (i = 0; i < nelems; i++) {
        if (sync_in_set(status, i) &&
            !sync_holds(sync_load(ivars, i, type), type, cmp,
                        sync_value(values, i * stride, type))) {
            return 0;
        }
    }
    return 1;
}

size_t xg_gas_test_any(const void *ivars, size_t nelems, const int *status,
                       xg_gas_int_t type, xg_gas_cmp_t cmp, const void *values,
                       size_t stride)
{
    size_t k, i;

    if (nelems == 0) {
        return SIZE_MAX;
    }
    i = sync_any_next % nelems;
    for (k = 0; k < nelems; k++) {
        if (sync_in_set(status, i) &&
            sync_holds(sync_load(ivars, i, type), type, cmp,
                       sync_value(values, i * stride, type))) {
            sync_any_next = i + 1;
            return i;
        }
        i = (i + 1 == nelems) ? 0 : i + 1;
    }
    return SIZE_MAX;
}

size_t xg_gas_test_some(const void *ivars, size_t nelems, size_t *indices,
                        const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                        const void *values, size_t stride)
{
    size_t i, count = 0;

    for (i = 0; i < nelems; i++) {
        if (sync_in_set(status, i) &&
            sync_holds(sync_load(ivars, i, type), type, cmp,
                       sync_value(values, i * stride, type))) {
            indices[count++] = i;
        }
    }
    return count;
}

/* Waits until a scan finds something: with @indices, test_some's count;
 * without, test_any's index.  An empty set returns at once. */
static size_t sync_wait_scan(const char *routine, const void *ivars,
                             size_t nelems, size_t *indices, const int *status,
                             xg_gas_int_t type, xg_gas_cmp_t cmp,
                             const void *values, size_t stride)
{
    size_t found, none = (indices != NULL) ? 0 : SIZE_MAX;
    sync_watch_t w = {ivars, nelems, type, cmp, 0};
    xg_wait_what_t what;
    xg_wait_t wait;

    if (sync_set_empty(status, nelems)) {
        return none;
    }
    w.value = sync_value(values, 0, type);
    sync_watch(&wait, &what, &w, routine);
    for (;;) {
        found = (indices != NULL)
                    ? xg_gas_test_some(ivars, nelems, indices, status, type,
                                       cmp, values, stride)
                    : xg_gas_test_any(ivars, nelems, status, type, cmp, values,
                                      stride);
        if (found != none) {
            return found;
        }
        xg_gas_wait_backoff(&wait);
    }
}

size_t xg_gas_wait_any(const char *routine, const void *ivars, size_t nelems,
                       const int *status, xg_gas_int_t type, xg_gas_cmp_t cmp,
                       const void *values, size_t stride)
{
    return sync_wait_scan(routine, ivars, nelems, NULL, status, type, cmp,
                          values, stride);
}

size_t xg_gas_wait_some(const char *routine, const void *ivars, size_t nelems,
                        size_t *indices, const int *status, xg_gas_int_t type,
                        xg_gas_cmp_t cmp, const void *values, size_t stride)
{
    return sync_wait_scan(routine, ivars, nelems, indices, status, type, cmp,
                          values, stride);
}
