/*
 * A priority entry appended (or a PtlMESearch with PTL_SEARCH_DELETE run)
 * while an unexpected message is still landing in its overflow entry:
 * the header is listed from the moment the message matched, so the append
 * finds it; the PTL_EVENT_PUT_OVERFLOW (and count, and AUTO_UNLINK of a
 * use-once entry) follow when the last byte has landed, after the
 * overflow entry's own PTL_EVENT_PUT.  A message that breaks off instead
 * reports PTL_NI_UNDELIVERABLE to the entry that claimed it.
 *
 * Before this was fixed the header was listed only once complete, so an
 * append in between was linked and the header listed after it: neither
 * ever met the other (a hang of nic-alltoall --late, 8 PEs).
 *
 * The test feeds packets straight to the receive path of an in-process
 * NIC whose progress it drives by hand, so the interleaving is exact.
 */
#include <string.h>

#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_wire_int.h"
#include "xg_test.h"

#define CHECK_RC(call) XG_CHECK((call) == PTL_OK, "%s failed", #call)

static xg_nic_t *nic;
static uint8_t pkt[sizeof(xg_nic_wire_t) + 64];
static uint8_t src[64];

static void feed(const xg_nic_wire_t *hdr, const void *data, size_t n)
{
    memcpy(pkt, hdr, sizeof(*hdr));
    if (n != 0) {
        memcpy(pkt + sizeof(*hdr), data, n);
    }
    xg_nic_rx_packet(nic, pkt, sizeof(*hdr) + n);
    xg_nic_rx_release(nic);
    while (xg_nic_progress_once(nic) > 0) {
    }
}

/* The first 16 of @len bytes of a put with @bits (more to come). */
static void put_head(uint64_t bits, uint32_t len)
{
    xg_nic_wire_t hdr;

    xg_nic_wire_init(&hdr, XG_WIRE_PUT, 0, 0);
    hdr.id.match_bits = bits;
    hdr.id.rlength    = len;
    hdr.payload       = 16;
    hdr.id.hdr_data   = bits * 10;
    hdr.id.uid        = nic->uid;
    hdr.id.ack_req    = PTL_NO_ACK_REQ;
    feed(&hdr, src, 16);
}

static void put_rest(uint32_t len)
{
    xg_nic_wire_t hdr;

    xg_nic_wire_init(&hdr, XG_WIRE_DATA, 0, 0);
    hdr.offset  = 16;
    hdr.payload = len - 16;
    feed(&hdr, src + 16, len - 16);
}

static void expect(ptl_handle_eq_t eq, ptl_event_kind_t type, ptl_list_t list,
                   void *user_ptr, ptl_ni_fail_t fail, const char *what)
{
    ptl_event_t ev;
    int rc = PtlEQGet(eq, &ev);

    XG_CHECK(rc == PTL_OK, "%s: no event (rc %d)", what, rc);
    XG_CHECK(ev.type == type, "%s: event %d, want %d", what, ev.type, type);
    if ((type == PTL_EVENT_PUT) || (type == PTL_EVENT_PUT_OVERFLOW)) {
        XG_CHECK(ev.ptl_list == list, "%s: list %d", what, ev.ptl_list);
        XG_CHECK(ev.ni_fail_type == fail, "%s: fail type %d", what,
                 ev.ni_fail_type);
        XG_CHECK((type != PTL_EVENT_PUT_OVERFLOW) || (ev.user_ptr == user_ptr),
                 "%s: user_ptr %p, want %p", what, ev.user_ptr, user_ptr);
        XG_CHECK(ev.hdr_data == ev.match_bits * 10, "%s: hdr_data", what);
    }
}

static void expect_none(ptl_handle_eq_t eq, const char *what)
{
    ptl_event_t ev;
    int rc = PtlEQGet(eq, &ev);

    XG_CHECK(rc == PTL_EQ_EMPTY, "%s: unexpected event %d (rc %d)", what,
             (rc == PTL_OK) ? (int)ev.type : -1, rc);
}

