/*
 * xgas-coll-bench: latency of the OpenSHMEM collectives of the library it
 * is linked with -- barrier_all, sync_all, team sync, broadcast, sum
 * reduction, collect, fcollect, alltoall, alltoalls -- over every PE of
 * the job, each next to a raw shared-memory baseline measured in the same
 * run (or, with --no-baseline, alone: across nodes a shared-memory
 * baseline means nothing).  alltoalls moves 8-byte elements with strides
 * 1 (alltoall's layout, through the strided call).
 *
 * Plain OpenSHMEM, libc and POSIX, so the same source builds with Open
 * MPI's oshcc.  With a library of OpenSHMEM 1.5 or later the team forms
 * are measured (api=team); otherwise, or with --api aset, the deprecated
 * active-set forms with pSync (api=aset).  Team collectives may follow
 * each other without synchronization, so they run back to back; the
 * active-set ones may reuse a pSync only after the previous call completed
 * everywhere, so they cycle through ASET_SLOTS pSync (and pWrk) arrays and
 * every ASET_SLOTS calls a shmem_barrier_all makes reuse safe -- its cost
 * is part of the figure, amortized over ASET_SLOTS calls.
 *
 * Baselines (bench/lib/bench_raw.c's raw mapping, not the library's memory):
 *   raw_counter_barrier  the centralized sense-reversing barrier
 *   raw_copy_barrier     every PE copies the bytes it must receive (size,
 *                        or npes x size for collect, fcollect, alltoall)
 *                        out of PE 0's raw inbox, then the same counter
 *                        barrier (on raw words of its own)
 *   raw_sum_barrier      every PE adds size bytes of longs from PE 0's
 *                        raw inbox into a private array, then the barrier
 * Every timed run of a collective ends with a shmem_barrier_all (every
 * run of a baseline with its barrier), so a figure covers completion on
 * all PEs, not just on PE 0; over the iterations of a run it is amortized.
 * so the ratio says what the library adds to the synchronization and data
 * movement the hardware must do anyway.
 *
 * Each figure is measured as baseline, run, baseline, ..., baseline (--reps
 * runs of about --budget-ms each, iteration counts calibrated first); each
 * run is divided by the better of its neighbouring baselines.  Output: one
 * line per figure, "xgas-coll-bench key=value ..." (bench/README.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <getopt.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#if (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION) >= 105
#define COLL_HAVE_TEAMS 1
#else
#define COLL_HAVE_TEAMS 0
#endif

#define ASET_SLOTS  16
#define MAX_REPS    31
#define MAX_SIZES   32
#define DEFAULT_MAX (1u << 20)

static long psync[ASET_SLOTS][SHMEM_REDUCE_SYNC_SIZE];
static long *pwrk;              /* ASET_SLOTS arrays */
static size_t pwrk_len;         /* longs per array */
static char *sym_src, *sym_dst; /* symmetric buffers */
static char *priv;              /* private buffer */
static long *acc;               /* private sum array */

typedef enum {
    OPC_BARRIER_ALL,
    OPC_SYNC_ALL,
    OPC_TEAM_SYNC,
    OPC_BROADCAST,
    OPC_REDUCE,
    OPC_COLLECT,
    OPC_FCOLLECT,
    OPC_ALLTOALL,
    OPC_ALLTOALLS,
    OPC_COUNT
} coll_op_t;

static const char *const op_names[OPC_COUNT] = {
    "barrier_all", "sync_all", "team_sync", "broadcast", "reduce",
    "collect",     "fcollect", "alltoall",  "alltoalls"};

static struct {
    int team_api;
    double budget_ns;
    int reps;
    size_t max_size;
    size_t sizes[MAX_SIZES]; /* --sizes, ascending; nsizes 0: the defaults */
    int nsizes;
    int no_baseline;
    int op_on[OPC_COUNT];
    char lib[SHMEM_MAX_NAME_LEN];
} opt;

/* ---- the library's collectives ------------------------------------------ */

/* Bytes each PE receives: the whole payload for collect-like ops. */
static size_t received(coll_op_t op, size_t size)
{
    return ((op == OPC_COLLECT) || (op == OPC_FCOLLECT) ||
            (op == OPC_ALLTOALL) || (op == OPC_ALLTOALLS))
               ? size * (size_t)bench_env.npes
               : size;
}

/* One call of @op with @size bytes (per PE, or per block); @i numbers the
 * call, for the active-set pSync rotation. */
