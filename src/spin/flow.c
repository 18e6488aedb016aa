/*
 * Raw flows: PsPIN's simulation-driver interface (spin/pspinsim.h) on
 * the engine.  A driver describes each execution context by a spin_ec_t
 * in NIC addresses and injects packets of messages it numbers itself;
 * the engine calls the driver back for what handlers produce.
 *
 * Contexts: the first packet of a new spin_ec_t makes a raw context over
 * the NIC memory the driver named (the driver manages that memory, as on
 * PsPIN: the engine checks the addresses lie in NIC memory and allocates
 * nothing).  Messages: (context, msgid) -> open message, until the packet
 * marked eom.  A message the stall threshold reset gives its MPQ back
 * when its injector next looks (a lookup of it, or a wait for a free
 * MPQ) and stays in the map without one: its late packets are dropped
 * (counted in the context's descriptor, and given their feedback) up to
 * its eom packet; the next packet of that msgid starts a new message.
 *
 * Callbacks run on HPU threads, one at a time (cb_lock), with no engine
 * lock held; they must not inject packets.  The driver's thread waits
 * for room in the packet buffer (back-pressure) and, in pspinsim_run,
 * for every packet's feedback.
 *
 * XGAS_SPIN_TRACE names a file where every packet in, every command's
 * data, every feedback and fault, and at pspinsim_fini the non-zero parts
 * of the contexts' NIC memory are logged (hex), for checking what
 * handlers computed (docs/spin.md, "Tracing").
 */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "spin/xg_spin_int.h"

typedef struct xg_spin_flow_msg {
    xg_spin_ctx_t *ctx;
    uint32_t msgid;
    xg_spin_msg_t *msg; /* NULL: reset, its late packets are dropped */
} flow_msg_t;

static struct {
    int inited;
    pthread_mutex_t cb_lock; /* one callback at a time; cbs, trace */
    xg_spin_sim_cbs_t cbs;
    FILE *trace;
    xg_spin_ctx_t **ctxs; /* raw contexts, by spin_ec_t */
    unsigned nctxs, ctxs_cap;
    xg_spin_flows_t flows; /* their messages without eom yet */
    int eos;
    uint64_t injected;     /* driver thread's */
    _Atomic uint64_t done; /* feedbacks */
    uint64_t bytes_in;
    uint64_t first_ns, last_ns;
    /* under cb_lock */
    uint64_t out_pkts, out_bytes, wr_n, wr_bytes, rd_n, rd_bytes;
    uint64_t lat_sum, lat_min, lat_max, faults;
} sim = {.cb_lock = PTHREAD_MUTEX_INITIALIZER};

static void trace_hex(const void *data, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    const uint8_t *p           = data;
    char buf[256];
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        buf[n++] = digits[p[i] >> 4];
        buf[n++] = digits[p[i] & 15];
        if (n == sizeof(buf)) {
            fwrite(buf, 1, n, sim.trace);
            n = 0;
        }
    }
    buf[n++] = '\n';
    fwrite(buf, 1, n, sim.trace);
}

void xg_spin_sim_get_cbs(xg_spin_sim_cbs_t *cbs)
{
    pthread_mutex_lock(&sim.cb_lock);
    *cbs = sim.cbs;
    pthread_mutex_unlock(&sim.cb_lock);
}

void xg_spin_sim_set_cbs(const xg_spin_sim_cbs_t *cbs)
{
    pthread_mutex_lock(&sim.cb_lock);
    sim.cbs = *cbs;
    pthread_mutex_unlock(&sim.cb_lock);
}

/* ------------------------------------------------------------------------
 * What handlers of raw contexts produce (HPU threads)
 * --------------------------------------------------------------------- */

