/*
 * The first-match rule with hashing: random lists of entries -- exact,
 * any-source, with ignore bits, no-truncate -- and random messages; the
 * hashed matcher (EXACT and ANYSRC chains plus the wildcard list) must
 * pick exactly the entry a plain walk in append order picks.  Entries are
 * removed and appended between rounds so chains and the growing hash
 * tables are exercised too.
 */
#include <stdlib.h>
#include <string.h>

#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "xg_test.h"

#define NENT   600
#define ROUNDS 40

static uint32_t rng = 99;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* The reference: first linked entry in append order that accepts. */
static xg_nic_me_t *walk(xg_nic_ni_t *ni, xg_nic_me_t *ents, int n,
                         uint32_t src, uint64_t bits, ptl_size_t len)
{
    ptl_process_t who = {.rank = src};
    xg_nic_me_t *best = NULL;
    int i;

    for (i = 0; i < n; i++) {
        xg_nic_me_t *me = &ents[i];

        if (!me->linked || ((best != NULL) && (me->seq > best->seq))) {
            continue;
        }
        if ((((bits ^ me->match_bits) & ~me->ignore_bits) == 0) &&
            xg_nic_me_matches_id(ni, me, &who) &&
            (!(me->options & PTL_ME_NO_TRUNCATE) ||
             (len <= me->region.length))) {
            best = me;
        }
    }
    return best;
}

int main(void)
{
    static xg_nic_me_t ents[NENT];
    xg_nic_t nic;
    xg_nic_ni_t ni;
    xg_nic_list_t list;
    xg_nic_me_t *got, *want;
    int round, i, q;
    uint64_t seq = 0;

    memset(&nic, 0, sizeof(nic));
    memset(&ni, 0, sizeof(ni));
    nic.hashing = 1;
    ni.nic      = &nic;
    ni.logical  = 1;
    xg_nic_list_init(&list);
    for (round = 0; round < ROUNDS; round++) {
        /* unlink some, append fresh ones at the end */
        for (i = 0; i < NENT; i++) {
            xg_nic_me_t *me = &ents[i];

            if (me->linked && (rnd(4) != 0)) {
                continue;
            }
            xg_nic_list_remove(&list, me);
            memset(me, 0, sizeof(*me));
            me->seq           = seq++;
            me->match_bits    = rnd(16);
            me->ignore_bits   = (rnd(5) == 0) ? rnd(16) : 0;
            me->match_id.rank = (rnd(3) == 0) ? PTL_RANK_ANY : rnd(4);
            me->options       = (rnd(6) == 0) ? PTL_ME_NO_TRUNCATE : 0;
            me->region.length = 1 + rnd(64);
            xg_nic_me_classify(&ni, me);
            xg_nic_list_insert(&ni, &list, me);
        }
        for (q = 0; q < 500; q++) {
            uint32_t src   = rnd(4);
            uint64_t bits  = rnd(16);
            ptl_size_t len = rnd(80);

            got  = xg_nic_list_match(&ni, &list, src, bits, len, 0);
            want = walk(&ni, ents, NENT, src, bits, len);
            XG_CHECK(got == want,
                     "round %d: source %u bits %llu length "
                     "%llu matched entry %ld, want %ld",
                     round, src, (unsigned long long)bits,
                     (unsigned long long)len, got ? (long)(got - ents) : -1L,
                     want ? (long)(want - ents) : -1L);
        }
    }
    XG_CHECK(list.exact.count > 0 && list.anysrc.count > 0 &&
                 list.wild_head != NULL,
             "all three indexes were used");
    xg_nic_list_fini(&list);
    return 0;
}
