/*
 * Transport conformance: what every component of xg_xport_components()
 * must do, checked for each (today shm), under xgasrun at several PE
 * counts.  The layers above rely on these and nothing else:
 *   - a name, capabilities among the known flags, open() idempotent,
 *     reach() a subset of the capabilities, nothing for a rank outside
 *     the job, and the selection honouring it;
 *   - load/store: the region has one base in every PE, partition i at
 *     base + i * part_size, stores of one PE are loads of every other,
 *     an alias shows the same memory at a second address;
 *   - CPU atomics: concurrent fetch-adds on one word lose no update;
 *   - packets: mtu, loopback, a bad peer or length refused, contents
 *     intact, a full queue refused (never blocking), per-pair order when
 *     the component promises it, rx_close refusing senders until rx_open.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "base/xg_config.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xg_test.h"
#include "xport/xg_xport.h"

#define PACKETS    500   /* to the right neighbour, more than a ring holds */
#define ADDS       10000 /* fetch-adds per PE */
#define PART_SIZE  (2u << 20)
#define KNOWN_CAPS (XG_XPORT_CAP_LOAD_STORE | XG_XPORT_CAP_ATOMIC_CPU | \
                    XG_XPORT_CAP_PACKETS | XG_XPORT_CAP_RMA |           \
                    XG_XPORT_CAP_ORDERED)

typedef struct {
    int32_t  from;
    uint32_t seq;
    uint8_t  fill[];
} test_pkt_t;

typedef struct {
    const char *name;
    int         ordered;
    int         from;     /* the sender counted */
    uint32_t    received; /* its packets so far */
    uint32_t    loopback; /* our own */
    uint32_t    closed;   /* handed over by rx_close */
} rx_state_t;

static xg_boot_identity_t job;

static size_t pkt_len(uint32_t seq)
{
    return sizeof(test_pkt_t) + 1 + seq % 200;
}

static void pkt_fill(void *buf, int from, uint32_t seq)
{
    test_pkt_t *pkt = buf;
    size_t i;

    pkt->from = from;
    pkt->seq  = seq;
    for (i = 0; i < pkt_len(seq) - sizeof(*pkt); i++) {
        pkt->fill[i] = (uint8_t)(seq + i);
    }
}

static void on_packet(void *arg, const void *data, size_t len)
{
    rx_state_t *rx = arg;
    const test_pkt_t *pkt = data;
    size_t i;

    XG_CHECK(len >= sizeof(*pkt), "%s: a packet of %zu bytes", rx->name, len);
    XG_CHECK(len == pkt_len(pkt->seq), "%s: packet %u from %d has %zu "
             "bytes, sent %zu", rx->name, pkt->seq, pkt->from, len,
             pkt_len(pkt->seq));
    for (i = 0; i < len - sizeof(*pkt); i++) {
        XG_CHECK(pkt->fill[i] == (uint8_t)(pkt->seq + i), "%s: byte %zu of "
                 "packet %u from %d damaged", rx->name, i, pkt->seq,
                 pkt->from);
    }
    if (pkt->from == job.rank && pkt->seq >= PACKETS) {
        rx->loopback++; /* loopback packets are numbered from PACKETS on */
        return;
    }
    XG_CHECK(pkt->from == rx->from, "%s: a packet from %d, expected %d",
             rx->name, pkt->from, rx->from);
    if (rx->ordered) {
        XG_CHECK(pkt->seq == rx->received, "%s: packet %u from %d arrived "
                 "as number %u: the component promises order", rx->name,
                 pkt->seq, pkt->from, rx->received);
    }
    rx->received++;
}

static void on_closed(void *arg, const void *data, size_t len)
{
    ((rx_state_t *)arg)->closed++;
    on_packet(arg, data, len);
}

/* Sends @seq to @peer; 0 when the queue is full (never blocks). */
static int pkt_send(xg_pkt_xport_t *x, int peer, uint32_t seq)
{
    void *buf, *token;
    xg_status_t status = x->ops.tx_reserve(x->ep, peer, pkt_len(seq), &buf,
                                           &token);

    if (status == XG_ERR_NO_RESOURCE) {
        return 0;
    }
    XG_CHECK(status == XG_OK, "%s: tx_reserve to %d: status %d", x->name,
             peer, (int)status);
    pkt_fill(buf, job.rank, seq);
    x->ops.tx_commit(x->ep, peer, token, pkt_len(seq), 0);
    return 1;
}