/* The driver's feedback for a packet of message @msgid. */
static void flow_feedback(uint32_t msgid, uint64_t user_ptr, uint64_t t_arrival)
{
    uint64_t now = xg_spin_now(), lat = now - t_arrival;

    pthread_mutex_lock(&sim.cb_lock);
    if (sim.cbs.feedback != NULL) {
        sim.cbs.feedback(user_ptr, t_arrival, t_arrival, now);
    }
    sim.lat_sum += lat;
    if ((sim.lat_min == 0) || (lat < sim.lat_min)) {
        sim.lat_min = lat;
    }
    if (lat > sim.lat_max) {
        sim.lat_max = lat;
    }
    sim.last_ns = now;
    if (sim.trace != NULL) {
        fprintf(sim.trace, "done %" PRIu32 " %" PRIu64 "\n", msgid, user_ptr);
    }
    pthread_mutex_unlock(&sim.cb_lock);
    /* release: the callback's work before pspinsim_run returns */
    atomic_fetch_add_explicit(&sim.done, 1, memory_order_release);
}

void xg_spin_flow_pkt_done(xg_spin_pkt_t *pkt)
{
    flow_feedback(pkt->msg->id, pkt->user_ptr, pkt->t_arrival);
}

int xg_spin_flow_send(xg_spin_hpu_t *hpu, const void *data, uint32_t len)
{
    (void)hpu;
    pthread_mutex_lock(&sim.cb_lock);
    sim.out_pkts++;
    sim.out_bytes += len;
    if (sim.cbs.pkt_out != NULL) {
        sim.cbs.pkt_out((uint8_t *)(uintptr_t)data, len);
    }
    if (sim.trace != NULL) {
        fprintf(sim.trace, "out %" PRIu32 " ", len);
        trace_hex(data, len);
    }
    pthread_mutex_unlock(&sim.cb_lock);
    return 0;
}

int xg_spin_flow_to_host(xg_spin_hpu_t *hpu, uint64_t host_addr,
                         const void *src, uint32_t len)
{
    (void)hpu;
    pthread_mutex_lock(&sim.cb_lock);
    sim.wr_n++;
    sim.wr_bytes += len;
    if (sim.cbs.host_write != NULL) {
        sim.cbs.host_write(host_addr, (uint8_t *)(uintptr_t)src, len);
    }
    if (sim.trace != NULL) {
        fprintf(sim.trace, "host_write %#" PRIx64 " %" PRIu32 " ", host_addr,
                len);
        trace_hex(src, len);
    }
    pthread_mutex_unlock(&sim.cb_lock);
    return 0;
}

int xg_spin_flow_from_host(xg_spin_hpu_t *hpu, uint64_t host_addr, void *dst,
                           uint32_t len)
{
    (void)hpu;
    pthread_mutex_lock(&sim.cb_lock);
    sim.rd_n++;
    sim.rd_bytes += len;
    if (sim.cbs.host_read != NULL) {
        sim.cbs.host_read(host_addr, dst, len);
    } else {
        memset(dst, 0, len); /* no host behind it: zeros */
    }
    if (sim.trace != NULL) {
        fprintf(sim.trace, "host_read %#" PRIx64 " %" PRIu32 " ", host_addr,
                len);
        trace_hex(dst, len);
    }
    pthread_mutex_unlock(&sim.cb_lock);
    return 0;
}

void xg_spin_flow_fault(const xg_spin_event_t *ev)
{
    pthread_mutex_lock(&sim.cb_lock);
    sim.faults++;
    if (sim.trace != NULL) {
        fprintf(sim.trace,
                "fault %s|handler %u msg %" PRIu64 " addr %#" PRIx64
                " signal %d\n",
                xg_spin_fault_name(ev->fault), ev->handler, ev->msg, ev->addr,
                ev->signal);
    }
    pthread_mutex_unlock(&sim.cb_lock);
}

/* ------------------------------------------------------------------------
 * The driver's side (its own thread)
 * --------------------------------------------------------------------- */

static int in_range(uint64_t addr, uint64_t len, uint64_t start, uint64_t size)
{
    return (addr >= start) && (len <= size) && (addr - start <= size - len);
}

