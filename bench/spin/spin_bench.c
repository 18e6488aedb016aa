/*
 * xgas-spin-bench: the sPIN engine's throughput, scheduling overhead and
 * latency, for the empty handler and the use cases of examples/spin,
 * each next to a baseline measured in the same run (bench/README.md,
 * "sPIN engine").  One figure per run (the engine's shape -- packet size,
 * HPUs -- is fixed when it starts); bench/spin/run.sh sweeps them.
 *
 *   --case empty|reduce|histogram|aggregate|filtering|strided|kvstore
 *                   (kvstore: SET requests; a GET's answer needs the NIC)
 *   --mode stream   packets fed by this thread (the host) while the HPUs
 *                   process them: packets/s and Gbit/s; baseline: the same
 *                   computation done by the host after the data landed
 *                   (a copy of each payload into host memory, then the
 *                   case's own loop over it), per packet
 *   --mode burst    (empty) packets pile up behind a gated header
 *                   handler, then run in one burst with the host idle:
 *                   the engine's rate per HPU; baseline: the same handler
 *                   called directly in a loop (no engine): the difference
 *                   per packet is the scheduling overhead;
 *                   --instr N: the payload handler runs N integer
 *                   instructions instead (PsPIN's Fig. 8)
 *   --mode sched    one packet at a time: arrival (the inject call) to
 *                   the payload handler's start, and to done (median)
 *   --mode timed    (a case, or all) the case's handlers run on one HPU
 *                   through timing wrappers: ns per call of each handler
 *                   kind; baseline: the host's ns per packet for the
 *                   same work (as in stream)
 *   --mode latency  one packet at a time, fed to done (median, p90)
 *   --size B        packet size, headers included (64..4096)
 *   --hpus N        HPU threads: clusters (up to 4) x threads per cluster
 *   --packets N     packets per measurement; --reps N measurements
 *   --dir D         where the handler files are (build/examples/spin)
 * Output: one line of key=value pairs.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_core.h"
#include "spin/handler.h"
#include "spin/packets.h"
#include "usecase.h"
#include "xgas_spin.h"

static const char *dir = "build/examples/spin";
static const char *gate_file;
static unsigned size = 64, hpus = 1, reps = 5, instr;
static uint64_t npkts = 200000;

static void die(const char *what)
{
    fprintf(stderr, "xgas-spin-bench: %s\n", what);
    exit(1);
}

/* ---- packets: a pool of distinct ones, cycled ---- */

#define POOL 1024
static uint8_t *pool; /* POOL packets of `size` bytes */
static uint32_t rnd_state = 99;

static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 3;
}

/* kvstore: SET requests (a GET answers with a packet through the NIC,
 * which a context fed directly does not have) */
static void kv_request(uint8_t *pld, uint32_t len)
{
    uc_kv_msg_t req = {UC_KV_SET, rnd() % 4096, rnd(), 0, 0};

    if (len >= sizeof(req)) {
        memcpy(pld, &req, sizeof(req));
    }
}

/* @kv: packets are kvstore requests */
static void make_pool(int kv)
{
    uint32_t i, j, pld = size - (uint32_t)sizeof(pkt_hdr_t);
    pkt_hdr_t *h;

    pool = malloc((size_t)POOL * size);
    for (i = 0; i < POOL; i++) {
        h = (pkt_hdr_t *)(pool + (size_t)i * size);
        memset(h, 0, sizeof(*h));
        h->ip_hdr.ihl       = 5;
        h->ip_hdr.length    = (uint16_t)size;
        h->ip_hdr.source_id = rnd() % 1024;
        h->udp_hdr.length   = (uint16_t)(size - sizeof(ip_hdr_t));
        for (j = 0; j + 4 <= pld; j += 4) {
            uint32_t w = rnd();

            memcpy((uint8_t *)(h + 1) + j, &w, 4);
        }
        if (kv) {
            kv_request((uint8_t *)(h + 1), pld);
        }
    }
}

/* ---- the cases ---- */

typedef struct bcase {
    const char *name, *file, *hh, *ph, *th;
    size_t hmem, scratch, pad, window;
} bcase_t;