static void check_identity(const xg_xport_component_t *c)
{
    unsigned self;

    XG_CHECK((c->name != NULL) && (c->name[0] != '\0'), "a nameless component");
    XG_CHECK((c->caps & ~KNOWN_CAPS) == 0, "%s: unknown capabilities %#x",
             c->name, c->caps);
    XG_CHECK((c->open() == XG_OK) && (c->open() == XG_OK), "%s: open",
             c->name);
    self = c->reach(job.rank);
    XG_CHECK((self & ~c->caps) == 0, "%s offers PE %d %#x beyond its "
             "capabilities %#x", c->name, job.rank, self, c->caps);
    XG_CHECK((c->reach(job.npes) == 0) && (c->reach(-1) == 0),
             "%s reaches a rank outside the job", c->name);
    if (self != 0) {
        XG_CHECK(xg_xport_select(job.rank, self) != NULL, "%s offers %#x "
                 "but nothing is selected for it", c->name, self);
    }
    XG_CHECK(((c->caps & XG_XPORT_CAP_LOAD_STORE) == 0) ||
             ((c->ops->region_open != NULL) && (c->ops->region_close != NULL) &&
              (c->ops->region_alias != NULL)),
             "%s: load/store without region ops", c->name);
    XG_CHECK(((c->caps & XG_XPORT_CAP_PACKETS) == 0) ||
             (c->ops->pkt_open != NULL), "%s: packets without pkt_open",
             c->name);
}

static void check_region(const xg_xport_component_t *c)
{
    xg_xport_region_t region = {.fd = -1, .xport = c};
    uintptr_t base0;
    uint64_t *word, *alias;
    int pe;

    XG_CHECK(c->ops->region_open(&region, job.local_npes, PART_SIZE,
                                 (uintptr_t)xg_config.symmetric_base) ==
             XG_OK, "%s: region_open", c->name);
    XG_CHECK((region.nparts == job.local_npes) &&
             (region.part_size == PART_SIZE) &&
             (region.size == (size_t)job.local_npes * PART_SIZE),
             "%s: region of %d x %zu bytes", c->name, region.nparts,
             region.part_size);
    XG_CHECK(xg_boot_kv_put("xport.base", &region.base, sizeof(region.base))
             == XG_OK, "kv_put");
    xg_boot_fence();
    XG_CHECK(xg_boot_kv_get(0, "xport.base", &base0, sizeof(base0)) == XG_OK,
             "kv_get");
    XG_CHECK(base0 == region.base, "%s: PE 0 maps the region at %#lx, we at "
             "%#lx", c->name, (unsigned long)base0,
             (unsigned long)region.base);

    /* stores of each PE in its own partition, loads by every PE */
    word = (uint64_t *)xg_xport_region_part(&region, job.local_rank);
    word[0] = 0x5a00000000ull + (uint64_t)job.rank;
    word[PART_SIZE / 8 - 1] = ~word[0];
    xg_boot_fence();
    for (pe = 0; pe < job.local_npes; pe++) {
        uint64_t *theirs = (uint64_t *)xg_xport_region_part(&region, pe);

        XG_CHECK((theirs[0] == 0x5a00000000ull + (uint64_t)pe) &&
                 (theirs[PART_SIZE / 8 - 1] == ~theirs[0]), "%s: partition "
                 "%d does not hold what its PE stored", c->name, pe);
    }

    /* an alias of our partition's second page */
    alias = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    XG_CHECK(alias != MAP_FAILED, "mmap");
    XG_CHECK(c->ops->region_alias(&region,
                                  (uint64_t)((uintptr_t)word - region.base) +
                                      4096, alias, 4096) == XG_OK,
             "%s: region_alias", c->name);
    alias[1] = 77 + (uint64_t)job.rank;
    XG_CHECK(word[4096 / 8 + 1] == 77 + (uint64_t)job.rank, "%s: a store "
             "through the alias is not seen in the region", c->name);
    munmap(alias, 4096);

    if (c->caps & XG_XPORT_CAP_ATOMIC_CPU) {
        _Atomic uint64_t *counter =
            (_Atomic uint64_t *)(xg_xport_region_part(&region, 0) + 64);
        int i;

        xg_boot_fence();
        for (i = 0; i < ADDS; i++) {
            atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
        }
        xg_boot_fence();
        XG_CHECK(atomic_load(counter) == (uint64_t)ADDS * job.local_npes,
                 "%s: %d PEs x %d fetch-adds gave %lu", c->name,
                 job.local_npes, ADDS,
                 (unsigned long)atomic_load(counter));
    }
    xg_boot_fence();
    c->ops->region_close(&region);
}