/* A raw context for @ec (engine lock held); NULL (logged) if @ec names
 * memory or handlers that do not exist. */
static xg_spin_ctx_t *flow_ctx_new(const char *fn, const spin_ec_t *ec)
{
    xg_spin_engine_t *e     = &xg_spin_engine;
    const uint32_t addrs[3] = {ec->hh_addr, ec->ph_addr, ec->th_addr};
    handler_fn fns[3];
    xg_spin_ctx_t *ctx;
    unsigned i, c;

    for (i = 0; i < 3; i++) {
        fns[i] = xg_spin_prog_fn(addrs[i]);
        if ((addrs[i] != 0) && (fns[i] == NULL)) {
            xg_error("spin",
                     "%s: handler address %#x was not given by "
                     "spin_find_handler_by_name",
                     fn, addrs[i]);
            return NULL;
        }
    }
    if ((ec->handler_mem_size != 0) &&
        !in_range(ec->handler_mem_addr, ec->handler_mem_size,
                  L2_HANDLER_MEM_START, L2_HANDLER_MEM_SIZE)) {
        xg_error("spin",
                 "%s: handler memory %#x+%u is not inside the L2 "
                 "handler memory [%#x, %#x)",
                 fn, ec->handler_mem_addr, ec->handler_mem_size,
                 L2_HANDLER_MEM_START,
                 L2_HANDLER_MEM_START + L2_HANDLER_MEM_SIZE);
        return NULL;
    }
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if ((ec->scratchpad_size[c] != 0) &&
            !in_range(ec->scratchpad_addr[c], ec->scratchpad_size[c], 0,
                      L1_SCRATCHPAD_SIZE)) {
            xg_error("spin",
                     "%s: scratchpad %u at %#x+%u is not inside the "
                     "cluster's scratchpad area (%u bytes)",
                     fn, c, ec->scratchpad_addr[c], ec->scratchpad_size[c],
                     L1_SCRATCHPAD_SIZE);
            return NULL;
        }
    }
    ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL) {
        return NULL;
    }
    ctx->raw       = 1;
    ctx->ec        = *ec;
    ctx->hh        = fns[0];
    ctx->ph        = fns[1];
    ctx->th        = fns[2];
    ctx->hmem      = (ec->handler_mem_size != 0)
                         ? (uint8_t *)(uintptr_t)ec->handler_mem_addr
                         : NULL;
    ctx->hmem_size = ec->handler_mem_size;
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if (ec->scratchpad_size[c] != 0) {
            ctx->scratch[c]      = (uint8_t *)(uintptr_t)(L1_CLUSTER_BASE +
                                                     c * L1_CLUSTER_MEM_SIZE +
                                                     L1_SCRATCHPAD_OFFSET +
                                                     ec->scratchpad_addr[c]);
            ctx->scratch_size[c] = ec->scratchpad_size[c];
        }
    }
    ctx->host_base = ec->host_mem_addr;
    ctx->host_size = ec->host_mem_size;
    ctx->desc      = &ctx->own_desc;
    xg_spinlock_init(&ctx->desc_lock);
    xg_spin_ctx_thresholds(ctx);
    ctx->next = e->ctxs;
    e->ctxs   = ctx;
    return ctx;
}

static xg_spin_ctx_t *flow_ctx(const char *fn, const spin_ec_t *ec)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_ctx_t *ctx, **v;
    unsigned i;

    for (i = sim.nctxs; i-- > 0;) {
        if (memcmp(&sim.ctxs[i]->ec, ec, sizeof(*ec)) == 0) {
            return sim.ctxs[i];
        }
    }
    if (sim.nctxs == sim.ctxs_cap) {
        sim.ctxs_cap = (sim.ctxs_cap == 0) ? 4 : sim.ctxs_cap * 2;
        v            = realloc(sim.ctxs, sim.ctxs_cap * sizeof(*v));
        if (v == NULL) {
            return NULL;
        }
        sim.ctxs = v;
    }
    pthread_mutex_lock(&e->lock);
    ctx = flow_ctx_new(fn, ec);
    pthread_mutex_unlock(&e->lock);
    if (ctx != NULL) {
        sim.ctxs[sim.nctxs++] = ctx;
    }
    return ctx;
}