#define HIST_ELEMS 1024
#define RED_ELEMS  2048
#define FLT_SLOTS  2048
#define KV_SETS    256

static const bcase_t cases[] = {
    {"empty", "spin_uc_empty.so", NULL, "empty_ph", NULL, 0, 0, 0, 0},
    {"reduce", "spin_uc_reduce.so", NULL, "reduce_ph", "reduce_th",
     sizeof(uc_reduce_mem_t) + 4 * RED_ELEMS, NB_CORES * 4 * RED_ELEMS, 0,
     UC_RESULT_OFF + 4 * RED_ELEMS},
    {"histogram", "spin_uc_histogram.so", NULL, "histogram_ph", "histogram_th",
     sizeof(uc_reduce_mem_t) + 4 * UC_HIST_BINS, NB_CORES * 4 * UC_HIST_BINS, 0,
     UC_RESULT_OFF + 4 * UC_HIST_BINS},
    {"aggregate", "spin_uc_aggregate.so", NULL, "aggregate_ph", "aggregate_th",
     0, 0, 8, 8 * 4096},
    {"filtering", "spin_uc_filtering.so", NULL, "filtering_ph", NULL,
     sizeof(uc_filter_mem_t) + FLT_SLOTS * sizeof(uc_filter_entry_t), 0, 0,
     256 * UC_FILTER_SLOT},
    {"strided", "spin_uc_strided.so", NULL, "strided_ph", "strided_th",
     sizeof(uc_strided_mem_t), 0, 0, 0 /* set from the message */},
    {"kvstore", "spin_uc_kvstore.so", NULL, "kvstore_ph", NULL,
     sizeof(uc_kv_mem_t) + KV_SETS * sizeof(uc_kv_set_t), 0, 0, 0},
};

static const bcase_t *the_case;
static uint8_t *window;
static size_t window_size;
#define MSG_PKTS 64

/* Handler memory image of the case. */
static void *case_image(const bcase_t *c)
{
    void *img = calloc(1, c->hmem ? c->hmem : 1);
    uint32_t i, j;

    if (strcmp(c->name, "reduce") == 0) {
        ((uc_reduce_mem_t *)img)->elems = RED_ELEMS; /* expected 0 */
    } else if (strcmp(c->name, "histogram") == 0) {
        ((uc_reduce_mem_t *)img)->elems = UC_HIST_BINS;
    } else if (strcmp(c->name, "filtering") == 0) {
        uc_filter_mem_t *f = img;

        f->slots = FLT_SLOTS;
        for (i = 0; i < 512; i += 2) { /* half the sources match */
            j = uc_filter_hash(i + 1) & (FLT_SLOTS - 1);
            while (f->table[j].key != 0) {
                j = (j + 1) & (FLT_SLOTS - 1);
            }
            f->table[j].key   = i + 1;
            f->table[j].value = 9000 + i;
        }
    } else if (strcmp(c->name, "strided") == 0) {
        uc_strided_mem_t *s = img;

        s->block    = 256;
        s->stride   = 512;
        s->flag_off = window_size - 8;
    } else if (strcmp(c->name, "kvstore") == 0) {
        ((uc_kv_mem_t *)img)->sets = KV_SETS;
    }
    return img;
}

static xg_spin_ctx_t *case_ctx(const bcase_t *c, const char *file,
                               const char *hh, const char *ph, const char *th,
                               uint64_t watchdog_ns)
{
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;
    char path[4096];
    void *img = case_image(c);

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    memset(&p, 0, sizeof(p));
    p.field_mask = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HANDLER_MEM |
                   XG_SPIN_CTX_FIELD_SCRATCHPAD |
                   XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD |
                   XG_SPIN_CTX_FIELD_HOST_MEM | XG_SPIN_CTX_FIELD_WATCHDOG;
    p.handler_file           = (strchr(file, '/') != NULL) ? file : path;
    p.header_handler         = hh;
    p.payload_handler        = ph;
    p.completion_handler     = th;
    p.handler_mem_size       = c->hmem ? c->hmem : 64;
    p.handler_mem_image      = img;
    p.handler_mem_image_size = c->hmem;
    p.scratchpad_size        = c->scratch;
    p.msg_scratchpad_size    = c->pad;
    p.host_mem               = window;
    p.host_mem_size          = window_size;
    p.watchdog_ns            = watchdog_ns;
    if (xg_spin_ctx_create(&p, &ctx) != XG_OK) {
        die("cannot create the context (see the message above)");
    }
    free(img);
    return ctx;
}

