/*
 * OpenSHMEM team management: queries, translation, the strided and 2-D
 * splits, destruction and shmem_team_ptr.  The splits check their
 * arguments here and create the teams in gas/coll/team.c; an invalid triplet
 * is not an error that ends the job (the specification asks for a nonzero
 * return on every parent PE), so it still goes through the collective
 * agreement -- which also detects PEs that passed different triplets.
 */
#include <stdint.h>
#include <stdio.h>

#include "api/shmem/coll_int.h"
#include "base/xg_log.h"

void xg_shmem_bad_team(const char *routine, shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID) {
        xg_shmem_fail(routine,
                      "the team is SHMEM_TEAM_INVALID: this PE is "
                      "not a member (a split gives SHMEM_TEAM_INVALID to the "
                      "parent PEs it leaves out) or the team's creation "
                      "failed; check the split's return value and call the "
                      "team's collectives only on its members");
    }
    xg_shmem_fail(routine,
                  "%p is not a team of this PE (destroyed, or "
                  "never created): pass a handle returned by a split, "
                  "SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED",
                  (void *)team);
}

void xg_shmem_coll_null(const char *routine, const char *name, size_t len)
{
    xg_shmem_fail(routine,
                  "%s is NULL but the call covers %zu bytes of it: "
                  "pass a symmetric array (shmem_malloc or a global)",
                  name, len);
}

/* The team of a query or split: NULL for SHMEM_TEAM_INVALID. */
static xg_team_t *team_arg(const char *routine, shmem_team_t team)
{
    xg_shmem_check_init(routine);
    if (team == SHMEM_TEAM_INVALID) {
        return NULL;
    }
    if (!xg_team_valid(team)) {
        xg_shmem_bad_team(routine, team);
    }
    return team;
}

XG_SHMEM_API int shmem_team_my_pe(shmem_team_t team)
{
    xg_team_t *t = team_arg(__func__, team);

    return (t == NULL) ? -1 : t->my_pe;
}
XG_PSHMEM(shmem_team_my_pe)

XG_SHMEM_API int shmem_team_n_pes(shmem_team_t team)
{
    xg_team_t *t = team_arg(__func__, team);

    return (t == NULL) ? -1 : t->size;
}
XG_PSHMEM(shmem_team_n_pes)

/* A config and mask passed to a split or get_config: unknown bits and a
 * NULL config with a nonzero mask end the job. */
static void team_check_config(const char *routine, const char *what,
                              const shmem_team_config_t *config, long mask,
                              int creating)
{
    if ((mask & ~SHMEM_TEAM_NUM_CONTEXTS) != 0) {
        xg_shmem_fail(routine,
                      "%s mask %#lx has unknown bits %#lx: the only "
                      "configuration field is SHMEM_TEAM_NUM_CONTEXTS",
                      what, mask, mask & ~SHMEM_TEAM_NUM_CONTEXTS);
    }
    if ((mask != 0) && (config == NULL)) {
        xg_shmem_fail(routine,
                      "%s is NULL but its mask is %#lx: pass a "
                      "configuration or a mask of 0",
                      what, mask);
    }
    if (creating && (mask & SHMEM_TEAM_NUM_CONTEXTS) &&
        (config->num_contexts < 0)) {
        xg_shmem_fail(routine,
                      "%s asks for %d contexts: num_contexts must "
                      "be 0 or more",
                      what, config->num_contexts);
    }
}

XG_SHMEM_API int shmem_team_get_config(shmem_team_t team, long config_mask,
                                       shmem_team_config_t *config)
{
    xg_team_t *t = team_arg(__func__, team);

    if (t == NULL) {
        return -1;
    }
    if (config_mask == 0) {
        return 0;
    }
    team_check_config(__func__, "config", config, config_mask, 0);
    /* contexts cost nothing here: the value the team was created with (0
     * by default) is still the one in force */
    config->num_contexts = t->num_contexts;
    return 0;
}
XG_PSHMEM(shmem_team_get_config)

XG_SHMEM_API int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                         shmem_team_t dest_team)
{
    xg_team_t *src  = team_arg(__func__, src_team);
    xg_team_t *dest = team_arg(__func__, dest_team);

    if ((src == NULL) || (dest == NULL) || (src_pe < 0) ||
        (src_pe >= src->size)) {
        return -1;
    }
    return xg_team_rank_of(dest, xg_team_world_pe(src, src_pe));
}
XG_PSHMEM(shmem_team_translate_pe)

XG_SHMEM_API void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    xg_team_t *t = team_arg(__func__, team);

    if ((t == NULL) || (pe < 0) || (pe >= t->size)) {
        return NULL;
    }
    return xg_shmem_ptr(dest, xg_team_world_pe(t, pe));
}
XG_PSHMEM(shmem_team_ptr)

/* A digest of a split's arguments, compared between the parent's PEs. */
static uint64_t team_digest(int64_t a, int64_t b, int64_t c)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;

    h = (h ^ (uint64_t)a) * 0x100000001b3ull;
    h = (h ^ (uint64_t)b) * 0x100000001b3ull;
    h = (h ^ (uint64_t)c) * 0x100000001b3ull;
    return h;
}

/* Whether (start, stride, size) names PEs of a parent team of @n PEs, with
 * the reason in @why when not. */
