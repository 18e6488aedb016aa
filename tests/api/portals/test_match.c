/*
 * Table-driven matching: each case appends entries, sends messages, appends
 * more entries, and lists the events the target must see, in order.  Every
 * process is the target of its left neighbour (itself when alone), so the
 * order of events is deterministic.  Run with XGAS_NIC_HASH=1 and =0: the
 * hashed and the linear matcher must agree on every case, in particular on
 * the first-match-in-list-order rule across hashed and wildcard entries.
 */
#include "ptl_test.h"

#define PT      7
#define MAX_ENT 8
#define MAX_MSG 6
#define MAX_EV  16
#define BUF     256

enum {
    SRC_LEFT = 0,
    SRC_ANY,
    SRC_OTHER
};

typedef struct {
    int list; /* PTL_PRIORITY_LIST / PTL_OVERFLOW_LIST */
    int src;  /* SRC_* */
    uint64_t bits;
    uint64_t ignore;
    unsigned opts; /* extra PTL_ME_* options */
    ptl_size_t len;
} ent_t;

typedef struct {
    uint64_t bits;
    ptl_size_t len;
    ptl_ni_fail_t fail; /* expected in the ACK */
} msg_t;

typedef struct {
    int type;  /* -1 ends the list */
    int entry; /* user_ptr = entry number + 1 */
    ptl_size_t mlength;
    int list;
} ev_t;

typedef struct {
    const char *name;
    ent_t pre[MAX_ENT]; /* len 0 and list -1 ends */
    int npre;
    msg_t msg[MAX_MSG];
    int nmsg;
    ev_t msg_ev[MAX_EV]; /* events after the messages */
    ent_t post[MAX_ENT]; /* appended after the messages */
    int npost;
    ev_t post_ev[MAX_EV]; /* events of the post appends */
} case_t;

#define PRI PTL_PRIORITY_LIST
#define OVF PTL_OVERFLOW_LIST
#define E(t, e, m, l)          \
    {                          \
        PTL_EVENT_##t, e, m, l \
    }
#define END         \
    {               \
        -1, 0, 0, 0 \
    }