/* Feeds @n packets from the pool, messages of MSG_PKTS. */
static void feed(xg_spin_ctx_t *ctx, uint64_t n, uint32_t *msg)
{
    uint64_t i;

    for (i = 0; i < n; i++) {
        if (xg_spin_ctx_inject(ctx, *msg, pool + (i % POOL) * size, size,
                               (i % MSG_PKTS == MSG_PKTS - 1) ||
                                   (i + 1 == n)) != XG_OK) {
            die("inject failed");
        }
        if ((i % MSG_PKTS == MSG_PKTS - 1) || (i + 1 == n)) {
            (*msg)++;
        }
    }
}

/* ---- the host baseline: land the payload, then the case's loop ---- */

static uint8_t *landing;
static int32_t acc[RED_ELEMS];
static uint32_t bins[UC_HIST_BINS];
static volatile uint64_t sink;

/* kvstore on the host: the same 4-way table, the same SET */
static uc_kv_set_t host_kv[KV_SETS];

static void host_kv_set(const uc_kv_msg_t *req)
{
    uc_kv_set_t *set = &host_kv[req->key % KV_SETS];
    uc_kv_entry_t *e = NULL, *v = &set->way[0];
    unsigned w;

    for (w = 0; w < UC_KV_WAYS; w++) {
        if (set->way[w].key == req->key + 1) {
            e = &set->way[w];
        }
        if (set->way[w].age < v->age) {
            v = &set->way[w];
        }
    }
    if (e == NULL) {
        e      = v;
        e->key = req->key + 1;
    }
    e->value = req->value;
    e->age   = ++set->clock;
}

static void host_case(const bcase_t *c, uint64_t n)
{
    const uint32_t pld   = size - (uint32_t)sizeof(pkt_hdr_t);
    const uint32_t words = pld / 4;
    uint64_t i, off = 0, sum = 0;
    uint32_t k, v, at        = 0;
    const uint8_t *pkt, *src;
    const pkt_hdr_t *h;

    for (i = 0; i < n; i++) {
        pkt = pool + (i % POOL) * size;
        /* the data lands (what the NIC would do without handlers) */
        memcpy(landing + off % (64u << 20), pkt + sizeof(pkt_hdr_t), pld);
        src = landing + off % (64u << 20);
        if (strcmp(c->name, "reduce") == 0) {
            for (k = 0; k < words; k++) {
                memcpy(&v, src + 4 * k, 4);
                acc[at] += (int32_t)v;
                at = (at + 1 == RED_ELEMS) ? 0 : at + 1;
            }
        } else if (strcmp(c->name, "histogram") == 0) {
            for (k = 0; k < words; k++) {
                memcpy(&v, src + 4 * k, 4);
                bins[v % UC_HIST_BINS]++;
            }
        } else if (strcmp(c->name, "aggregate") == 0) {
            for (k = 0; k < words; k++) {
                memcpy(&v, src + 4 * k, 4);
                sum += v;
            }
        } else if (strcmp(c->name, "filtering") == 0) {
            h = (const pkt_hdr_t *)pkt;
            v = uc_filter_hash(h->ip_hdr.source_id + 1);
            sum += v & 1;
        } else if (strcmp(c->name, "strided") == 0) {
            /* unpack the landed bytes into the strided layout */
            for (k = 0; k < pld; k += 256) {
                memcpy(window + ((off + k) / 256 * 512) % (window_size / 2),
                       src + k, (pld - k < 256) ? pld - k : 256);
            }
        } else if (strcmp(c->name, "kvstore") == 0) {
            host_kv_set((const uc_kv_msg_t *)src);
        }
        off += pld;
    }
    sink = sum + (uint64_t)acc[0] + bins[0];
}

