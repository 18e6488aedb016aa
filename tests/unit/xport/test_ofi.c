/*
 * The ofi component beyond the packet contract (run across virtual nodes:
 * every PE of another node is a network peer):
 *   - RMA: puts of every PE into every network peer's registration (small
 *     ones injected, a medium one whose source is overwritten as soon as
 *     the put returns, a large one waited for locally), gets back, what
 *     is left complete at xg_xport_rma_complete;
 *   - long transfers, which go as pieces posted ahead of each other: a
 *     get of more pieces than may be in flight at once, a blocking put of
 *     several pieces with an odd tail whose source is overwritten as soon
 *     as it returns, both checked byte for byte;
 *   - bounds: an access past the registration is refused by the initiator
 *     (XG_ERR_OUT_OF_BOUNDS) and, sent raw past that check, by the target
 *     (an error completion), as is one with a wrong key;
 *   - foreign packets: packets with another job's key, a false sender, an
 *     unknown kind or too short, sent raw to every network peer, are
 *     dropped and counted by reason, and none reaches the callback.
 * The refused accesses come last: a provider may drop the connection that
 * carried one.  A provider with manual progress moves RMA bytes only while
 * the target
 * polls: where the runtime's progress thread would, the PEs wait for each
 * other polling (step()), not in a plain boot fence.
 */
/* first: before libfabric's headers (xg_ofi_dl.h) */
#include "xport/ofi/xg_ofi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xg_test.h"
#include "xport/xg_xport.h"

#define REGION      (12u << 20)
#define SLOT        64           /* bytes per PE in the small-put area */
#define BIG         (256u << 10) /* a transfer too large to inject */
#define BIG_AT      (512u << 10) /* + BIG x (rank mod 4): one area per writer */
#define MID         4096         /* too large to inject, copied by the put */
#define MID_AT      (1536u << 10)    /* + MID x (rank mod 4) */
#define LONG_PUT    ((1u << 20) + 3) /* several pieces, an odd tail */
#define LONG_PUT_AT (2u << 20)       /* + LONG_STRIDE x (rank mod 4) */
#define LONG_STRIDE ((1u << 20) + 4096)
#define LONG_GET    ((4u << 20) + 4099) /* more pieces than in flight */
#define LONG_GET_AT (7u << 20)          /* every PE's own pattern */

static xg_boot_identity_t job;
static uint8_t *region;
static xg_pkt_xport_t pkts;

static void on_stray(void *arg, const void *pkt, size_t len)
{
    (void)arg;
    (void)pkt;
    XG_CHECK(0, "an unexpected packet of %zu bytes", len);
}

/* Every PE has got here, this one polling its endpoint meanwhile (the
 * others' RMA into this PE may need it): each publishes the step, then
 * polls until every PE's is out -- by then every PE's operations of the
 * step are complete, and nobody needs anybody's polling. */
static void step(void)
{
    static unsigned number;
    char key[32];
    uint8_t mark = 1;
    xg_wait_t wait;
    int pe;

    snprintf(key, sizeof(key), "test.step.%u", number++);
    XG_CHECK(xg_boot_kv_put(key, &mark, 1) == XG_OK, "kv_put");
    xg_boot_kv_publish();
    for (pe = 0; pe < job.npes; pe++) {
        xg_wait_init(&wait);
        while (xg_boot_kv_get(pe, key, &mark, 1) != XG_OK) {
            pkts.ops.rx_poll(pkts.ep, 16, on_stray, NULL);
            xg_wait_backoff(&wait);
        }
    }
}

static int network_peer(int pe)
{
    return (pe != job.rank) && !xg_boot_same_node(pe);
}

static uint8_t pattern(int from, size_t i)
{
    return (uint8_t)(from * 31 + i * 7 + 1);
}

