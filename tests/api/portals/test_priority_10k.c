/*
 * A 10,000-entry priority list: a third of the entries hashed on (source,
 * bits), a third on bits for any source, a third with ignore bits (the
 * ordered wildcard list).  Ten thousand messages arrive in a shuffled
 * order; each must land in its own entry.  Run with hashing on and off.
 */
#include "ptl_test.h"

#define PT 27
#define N  10000

static uint64_t tbuf[N];
static uint64_t sbuf[N];
static ptl_handle_me_t handles[N];
static int order[N];

static uint64_t bits_of(int i)
{
    return ((uint64_t)(i % 3) << 56) | (uint64_t)i;
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    int left, right, i, j, tmp, got = 0;
    uint32_t rng = 12345;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 2 * N + 16, &eq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.length    = sizeof(uint64_t);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_UNLINK_DISABLE;
    for (i = 0; i < N; i++) {
        me.start       = &tbuf[i];
        me.match_bits  = bits_of(i);
        me.ignore_bits = 0;
        switch (i % 3) {
        case 0: me.match_id.rank = (ptl_rank_t)left; break;
        case 1: me.match_id.rank = PTL_RANK_ANY; break;
        default: /* the ignored bits are zero in every message */
            me.match_id.rank = PTL_RANK_ANY;
            me.ignore_bits   = 0xff00000000000000ull >> 8;
            break;
        }
        PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST,
                                  (void *)(intptr_t)i, &handles[i]));
    }
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = sbuf;
    mdd.length    = sizeof(sbuf);
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    for (i = 0; i < N; i++) {
        order[i] = i;
        sbuf[i]  = 0xfeed000000000000ull | (uint64_t)i;
    }
    for (i = N - 1; i > 0; i--) { /* a fixed shuffle */
        rng      = rng * 1103515245u + 12345u;
        j        = (int)((rng >> 8) % (uint32_t)(i + 1));
        tmp      = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    ptl_test_barrier(&env);
    for (i = 0; i < N; i++) {
        j = order[i];
        PTL_OK_OR_DIE(PtlPut(md, (ptl_size_t)j * 8, 8, PTL_NO_ACK_REQ,
                             ptl_test_rank(right), PT, bits_of(j), 0, NULL,
                             (uint64_t)j));
    }
    while (got < N) {
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        j = (int)(intptr_t)ev.user_ptr;
        XG_CHECK(ev.hdr_data == (uint64_t)j,
                 "message %llu landed in "
                 "entry %d",
                 (unsigned long long)ev.hdr_data, j);
        XG_CHECK(tbuf[j] == (0xfeed000000000000ull | (uint64_t)j),
                 "entry %d holds %llx", j, (unsigned long long)tbuf[j]);
        got++;
    }
    ptl_test_none(eq);
    ptl_test_barrier(&env);
    for (i = 0; i < N; i++) {
        PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(handles[i])); /* used up */
    }
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    ptl_test_fini(&env);
    return 0;
}