static void open_remove(xg_spin_flows_t *f, unsigned i)
{
    if (f->open[i].msg != NULL) {
        xg_spin_msg_unref(f->open[i].msg);
    }
    f->open[i] = f->open[--f->nopen];
}

/* 1 if entry @i of @f is a message the stall threshold reset (closed
 * while the injector still has it open); its MPQ is given back then. */
static int open_reset(xg_spin_flows_t *f, unsigned i)
{
    xg_spin_msg_t *msg = f->open[i].msg;

    if (msg == NULL) {
        return 1;
    }
    if (!(atomic_load_explicit(&msg->flags, memory_order_acquire) &
          XG_SPIN_MSG_OPEN_GONE)) {
        return 0;
    }
    f->open[i].msg = NULL;
    xg_spin_msg_unref(msg);
    return 1;
}

/* Gives back the MPQs of @f's messages that were reset. */
static void flow_reap(xg_spin_flows_t *f)
{
    unsigned i;

    for (i = 0; i < f->nopen; i++) {
        open_reset(f, i);
    }
}

/* The open message @msgid of @ctx, a new one (waits for a free MPQ), or
 * NULL: *@late set if it is a message that was reset, else no memory. */
static xg_spin_msg_t *flow_msg(xg_spin_flows_t *f, xg_spin_ctx_t *ctx,
                               uint32_t msgid, unsigned *late)
{
    xg_spin_msg_t *msg;
    flow_msg_t *v;
    xg_wait_t wait;
    unsigned i;

    for (i = 0; i < f->nopen; i++) {
        if ((f->open[i].ctx == ctx) && (f->open[i].msgid == msgid)) {
            if (open_reset(f, i)) {
                *late = i + 1;
                return NULL;
            }
            return f->open[i].msg;
        }
    }
    if (f->nopen == f->cap) {
        f->cap = (f->cap == 0) ? 16 : f->cap * 2;
        v      = realloc(f->open, f->cap * sizeof(*v));
        if (v == NULL) {
            return NULL;
        }
        f->open = v;
    }
    xg_wait_init(&wait);
    while ((msg = xg_spin_msg_open(ctx, msgid)) == NULL) {
        /* every MPQ taken: those of messages reset meanwhile are held
         * by this map alone */
        flow_reap(f);
        f->waits++;
        xg_wait_backoff(&wait);
    }
    msg->rlength = 0; /* bytes so far: the next packet's offset */
    if (!ctx->raw) {
        msg->ni = (uint32_t)ctx->send_ni;
    }
    atomic_fetch_add_explicit(&msg->life, 1, memory_order_relaxed); /* map */
    f->open[f->nopen].ctx   = ctx;
    f->open[f->nopen].msgid = msgid;
    f->open[f->nopen].msg   = msg;
    f->nopen++;
    f->msgs++;
    return msg;
}

/* A late packet of a reset message (entry @i of @f): dropped and
 * counted; its eom ends the reset message. */
static void flow_drop_late(xg_spin_flows_t *f, unsigned i, xg_spin_ctx_t *ctx,
                           int eom, uint64_t user_ptr, uint64_t t_arrival)
{
    uint32_t msgid = f->open[i].msgid;

    __atomic_fetch_add(&ctx->desc->dropped, 1, __ATOMIC_RELAXED);
    if (eom) {
        open_remove(f, i);
    }
    if (ctx->raw) {
        flow_feedback(msgid, user_ptr, t_arrival);
    }
}