static void check_packets(const xg_xport_component_t *c)
{
    xg_pkt_xport_t x;
    rx_state_t rx = {.name = c->name};
    int right = (job.rank + 1) % job.npes;
    uint32_t sent = 0, i;
    void *buf, *token;
    xg_wait_t wait;

    XG_CHECK(c->ops->pkt_open(&x) == XG_OK, "%s: pkt_open", c->name);
    XG_CHECK((x.rank == job.rank) && (x.npes == job.npes), "%s: endpoint "
             "of PE %d of %d", c->name, x.rank, x.npes);
    XG_CHECK(x.ops.mtu(x.ep) >= pkt_len(PACKETS + 1), "%s: mtu %zu",
             c->name, x.ops.mtu(x.ep));
    XG_CHECK(x.ops.tx_reserve(x.ep, job.npes, 16, &buf, &token) ==
             XG_ERR_PE_RANGE, "%s: a rank outside the job accepted", c->name);
    XG_CHECK(x.ops.tx_reserve(x.ep, job.rank, x.ops.mtu(x.ep) + 1, &buf,
                              &token) != XG_OK, "%s: a packet above the mtu "
             "accepted", c->name);
    rx.ordered = (c->reach(right) & XG_XPORT_CAP_ORDERED) != 0;
    rx.from    = (job.rank + job.npes - 1) % job.npes;

    /* loopback */
    XG_CHECK(pkt_send(&x, job.rank, PACKETS), "%s: loopback refused",
             c->name);
    xg_wait_init(&wait);
    while (rx.loopback == 0) {
        if (x.ops.rx_poll(x.ep, 16, on_packet, &rx) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    xg_boot_fence(); /* every endpoint is open */

    /* a stream to the right neighbour, more than its queue holds: a full
     * queue is refused, not waited for, and we keep receiving meanwhile */
    xg_wait_init(&wait);
    while ((sent < PACKETS) || (rx.received < PACKETS)) {
        int progress = 0;

        if ((sent < PACKETS) && pkt_send(&x, right, sent)) {
            sent++;
            progress = 1;
        }
        progress |= x.ops.rx_poll(x.ep, 16, on_packet, &rx) > 0;
        if (progress) {
            xg_wait_init(&wait);
        } else {
            xg_wait_backoff(&wait);
        }
    }
    xg_boot_fence();

    /* a closed endpoint refuses senders until it opens again */
    x.ops.rx_close(x.ep, on_closed, &rx);
    XG_CHECK(rx.closed == 0, "%s: rx_close handed over %u packets nobody "
             "sent", c->name, rx.closed);
    xg_boot_fence();
    if (job.npes > 1) {
        XG_CHECK(x.ops.tx_reserve(x.ep, right, 16, &buf, &token) ==
                 XG_ERR_UNREACHABLE, "%s: a closed endpoint accepted a "
                 "packet", c->name);
    }
    xg_boot_fence();
    x.ops.rx_open(x.ep);
    xg_boot_fence();
    rx.received = 0;
    for (i = 0; i < 4; i++) {
        xg_wait_init(&wait);
        while (!pkt_send(&x, right, i)) {
            xg_wait_backoff(&wait);
        }
    }
    xg_wait_init(&wait);
    while (rx.received < 4) {
        if (x.ops.rx_poll(x.ep, 16, on_packet, &rx) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    xg_boot_fence();
}

int main(void)
{
    const xg_xport_component_t *const *list;
    size_t count, i;

    XG_CHECK(xg_boot_init() == XG_OK, "xg_boot_init");
    xg_boot_identity(&job);
    xg_test_pe = job.rank;
    list = xg_xport_components(&count);
    XG_CHECK(count > 0, "no transport component");
    for (i = 0; i < count; i++) {
        check_identity(list[i]);
        if (list[i]->caps & XG_XPORT_CAP_LOAD_STORE) {
            check_region(list[i]);
        }
        if (list[i]->caps & XG_XPORT_CAP_PACKETS) {
            check_packets(list[i]);
        }
        if (job.rank == 0) {
            printf("%s: conformant (capabilities %#x)\n", list[i]->name,
                   list[i]->caps);
        }
    }
    XG_CHECK(xg_xport_select(job.rank, XG_XPORT_CAP_LOAD_STORE |
                             XG_XPORT_CAP_PACKETS) != NULL,
             "no component offers this node load/store and packets");
    return XG_TEST_PASS;
}