/* The case's host window and packets. */
static void use_case(const bcase_t *c)
{
    the_case    = c;
    window_size = (c->window != 0) ? c->window : (size_t)2 * npkts * size + 8;
    if (window_size > ((size_t)256 << 20)) {
        window_size = (size_t)256 << 20;
    }
    free(window);
    free(pool);
    window = calloc(1, window_size);
    make_pool(strcmp(c->name, "kvstore") == 0);
}

/* ---- modes ---- */

static void mode_stream(void)
{
    const bcase_t *c   = the_case;
    xg_spin_ctx_t *ctx = case_ctx(c, c->file, c->hh, c->ph, c->th, 0);
    uint64_t t[32], h[32], t0;
    uint32_t msg = 0;
    unsigned r;
    double ns, hns;

    feed(ctx, npkts / 10, &msg); /* warm: pages, caches, threads */
    xg_spin_ctx_quiet(ctx);
    for (r = 0; r < reps; r++) {
        t0 = bench_now_ns();
        feed(ctx, npkts, &msg);
        xg_spin_ctx_quiet(ctx);
        t[r] = bench_now_ns() - t0;
        t0   = bench_now_ns();
        host_case(c, npkts);
        h[r] = bench_now_ns() - t0;
    }
    if (xg_spin_ctx_desc(ctx)->errors != 0) {
        die("handlers faulted");
    }
    ns  = (double)bench_upper_median_u64(t, reps) / (double)npkts;
    hns = (double)bench_upper_median_u64(h, reps) / (double)npkts;
    printf("bench=spin case=%s mode=stream size=%u hpus=%u packets=%llu "
           "ns_per_pkt=%.2f mpps=%.3f gbps=%.3f host_ns_per_pkt=%.2f "
           "host_mpps=%.3f ratio_host=%.3f\n",
           c->name, size, hpus, (unsigned long long)npkts, ns, 1e3 / ns,
           size * 8.0 / ns, hns, 1e3 / hns, ns / hns);
    xg_spin_ctx_destroy(ctx);
}

static void mode_burst(void)
{
    const bcase_t *c = &cases[0];
    xg_spin_ctx_t *ctx;
    volatile uint32_t *gate;
    handler_fn direct;
    handler_args_t args;
    task_t task;
    uint64_t t[32], d[32], t0, tm, dm, i, n = npkts;
    uint32_t msg = 0;
    unsigned r;
    void *dl;

    ctx     = case_ctx(c, gate_file, "gate_hh",
                   instr ? "gate_work_ph" : "gate_empty_ph", NULL,
                       3600ULL * 1000000000ULL);
    gate    = xg_spin_ctx_handler_mem(ctx, NULL);
    gate[1] = instr; /* gate_mem_t of gate.c: the gate, then the count */
    for (r = 0; r < reps; r++) {
        *gate = 0;
        for (i = 0; i < n; i++) {
            if (xg_spin_ctx_inject(ctx, msg, pool + (i % POOL) * size, size,
                                   i + 1 == n) != XG_OK) {
                die("inject failed");
            }
        }
        msg++;
        t0 = bench_now_ns();
        __atomic_store_n(gate, 1, __ATOMIC_RELEASE);
        xg_spin_ctx_quiet(ctx);
        t[r] = bench_now_ns() - t0;
    }
    /* the same handler, called directly on the same packets */
    dl     = dlopen(gate_file, RTLD_NOW | RTLD_LOCAL);
    direct = (handler_fn)(uintptr_t)dlsym(dl, instr ? "gate_work_ph"
                                                    : "gate_empty_ph");
    if (direct == NULL) {
        die("gate_empty_ph or gate_work_ph not found");
    }
    memset(&task, 0, sizeof(task));
    memset(&args, 0, sizeof(args));
    args.task        = &task;
    task.handler_mem = (void *)(uintptr_t)gate;
    for (r = 0; r < reps; r++) {
        t0 = bench_now_ns();
        for (i = 0; i < n; i++) {
            task.pkt_mem      = pool + (i % POOL) * size;
            task.pkt_mem_size = size;
            direct(&args);
        }
        d[r] = bench_now_ns() - t0;
    }
    dlclose(dl);
    tm = bench_upper_median_u64(t, reps);
    dm = bench_upper_median_u64(d, reps);
    /* overhead_ns < 0: several HPUs beat one direct loop */
    printf("bench=spin case=%s mode=burst size=%u hpus=%u instr=%u "
           "packets=%llu ns_per_pkt=%.2f mpps=%.3f mpps_per_hpu=%.3f "
           "gbps=%.3f direct_ns_per_pkt=%.2f overhead_ns=%.2f\n",
           instr ? "work" : "empty", size, hpus, instr, (unsigned long long)n,
           (double)tm / (double)n, (double)n * 1e3 / (double)tm,
           (double)n * 1e3 / (double)tm / hpus,
           (double)n * size * 8 / (double)tm, (double)dm / (double)n,
           ((double)tm - (double)dm) / (double)n);
    xg_spin_ctx_destroy(ctx);
}

