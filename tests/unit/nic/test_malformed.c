/*
 * Malformed packets: every class the parser rejects is dropped and counted
 * (per reason), packets that parse but make no sense to the engine (a
 * continuation of nothing, an answer to no operation, a reply for a freed
 * MD, an impossible atomic) are dropped and counted too -- and the NIC
 * keeps working: a good put delivered right after is processed normally.
 * The test feeds packets straight to the receive path of an in-process
 * NIC whose progress it drives by hand.
 */
#include <string.h>

#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_wire_int.h"
#include "xg_test.h"

#define CHECK_RC(call) XG_CHECK((call) == PTL_OK, "%s failed", #call)

static xg_nic_t *nic;
static uint8_t pkt[sizeof(xg_nic_wire_t) + 64];

static uint64_t malformed(xg_nic_wire_err_t why)
{
    return atomic_load(&nic->malformed[why]);
}

static void feed(const xg_nic_wire_t *hdr, const void *data, size_t n,
                 size_t len)
{
    memcpy(pkt, hdr, sizeof(*hdr));
    if (n != 0) {
        memcpy(pkt + sizeof(*hdr), data, n);
    }
    xg_nic_rx_packet(nic, pkt, len);
    xg_nic_rx_release(nic);
}

static void good_put(xg_nic_wire_t *hdr, uint64_t bits, uint32_t n)
{
    xg_nic_wire_init(hdr, XG_WIRE_PUT, 0, 0);
    hdr->id.match_bits = bits;
    hdr->id.rlength    = n;
    hdr->payload       = n;
    hdr->id.uid        = nic->uid;
    hdr->id.ack_req    = PTL_NO_ACK_REQ;
}

