/*
 * Put and get around a ring of processes (loopback with one), for sizes
 * from 0 bytes to 1 MiB -- one packet, several packets, and rendezvous
 * above XGAS_NIC_EAGER_LIMIT -- checking the data and every field of
 * every event on both sides: SEND, ACK and REPLY at the initiator, PUT and
 * GET at the target.
 */
#include <unistd.h>

#include "ptl_test.h"

#define PT      5
#define MAX_LEN (1u << 20)

static const ptl_size_t sizes[] = {0, 1, 100, 8000, 20000, 65536, 1u << 20};

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t eq, ieq;
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    ptl_uid_t uid;
    uint8_t *src, *dst;
    int right, left;
    size_t i, k;
    ptl_size_t len, roff;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    left  = (env.rank + env.npes - 1) % env.npes;
    PTL_OK_OR_DIE(PtlGetUid(env.ni, &uid));
    XG_CHECK(uid == (ptl_uid_t)getuid(), "uid %u, getuid %u", uid,
             (unsigned)getuid());
    src = malloc(MAX_LEN + 64);
    dst = calloc(1, MAX_LEN + 64);
    XG_CHECK((src != NULL) && (dst != NULL), "out of memory");

    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &eq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 64, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, eq, PT, &pt));
    XG_CHECK(pt == PT, "got portal %u", pt);
    memset(&me, 0, sizeof(me));
    me.start         = dst;
    me.length        = MAX_LEN + 64;
    me.ct_handle     = PTL_CT_NONE;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET;
    me.match_id.rank = (ptl_rank_t)left;
    me.match_bits    = 0xabc0000000000000ull | (uint64_t)left;
    PTL_OK_OR_DIE(
        PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, (void *)0x1234, &meh));
    ptl_test_next(eq, PTL_EVENT_LINK, &ev);
    XG_CHECK(ev.user_ptr == (void *)0x1234, "LINK user_ptr %p", ev.user_ptr);
    XG_CHECK(ev.pt_index == PT, "LINK pt_index %u", ev.pt_index);

    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = MAX_LEN + 64;
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));
    ptl_test_barrier(&env);

    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        len  = sizes[k];
        roff = 7 + k;
        for (i = 0; i < len; i++) {
            src[3 + i] = ptl_test_byte((uint64_t)env.rank * 100 + k, i);
        }
        memset(dst, 0, MAX_LEN + 64);
        ptl_test_barrier(&env);
        PTL_OK_OR_DIE(PtlPut(md, 3, len, PTL_ACK_REQ, ptl_test_rank(right), PT,
                             0xabc0000000000000ull | (uint64_t)env.rank, roff,
                             (void *)(uintptr_t)(k + 1), 0x5eed0000ull + k));
        /* initiator: SEND, then ACK */
        ptl_test_next(ieq, PTL_EVENT_SEND, &ev);
        XG_CHECK(ev.user_ptr == (void *)(uintptr_t)(k + 1), "SEND user_ptr");
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "SEND fail %u", ev.ni_fail_type);
        ptl_test_next(ieq, PTL_EVENT_ACK, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "ACK fail %u", ev.ni_fail_type);
        XG_CHECK(ev.mlength == len, "ACK mlength %llu, want %llu",
                 (unsigned long long)ev.mlength, (unsigned long long)len);
        XG_CHECK(ev.remote_offset == roff, "ACK remote_offset %llu",
                 (unsigned long long)ev.remote_offset);
        XG_CHECK(ev.user_ptr == (void *)(uintptr_t)(k + 1), "ACK user_ptr");
        XG_CHECK(ev.ptl_list == PTL_PRIORITY_LIST, "ACK list");
        XG_CHECK(ev.initiator.rank == (ptl_rank_t)right, "ACK peer %u",
                 ev.initiator.rank);
        /* target: PUT */
        ptl_test_next(eq, PTL_EVENT_PUT, &ev);
        XG_CHECK(ev.initiator.rank == (ptl_rank_t)left, "PUT initiator %u",
                 ev.initiator.rank);
        XG_CHECK(ev.match_bits == (0xabc0000000000000ull | (uint64_t)left),
                 "PUT match_bits %llx", (unsigned long long)ev.match_bits);
        XG_CHECK((ev.rlength == len) && (ev.mlength == len),
                 "PUT rlength %llu mlength %llu (len %llu)",
                 (unsigned long long)ev.rlength, (unsigned long long)ev.mlength,
                 (unsigned long long)len);
        XG_CHECK(ev.remote_offset == roff, "PUT remote_offset");
        XG_CHECK(ev.start == dst + roff, "PUT start %p, want %p", ev.start,
                 (void *)(dst + roff));
        XG_CHECK(ev.user_ptr == (void *)0x1234, "PUT user_ptr");
        XG_CHECK(ev.hdr_data == 0x5eed0000ull + k, "PUT hdr_data");
        XG_CHECK(ev.uid == uid, "PUT uid %u", ev.uid);
        XG_CHECK(ev.pt_index == PT, "PUT pt_index");
        XG_CHECK(ev.ptl_list == PTL_PRIORITY_LIST, "PUT list");
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "PUT fail");
        for (i = 0; i < len; i++) {
            XG_CHECK(dst[roff + i] ==
                         ptl_test_byte((uint64_t)left * 100 + k, i),
                     "size %llu: byte %zu wrong", (unsigned long long)len, i);
        }
        XG_CHECK(dst[roff - 1] == 0 && dst[roff + len] == 0,
                 "put wrote outside its range");

        /* get the same bytes back from the right neighbour's buffer */
        ptl_test_barrier(&env);
        memset(src, 0, MAX_LEN + 64);
        PTL_OK_OR_DIE(PtlGet(md, 1, len, ptl_test_rank(right), PT,
                             0xabc0000000000000ull | (uint64_t)env.rank, roff,
                             (void *)(uintptr_t)(k + 100)));
        ptl_test_next(ieq, PTL_EVENT_REPLY, &ev);
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "REPLY fail %u",
                 ev.ni_fail_type);
        XG_CHECK(ev.mlength == len, "REPLY mlength %llu",
                 (unsigned long long)ev.mlength);
        XG_CHECK(ev.user_ptr == (void *)(uintptr_t)(k + 100), "REPLY ptr");
        XG_CHECK(ev.remote_offset == roff, "REPLY remote_offset");
        for (i = 0; i < len; i++) {
            XG_CHECK(
                src[1 + i] == ptl_test_byte((uint64_t)env.rank * 100 + k, i),
                "get size %llu: byte %zu wrong", (unsigned long long)len, i);
        }
        ptl_test_next(eq, PTL_EVENT_GET, &ev);
        XG_CHECK(ev.initiator.rank == (ptl_rank_t)left, "GET initiator");
        XG_CHECK((ev.rlength == len) && (ev.mlength == len), "GET lengths");
        XG_CHECK(ev.start == dst + roff, "GET start");
        ptl_test_barrier(&env);
    }
    ptl_test_none(eq);
    ptl_test_none(ieq);

    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_EXPECT(PTL_ARG_INVALID, PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(eq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    free(src);
    free(dst);
    return 0;
}
