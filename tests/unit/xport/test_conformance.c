/*
 * Transport conformance: what every component of xg_xport_components()
 * must do, checked for each (shm; ofi where libfabric is built) under
 * xgasrun at several PE counts, on one node and across virtual nodes
 * (XGAS_VIRTUAL_NODES: shm then reaches the PEs of this node, ofi the
 * others).  The layers above rely on these and nothing else:
 *   - a name, capabilities among the known flags, open() idempotent,
 *     reach() a subset of the capabilities, nothing for a rank outside
 *     the job, and the selection honouring it;
 *   - load/store: the region has one base in every PE, partition i at
 *     base + i * part_size, stores of one PE are loads of every other,
 *     an alias shows the same memory at a second address;
 *   - CPU atomics: concurrent fetch-adds on one word lose no update;
 *   - packets, to every PE the component reaches: mtu, loopback, a bad
 *     peer or length refused, contents intact, a full queue refused
 *     (never blocking), per-pair order when the component promises it,
 *     a wake-up never lost, rx_close refusing senders until rx_open;
 *   - the same for the transport xg_pkt_open gives the NIC, to every PE
 *     of the job (the components joined when the job spans nodes).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "base/xg_config.h"
#include "base/xg_wait.h"
#include "boot/xg_boot.h"
#include "xg_test.h"
#include "xport/xg_xport.h"

#define PACKETS   500   /* to the right neighbour, more than a ring holds */
#define ADDS      10000 /* fetch-adds per PE */
#define PART_SIZE (2u << 20)
#define KNOWN_CAPS                                       \
    (XG_XPORT_CAP_LOAD_STORE | XG_XPORT_CAP_ATOMIC_CPU | \
     XG_XPORT_CAP_PACKETS | XG_XPORT_CAP_RMA | XG_XPORT_CAP_ORDERED)

typedef struct {
    int32_t from;
    uint32_t seq;
    uint8_t fill[];
} test_pkt_t;

typedef struct {
    const char *name;
    int ordered;
    uint32_t *received; /* per sender: its packets so far */
    uint32_t loopback;  /* our own */
    uint32_t closed;    /* handed over by rx_close */
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
    rx_state_t *rx        = arg;
    const test_pkt_t *pkt = data;
    size_t i;

    XG_CHECK(len >= sizeof(*pkt), "%s: a packet of %zu bytes", rx->name, len);
    XG_CHECK(len == pkt_len(pkt->seq),
             "%s: packet %u from %d has %zu "
             "bytes, sent %zu",
             rx->name, pkt->seq, pkt->from, len, pkt_len(pkt->seq));
    for (i = 0; i < len - sizeof(*pkt); i++) {
        XG_CHECK(pkt->fill[i] == (uint8_t)(pkt->seq + i),
                 "%s: byte %zu of "
                 "packet %u from %d damaged",
                 rx->name, i, pkt->seq, pkt->from);
    }
    if (pkt->seq >= PACKETS) {
        /* loopback packets and probes of a closed endpoint are numbered
         * from PACKETS on */
        rx->loopback += (pkt->from == job.rank);
        return;
    }
    XG_CHECK((pkt->from >= 0) && (pkt->from < job.npes) &&
                 (pkt->from != job.rank),
             "%s: a packet from %d", rx->name, pkt->from);
    if (rx->ordered) {
        XG_CHECK(pkt->seq == rx->received[pkt->from],
                 "%s: packet %u from "
                 "%d arrived as number %u: the component promises order",
                 rx->name, pkt->seq, pkt->from, rx->received[pkt->from]);
    }
    rx->received[pkt->from]++;
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
    xg_status_t status =
        x->ops.tx_reserve(x->ep, peer, pkt_len(seq), &buf, &token);

    if (status == XG_ERR_NO_RESOURCE) {
        return 0;
    }
    XG_CHECK(status == XG_OK, "%s: tx_reserve to %d: status %d", x->name, peer,
             (int)status);
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
    XG_CHECK((c->open() == XG_OK) && (c->open() == XG_OK), "%s: open", c->name);
    self = c->reach(job.rank);
    XG_CHECK((self & ~c->caps) == 0,
             "%s offers PE %d %#x beyond its "
             "capabilities %#x",
             c->name, job.rank, self, c->caps);
    XG_CHECK((c->reach(job.npes) == 0) && (c->reach(-1) == 0),
             "%s reaches a rank outside the job", c->name);
    if (self != 0) {
        XG_CHECK(xg_xport_select(job.rank, self) != NULL,
                 "%s offers %#x "
                 "but nothing is selected for it",
                 c->name, self);
    }
    XG_CHECK(((c->caps & XG_XPORT_CAP_LOAD_STORE) == 0) ||
                 ((c->ops->region_open != NULL) &&
                  (c->ops->region_close != NULL) &&
                  (c->ops->region_alias != NULL)),
             "%s: load/store without region ops", c->name);
    XG_CHECK(((c->caps & XG_XPORT_CAP_PACKETS) == 0) ||
                 (c->ops->pkt_open != NULL),
             "%s: packets without pkt_open", c->name);
}