static void flow_close(xg_spin_flows_t *f, xg_spin_msg_t *msg)
{
    unsigned i;

    for (i = 0; i < f->nopen; i++) {
        if (f->open[i].msg == msg) {
            xg_spin_msg_close(msg);
            open_remove(f, i);
            return;
        }
    }
}

void xg_spin_flow_close_all(xg_spin_flows_t *f)
{
    while (f->nopen != 0) {
        if (f->open[0].msg != NULL) {
            xg_spin_msg_close(f->open[0].msg); /* no eom came: end it */
        }
        open_remove(f, 0);
    }
    free(f->open);
    f->open = NULL;
    f->cap  = 0;
}

int xg_spin_flow_inject(const char *fn, xg_spin_flows_t *f, xg_spin_ctx_t *ctx,
                        uint32_t msgid, const uint8_t *data, size_t len,
                        int eom, uint64_t user_ptr)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_msg_t *msg;
    xg_spin_pkt_t *pkt;
    uint64_t t_arrival;
    unsigned late = 0;
    xg_wait_t wait;

    if (len > e->slot_size) {
        xg_error("spin",
                 "%s: a packet of %zu bytes is larger than the "
                 "engine's packets (XGAS_SPIN_PKT_SIZE=%u)",
                 fn, len, e->slot_size);
        return SPIN_ERR;
    }
    xg_wait_init(&wait);
    while ((pkt = xg_spin_pkt_alloc()) == NULL) {
        f->waits++; /* the buffer is full: back-pressure */
        xg_wait_backoff(&wait);
    }
    memcpy(pkt->data, data, len);
    pkt->len      = (uint32_t)len;
    pkt->eom      = (eom != 0);
    pkt->user_ptr = user_ptr;
    /* a time for the driver's feedback (not for a native flow's) */
    pkt->t_arrival = ctx->raw ? xg_spin_now() : 0;
    t_arrival      = pkt->t_arrival;
    msg            = flow_msg(f, ctx, msgid, &late);
    if (msg != NULL) {
        pkt->offset = msg->rlength;
        if (!xg_spin_pkt_inject(msg, pkt)) {
            /* reset since the lookup: late too */
            for (late = 0; f->open[late].msg != msg; late++) {
            }
            open_reset(f, late++);
            msg = NULL;
        }
    }
    if (msg == NULL) {
        xg_spin_pkt_drop(pkt);
        if (late == 0) {
            xg_error("spin", "%s: no memory for the flow's messages", fn);
            return SPIN_ERR;
        }
        flow_drop_late(f, late - 1, ctx, eom, user_ptr, t_arrival);
        return SPIN_SUCCESS;
    }
    /* the next packet's offset: this one's UDP payload, if it has the
     * IP/UDP headers of PsPIN's packets (docs/spin.md) */
    if (len >= sizeof(pkt_hdr_t)) {
        const ip_hdr_t *ip = (const ip_hdr_t *)data;

        if ((ip->length >= sizeof(pkt_hdr_t)) && (ip->length <= len)) {
            msg->rlength += ip->length - sizeof(pkt_hdr_t);
        }
    }
    if (eom) {
        flow_close(f, msg);
    }
    return SPIN_SUCCESS;
}

int xg_spin_sim_packet(const char *fn, const spin_ec_t *ec, uint32_t msgid,
                       const uint8_t *data, size_t len, uint8_t eom,
                       uint64_t user_ptr)
{
    xg_spin_ctx_t *ctx;
    int ret;

    if (!sim.inited) {
        xg_error("spin", "%s: call pspinsim_init first", fn);
        return SPIN_ERR;
    }
    ctx = flow_ctx(fn, ec);
    if (ctx == NULL) {
        return SPIN_ERR;
    }
    if (sim.trace != NULL) {
        pthread_mutex_lock(&sim.cb_lock);
        fprintf(sim.trace, "in %" PRIu32 " %zu %u ", msgid, len, eom);
        trace_hex(data, len);
        pthread_mutex_unlock(&sim.cb_lock);
    }
    ret = xg_spin_flow_inject(fn, &sim.flows, ctx, msgid, data, len, eom,
                              user_ptr);
    if (ret == SPIN_SUCCESS) {
        if (sim.injected == 0) {
            sim.first_ns = xg_spin_now();
        }
        sim.injected++;
        sim.bytes_in += len;
    }
    return ret;
}