static void check_rma(void)
{
    uint8_t out[SLOT], back[SLOT], *big = malloc(BIG), *big_back = malloc(BIG);
    int pe, counted, any = 0;
    size_t i;

    XG_CHECK((big != NULL) && (big_back != NULL), "malloc");
    for (i = 0; i < SLOT; i++) {
        out[i] = pattern(job.rank, i);
    }
    for (pe = 0; pe < job.npes; pe++) {
        if (!network_peer(pe)) {
            continue;
        }
        any = 1;
        XG_CHECK(xg_xport_rma_reaches(pe, out, SLOT), "RMA to PE %d", pe);
        XG_CHECK(xg_xport_rma(1, pe, out, (uint64_t)job.rank * SLOT, SLOT,
                              XG_XPORT_RMA_LOCAL, &counted) == XG_OK,
                 "put to PE %d", pe);
        XG_CHECK(counted, "a %d-byte put was not injected", SLOT);
        /* past the end: refused before it leaves */
        XG_CHECK(xg_xport_rma(1, pe, out, REGION - SLOT / 2, SLOT,
                              XG_XPORT_RMA_WAIT,
                              &counted) == XG_ERR_OUT_OF_BOUNDS,
                 "a put past PE %d's registration", pe);
    }
    XG_CHECK(xg_xport_rma_complete() == XG_OK, "rma_complete");
    XG_CHECK(!xg_xport_rma_outstanding(), "outstanding after complete");
    step();
    for (pe = 0; pe < job.npes; pe++) {
        for (i = 0; network_peer(pe) && (i < SLOT); i++) {
            XG_CHECK(region[(size_t)pe * SLOT + i] == pattern(pe, i),
                     "byte %zu of PE %d's put", i, pe);
        }
        if (network_peer(pe)) {
            XG_CHECK(xg_xport_rma(0, pe, back, (uint64_t)job.rank * SLOT, SLOT,
                                  XG_XPORT_RMA_WAIT, &counted) == XG_OK,
                     "get from PE %d", pe);
            XG_CHECK(!counted && (memcmp(back, out, SLOT) == 0),
                     "get of my slot from PE %d", pe);
        }
    }
    /* a large put to the first network peer, waited for, and read back */
    for (pe = 0; any && !network_peer(pe); pe++) {
    }
    if (any) {
        /* a blocking put too large to inject: its source is free at
         * once (the bytes were copied, or it waited): overwriting it
         * changes nothing of what arrives */
        for (i = 0; i < MID; i++) {
            big[i] = pattern(job.rank + 2, i);
        }
        XG_CHECK(xg_xport_rma(1, pe, big, MID_AT + MID * (job.rank % 4), MID,
                              XG_XPORT_RMA_LOCAL, &counted) == XG_OK,
                 "%d-byte put", MID);
        memset(big, 0xee, MID);
        XG_CHECK(xg_xport_rma_complete() == XG_OK, "rma_complete");
        XG_CHECK(xg_xport_rma(0, pe, big_back, MID_AT + MID * (job.rank % 4),
                              MID, XG_XPORT_RMA_WAIT, &counted) == XG_OK,
                 "%d-byte get", MID);
        for (i = 0; i < MID; i++) {
            XG_CHECK(big_back[i] == pattern(job.rank + 2, i),
                     "byte %zu of the %d-byte put read back", i, MID);
        }
        for (i = 0; i < BIG; i++) {
            big[i] = pattern(job.rank + 1, i);
        }
        XG_CHECK(xg_xport_rma(1, pe, big, BIG_AT + BIG * (job.rank % 4), BIG,
                              XG_XPORT_RMA_LOCAL, &counted) == XG_OK,
                 "big put");
        /* its source is free; its visibility is quiet's, where the
         * provider keeps reads after writes (a read then shows it) */
        XG_CHECK(counted == xg_ofi.raw_order, "a big put with LOCAL: %s",
                 counted ? "left to quiet" : "waited for");
        XG_CHECK(xg_xport_rma(0, pe, big_back, BIG_AT + BIG * (job.rank % 4),
                              BIG, XG_XPORT_RMA_WAIT, &counted) == XG_OK,
                 "big get");
        XG_CHECK(memcmp(big, big_back, BIG) == 0, "big put read back");
        XG_CHECK(xg_xport_rma_complete() == XG_OK, "rma_complete");
    }
    step();
    free(big);
    free(big_back);
}