static void check_region(const xg_xport_component_t *c)
{
    xg_xport_region_t region = {.fd = -1, .xport = c};
    uintptr_t base0;
    uint64_t *word, *alias;
    int pe;

    XG_CHECK(c->ops->region_open(&region, job.local_npes, PART_SIZE,
                                 (uintptr_t)xg_config.symmetric_base) == XG_OK,
             "%s: region_open", c->name);
    XG_CHECK((region.nparts == job.local_npes) &&
                 (region.part_size == PART_SIZE) &&
                 (region.size == (size_t)job.local_npes * PART_SIZE),
             "%s: region of %d x %zu bytes", c->name, region.nparts,
             region.part_size);
    XG_CHECK(xg_boot_kv_put("xport.base", &region.base, sizeof(region.base)) ==
                 XG_OK,
             "kv_put");
    xg_boot_fence();
    XG_CHECK(xg_boot_kv_get(0, "xport.base", &base0, sizeof(base0)) == XG_OK,
             "kv_get");
    XG_CHECK(base0 == region.base,
             "%s: PE 0 maps the region at %#lx, we at "
             "%#lx",
             c->name, (unsigned long)base0, (unsigned long)region.base);

    /* stores of each PE in its own partition, loads by every PE */
    word    = (uint64_t *)xg_xport_region_part(&region, job.local_rank);
    word[0] = 0x5a00000000ull + (uint64_t)job.rank;
    word[PART_SIZE / 8 - 1] = ~word[0];
    xg_boot_fence();
    for (pe = 0; pe < job.local_npes; pe++) {
        uint64_t *theirs = (uint64_t *)xg_xport_region_part(&region, pe);

        XG_CHECK((theirs[0] ==
                  0x5a00000000ull + (uint64_t)xg_boot_rank_at(job.node, pe)) &&
                     (theirs[PART_SIZE / 8 - 1] == ~theirs[0]),
                 "%s: partition "
                 "%d does not hold what its PE stored",
                 c->name, pe);
    }

    /* an alias of our partition's second page */
    alias = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    XG_CHECK(alias != MAP_FAILED, "mmap");
    XG_CHECK(c->ops->region_alias(
                 &region, (uint64_t)((uintptr_t)word - region.base) + 4096,
                 alias, 4096) == XG_OK,
             "%s: region_alias", c->name);
    alias[1] = 77 + (uint64_t)job.rank;
    XG_CHECK(word[4096 / 8 + 1] == 77 + (uint64_t)job.rank,
             "%s: a store "
             "through the alias is not seen in the region",
             c->name);
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
                 "%s: %d PEs x %d fetch-adds gave %lu", c->name, job.local_npes,
                 ADDS, (unsigned long)atomic_load(counter));
    }
    xg_boot_fence();
    c->ops->region_close(&region);
}

/* Another thread posts a flag and wakes the receiver: a receiver that
 * sleeps until the flag is set is woken (a lost wake-up sleeps for good:
 * the test's time limit catches it). */
typedef struct {
    xg_pkt_xport_t *x;
    _Atomic int flag;
} wake_state_t;

static int wake_may_sleep(void *arg)
{
    return atomic_load(&((wake_state_t *)arg)->flag) == 0;
}

static void *wake_thread(void *arg)
{
    wake_state_t *w = arg;

    atomic_store(&w->flag, 1);
    w->x->ops.rx_wake(w->x->ep);
    return NULL;
}