int main(void)
{
    static uint8_t obuf[4096];
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_ct_t ct;
    ptl_handle_me_t oh, ph, ph2;
    ptl_ct_event_t cv;
    xg_nic_wire_t hdr;
    ptl_me_t me;
    int i;

    for (i = 0; i < (int)sizeof(src); i++) {
        src[i] = (uint8_t)(i + 1);
    }
    CHECK_RC(PtlInit());
    CHECK_RC(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                       PTL_PID_ANY, NULL, NULL, &ni));
    nic = xg_nic_global;
    xg_nic_stop_progress(nic);
    CHECK_RC(PtlEQAlloc(ni, 64, &eq));
    CHECK_RC(PtlCTAlloc(ni, &ct));
    CHECK_RC(PtlPTAlloc(ni, 0, eq, 0, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = obuf;
    me.length    = sizeof(obuf);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options =
        PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.ignore_bits   = ~0ull;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_OVERFLOW_LIST, NULL, &oh));

    /* 1: a use-once append claims a message that is still landing */
    put_head(5, 40);
    expect_none(eq, "header only");
    me.start       = NULL;
    me.length      = 0;
    me.ct_handle   = ct;
    me.ignore_bits = 0;
    me.match_bits  = 5;
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_CT_OVERFLOW;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, (void *)0x51, &ph));
    expect_none(eq, "claimed, data still landing");
    XG_CHECK(PtlMEUnlink(ph) == PTL_IN_USE,
             "a claiming entry must stay until the message completes");
    CHECK_RC(PtlCTGet(ct, &cv));
    XG_CHECK(cv.success == 0, "counted before completion");
    put_rest(40);
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK,
           "1: overflow entry's put");
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0x51,
           PTL_NI_OK, "1: claimed header");
    expect(eq, PTL_EVENT_AUTO_UNLINK, 0, NULL, PTL_NI_OK, "1: use-once");
    expect_none(eq, "1: nothing more");
    CHECK_RC(PtlCTGet(ct, &cv));
    XG_CHECK(cv.success == 1 && cv.failure == 0, "1: count %llu/%llu",
             (unsigned long long)cv.success, (unsigned long long)cv.failure);
    XG_CHECK(memcmp(obuf, src, 40) == 0, "1: data in the overflow entry");
    XG_CHECK(nic->ni[0].pt[0]->uh_count == 0, "1: header left behind");

    /* 2: a persistent entry claims one, and a later message matches it
     * directly (the claim does not keep it out of the list) */
    put_head(6, 48);
    me.match_bits = 6;
    me.options    = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    me.start      = obuf + 2048;
    me.length     = 64;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, (void *)0x61, &ph2));
    expect_none(eq, "2: claimed");
    put_rest(48);
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK,
           "2: overflow entry's put");
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0x61,
           PTL_NI_OK, "2: claimed header");
    xg_nic_wire_init(&hdr, XG_WIRE_PUT, 0, 0);
    hdr.id.match_bits = 6;
    hdr.id.hdr_data   = 60;
    hdr.id.rlength    = 8;
    hdr.payload       = 8;
    hdr.id.uid        = nic->uid;
    feed(&hdr, src, 8);
    expect(eq, PTL_EVENT_PUT, PTL_PRIORITY_LIST, NULL, PTL_NI_OK,
           "2: direct match afterwards");
    CHECK_RC(PtlMEUnlink(ph2));

    /* 3: PtlMESearch with PTL_SEARCH_DELETE takes a landing header */
    put_head(7, 32);
    me.match_bits = 7;
    me.options    = PTL_ME_OP_PUT;
    CHECK_RC(PtlMESearch(ni, 0, &me, PTL_SEARCH_DELETE, (void *)0x71));
    expect_none(eq, "3: deleted while landing");
    put_rest(32);
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK,
           "3: overflow entry's put");
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0x71,
           PTL_NI_OK, "3: search-delete");
    expect_none(eq, "3: nothing more");
    XG_CHECK(nic->ni[0].pt[0]->uh_count == 0, "3: header left behind");

    /* 4: an unclaimed landing header is searchable and stays listed */
    put_head(8, 24);
    me.match_bits = 8;
    CHECK_RC(PtlMESearch(ni, 0, &me, PTL_SEARCH_ONLY, (void *)0x81));
    expect(eq, PTL_EVENT_SEARCH, 0, NULL, PTL_NI_OK, "4: search-only");
    expect_none(eq, "4: one header, one search event");
    put_rest(24);
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK,
           "4: overflow entry's put");
    XG_CHECK(nic->ni[0].pt[0]->uh_count == 1, "4: header must stay");
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, (void *)0x82, &ph));
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0x82,
           PTL_NI_OK, "4: complete header at append");
    expect(eq, PTL_EVENT_AUTO_UNLINK, 0, NULL, PTL_NI_OK, "4: use-once");

    /* 4b: a persistent search reports every matching header once, a
     * persistent search-delete takes every one */
    for (i = 0; i < 2; i++) {
        put_head(10, 16 + 8 * (uint32_t)i);
        if (i == 1) {
            put_rest(24);
        }
    }
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK, "4b: 1");
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK, "4b: 2");
    me.match_bits = 10;
    me.options    = PTL_ME_OP_PUT;
    CHECK_RC(PtlMESearch(ni, 0, &me, PTL_SEARCH_ONLY, (void *)0xa1));
    expect(eq, PTL_EVENT_SEARCH, 0, NULL, PTL_NI_OK, "4b: search 1");
    expect(eq, PTL_EVENT_SEARCH, 0, NULL, PTL_NI_OK, "4b: search 2");
    expect_none(eq, "4b: each header once");
    CHECK_RC(PtlMESearch(ni, 0, &me, PTL_SEARCH_DELETE, (void *)0xa2));
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0xa2,
           PTL_NI_OK, "4b: delete 1");
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0xa2,
           PTL_NI_OK, "4b: delete 2");
    expect_none(eq, "4b: both deleted");
    XG_CHECK(nic->ni[0].pt[0]->uh_count == 0, "4b: headers left behind");

    /* 5: the claimed message breaks off (a new message from the same
     * process arrives mid-way): the claiming entry learns it failed */
    put_head(9, 40);
    me.match_bits = 9;
    me.ct_handle  = ct;
    me.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_LINK_DISABLE |
                 PTL_ME_EVENT_CT_OVERFLOW;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, (void *)0x91, &ph));
    xg_nic_wire_init(&hdr, XG_WIRE_PUT, 0, 0);
    hdr.id.match_bits = 99;
    hdr.id.hdr_data   = 990;
    hdr.id.rlength    = 8;
    hdr.payload       = 8;
    hdr.id.uid        = nic->uid;
    feed(&hdr, src, 8);
    expect(eq, PTL_EVENT_PUT_OVERFLOW, PTL_OVERFLOW_LIST, (void *)0x91,
           PTL_NI_UNDELIVERABLE, "5: broken message");
    expect(eq, PTL_EVENT_AUTO_UNLINK, 0, NULL, PTL_NI_OK, "5: use-once");
    expect(eq, PTL_EVENT_PUT, PTL_OVERFLOW_LIST, NULL, PTL_NI_OK,
           "5: the next message");
    CHECK_RC(PtlCTGet(ct, &cv));
    XG_CHECK(cv.success == 1 && cv.failure == 1, "5: count %llu/%llu",
             (unsigned long long)cv.success, (unsigned long long)cv.failure);

    CHECK_RC(PtlMEUnlink(oh));
    while (PtlEQGet(eq, &(ptl_event_t){0}) == PTL_OK) {
    }
    CHECK_RC(PtlPTFree(ni, 0));
    CHECK_RC(PtlCTFree(ct));
    CHECK_RC(PtlEQFree(eq));
    CHECK_RC(PtlNIFini(ni));
    PtlFini();
    return 0;
}