/* The long transfers, with the first network peer. */
static void check_rma_long(void)
{
    uint8_t *src = malloc(LONG_PUT), *back = malloc(LONG_GET);
    uint64_t at = LONG_PUT_AT + (uint64_t)LONG_STRIDE * (job.rank % 4);
    int pe, counted;
    size_t i;

    XG_CHECK((src != NULL) && (back != NULL), "malloc");
    for (pe = 0; !network_peer(pe); pe++) {
    }
    XG_CHECK(xg_xport_rma(0, pe, back, LONG_GET_AT, LONG_GET, XG_XPORT_RMA_WAIT,
                          &counted) == XG_OK,
             "a %u-byte get from PE %d", LONG_GET, pe);
    XG_CHECK(!counted, "a get left work to quiet");
    for (i = 0; i < LONG_GET; i++) {
        XG_CHECK(back[i] == pattern(pe + 3, i),
                 "byte %zu of the %u-byte get from PE %d", i, LONG_GET, pe);
    }
    for (i = 0; i < LONG_PUT; i++) {
        src[i] = pattern(job.rank + 5, i);
    }
    XG_CHECK(xg_xport_rma(1, pe, src, at, LONG_PUT, XG_XPORT_RMA_LOCAL,
                          &counted) == XG_OK,
             "a %u-byte put to PE %d", LONG_PUT, pe);
    memset(src, 0xee, LONG_PUT); /* its source is free: nothing changes */
    XG_CHECK(xg_xport_rma_complete() == XG_OK, "rma_complete");
    XG_CHECK(xg_xport_rma(0, pe, back, at, LONG_PUT, XG_XPORT_RMA_WAIT,
                          &counted) == XG_OK,
             "the long put read back");
    for (i = 0; i < LONG_PUT; i++) {
        XG_CHECK(back[i] == pattern(job.rank + 5, i),
                 "byte %zu of the %u-byte put to PE %d", i, LONG_PUT, pe);
    }
    step();
    free(src);
    free(back);
}

/* Raw reads past the target's registration, and with a wrong key: the
 * target refuses both (an error completion, read here, not by the
 * library: nothing of the library is in flight). */
static void check_target_bounds(void)
{
    struct fi_cq_err_entry err;
    struct fi_cq_entry entry;
    uint64_t word = 0, rec[3];
    int pe, bad;
    ssize_t n;

    for (pe = 0; pe < job.npes; pe++) {
        if (!network_peer(pe)) {
            continue;
        }
        XG_CHECK(xg_boot_kv_get(pe, "ofi.mr", rec, sizeof(rec)) == XG_OK,
                 "PE %d's registration", pe);
        for (bad = 0; bad < 2; bad++) {
            uint64_t addr = bad ? rec[0] : rec[0] + rec[2];
            uint64_t key  = bad ? rec[1] ^ 0x5a5a : rec[1];

            XG_CHECK(atomic_load(&xg_ofi.tx_inflight) == 0,
                     "library operations in flight");
            while ((n = fi_read(xg_ofi.ep, &word, sizeof(word), NULL,
                                xg_ofi_addr(pe), addr, key, &word)) ==
                   -FI_EAGAIN) {
                fi_cq_read(xg_ofi.tx_cq, &entry, 0); /* progress */
            }
            XG_CHECK(n == 0, "fi_read: %s", fi_strerror((int)-n));
            while ((n = fi_cq_read(xg_ofi.tx_cq, &entry, 1)) == -FI_EAGAIN) {
            }
            XG_CHECK(n == -FI_EAVAIL, "a read %s of PE %d succeeded",
                     bad ? "with a wrong key" : "past the registration", pe);
            memset(&err, 0, sizeof(err));
            XG_CHECK(fi_cq_readerr(xg_ofi.tx_cq, &err, 0) == 1, "readerr");
            XG_CHECK((err.op_context == &word) && (err.err != 0),
                     "the error completion");
        }
    }
    step();
}

static unsigned delivered, markers;

static void on_packet(void *arg, const void *pkt, size_t len)
{
    (void)arg;
    if ((len == 4) && (memcmp(pkt, "done", 4) == 0)) {
        markers++;
    } else {
        delivered++;
    }
}

/* Sends @hdr (and @len - header bytes of zeros) to @pe, raw. */
static void send_raw(int pe, const xg_ofi_hdr_t *hdr, size_t len)
{
    uint8_t buf[64] = {0};

    xg_wait_t wait;
    ssize_t ret;

    memcpy(buf, hdr, (len < sizeof(*hdr)) ? len : sizeof(*hdr));
    xg_wait_init(&wait);
    while ((ret = fi_inject(xg_ofi.ep, buf, len, xg_ofi_addr(pe))) ==
           -FI_EAGAIN) {
        pkts.ops.rx_poll(pkts.ep, 16, on_packet, NULL);
        xg_wait_backoff(&wait);
    }
    XG_CHECK(ret == 0, "fi_inject to PE %d: %s", pe, fi_strerror((int)-ret));
}

