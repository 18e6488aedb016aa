/*
 * Fuzzes the software NIC's receive path: the packet parser and the
 * target and initiator state machines behind it.  Packets come from other
 * processes, so any byte sequence must be dropped and counted or handled,
 * never crash, hang or corrupt memory.
 *
 * The input is a sequence of packets, each a 2-byte little-endian length
 * (bit 15: "repair": give the packet a valid magic, version, payload length
 * and sender, so the fuzzer reaches the engine instead of the parser's
 * first checks) and the bytes.  They go to a real NI -- portal indexes
 * with priority, wildcard, use-once and overflow entries, flow control on
 * one of them, an MD whose handle responses may name -- in an in-process
 * NIC whose progress the harness drives: packets the NIC sends in answer
 * come back to it and are processed too.  Every few thousand inputs the NI
 * is rebuilt, so state stays bounded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_progress_int.h"
#include "nic/xg_nic_wire_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static xg_nic_t *nic;
static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_handle_ct_t ct;
static ptl_handle_md_t md;
static ptl_handle_me_t once_me = PTL_INVALID_HANDLE;
static uint8_t mem[4][4096];
static unsigned inputs;

static void append(ptl_pt_index_t pt, ptl_list_t list, uint64_t bits,
                   uint64_t ignore, unsigned opts, uint8_t *buf,
                   ptl_handle_me_t *h)
{
    ptl_handle_me_t tmp;
    ptl_me_t me;

    memset(&me, 0, sizeof(me));
    me.start     = buf;
    me.length    = sizeof(mem[0]);
    me.ct_handle = ct;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_CT_COMM | opts;
    me.match_id.rank = (bits & 1) ? 0 : PTL_RANK_ANY;
    me.match_bits    = bits;
    me.ignore_bits   = ignore;
    me.min_free      = 512;
    PtlMEAppend(ni, pt, &me, list, NULL, (h != NULL) ? h : &tmp);
}

static void setup(void)
{
    ptl_ni_limits_t want;
    ptl_md_t mdd;

    memset(&want, 0, sizeof(want));
    want.max_unexpected_headers = 64;
    want.max_entries            = 256;
    want.max_triggered_ops      = 64;
    if (PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                  PTL_PID_ANY, &want, NULL, &ni) != PTL_OK) {
        abort();
    }
    PtlEQAlloc(ni, 256, &eq);
    PtlCTAlloc(ni, &ct);
    PtlPTAlloc(ni, 0, eq, 0, &(ptl_pt_index_t){0});
    PtlPTAlloc(ni, PTL_PT_FLOWCTRL, eq, 1, &(ptl_pt_index_t){0});
    append(0, PTL_PRIORITY_LIST, 1, 0, 0, mem[0], NULL);
    append(0, PTL_PRIORITY_LIST, 0x100, 0xff, PTL_ME_NO_TRUNCATE, mem[1], NULL);
    append(0, PTL_OVERFLOW_LIST, 0, ~0ull, PTL_ME_MANAGE_LOCAL, mem[2], NULL);
    append(1, PTL_PRIORITY_LIST, 3, 0, PTL_ME_USE_ONCE, mem[3], NULL);
    append(1, PTL_OVERFLOW_LIST, 0, ~0ull,
           PTL_ME_USE_ONCE | PTL_ME_MANAGE_LOCAL, mem[3], NULL);
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = mem[0];
    mdd.length    = sizeof(mem);
    mdd.eq_handle = eq;
    mdd.ct_handle = ct;
    mdd.options   = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY;
    PtlMDBind(ni, &mdd, &md);
    once_me = PTL_INVALID_HANDLE;
}

static void drive(void)
{
    ptl_event_t ev;
    int i;

    /* answers the NIC sent itself, bounded */
    for (i = 0; (i < 64) && (xg_nic_progress_once(nic) > 0); i++) {
    }
    while (PtlEQGet(eq, &ev) != PTL_EQ_EMPTY) {
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t pkt[2048];
    size_t len;
    int repair;

    if (nic == NULL) {
        if (PtlInit() != PTL_OK) {
            abort();
        }
        nic = xg_nic_global;
        xg_nic_stop_progress(nic);
        setup();
    }
    if (++inputs % 4000 == 0) {
        drive();
        PtlNIFini(ni);
        setup();
    }
    if (once_me == PTL_INVALID_HANDLE || PtlMEUnlink(once_me) != PTL_IN_USE) {
        append(0, PTL_PRIORITY_LIST, 5, 0, PTL_ME_USE_ONCE, mem[1], &once_me);
    }
    while (size >= 2) {
        len    = (size_t)(data[0] | (data[1] << 8));
        repair = (len & 0x8000) != 0;
        len &= 0x7ff;
        data += 2;
        size -= 2;
        if (len > size) {
            len = size;
        }
        memcpy(pkt, data, len);
        if (repair && (len >= sizeof(xg_nic_wire_t))) {
            xg_nic_wire_t *hdr = (xg_nic_wire_t *)pkt;

            hdr->magic    = XG_NIC_WIRE_MAGIC;
            hdr->version  = XG_NIC_WIRE_VERSION;
            hdr->payload  = (uint32_t)(len - sizeof(*hdr));
            hdr->src_rank = 0;
            hdr->ni       = 0;
            if (pkt[len - 1] & 1) {
                hdr->id.md = md; /* answers to a real MD */
            }
        }
        xg_nic_rx_packet(nic, pkt, len);
        xg_nic_rx_release(nic);
        data += len;
        size -= len;
    }
    drive();
    return 0;
}