static void coll_call(coll_op_t op, size_t size, long i)
{
    int n = bench_env.npes, slot = (int)(i % ASET_SLOTS);
    long *ps = psync[slot], *wrk = pwrk + (size_t)slot * pwrk_len;
    size_t words = size / 8;

    if (opt.team_api) {
#if COLL_HAVE_TEAMS
        switch (op) {
        case OPC_TEAM_SYNC: shmem_team_sync(SHMEM_TEAM_WORLD); break;
        case OPC_BROADCAST:
            shmem_broadcastmem(SHMEM_TEAM_WORLD, sym_dst, sym_src, size, 0);
            break;
        case OPC_REDUCE:
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)sym_dst,
                                  (long *)sym_src, words);
            break;
        case OPC_COLLECT:
            shmem_collectmem(SHMEM_TEAM_WORLD, sym_dst, sym_src, size);
            break;
        case OPC_FCOLLECT:
            shmem_fcollectmem(SHMEM_TEAM_WORLD, sym_dst, sym_src, size);
            break;
        case OPC_ALLTOALL:
            shmem_alltoallmem(SHMEM_TEAM_WORLD, sym_dst, sym_src, size);
            break;
        case OPC_ALLTOALLS:
            shmem_int64_alltoalls(SHMEM_TEAM_WORLD, (int64_t *)sym_dst,
                                  (const int64_t *)sym_src, 1, 1, words);
            break;
        default: break;
        }
#endif
        return;
    }
    switch (op) {
    case OPC_TEAM_SYNC:
        /* consecutive syncs of one active set may share a pSync */
        shmem_sync(0, 0, n, psync[0]);
        return;
    case OPC_BROADCAST:
        shmem_broadcast64(sym_dst, sym_src, words, 0, 0, 0, n, ps);
        break;
    case OPC_REDUCE:
        shmem_long_sum_to_all((long *)sym_dst, (long *)sym_src, (int)words, 0,
                              0, n, wrk, ps);
        break;
    case OPC_COLLECT:
        shmem_collect64(sym_dst, sym_src, words, 0, 0, n, ps);
        break;
    case OPC_FCOLLECT:
        shmem_fcollect64(sym_dst, sym_src, words, 0, 0, n, ps);
        break;
    case OPC_ALLTOALL:
        shmem_alltoall64(sym_dst, sym_src, words, 0, 0, n, ps);
        break;
    case OPC_ALLTOALLS:
        shmem_alltoalls64(sym_dst, sym_src, 1, 1, words, 0, 0, n, ps);
        break;
    default: return;
    }
    if (slot == ASET_SLOTS - 1) {
        shmem_barrier_all(); /* every pSync may be reused */
    }
}

/* @iters calls of @op; PE 0's nanoseconds.  The active-set forms end
 * their last cycle with the barrier that makes pSync reusable. */
static uint64_t run_coll(coll_op_t op, size_t size, long iters)
{
    uint64_t t0 = bench_now_ns();
    long i;

    for (i = 0; i < iters; i++) {
        switch (op) {
        case OPC_BARRIER_ALL: shmem_barrier_all(); break;
        case OPC_SYNC_ALL: shmem_sync_all(); break;
        default: coll_call(op, size, i); break;
        }
    }
    /* until every PE is done (a root that does not wait for its receivers
     * would otherwise look fast); amortized over the iterations */
    if (op >= OPC_TEAM_SYNC) {
        shmem_barrier_all();
    }
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}

/* ---- raw baselines ------------------------------------------------------ */

static long raw_local_sense; /* this PE's sense of raw_barrier_once */
static unsigned raw_spin;    /* polls before yielding (as lib/bench_raw.c) */

/*
 * bench/lib/bench_raw.c's centralized sense-reversing barrier, on raw
 * control words of its own (the request/answer lines, unused here), so
 * that composite baselines can call it once per iteration without the
 * per-call set-up of raw_counter_barrier.
 */