int main(void)
{
    static uint8_t tbuf[64], src[64];
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_me_t meh;
    ptl_handle_md_t md;
    ptl_event_t ev;
    ptl_md_t mdd;
    ptl_me_t me;
    xg_nic_wire_t hdr;
    uint64_t before;
    ptl_sr_value_t drops;

    CHECK_RC(PtlInit());
    CHECK_RC(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                       PTL_PID_ANY, NULL, NULL, &ni));
    nic = xg_nic_global;
    xg_nic_stop_progress(nic);
    CHECK_RC(PtlEQAlloc(ni, 64, &eq));
    CHECK_RC(PtlPTAlloc(ni, 0, eq, 0, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start     = tbuf;
    me.length    = sizeof(tbuf);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 1;
    CHECK_RC(PtlMEAppend(ni, 0, &me, PTL_PRIORITY_LIST, NULL, &meh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = src;
    mdd.length    = sizeof(src);
    mdd.eq_handle = eq;
    mdd.ct_handle = PTL_CT_NONE;
    CHECK_RC(PtlMDBind(ni, &mdd, &md));
    memset(src, 0x77, sizeof(src));

    /* the parser's classes */
    good_put(&hdr, 1, 8);
    XG_CHECK(xg_nic_wire_parse(&hdr, sizeof(hdr), &(xg_nic_wire_t){0}) ==
                 XG_WIRE_ERR_LENGTH,
             "payload claimed but absent");
    feed(&hdr, src, 8, 10);
    XG_CHECK(malformed(XG_WIRE_ERR_SHORT) == 1, "short packet not counted");
    hdr.magic ^= 1;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    XG_CHECK(malformed(XG_WIRE_ERR_MAGIC) == 1, "bad magic not counted");
    good_put(&hdr, 1, 8);
    hdr.type = 200;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    XG_CHECK(malformed(XG_WIRE_ERR_TYPE) == 1, "bad type not counted");
    good_put(&hdr, 1, 8);
    feed(&hdr, src, 8, sizeof(hdr) + 7);
    XG_CHECK(malformed(XG_WIRE_ERR_LENGTH) == 1, "bad length not counted");
    before = malformed(XG_WIRE_ERR_FIELD);
    good_put(&hdr, 1, 8);
    hdr.ni = 7;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    good_put(&hdr, 1, 8);
    hdr.offset = 3;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    good_put(&hdr, 1, 8);
    hdr.id.rlength = 4; /* payload longer than the message */
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    good_put(&hdr, 1, 8);
    hdr.src_rank = 5; /* no such process in a job of one */
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    XG_CHECK(malformed(XG_WIRE_ERR_FIELD) == before + 4, "field errors: %llu",
             (unsigned long long)(malformed(XG_WIRE_ERR_FIELD) - before));
    /* well formed, but out of sequence or answering nothing */
    before = malformed(XG_WIRE_ERR_FIELD);
    xg_nic_wire_init(&hdr, XG_WIRE_DATA, 0, 0);
    hdr.payload = 8;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    XG_CHECK(malformed(XG_WIRE_ERR_FIELD) == before + 1,
             "a continuation of nothing was accepted");
    CHECK_RC(PtlNIStatus(ni, PTL_SR_DROP_COUNT, &drops));
    XG_CHECK(drops == 1, "drop count %lld", (long long)drops);
    before = atomic_load(&nic->rx_dropped);
    xg_nic_wire_init(&hdr, XG_WIRE_RNDV_DATA, 0, 0);
    hdr.tgt_cookie = 0x12345;
    hdr.mlength    = 8;
    hdr.payload    = 8;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    xg_nic_wire_init(&hdr, XG_WIRE_REPLY, 0, 0);
    hdr.id.md      = 0xdead;
    hdr.id.rlength = hdr.mlength = 8;
    hdr.payload                  = 8;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    xg_nic_wire_init(&hdr, XG_WIRE_RNDV_GET, 0, 0);
    hdr.id.md      = md; /* a real MD, but no rendezvous put is pending */
    hdr.id.rlength = 8;
    hdr.mlength    = 8;
    hdr.flags      = XG_WIRE_F_FINAL;
    feed(&hdr, NULL, 0, sizeof(hdr));
    xg_nic_wire_init(&hdr, XG_WIRE_ATOMIC, 0, 0);
    hdr.id.match_bits  = 1;
    hdr.id.atomic_op   = PTL_BAND;
    hdr.id.atomic_type = PTL_DOUBLE; /* undefined combination */
    hdr.id.rlength = hdr.payload = 8;
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    XG_CHECK(atomic_load(&nic->rx_dropped) == before + 4,
             "unusable packets counted %llu",
             (unsigned long long)(atomic_load(&nic->rx_dropped) - before));
    while (xg_nic_progress_once(nic) > 0) {
    }
    XG_CHECK(tbuf[0] == 0, "a bad packet wrote memory");
    while (PtlEQGet(eq, &ev) == PTL_OK) {
        XG_CHECK(0, "a bad packet produced event %d", ev.type);
    }

    /* and the NIC still works */
    good_put(&hdr, 1, 8);
    feed(&hdr, src, 8, sizeof(hdr) + 8);
    CHECK_RC(PtlEQGet(eq, &ev));
    XG_CHECK(ev.type == PTL_EVENT_PUT && ev.mlength == 8 && tbuf[7] == 0x77,
             "good put after bad ones");
    CHECK_RC(PtlPut(md, 0, 16, PTL_ACK_REQ, (ptl_process_t){.rank = 0}, 0, 1,
                    16, NULL, 0));
    while (xg_nic_progress_once(nic) > 0) {
    }
    CHECK_RC(PtlEQGet(eq, &ev));
    XG_CHECK(ev.type == PTL_EVENT_SEND, "SEND");
    CHECK_RC(PtlEQGet(eq, &ev));
    XG_CHECK(ev.type == PTL_EVENT_PUT && tbuf[16] == 0x77, "API put");
    CHECK_RC(PtlEQGet(eq, &ev));
    XG_CHECK(ev.type == PTL_EVENT_ACK, "ACK");
    CHECK_RC(PtlMDRelease(md));
    CHECK_RC(PtlMEUnlink(meh));
    CHECK_RC(PtlPTFree(ni, 0));
    CHECK_RC(PtlEQFree(eq));
    CHECK_RC(PtlNIFini(ni));
    PtlFini();
    return 0;
}
