/*
 * Argument checks shared by the OpenSHMEM team and collective routines
 * (team.c, coll.c, coll_reduce.c).  Each check that fails ends the job with
 * a message naming the routine, the bad value and what to do; the checks
 * run before any PE synchronizes, so a failing PE leaves nobody waiting
 * on a half-done collective (xgasrun ends the others).
 */
#ifndef XG_SHMEM_COLL_INT_H
#define XG_SHMEM_COLL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "api/shmem/shmem_int.h"
#include "gas/coll/xg_coll.h"
#include "gas/coll/xg_team.h"

_Static_assert(XG_PSYNC_WORDS <= SHMEM_SYNC_SIZE,
               "pSync arrays are too small for the engine");

/* @team is SHMEM_TEAM_INVALID or not a live team: says which, ends. */
XG_NORETURN void xg_shmem_bad_team(const char *routine, shmem_team_t team);

/* The team of a collective call (initialized library, live handle). */
static inline xg_team_t *xg_shmem_coll_team(const char *routine,
                                            shmem_team_t team)
{
    xg_shmem_check_init(routine);
    if (xg_unlikely(!xg_team_valid(team))) {
        xg_shmem_bad_team(routine, team);
    }
    return team;
}

/* @nelems x @elem_size bytes, or the job ends if that overflows. */
static inline size_t xg_shmem_coll_bytes(const char *routine, size_t nelems,
                                         size_t elem_size)
{
    if (xg_unlikely((elem_size != 0) && (nelems > SIZE_MAX / elem_size))) {
        xg_shmem_fail(routine,
                      "%zu elements of %zu bytes overflow size_t: "
                      "check the count",
                      nelems, elem_size);
    }
    return nelems * elem_size;
}

XG_NORETURN XG_NOINLINE void xg_shmem_coll_null(const char *routine,
                                                const char *name, size_t len);

/* @len bytes at @ptr (the argument called @name) must be symmetric (on
 * this PE, hence on all); NULL is named as such. */
static inline void xg_shmem_coll_buf_named(const char *routine,
                                           const char *name, const void *ptr,
                                           size_t len)
{
    if (len > 0) {
        if (xg_unlikely(ptr == NULL)) {
            xg_shmem_coll_null(routine, name, len);
        }
        xg_shmem_check_local(routine, ptr, len);
    }
}

#define xg_shmem_coll_buf(routine, ptr, len) \
    xg_shmem_coll_buf_named(routine, #ptr, ptr, len)

/* Reductions and scans: @dest and @source the same array or disjoint. */
void xg_shmem_coll_overlap(const char *routine, const void *dest,
                           const void *source, size_t len);

/* Checks an active set and this PE's membership, and sets @coll up for
 * it (pSync: XG_PSYNC_WORDS symmetric longs). */
void xg_shmem_coll_aset(const char *routine, int PE_start, int logPE_stride,
                        int PE_size, long *pSync, xg_coll_t *coll);

#endif