static void raw_barrier_once(void)
{
    bench_raw_t *raw = &bench_env.raw;
    unsigned polls   = 0;

    raw_local_sense ^= 1;
    if (__atomic_add_fetch(raw->req, 1, __ATOMIC_ACQ_REL) == bench_env.npes) {
        __atomic_store_n(raw->req, 0, __ATOMIC_RELAXED);
        __atomic_store_n(raw->ans, raw_local_sense, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(raw->ans, __ATOMIC_ACQUIRE) != raw_local_sense) {
        if (++polls >= raw_spin) {
            sched_yield();
        }
    }
}

static uint64_t run_raw(coll_op_t op, size_t size, long iters)
{
    const char *inbox = bench_env.raw.data[0];
    size_t bytes = received(op, size), words = size / 8, j;
    uint64_t t0;
    long i;

    if ((op == OPC_BARRIER_ALL) || (op == OPC_SYNC_ALL)) {
        return raw_counter_barrier(NULL, 0, iters);
    }
    if (op == OPC_TEAM_SYNC) {
        return raw_counter_barrier(NULL, 0, iters + 1);
    }
    t0 = bench_now_ns();
    for (i = 0; i < iters; i++) {
        if (op == OPC_REDUCE) {
            const long *in = (const long *)inbox;

            for (j = 0; j < words; j++) {
                acc[j] += in[j];
            }
        } else {
            memcpy(priv, inbox, bytes);
        }
        raw_barrier_once();
    }
    raw_barrier_once(); /* as the library figure's closing barrier */
    bench_sink += acc[0] + priv[0];
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}

static const char *raw_name(coll_op_t op)
{
    if ((op == OPC_BARRIER_ALL) || (op == OPC_SYNC_ALL) ||
        (op == OPC_TEAM_SYNC)) {
        return "raw_counter_barrier";
    }
    return (op == OPC_REDUCE) ? "raw_sum_barrier" : "raw_copy_barrier";
}

/* ---- measurement -------------------------------------------------------- */

typedef uint64_t (*runner_t)(coll_op_t op, size_t size, long iters);

static uint64_t run_once(runner_t run, coll_op_t op, size_t size, long iters)
{
    uint64_t ns;

    shmem_barrier_all();
    ns = run(op, size, iters);
    shmem_barrier_all();
    return ns;
}

/* Iterations of @run that take about one budget (the same on every PE). */
static long calibrate(runner_t run, coll_op_t op, size_t size)
{
    long iters = 1;
    double ns;

    run_once(run, op, size, 2); /* warm-up: first touches, first calls */
    for (;;) {
        ns = (double)run_once(run, op, size, iters);
        if (bench_bcast(ns * 8.0 >= opt.budget_ns) || (iters >= (1L << 26))) {
            break;
        }
        iters *= 4;
    }
    return bench_bcast(
        (long)((double)iters * opt.budget_ns / (ns > 0 ? ns : 1.0)) + 1);
}

/* A figure's operation, size and iteration counts (bench_series_run). */
typedef struct coll_fig {
    coll_op_t op;
    size_t size;
    long iters;
    long base_iters;
} coll_fig_t;

/* One run of the collective (@baseline 0) or of its raw baseline: ns per
 * call on PE 0. */
static double series_run(void *ctx, int baseline)
{
    const coll_fig_t *f = ctx;
    long iters          = baseline ? f->base_iters : f->iters;

    if (baseline && opt.no_baseline) {
        return 1.0; /* not measured: every ratio is the figure itself */
    }
    return (double)run_once(baseline ? run_raw : run_coll, f->op, f->size,
                            iters) /
           (double)iters;
}

static void measure(coll_op_t op, size_t size)
{
    coll_fig_t f = {op, size, 0, 0};
    bench_series_t s;
    bench_line_t l;
    double best;
    int r;

    f.iters      = calibrate(run_coll, op, size);
    f.base_iters = opt.no_baseline ? 0 : calibrate(run_raw, op, size);
    bench_series_run(&s, opt.reps, 0, series_run, &f);
    if (bench_env.me != 0) {
        return;
    }
    for (best = s.m[0], r = 1; r < opt.reps; r++) {
        best = (s.m[r] < best) ? s.m[r] : best;
    }
    bench_line_start(&l, "xgas-coll-bench");
    bench_line_add(&l, "lib", "%s", opt.lib);
    bench_line_add(&l, "npes", "%d", bench_env.npes);
    bench_line_add(&l, "api", "%s", opt.team_api ? "team" : "aset");
    bench_line_add(&l, "op", "%s", op_names[op]);
    bench_line_add(&l, "size", "%zu", size);
    bench_line_add(&l, "value", "%.1f", bench_median(s.m, opt.reps));
    bench_line_add(&l, "best", "%.1f", best);
    bench_line_add(&l, "unit", "%s", "ns");
    bench_line_add(&l, "baseline", "%s",
                   opt.no_baseline ? "none" : raw_name(op));
    bench_line_add(&l, "baseline_value", "%.1f",
                   opt.no_baseline ? 0.0 : bench_median(s.b, opt.reps + 1));
    bench_line_add(&l, "ratio", "%.3f",
                   opt.no_baseline ? 0.0 : bench_median(s.r, opt.reps));
    bench_line_add(&l, "iters", "%ld", f.iters);
    bench_line_add(&l, "baseline_iters", "%ld", f.base_iters);
    bench_line_add(&l, "reps", "%d", opt.reps);
    bench_line_print(&l);
}

/* ---- options and set-up ------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: xgas-coll-bench [options]   (run under xgasrun or oshrun)\n"
        "Latency of OpenSHMEM collectives over every PE, with raw\n"
        "shared-memory baselines from the same run.\n"
        "  --op LIST        barrier_all,sync_all,team_sync,broadcast,reduce,\n"
        "                   collect,fcollect,alltoall,alltoalls (default:\n"
        "                   all)\n"
        "  --api team|aset  team forms (OpenSHMEM >= 1.5) or the active-set\n"
        "                   forms with pSync (default: team if available)\n"
        "  --max-size N     largest payload in bytes, e.g. 4096, 64K, 1M\n"
        "                   (default 1M)\n"
        "  --sizes LIST     payloads of the sized collectives, e.g.\n"
        "                   8,512,32K,1M (default: 8,64K,1M for broadcast\n"
        "                   and reduce, 8,64K for the others), each at most\n"
        "                   --max-size\n"
        "  --no-baseline    no raw shared-memory baseline (baseline=none;\n"
        "                   PEs on several nodes)\n"
        "  --budget-ms MS   length of each timed run (default 10)\n"
        "  --reps N         timed runs per figure (default 5, odd, <= %d)\n"
        "  --quick          budget 1 ms, 3 reps, sizes up to 64 KiB\n"
        "  --lib NAME       library name in the output\n",
        MAX_REPS);
}

/* --sizes LIST: comma-separated sizes, kept ascending, each once and a
 * multiple of 8 (the 64-bit active-set forms count words). */
static void parse_sizes(const char *list)
{
    char buf[512], *tok, *save = NULL;
    size_t v;
    int i, n = 0;

    snprintf(buf, sizeof(buf), "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        v = bench_size_option(tok, "--sizes");
        if ((v % 8) != 0) {
            bench_die("--sizes %s: %zu is not a multiple of 8", list, v);
        }
        for (i = 0; (i < n) && (opt.sizes[i] != v); i++) {
        }
        if (i < n) {
            continue; /* given twice */
        }
        if (n == MAX_SIZES) {
            bench_die("--sizes %s: more than %d sizes", list, MAX_SIZES);
        }
        for (i = n; (i > 0) && (opt.sizes[i - 1] > v); i--) {
            opt.sizes[i] = opt.sizes[i - 1];
        }
        opt.sizes[i] = v;
        n++;
    }
    opt.nsizes = n;
}

static void parse_options(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"op", required_argument, NULL, 'o'},
        {"api", required_argument, NULL, 'a'},
        {"max-size", required_argument, NULL, 'm'},
        {"sizes", required_argument, NULL, 's'},
        {"no-baseline", no_argument, NULL, 'n'},
        {"budget-ms", required_argument, NULL, 'b'},
        {"reps", required_argument, NULL, 'r'},
        {"quick", no_argument, NULL, 'q'},
        {"lib", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    char name[SHMEM_MAX_NAME_LEN] = "";
    char bad[128];
    int c, i, on[OPC_COUNT], any_op = 0;

    opt.team_api  = COLL_HAVE_TEAMS;
    opt.budget_ns = 10e6;
    opt.reps      = 5;
    opt.max_size  = DEFAULT_MAX;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (bench_parse_names(optarg, op_names, OPC_COUNT, on, bad,
                                  sizeof(bad)) != 0) {
                bench_die("unknown op %s (see --help)", bad);
            }
            for (i = 0; i < OPC_COUNT; i++) {
                opt.op_on[i] |= on[i]; /* several --op add up */
            }
            any_op = 1;
            break;
        case 'a':
            if (strcmp(optarg, "aset") == 0) {
                opt.team_api = 0;
            } else if (strcmp(optarg, "team") == 0) {
                if (!COLL_HAVE_TEAMS) {
                    bench_die("--api team: this library is OpenSHMEM %d.%d, "
                              "teams came with 1.5",
                              SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
                }
                opt.team_api = 1;
            } else {
                bench_die("--api %s: use team or aset", optarg);
            }
            break;
        case 'm': opt.max_size = bench_size_option(optarg, "--max-size"); break;
        case 's': parse_sizes(optarg); break;
        case 'n': opt.no_baseline = 1; break;
        case 'b': opt.budget_ns = 1e6 * atof(optarg); break;
        case 'r': opt.reps = atoi(optarg); break;
        case 'q':
            opt.budget_ns = 1e6;
            opt.reps      = 3;
            opt.max_size  = 64u << 10;
            break;
        case 'l': snprintf(opt.lib, sizeof(opt.lib), "%s", optarg); break;
        case 'h':
            usage(stdout);
            shmem_finalize();
            exit(0);
        default: usage(stderr); bench_die("bad option");
        }
    }
    if ((opt.reps < 1) || (opt.reps > MAX_REPS) || (opt.budget_ns <= 0)) {
        bench_die("--reps must be 1..%d and --budget-ms positive", MAX_REPS);
    }
    for (i = 0; i < OPC_COUNT; i++) {
        opt.op_on[i] = any_op ? opt.op_on[i] : 1;
    }
    if (opt.lib[0] == '\0') {
        shmem_info_get_name(name);
        snprintf(opt.lib, sizeof(opt.lib), "%s",
                 (strncmp(name, "xgas", 4) == 0) ? "xgas" : "oshmem");
    }
}