static const case_t cases[] = {
    {"exact bits",
     {{PRI, SRC_LEFT, 5, 0, 0, BUF}},
     1,
     {{5, 10, PTL_NI_OK}},
     1,
     {E(PUT, 0, 10, PRI), END},
     {{0}},
     0,
     {END}},

    {"no match drops",
     {{PRI, SRC_LEFT, 5, 0, 0, BUF}},
     1,
     {{6, 10, PTL_NI_DROPPED}},
     1,
     {END},
     {{0}},
     0,
     {END}},

    {"wildcard entry first beats hashed",
     {{PRI, SRC_LEFT, 0x100, 0xff, 0, BUF}, {PRI, SRC_LEFT, 0x105, 0, 0, BUF}},
     2,
     {{0x105, 8, PTL_NI_OK}},
     1,
     {E(PUT, 0, 8, PRI), END},
     {{0}},
     0,
     {END}},

    {"hashed entry first beats wildcard",
     {{PRI, SRC_LEFT, 0x105, 0, 0, BUF}, {PRI, SRC_LEFT, 0x100, 0xff, 0, BUF}},
     2,
     {{0x105, 8, PTL_NI_OK}},
     1,
     {E(PUT, 0, 8, PRI), END},
     {{0}},
     0,
     {END}},

    {"any-source before exact",
     {{PRI, SRC_ANY, 7, 0, 0, BUF}, {PRI, SRC_LEFT, 7, 0, 0, BUF}},
     2,
     {{7, 1, PTL_NI_OK}, {7, 2, PTL_NI_OK}},
     2,
     {E(PUT, 0, 1, PRI), E(PUT, 0, 2, PRI), END},
     {{0}},
     0,
     {END}},

    {"exact before any-source, use once",
     {{PRI, SRC_LEFT, 7, 0, PTL_ME_USE_ONCE, BUF},
      {PRI, SRC_ANY, 7, 0, 0, BUF}},
     2,
     {{7, 1, PTL_NI_OK}, {7, 2, PTL_NI_OK}},
     2,
     {E(PUT, 0, 1, PRI), E(AUTO_UNLINK, 0, 0, PRI), E(PUT, 1, 2, PRI), END},
     {{0}},
     0,
     {END}},

    {"no-truncate entries are skipped when short",
     {{PRI, SRC_LEFT, 9, 0, PTL_ME_NO_TRUNCATE, 4},
      {PRI, SRC_LEFT, 9, 0, 0, BUF}},
     2,
     {{9, 10, PTL_NI_OK}, {9, 3, PTL_NI_OK}},
     2,
     {E(PUT, 1, 10, PRI), E(PUT, 0, 3, PRI), END},
     {{0}},
     0,
     {END}},

    {"truncation",
     {{PRI, SRC_LEFT, 9, 0, 0, 4}},
     1,
     {{9, 10, PTL_NI_OK}},
     1,
     {E(PUT, 0, 4, PRI), END},
     {{0}},
     0,
     {END}},

    {"source filter",
     {{PRI, SRC_OTHER, 3, 0, 0, BUF}, {PRI, SRC_ANY, 4, 0, 0, BUF}},
     2,
     {{3, 5, PTL_NI_DROPPED}, {4, 5, PTL_NI_OK}},
     2,
     {E(PUT, 1, 5, PRI), END},
     {{0}},
     0,
     {END}},

    {"ignore bits",
     {{PRI, SRC_LEFT, 0xF0, 0x0F, 0, BUF}},
     1,
     {{0xF7, 5, PTL_NI_OK}, {0xE7, 5, PTL_NI_DROPPED}},
     2,
     {E(PUT, 0, 5, PRI), END},
     {{0}},
     0,
     {END}},

    {"priority before overflow",
     {{OVF, SRC_ANY, 0, ~0ull, 0, BUF}, {PRI, SRC_LEFT, 11, 0, 0, BUF}},
     2,
     {{11, 6, PTL_NI_OK}},
     1,
     {E(PUT, 1, 6, PRI), END},
     {{0}},
     0,
     {END}},

    {"unexpected, then a use-once receive",
     {{OVF, SRC_ANY, 0, ~0ull, 0, BUF}},
     1,
     {{12, 6, PTL_NI_OK}},
     1,
     {E(PUT, 0, 6, OVF), END},
     {{PRI, SRC_LEFT, 12, 0, PTL_ME_USE_ONCE, BUF}},
     1,
     {E(PUT_OVERFLOW, 1, 6, OVF), E(AUTO_UNLINK, 1, 0, PRI), END}},

    {"unexpected, a receive that does not match, then one that does",
     {{OVF, SRC_ANY, 0, ~0ull, 0, BUF}},
     1,
     {{13, 6, PTL_NI_OK}},
     1,
     {E(PUT, 0, 6, OVF), END},
     {{PRI, SRC_LEFT, 14, 0, 0, BUF},
      {PRI, SRC_ANY, 13, 0, PTL_ME_USE_ONCE, BUF}},
     2,
     {E(LINK, 1, 0, PRI), E(PUT_OVERFLOW, 2, 6, OVF), E(AUTO_UNLINK, 2, 0, PRI),
      END}},

    {"a persistent receive takes every matching header, oldest first",
     {{OVF, SRC_ANY, 0, ~0ull, 0, BUF}},
     1,
     {{15, 1, PTL_NI_OK}, {16, 2, PTL_NI_OK}, {15, 3, PTL_NI_OK}},
     3,
     {E(PUT, 0, 1, OVF), E(PUT, 0, 2, OVF), E(PUT, 0, 3, OVF), END},
     {{PRI, SRC_LEFT, 15, 0, 0, BUF}},
     1,
     {E(PUT_OVERFLOW, 1, 1, OVF), E(PUT_OVERFLOW, 1, 3, OVF),
      E(LINK, 1, 0, PRI), END}},

    {"a wildcard receive takes the oldest matching header",
     {{OVF, SRC_ANY, 0, ~0ull, 0, BUF}},
     1,
     {{0x21, 1, PTL_NI_OK}, {0x12, 2, PTL_NI_OK}, {0x22, 3, PTL_NI_OK}},
     3,
     {E(PUT, 0, 1, OVF), E(PUT, 0, 2, OVF), E(PUT, 0, 3, OVF), END},
     {{PRI, SRC_ANY, 0x10, 0x0F, PTL_ME_USE_ONCE, BUF},
      {PRI, SRC_ANY, 0x20, 0x0F, PTL_ME_USE_ONCE, BUF}},
     2,
     {E(PUT_OVERFLOW, 1, 2, OVF), E(AUTO_UNLINK, 1, 0, PRI),
      E(PUT_OVERFLOW, 2, 1, OVF), E(AUTO_UNLINK, 2, 0, PRI), END}},

    {"overflow without a header keeps nothing",
     {{OVF, SRC_ANY, 0, ~0ull, PTL_ME_UNEXPECTED_HDR_DISABLE, BUF}},
     1,
     {{17, 4, PTL_NI_OK}},
     1,
     {E(PUT, 0, 4, OVF), END},
     {{PRI, SRC_ANY, 17, 0, 0, BUF}},
     1,
     {E(LINK, 1, 0, PRI), END}},
};

static ptl_handle_me_t handles[2 * MAX_ENT];
static int nhandles;
static uint8_t bufs[2 * MAX_ENT][BUF];