int xg_spin_sim_eos(const char *fn)
{
    (void)fn;
    sim.eos = 1;
    return SPIN_SUCCESS;
}

int xg_spin_sim_run(const char *fn, uint8_t *done_p, int once)
{
    xg_wait_t wait;

    if (!sim.inited) {
        xg_error("spin", "%s: call pspinsim_init first", fn);
        return SPIN_ERR;
    }
    if (once) {
        sched_yield(); /* a step: the HPU threads do the work */
        *done_p =
            sim.eos && (atomic_load_explicit(&sim.done, memory_order_acquire) ==
                        sim.injected);
        return SPIN_SUCCESS;
    }
    xg_wait_init(&wait);
    while (atomic_load_explicit(&sim.done, memory_order_acquire) !=
           sim.injected) {
        xg_wait_backoff(&wait);
    }
    return SPIN_SUCCESS;
}

int xg_spin_sim_init(const char *fn)
{
    xg_status_t status;

    if (sim.inited) {
        xg_error("spin",
                 "%s: the simulation is already initialized (one "
                 "pspinsim_init ... pspinsim_fini at a time)",
                 fn);
        return SPIN_ERR;
    }
    status = xg_spin_engine_get();
    if (status != XG_OK) {
        xg_error("spin", "%s: the sPIN engine did not start: %s", fn,
                 xg_status_str(status));
        return SPIN_ERR;
    }
    if (xg_config.spin_trace[0] != '\0') {
        sim.trace = fopen(xg_config.spin_trace, "w");
        if (sim.trace == NULL) {
            xg_warn("spin", "%s: XGAS_SPIN_TRACE=%s: %m (no trace)", fn,
                    xg_config.spin_trace);
        }
    }
    sim.inited = 1;
    return SPIN_SUCCESS;
}

/* Logs the non-zero 64-byte blocks of [p, p + len). */
static void trace_mem(const uint8_t *p, size_t len)
{
    static const uint8_t zero[64];
    size_t i = 0, j, n;

    while (i < len) {
        n = (len - i < 64) ? len - i : 64;
        if (memcmp(p + i, zero, n) == 0) {
            i += n;
            continue;
        }
        for (j = i; j < len; j += 64) {
            n = (len - j < 64) ? len - j : 64;
            if (memcmp(p + j, zero, n) == 0) {
                break;
            }
        }
        fprintf(sim.trace, "mem %#" PRIxPTR " %zu ", (uintptr_t)(p + i), j - i);
        trace_hex(p + i, j - i);
        i = j;
    }
}