/* Symmetric and private buffers for payloads up to opt.max_size. */
static void setup(void)
{
    size_t most = opt.max_size * (size_t)bench_env.npes, i;

    pwrk_len = opt.max_size / 16 + 1;
    if (pwrk_len < SHMEM_REDUCE_MIN_WRKDATA_SIZE) {
        pwrk_len = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    }
    sym_src = shmem_malloc(most);
    sym_dst = shmem_malloc(most);
    pwrk    = shmem_malloc(ASET_SLOTS * pwrk_len * sizeof(long));
    priv    = malloc(most);
    acc     = calloc(opt.max_size / 8 + 1, sizeof(long));
    if ((sym_src == NULL) || (sym_dst == NULL) || (pwrk == NULL) ||
        (priv == NULL) || (acc == NULL)) {
        bench_die("cannot allocate buffers for %zu-byte payloads on %d PEs "
                  "(raise SHMEM_SYMMETRIC_SIZE or lower --max-size)",
                  opt.max_size, bench_env.npes);
    }
    for (i = 0; i < most; i++) {
        sym_src[i] = (char)(i * 7 + (size_t)bench_env.me);
    }
    memset(sym_dst, 0, most);
    memset(priv, 0, most);
    for (i = 0; i < ASET_SLOTS; i++) {
        memset(psync[i], 0, sizeof(psync[i]));
    }
    bench_raw_open(&bench_env.raw, most, 1);
    *bench_env.raw.req = 0;
    *bench_env.raw.ans = 0;
    raw_spin = (bench_env.npes > sysconf(_SC_NPROCESSORS_ONLN)) ? 16u : 65536u;
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    static const size_t data_sizes[]  = {8, 64u << 10, 1u << 20};
    static const size_t block_sizes[] = {8, 64u << 10};
    int op, i;
    unsigned s;

    shmem_init();
    bench_prog     = "xgas-coll-bench";
    bench_env.me   = shmem_my_pe();
    bench_env.npes = shmem_n_pes();
    parse_options(argc, argv);
    setup();
    if (bench_env.me == 0) {
        printf("# xgas-coll-bench lib=%s npes=%d api=%s spec=%d.%d "
               "budget_ms=%.1f reps=%d aset_slots=%d baseline=%d\n",
               opt.lib, bench_env.npes, opt.team_api ? "team" : "aset",
               SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, opt.budget_ns / 1e6,
               opt.reps, ASET_SLOTS, !opt.no_baseline);
        fflush(stdout);
    }
    for (op = 0; op < OPC_COUNT; op++) {
        if (!opt.op_on[op]) {
            continue;
        }
        if (op <= OPC_TEAM_SYNC) {
            measure((coll_op_t)op, 0);
            continue;
        }
        if (opt.nsizes > 0) {
            for (i = 0; i < opt.nsizes; i++) {
                if (opt.sizes[i] <= opt.max_size) {
                    measure((coll_op_t)op, opt.sizes[i]);
                }
            }
            continue;
        }
        if ((op == OPC_BROADCAST) || (op == OPC_REDUCE)) {
            for (s = 0; s < sizeof(data_sizes) / sizeof(data_sizes[0]); s++) {
                if (data_sizes[s] <= opt.max_size) {
                    measure((coll_op_t)op, data_sizes[s]);
                }
            }
            continue;
        }
        for (s = 0; s < sizeof(block_sizes) / sizeof(block_sizes[0]); s++) {
            if (block_sizes[s] <= opt.max_size) {
                measure((coll_op_t)op, block_sizes[s]);
            }
        }
    }
    shmem_barrier_all();
    bench_raw_close(&bench_env.raw);
    shmem_finalize();
    return 0;
}