/* Injects packet @i as a message of its own and waits until the engine
 * is done with it; *@in_p (may be NULL) gets the time the inject call
 * returned. */
static void inject_one(xg_spin_ctx_t *ctx, const xg_spin_ec_desc_t *d,
                       uint64_t i, uint64_t *in_p)
{
    uint64_t done = d->messages;

    if (xg_spin_ctx_inject(ctx, (uint32_t)i, pool + (i % POOL) * size, size,
                           1) != XG_OK) {
        die("inject failed");
    }
    if (in_p != NULL) {
        *in_p = bench_now_ns();
    }
    while (__atomic_load_n(&d->messages, __ATOMIC_ACQUIRE) == done) {
    }
}

static void mode_latency(void)
{
    const bcase_t *c           = the_case;
    xg_spin_ctx_t *ctx         = case_ctx(c, c->file, c->hh, c->ph, c->th, 0);
    const xg_spin_ec_desc_t *d = xg_spin_ctx_desc(ctx);
    static uint64_t lat[20000];
    uint64_t t0, i, n = (npkts < 20000) ? npkts : 20000;

    for (i = 0; i < n; i++) {
        t0 = bench_now_ns();
        inject_one(ctx, d, i, NULL);
        lat[i] = bench_now_ns() - t0;
    }
    qsort(lat, n, sizeof(lat[0]), bench_cmp_u64);
    printf("bench=spin case=%s mode=latency size=%u hpus=%u packets=%llu "
           "median_ns=%llu p90_ns=%llu min_ns=%llu\n",
           c->name, size, hpus, (unsigned long long)n,
           (unsigned long long)lat[n / 2], (unsigned long long)lat[n * 9 / 10],
           (unsigned long long)lat[0]);
    xg_spin_ctx_destroy(ctx);
}

/* One packet at a time to gate_stamp_ph, HPUs awake: from the inject call
 * (the packet reaching the NIC) to the handler's first instruction, to
 * the inject call's return (the packet in the buffer) and to done. */