static void print_stats(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    uint64_t n = sim.injected, span = sim.last_ns - sim.first_ns;
    unsigned i;

    printf("\n###### Statistics (xgas sPIN engine) ######\n");
    printf("NIC inbound engine:\n\tPackets: %" PRIu64 "; Bytes: %" PRIu64
           "; Messages: %" PRIu64 "\n",
           n, sim.bytes_in, sim.flows.msgs);
    if (n != 0) {
        printf("\tAvg packet length: %.3f B\n",
               (double)sim.bytes_in / (double)n);
        printf("\tFeedback throughput: %.3f Gbit/s (%.3f Mpackets/s over "
               "%.1f us)\n",
               span ? (double)sim.bytes_in * 8 / (double)span : 0.0,
               span ? (double)n * 1000 / (double)span : 0.0,
               (double)span / 1000);
        printf("\tPacket latency: avg: %.3f ns; min: %" PRIu64
               " ns; max: %" PRIu64 " ns\n",
               (double)sim.lat_sum / (double)n, sim.lat_min, sim.lat_max);
    }
    printf("\tBack-pressure waits: %" PRIu64 "\n", sim.flows.waits);
    printf("----------------------------------\n");
    printf("NIC outbound engine:\n\tPackets: %" PRIu64 "; Bytes: %" PRIu64 "\n",
           sim.out_pkts, sim.out_bytes);
    printf("----------------------------------\n");
    printf("Host (PCIe) writes: %" PRIu64 "; bytes: %" PRIu64 "\n", sim.wr_n,
           sim.wr_bytes);
    printf("Host (PCIe) reads: %" PRIu64 "; bytes: %" PRIu64 "\n", sim.rd_n,
           sim.rd_bytes);
    printf("----------------------------------\n");
    printf("Handler faults and message resets: %" PRIu64 "\n", sim.faults);
    printf("HPUs (cluster.core: packets):");
    for (i = 0; i < e->nhpus; i++) {
        printf(" %u.%u:%" PRIu64, e->hpus[i].cluster, e->hpus[i].core,
               e->hpus[i].packets);
    }
    printf("\n----------------------------------\n");
    fflush(stdout);
}

int xg_spin_sim_fini(const char *fn)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_ctx_t *ctx;
    uint8_t done;
    unsigned c;

    if (!sim.inited) {
        xg_error("spin", "%s: call pspinsim_init first", fn);
        return SPIN_ERR;
    }
    xg_spin_flow_close_all(&sim.flows);
    xg_spin_sim_run(fn, &done, 0);
    while (sim.nctxs != 0) {
        ctx = sim.ctxs[--sim.nctxs];
        xg_spin_ctx_wait_quiet(ctx);
        if (sim.trace != NULL) {
            if (ctx->hmem != NULL) {
                trace_mem(ctx->hmem, ctx->hmem_size);
            }
            for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
                if (ctx->scratch[c] != NULL) {
                    trace_mem(ctx->scratch[c], ctx->scratch_size[c]);
                }
            }
        }
        pthread_mutex_lock(&e->lock);
        xg_spin_ctx_free(ctx);
        pthread_mutex_unlock(&e->lock);
    }
    print_stats();
    if (sim.trace != NULL) {
        fclose(sim.trace);
    }
    free(sim.ctxs);
    memset(&sim.cbs, 0, sizeof(sim.cbs));
    memset(&sim.flows, 0, sizeof(sim.flows));
    sim.trace = NULL;
    sim.ctxs  = NULL;
    sim.nctxs = sim.ctxs_cap = 0;
    sim.eos                  = 0;
    sim.injected = sim.bytes_in = 0;
    sim.first_ns = sim.last_ns = 0;
    sim.out_pkts = sim.out_bytes = sim.wr_n = sim.wr_bytes = 0;
    sim.rd_n = sim.rd_bytes = sim.lat_sum = sim.lat_min = sim.lat_max = 0;
    sim.faults                                                        = 0;
    atomic_store_explicit(&sim.done, 0, memory_order_relaxed);
    sim.inited = 0;
    xg_spin_engine_put();
    return SPIN_SUCCESS;
}

int xg_spin_sim_nicmem(const char *fn, int write, uint32_t addr, void *data,
                       size_t size, void *user_ptr)
{
    xg_spin_sim_cbs_t cbs;

    if (!sim.inited) {
        xg_error("spin", "%s: call pspinsim_init first", fn);
        return SPIN_ERR;
    }
    if (!xg_spin_mem_host_ok(addr, size)) {
        xg_error("spin",
                 "%s: NIC address %#x+%zu is not inside L1 or the L2 "
                 "handler memory (spin_hw_conf.h)",
                 fn, addr, size);
        return SPIN_ERR;
    }
    if (write) {
        memcpy((void *)(uintptr_t)addr, data, size);
    } else {
        memcpy(data, (const void *)(uintptr_t)addr, size);
    }
    xg_spin_sim_get_cbs(&cbs);
    if (write && (cbs.nicmem_written != NULL)) {
        cbs.nicmem_written(user_ptr);
    } else if (!write && (cbs.nicmem_read != NULL)) {
        cbs.nicmem_read(user_ptr);
    }
    return SPIN_SUCCESS;
}