static void check_foreign(void)
{
    xg_pkt_xport_t x  = pkts;
    xg_ofi_hdr_t good = {.job_key = job.job_key,
                         .src     = (uint32_t)job.rank,
                         .kind    = XG_OFI_PKT_DATA},
                 bad;
    unsigned peers = 0;
    uint64_t before[XG_OFI_DROP_LAST];
    void *buf, *token;
    xg_wait_t wait;
    int pe, i;

    for (i = 0; i < XG_OFI_DROP_LAST; i++) {
        before[i] = atomic_load(&xg_ofi.dropped[i]);
    }
    xg_boot_fence();
    for (pe = 0; pe < job.npes; pe++) {
        if (!network_peer(pe)) {
            continue;
        }
        peers++;
        bad = good;
        bad.job_key ^= 1; /* another job */
        send_raw(pe, &bad, sizeof(bad) + 8);
        bad     = good;
        bad.src = (uint32_t)pe; /* the receiver itself */
        send_raw(pe, &bad, sizeof(bad) + 8);
        bad.src = (uint32_t)job.npes; /* no rank of the job */
        send_raw(pe, &bad, sizeof(bad));
        bad      = good;
        bad.kind = 99;
        send_raw(pe, &bad, sizeof(bad));
        send_raw(pe, &good, 8); /* short */
        /* then the end marker, through the library, behind them */
        xg_wait_init(&wait);
        while (x.ops.tx_reserve(x.ep, pe, 4, &buf, &token) != XG_OK) {
            x.ops.rx_poll(x.ep, 16, on_packet, NULL);
            xg_wait_backoff(&wait);
        }
        memcpy(buf, "done", 4);
        x.ops.tx_commit(x.ep, pe, token, 4, 0);
    }
    xg_wait_init(&wait);
    while (markers < peers) {
        if (x.ops.rx_poll(x.ep, 16, on_packet, NULL) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    XG_CHECK(delivered == 0, "%u foreign packets reached the callback",
             delivered);
    XG_CHECK(atomic_load(&xg_ofi.dropped[XG_OFI_DROP_FOREIGN]) -
                         before[XG_OFI_DROP_FOREIGN] ==
                     peers &&
                 atomic_load(&xg_ofi.dropped[XG_OFI_DROP_SOURCE]) -
                         before[XG_OFI_DROP_SOURCE] ==
                     2 * peers &&
                 atomic_load(&xg_ofi.dropped[XG_OFI_DROP_KIND]) -
                         before[XG_OFI_DROP_KIND] ==
                     peers &&
                 atomic_load(&xg_ofi.dropped[XG_OFI_DROP_SHORT]) -
                         before[XG_OFI_DROP_SHORT] ==
                     peers,
             "drops by reason do not match what %u peers sent", peers);
    xg_boot_fence();
}

int main(void)
{
    XG_CHECK(xg_boot_init() == XG_OK, "xg_boot_init");
    XG_CHECK(xg_xport_open() == XG_OK, "xg_xport_open");
    xg_boot_identity(&job);
    xg_test_pe = job.rank;
    if (job.nnodes == 1) {
        printf("SKIPPED: a job on one node has no network peers\n");
        return XG_TEST_SKIP;
    }
    XG_CHECK(xg_xport_ofi.ops->pkt_open(&pkts) == XG_OK, "pkt_open");
    XG_CHECK(posix_memalign((void **)&region, 4096, REGION) == 0, "region");
    memset(region, 0, REGION);
    for (size_t i = 0; i < LONG_GET; i++) {
        region[LONG_GET_AT + i] = pattern(job.rank + 3, i);
    }
    XG_CHECK(xg_xport_rma_expose(region, REGION) == XG_OK, "expose");
    xg_boot_fence(); /* every registration is published */
    check_rma();
    check_rma_long();
    check_foreign();
    /* closed before any PE exits: no peer takes an exit for a failure */
    pkts.ops.rx_close(pkts.ep, on_stray, NULL);
    step();
    /* last: the provider may drop a connection that carried a refused
     * access (tcp does), and nothing may use it after */
    check_target_bounds();
    xg_xport_rma_unexpose();
    free(region);
    if (job.rank == 0) {
        printf("ofi: RMA, bounds and foreign packets as expected\n");
    }
    return XG_TEST_PASS;
}