static void append(ptl_test_env_t *env, const ent_t *e, int id, int left)
{
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start         = bufs[id];
    me.length        = e->len;
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | e->opts;
    me.match_bits    = e->bits;
    me.ignore_bits   = e->ignore;
    me.match_id.rank = (e->src == SRC_LEFT)  ? (ptl_rank_t)left
                       : (e->src == SRC_ANY) ? PTL_RANK_ANY
                                             : (ptl_rank_t)(env->npes + 3);
    PTL_OK_OR_DIE(PtlMEAppend(env->ni, PT, &me, (ptl_list_t)e->list,
                              (void *)(intptr_t)(id + 1),
                              &handles[nhandles++]));
}

static void expect(ptl_handle_eq_t eq, const ev_t *want, const char *name)
{
    ptl_event_t ev;
    int i;

    for (i = 0; want[i].type >= 0; i++) {
        ptl_test_next(eq, (ptl_event_kind_t)want[i].type, &ev);
        XG_CHECK(ev.user_ptr == (void *)(intptr_t)(want[i].entry + 1),
                 "%s: event %d (%s) for entry %d, want %d", name, i,
                 ptl_test_ev(ev.type), (int)(intptr_t)ev.user_ptr - 1,
                 want[i].entry);
        if ((want[i].type == PTL_EVENT_PUT) ||
            (want[i].type == PTL_EVENT_PUT_OVERFLOW)) {
            XG_CHECK(ev.mlength == want[i].mlength,
                     "%s: event %d mlength %llu, want %llu", name, i,
                     (unsigned long long)ev.mlength,
                     (unsigned long long)want[i].mlength);
            XG_CHECK((int)ev.ptl_list == want[i].list,
                     "%s: event %d list %d, want %d", name, i, (int)ev.ptl_list,
                     want[i].list);
        }
    }
    ptl_test_none(eq);
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq, ieq;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_md_t mdd;
    uint8_t src[BUF];
    ptl_sr_value_t drops, drops_before;
    int left, right, expect_drops;
    size_t c;
    int i, acks;

    ptl_test_init(&env);
    left  = (env.rank + env.npes - 1) % env.npes;
    right = (env.rank + 1) % env.npes;
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &eq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 256, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &(ptl_pt_index_t){0}));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = BUF;
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));

    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const case_t *k = &cases[c];

        nhandles = 0;
        ptl_test_barrier(&env);
        for (i = 0; i < k->npre; i++) {
            append(&env, &k->pre[i], i, left);
            ptl_test_next(eq, PTL_EVENT_LINK, &ev);
        }
        PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops_before));
        ptl_test_barrier(&env);
        for (i = 0; i < k->nmsg; i++) {
            PTL_OK_OR_DIE(PtlPut(md, 0, k->msg[i].len, PTL_ACK_REQ,
                                 ptl_test_rank(right), PT, k->msg[i].bits, 0,
                                 (void *)(intptr_t)i, 0));
        }
        expect_drops = 0;
        for (acks = 0; acks < k->nmsg; acks++) {
            ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
            i = (int)(intptr_t)ev.user_ptr;
            XG_CHECK(ev.ni_fail_type == k->msg[i].fail,
                     "%s: message %d failed with %u, want %u", k->name, i,
                     ev.ni_fail_type, k->msg[i].fail);
            expect_drops += (k->msg[i].fail != PTL_NI_OK);
        }
        ptl_test_barrier(&env); /* our left neighbour's messages are done */
        expect(eq, k->msg_ev, k->name);
        PTL_OK_OR_DIE(PtlNIStatus(env.ni, PTL_SR_DROP_COUNT, &drops));
        XG_CHECK(drops - drops_before == expect_drops,
                 "%s: %lld drops counted, want %d", k->name,
                 (long long)(drops - drops_before), expect_drops);
        for (i = 0; i < k->npost; i++) {
            append(&env, &k->post[i], k->npre + i, left);
        }
        expect(eq, k->post_ev, k->name);
        /* clean up: linked entries unlink; used-up ones are gone */
        for (i = 0; i < nhandles; i++) {
            int rc = PtlMEUnlink(handles[i]);

            XG_CHECK((rc == PTL_OK) || (rc == PTL_ARG_INVALID),
                     "%s: unlink %d: %s", k->name, i, ptl_test_rc(rc));
        }
        /* headers left in the unexpected list go with a search-delete */
        {
            ptl_me_t all;

            memset(&all, 0, sizeof(all));
            all.uid           = PTL_UID_ANY;
            all.ct_handle     = PTL_CT_NONE;
            all.match_id.rank = PTL_RANK_ANY;
            all.ignore_bits   = ~0ull;
            all.options       = PTL_ME_EVENT_OVER_DISABLE;
            PTL_OK_OR_DIE(
                PtlMESearch(env.ni, PT, &all, PTL_SEARCH_DELETE, NULL));
            while (PtlEQGet(eq, &ev) == PTL_OK) {
                XG_CHECK(ev.type == PTL_EVENT_SEARCH ||
                             ev.type == PTL_EVENT_AUTO_FREE,
                         "%s: stray event %s", k->name, ptl_test_ev(ev.type));
            }
        }
    }
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
