/*
 * Checks and staging shared by the xbrtime collectives (coll.c, reduce.c).
 */
#ifndef XG_XBRTIME_COLL_H
#define XG_XBRTIME_COLL_H

#include <stddef.h>

#include "gas/coll/xg_coll.h"

/* The checks of a broadcast or reduction of @nelems elements of @elem
 * bytes at @stride: running, stride, root, and both arrays symmetric over
 * the bytes they span, which it returns; otherwise the job ends. */
size_t xg_xbrtime_coll_rooted(const char *routine, const void *dest,
                              const void *src, size_t nelems, int stride,
                              size_t elem, int root);

/* A contiguous symmetric staging array of @len bytes; every PE allocates
 * (and frees) it in the same call, so it has the same offset on all. */
void *xg_xbrtime_stage(const char *routine, size_t len);
void xg_xbrtime_stage_free(void *tmp);

/* Packs @nelems elements of @elem bytes, @stride elements apart, of this
 * PE's symmetric @src into @tmp; stage_out unpacks @tmp into @dest. */
void xg_xbrtime_stage_in(const char *routine, void *tmp, const void *src,
                         size_t nelems, int stride, size_t elem);
void xg_xbrtime_stage_out(const char *routine, void *dest, const void *tmp,
                          size_t nelems, int stride, size_t elem);

#endif