static int team_triplet_valid(int start, int stride, int size, int n, char *why,
                              size_t why_len)
{
    long long last = (long long)start + (long long)stride * (size - 1);

    if (size < 1) {
        snprintf(why, why_len, "size %d: a team has at least 1 PE", size);
        return 0;
    }
    if ((stride == 0) && (size != 1)) {
        snprintf(why, why_len,
                 "stride 0 with size %d: stride 0 is only "
                 "valid for a team of 1 PE",
                 size);
        return 0;
    }
    if ((start < 0) || (start >= n) || (last < 0) || (last >= n)) {
        snprintf(why, why_len,
                 "start %d, stride %d, size %d name PEs %d "
                 "to %lld, but the parent team has PEs 0..%d (no "
                 "wrap-around)",
                 start, stride, size, start, last, n - 1);
        return 0;
    }
    return 1;
}

static void team_spec_config(xg_team_spec_t *spec,
                             const shmem_team_config_t *config, long mask)
{
    spec->config_mask = mask;
    spec->num_contexts =
        ((mask & SHMEM_TEAM_NUM_CONTEXTS) != 0) ? config->num_contexts : 0;
}

XG_SHMEM_API int shmem_team_split_strided(shmem_team_t parent_team, int start,
                                          int stride, int size,
                                          const shmem_team_config_t *config,
                                          long config_mask,
                                          shmem_team_t *new_team)
{
    xg_team_t *parent = team_arg(__func__, parent_team), *team = NULL;
    xg_team_spec_t spec = {0};
    char why[192];
    int valid;
    xg_status_t status;

    if (new_team == NULL) {
        xg_shmem_fail(__func__, "new_team is NULL: pass where to store the "
                                "new team's handle");
    }
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == NULL) {
        return -1;
    }
    team_check_config(__func__, "config", config, config_mask, 1);
    valid =
        team_triplet_valid(start, stride, size, parent->size, why, sizeof(why));
    if (valid) {
        int rel = parent->my_pe - start;

        spec.start  = xg_team_world_pe(parent, start);
        spec.stride = parent->stride * stride;
        spec.size   = size;
        spec.member = (stride == 0)
                          ? (rel == 0)
                          : ((rel % stride == 0) && (rel / stride >= 0) &&
                             (rel / stride < size));
        team_spec_config(&spec, config, config_mask);
    } else if (parent->my_pe == 0) {
        xg_warn("shmem", "%s: %s; no team created", __func__, why);
    }
    status = xg_team_split(parent, &spec, 1, valid,
                           team_digest(start, stride, size), __func__, &team);
    if (status != XG_OK) {
        return -1;
    }
    *new_team = team;
    return 0;
}
XG_PSHMEM(shmem_team_split_strided)

XG_SHMEM_API int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                                     const shmem_team_config_t *xaxis_config,
                                     long xaxis_mask, shmem_team_t *xaxis_team,
                                     const shmem_team_config_t *yaxis_config,
                                     long yaxis_mask, shmem_team_t *yaxis_team)
{
    xg_team_t *parent       = team_arg(__func__, parent_team);
    xg_team_t *teams[2]     = {NULL, NULL};
    xg_team_spec_t specs[2] = {{0}, {0}};
    int valid               = (xrange >= 1), n, x, y, row;
    xg_status_t status;

    if ((xaxis_team == NULL) || (yaxis_team == NULL)) {
        xg_shmem_fail(__func__, "xaxis_team or yaxis_team is NULL: pass "
                                "where to store the new teams' handles");
    }
    *xaxis_team = SHMEM_TEAM_INVALID;
    *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent == NULL) {
        return -1;
    }
    team_check_config(__func__, "xaxis_config", xaxis_config, xaxis_mask, 1);
    team_check_config(__func__, "yaxis_config", yaxis_config, yaxis_mask, 1);
    n = parent->size;
    if (valid) {
        /* PE p of the parent is at (p mod xrange, p / xrange); its x team
         * is its row, its y team its column */
        x               = parent->my_pe % xrange;
        y               = parent->my_pe / xrange;
        row             = y * xrange;
        specs[0].start  = xg_team_world_pe(parent, row);
        specs[0].stride = parent->stride;
        specs[0].size   = (n - row < xrange) ? n - row : xrange;
        specs[0].member = 1;
        specs[0].axis   = 0;
        team_spec_config(&specs[0], xaxis_config, xaxis_mask);
        specs[1].start = xg_team_world_pe(parent, x);
        specs[1].stride =
            (int)((long long)parent->stride * (xrange < n ? xrange : n));
        specs[1].size   = (n - x + xrange - 1) / xrange;
        specs[1].member = 1;
        specs[1].axis   = 1;
        team_spec_config(&specs[1], yaxis_config, yaxis_mask);
    } else if (parent->my_pe == 0) {
        xg_warn("shmem",
                "%s: xrange %d: the x dimension needs at least 1 "
                "PE; no teams created",
                __func__, xrange);
    }
    status = xg_team_split(parent, specs, 2, valid, team_digest(xrange, 0, 0),
                           __func__, teams);
    if (status != XG_OK) {
        return -1;
    }
    *xaxis_team = teams[0];
    *yaxis_team = teams[1];
    return 0;
}
XG_PSHMEM(shmem_team_split_2d)

XG_SHMEM_API void shmem_team_destroy(shmem_team_t team)
{
    xg_team_t *t = team_arg(__func__, team);

    if (t == NULL) {
        return;
    }
    if (t->predefined) {
        xg_shmem_fail(__func__,
                      "%s cannot be destroyed: destroy only teams "
                      "created by a split",
                      (t == &xg_team_world) ? "SHMEM_TEAM_WORLD"
                                            : "SHMEM_TEAM_SHARED");
    }
    xg_shmem_ctx_release_team(t);
    xg_team_destroy(t, __func__);
}
XG_PSHMEM(shmem_team_destroy)