static void check_wake(xg_pkt_xport_t *x)
{
    wake_state_t w = {.x = x, .flag = 0};
    pthread_t thread;

    XG_CHECK(pthread_create(&thread, NULL, wake_thread, &w) == 0,
             "pthread_create");
    while (atomic_load(&w.flag) == 0) {
        x->ops.rx_wait(x->ep, 1000ull * 1000000000ull, wake_may_sleep, &w);
    }
    pthread_join(thread, NULL);
}

/* 1 if every packet expected from every peer in @peers has arrived. */
static int all_received(const rx_state_t *rx, const uint8_t *peers,
                        uint32_t count)
{
    int pe;

    for (pe = 0; pe < job.npes; pe++) {
        if (peers[pe] && (rx->received[pe] < count)) {
            return 0;
        }
    }
    return 1;
}

/*
 * The packets of @x, which carries them to the PEs marked in @peers (and
 * to this PE if @loop): loopback, a stream of PACKETS to every peer --
 * more than a queue holds, so a full queue is refused, not waited for,
 * while we keep receiving -- contents and per-sender order, wake-ups,
 * and a closed endpoint refusing its peers (at once, or once they have
 * heard of it) until it opens again.  Reaching is symmetric: the PEs in
 * @peers are the ones that send to this PE.
 */
static void check_pkt_xport(xg_pkt_xport_t *x, const uint8_t *peers, int loop,
                            int ordered)
{
    rx_state_t rx  = {.name = x->name, .ordered = ordered};
    uint32_t *sent = calloc((size_t)job.npes, sizeof(*sent)), i;
    void *buf, *token;
    xg_wait_t wait;
    int pe, busy;

    rx.received = calloc((size_t)job.npes, sizeof(*rx.received));
    XG_CHECK((sent != NULL) && (rx.received != NULL), "calloc");
    XG_CHECK((x->rank == job.rank) && (x->npes == job.npes),
             "%s: endpoint "
             "of PE %d of %d",
             x->name, x->rank, x->npes);
    XG_CHECK(x->ops.mtu(x->ep) >= pkt_len(PACKETS + 1), "%s: mtu %zu", x->name,
             x->ops.mtu(x->ep));
    XG_CHECK(x->ops.tx_reserve(x->ep, job.npes, 16, &buf, &token) ==
                 XG_ERR_PE_RANGE,
             "%s: a rank outside the job accepted", x->name);
    for (pe = 0; pe < job.npes; pe++) {
        if (peers[pe] || ((pe == job.rank) && loop)) {
            XG_CHECK(x->ops.tx_reserve(x->ep, pe, x->ops.mtu(x->ep) + 1, &buf,
                                       &token) != XG_OK,
                     "%s: a packet above the mtu accepted", x->name);
        }
    }
    check_wake(x);

    if (loop) {
        XG_CHECK(pkt_send(x, job.rank, PACKETS), "%s: loopback refused",
                 x->name);
        xg_wait_init(&wait);
        while (rx.loopback == 0) {
            if (x->ops.rx_poll(x->ep, 16, on_packet, &rx) == 0) {
                xg_wait_backoff(&wait);
            }
        }
    }
    xg_boot_fence(); /* every endpoint is open */

    xg_wait_init(&wait);
    do {
        int progress = 0;

        busy = 0;
        for (pe = 0; pe < job.npes; pe++) {
            if (peers[pe] && (sent[pe] < PACKETS)) {
                busy = 1;
                if (pkt_send(x, pe, sent[pe])) {
                    sent[pe]++;
                    progress = 1;
                }
            }
        }
        progress |= x->ops.rx_poll(x->ep, 16, on_packet, &rx) > 0;
        if (progress) {
            xg_wait_init(&wait);
        } else {
            xg_wait_backoff(&wait);
        }
    } while (busy || !all_received(&rx, peers, PACKETS));
    xg_boot_fence();

    /* a closed endpoint refuses senders until it opens again; a peer
     * through the network hears of it by packet, so it may take polls */
    x->ops.rx_close(x->ep, on_closed, &rx);
    XG_CHECK(rx.closed == 0,
             "%s: rx_close handed over %u packets nobody "
             "sent",
             x->name, rx.closed);
    xg_boot_fence();
    for (pe = 0; pe < job.npes; pe++) {
        xg_status_t status;

        if (!peers[pe]) {
            continue;
        }
        xg_wait_init(&wait);
        while ((status = x->ops.tx_reserve(x->ep, pe, pkt_len(PACKETS + 1),
                                           &buf, &token)) == XG_OK) {
            pkt_fill(buf, job.rank, PACKETS + 1); /* a probe */
            x->ops.tx_commit(x->ep, pe, token, pkt_len(PACKETS + 1), 0);
            x->ops.rx_poll(x->ep, 16, on_closed, &rx);
            xg_wait_backoff(&wait);
        }
        XG_CHECK(status == XG_ERR_UNREACHABLE,
                 "%s: a closed endpoint "
                 "answered %d",
                 x->name, (int)status);
    }
    xg_boot_fence();
    x->ops.rx_open(x->ep);
    xg_boot_fence();
    memset(rx.received, 0, (size_t)job.npes * sizeof(*rx.received));
    for (pe = 0; pe < job.npes; pe++) {
        for (i = 0; peers[pe] && (i < 4); i++) {
            xg_wait_init(&wait);
            while (x->ops.tx_reserve(x->ep, pe, pkt_len(i), &buf, &token) !=
                   XG_OK) {
                x->ops.rx_poll(x->ep, 16, on_packet, &rx);
                xg_wait_backoff(&wait);
            }
            pkt_fill(buf, job.rank, i);
            x->ops.tx_commit(x->ep, pe, token, pkt_len(i), 0);
        }
    }
    xg_wait_init(&wait);
    while (!all_received(&rx, peers, 4)) {
        if (x->ops.rx_poll(x->ep, 16, on_packet, &rx) == 0) {
            xg_wait_backoff(&wait);
        }
    }
    xg_boot_fence();
    free(rx.received);
    free(sent);
}