int xg_spin_sim_find_handler(const char *fn, const char *binfile,
                             const char *name, uint32_t *addr_p, size_t *size_p)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_obj_t *obj;
    handler_fn f = NULL;
    size_t size  = 0;

    if (!sim.inited) {
        xg_error("spin", "%s: call pspinsim_init first", fn);
        return SPIN_ERR;
    }
    pthread_mutex_lock(&e->lock);
    obj = xg_spin_obj_load(fn, binfile);
    if (obj != NULL) {
        f = xg_spin_obj_sym(obj, name, &size);
    }
    *addr_p = xg_spin_prog_addr(f);
    pthread_mutex_unlock(&e->lock);
    if (obj == NULL) {
        return SPIN_ERR;
    }
    if (f == NULL) {
        xg_warn("spin",
                "%s: %s defines no handler %s: the context runs "
                "without it",
                fn, binfile, name);
    } else if (*addr_p == 0) {
        xg_error("spin", "%s: the program memory is full (%u handlers)", fn,
                 PROG_MEM_SIZE / 16);
        return SPIN_ERR;
    }
    *size_p = (f != NULL) ? size : 0;
    return SPIN_SUCCESS;
}

int xg_spin_sim_trace_read(const char *fn, const char *pkt_path,
                           const char *data_path)
{
    unsigned v[13], c;
    FILE *pf, *df;
    spin_ec_t ec;
    uint8_t *buf;
    int ret = SPIN_SUCCESS, n;

    pf = fopen(pkt_path, "r");
    if (pf == NULL) {
        xg_error("spin", "%s: %s: %m", fn, pkt_path);
        return SPIN_ERR;
    }
    df = fopen(data_path, "rb");
    if (df == NULL) {
        xg_error("spin", "%s: %s: %m", fn, data_path);
        fclose(pf);
        return SPIN_ERR;
    }
    buf = malloc(xg_spin_engine.slot_size);
    while ((buf != NULL) &&
           ((n = fscanf(pf, "%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u", &v[0],
                        &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
                        &v[9], &v[10], &v[11], &v[12])) != EOF)) {
        if ((n != 13) || (v[9] > xg_spin_engine.slot_size) ||
            (fread(buf, 1, v[9], df) != v[9])) {
            xg_error("spin",
                     "%s: %s: a line is not 13 numbers, or its "
                     "packet (%u bytes) is missing from %s or larger than "
                     "XGAS_SPIN_PKT_SIZE",
                     fn, pkt_path, (n >= 10) ? v[9] : 0, data_path);
            ret = SPIN_ERR;
            break;
        }
        memset(&ec, 0, sizeof(ec));
        ec.hh_addr          = v[1];
        ec.hh_size          = v[2];
        ec.ph_addr          = v[3];
        ec.ph_size          = v[4];
        ec.th_addr          = v[5];
        ec.th_size          = v[6];
        ec.handler_mem_addr = v[7];
        ec.handler_mem_size = v[8];
        ec.host_mem_addr    = PCIE_START_ADDR;
        ec.host_mem_size    = 0x40000000;
        for (c = 0; c < NUM_CLUSTERS; c++) {
            ec.scratchpad_size[c] = L1_SCRATCHPAD_SIZE;
        }
        ret = xg_spin_sim_packet(fn, &ec, v[0], buf, v[9], (uint8_t)v[11], 0);
        if (ret != SPIN_SUCCESS) {
            break;
        }
    }
    free(buf);
    fclose(df);
    fclose(pf);
    return ret;
}