static void mode_sched(void)
{
    const bcase_t *c   = &cases[0];
    xg_spin_ctx_t *ctx = case_ctx(c, gate_file, NULL, "gate_stamp_ph", NULL, 0);
    const xg_spin_ec_desc_t *d = xg_spin_ctx_desc(ctx);
    volatile uint64_t *stamp =
        (volatile uint64_t *)xg_spin_ctx_handler_mem(ctx, NULL) + 1;
    static uint64_t start[20000], in[20000], done_at[20000];
    uint64_t t0, t1, i, n = (npkts < 20000) ? npkts : 20000;

    for (i = 0; i < n; i++) {
        t0 = bench_now_ns();
        inject_one(ctx, d, i, &t1);
        done_at[i] = bench_now_ns() - t0;
        in[i]      = t1 - t0;
        start[i]   = __atomic_load_n(stamp, __ATOMIC_ACQUIRE) - t0;
    }
    qsort(start, n, sizeof(start[0]), bench_cmp_u64);
    qsort(in, n, sizeof(in[0]), bench_cmp_u64);
    qsort(done_at, n, sizeof(done_at[0]), bench_cmp_u64);
    printf("bench=spin case=stamp mode=sched size=%u hpus=%u packets=%llu "
           "start_ns=%llu start_p90_ns=%llu start_min_ns=%llu "
           "inject_ns=%llu done_ns=%llu done_min_ns=%llu\n",
           size, hpus, (unsigned long long)n, (unsigned long long)start[n / 2],
           (unsigned long long)start[n * 9 / 10], (unsigned long long)start[0],
           (unsigned long long)in[n / 2], (unsigned long long)done_at[n / 2],
           (unsigned long long)done_at[0]);
    xg_spin_ctx_destroy(ctx);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

/* The case's handlers, run by the engine through gate.c's timing
 * wrappers (the wrappers' file is opened here first, so the engine gets
 * the same instance and its timed_inner[]). */
static void timed_case(const bcase_t *c, void *gdl)
{
    handler_fn *inner = dlsym(gdl, "timed_inner");
    uint64_t *tns = dlsym(gdl, "timed_ns"), *calls = dlsym(gdl, "timed_calls");
    uint32_t *samples    = dlsym(gdl, "timed_ph_ns");
    const char *names[3] = {c->hh, c->ph, c->th};
    const char *wrap[3]  = {"timed_hh", "timed_ph", "timed_th"};
    char path[4096];
    xg_spin_ctx_t *ctx;
    uint64_t t0, h[32], warm_calls, n, trim;
    uint32_t msg = 0;
    unsigned k, r;
    void *dl;

    snprintf(path, sizeof(path), "%s/%s", dir, c->file);
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if ((dl == NULL) || (inner == NULL) || (tns == NULL) || (calls == NULL) ||
        (samples == NULL)) {
        die("cannot open the case's file or the timing wrappers");
    }
    for (k = 0; k < 3; k++) {
        inner[k] = names[k] ? (handler_fn)(uintptr_t)dlsym(dl, names[k]) : 0;
        if ((names[k] != NULL) && (inner[k] == NULL)) {
            die("a handler of the case is missing from its file");
        }
        wrap[k] = names[k] ? wrap[k] : NULL;
    }
    ctx = case_ctx(c, gate_file, wrap[0], wrap[1], wrap[2], 0);
    memset(calls, 0, 3 * sizeof(*calls));
    feed(ctx, npkts / 10 + 1, &msg); /* warm */
    xg_spin_ctx_quiet(ctx);
    warm_calls = calls[1];
    memset(tns, 0, 3 * sizeof(*tns));
    memset(calls, 0, 3 * sizeof(*calls));
    feed(ctx, npkts, &msg);
    xg_spin_ctx_quiet(ctx);
    if (xg_spin_ctx_desc(ctx)->errors != 0) {
        die("handlers faulted");
    }
    /* the payload calls (the first 65536) without the slowest 1 %: the
     * calls the host's scheduler interrupted */
    n = (calls[1] < 65536) ? calls[1] : 65536;
    qsort(samples, n, sizeof(*samples), cmp_u32);
    for (k = 0, trim = 0; k < n - n / 100; k++) {
        trim += samples[k];
    }
    for (r = 0; r < reps; r++) {
        t0 = bench_now_ns();
        host_case(c, npkts);
        h[r] = bench_now_ns() - t0;
    }
    printf("bench=spin case=%s mode=timed size=%u hpus=%u packets=%llu "
           "ph_ns=%.2f ph_median_ns=%u ph_trim_ns=%.2f ph_calls=%llu "
           "ph_calls_all=%llu "
           "th_ns=%.2f "
           "th_calls=%llu host_ns_per_pkt=%.2f\n",
           c->name, size, hpus, (unsigned long long)npkts,
           calls[1] ? (double)tns[1] / (double)calls[1] : 0.0,
           n ? samples[n / 2] : 0,
           (n - n / 100) ? (double)trim / (double)(n - n / 100) : 0.0,
           (unsigned long long)calls[1],
           (unsigned long long)(calls[1] + warm_calls),
           calls[2] ? (double)tns[2] / (double)calls[2] : 0.0,
           (unsigned long long)calls[2],
           (double)bench_upper_median_u64(h, reps) / (double)npkts);
    xg_spin_ctx_destroy(ctx);
    memset(inner, 0, 3 * sizeof(*inner));
    dlclose(dl);
}

int main(int argc, char **argv)
{
    const char *mode = "stream", *cname = "empty";
    char buf[64], gpath[4096];
    unsigned i, clusters, per;

    for (i = 1; i < (unsigned)argc; i++) {
        if ((strcmp(argv[i], "--case") == 0) && (i + 1 < (unsigned)argc)) {
            cname = argv[++i];
        } else if ((strcmp(argv[i], "--mode") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            mode = argv[++i];
        } else if ((strcmp(argv[i], "--size") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            size = (unsigned)atoi(argv[++i]);
        } else if ((strcmp(argv[i], "--hpus") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            hpus = (unsigned)atoi(argv[++i]);
        } else if ((strcmp(argv[i], "--packets") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            npkts = strtoull(argv[++i], NULL, 0);
        } else if ((strcmp(argv[i], "--reps") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            reps = (unsigned)atoi(argv[++i]);
        } else if ((strcmp(argv[i], "--dir") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            dir = argv[++i];
        } else if ((strcmp(argv[i], "--instr") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            instr = (unsigned)atoi(argv[++i]);
        } else if ((strcmp(argv[i], "--gate") == 0) &&
                   (i + 1 < (unsigned)argc)) {
            gate_file = argv[++i];
        } else {
            fprintf(stderr,
                    "usage: %s [--case C|all] [--mode stream|burst|"
                    "latency|sched|timed] [--size B] [--hpus N] "
                    "[--packets N] [--reps N] [--instr N] [--dir D] "
                    "[--gate gate.so]\n",
                    argv[0]);
            return 1;
        }
    }
    if ((size < 64) || (size > 4096) || (hpus < 1) || (hpus > 32) ||
        (reps < 1) || (reps > 32) || (npkts < 1)) {
        die("--size 64..4096, --hpus 1..32, --reps 1..32");
    }
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (strcmp(cases[i].name, cname) == 0) {
            the_case = &cases[i];
        }
    }
    if ((the_case == NULL) && (strcmp(cname, "all") != 0)) {
        die("unknown --case");
    }
    if (gate_file == NULL) {
        snprintf(gpath, sizeof(gpath), "%s/../../bench/spin/spin_bench_gate.so",
                 dir);
        gate_file = gpath;
    }
    /* the engine's shape: clusters first, then HPUs per cluster; slots of
     * this packet size, the largest buffer */
    clusters = (hpus < 4) ? hpus : 4;
    per      = (hpus + clusters - 1) / clusters;
    snprintf(buf, sizeof(buf), "%u", clusters);
    setenv("XGAS_SPIN_CLUSTERS", buf, 0);
    snprintf(buf, sizeof(buf), "%u", per);
    setenv("XGAS_SPIN_CLUSTER_HPUS", buf, 0);
    snprintf(buf, sizeof(buf), "%u", (size + 63) / 64 * 64);
    setenv("XGAS_SPIN_PKT_SIZE", buf, 0);
    setenv("XGAS_SPIN_PKT_BUFFER", "12M", 0);
    setenv("XGAS_SPIN_MPQS", "4096", 0);
    hpus    = clusters * per;
    landing = malloc((size_t)64 << 20);
    if (strcmp(mode, "timed") == 0) {
        void *gdl          = dlopen(gate_file, RTLD_NOW | RTLD_LOCAL);
        const bcase_t *one = the_case; /* NULL: all */

        if (gdl == NULL) {
            die("cannot open the --gate file");
        }
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            if ((one == NULL) || (one == &cases[i])) {
                use_case(&cases[i]);
                timed_case(&cases[i], gdl);
            }
        }
        return 0;
    }
    if (the_case == NULL) {
        die("--case all is for --mode timed");
    }
    use_case(the_case);
    if (strcmp(mode, "stream") == 0) {
        mode_stream();
    } else if (strcmp(mode, "burst") == 0) {
        mode_burst();
    } else if (strcmp(mode, "latency") == 0) {
        mode_latency();
    } else if (strcmp(mode, "sched") == 0) {
        mode_sched();
    } else {
        die("unknown --mode");
    }
    return 0;
}