/* Component @c's own packets, to the PEs it reaches (none: the network
 * in a job on one node, which has nothing to check). */
static void check_packets(const xg_xport_component_t *c)
{
    uint8_t *peers = calloc((size_t)job.npes, 1);
    xg_pkt_xport_t x;
    int pe, ordered = 1, any = 0;

    XG_CHECK(peers != NULL, "calloc");
    for (pe = 0; pe < job.npes; pe++) {
        unsigned caps = c->reach(pe);

        peers[pe] = (pe != job.rank) && (caps & XG_XPORT_CAP_PACKETS);
        any |= (caps & XG_XPORT_CAP_PACKETS) != 0;
        if (peers[pe] && !(caps & XG_XPORT_CAP_ORDERED)) {
            ordered = 0;
        }
    }
    if (!any) {
        free(peers);
        return;
    }
    XG_CHECK(c->ops->pkt_open(&x) == XG_OK, "%s: pkt_open", c->name);
    check_pkt_xport(&x, peers, (c->reach(job.rank) & XG_XPORT_CAP_PACKETS) != 0,
                    ordered);
    free(peers);
}

/* The transport the NIC opens (xg_pkt_open), to every PE of the job: the
 * components joined when the job spans nodes. */
static void check_joined(void)
{
    uint8_t *peers = calloc((size_t)job.npes, 1);
    xg_pkt_xport_t x;
    int pe;

    XG_CHECK(peers != NULL, "calloc");
    for (pe = 0; pe < job.npes; pe++) {
        peers[pe] = (pe != job.rank);
    }
    XG_CHECK(xg_pkt_open(&x) == XG_OK, "xg_pkt_open");
    check_pkt_xport(&x, peers, 1, 1);
    free(peers);
    if (job.rank == 0) {
        printf("%s (xg_pkt_open): conformant\n", x.name);
    }
}

int main(void)
{
    const xg_xport_component_t *const *list;
    size_t count, i;

    XG_CHECK(xg_boot_init() == XG_OK, "xg_boot_init");
    XG_CHECK(xg_xport_open() == XG_OK, "xg_xport_open");
    xg_boot_identity(&job);
    xg_test_pe = job.rank;
    list       = xg_xport_components(&count);
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
    check_joined();
    return XG_TEST_PASS;
}
