/*
 * armci-bench: the ARMCI figures of the ARMCI-on-Blue-Gene/Q paper
 * (ARMCI over PAMI, a seed of xgas) for whichever ARMCI it is
 * linked with -- xgas's libarmci, or ARMCI-MPI for comparison (run.sh
 * builds this same file against both).  Plain ARMCI and MPI: armci.h,
 * armcix.h (ARMCIX_Progress), MPI_Wtime.
 *
 * Figures (op, kind), between process 0 and process 1 unless said:
 *   put, get      latency   a blocking ARMCI_Put + ARMCI_Fence (complete at
 *                           the target), a blocking ARMCI_Get (Fig. 4)
 *   put, get      bw        a stream of blocking puts (one fence) or gets
 *                           of one size; GB/s (Fig. 5)
 *   puts, gets    bw        1 MiB moved as a 2-D strided patch of rows of
 *                           `size` bytes, the remote rows 9/8 `size`
 *                           apart (puts_sparse: 2 * `size`), against
 *                           the contiguous 1 MiB transfer in the same run
 *                           (Fig. 7-9; --row-sizes chooses the row sizes,
 *                           16 B..256 KiB by default); raw_strided_copy:
 *                           the same pattern with memcpy between private
 *                           buffers, against one memcpy of 1 MiB (what
 *                           the memory system makes of the pattern)
 *   accs          bw        the same patch accumulated (doubles, scale
 *                           1.5); the contiguous ARMCI_Acc of 1 MiB next
 *                           to it (Fig. 11)
 *   fadd          counter   every process 1..p-1 fetch-and-adds a counter
 *                           owned by process 0, which meanwhile computes
 *                           in chunks of --compute-us (calling
 *                           ARMCIX_Progress between chunks) or waits in
 *                           ARMCI_Barrier (--compute-us 0); mean latency
 *                           per fetch-and-add seen by processes 1..p-1
 *                           (Fig. 10)
 * Each figure is measured --reps times, each run calibrated to about
 * --budget-ms; the median and the best are printed.  Baselines measured in
 * the same run: `memcpy` of the same bytes between two private buffers
 * (latency and bandwidth), and for the strided and accumulate figures the
 * contiguous operation of the same total size.
 *
 * Output: one line per figure, `armci-bench key=value ...` (bench/README.md,
 * "ARMCI").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <armci.h>
#include <armcix.h>
#include <mpi.h>

#include "bench_core.h"

#define MIB      (1024L * 1024L)
#define MAX_REPS 31

static int me, np;
static const char *lib   = "xgas";
static const char *route = "direct";
static int reps          = 5;
static double budget     = 0.02; /* seconds per run */
static long max_size     = MIB;
static long compute_us   = 1000;
static int quick;
/* --lat-sizes, --bw-sizes, --row-sizes: the sizes of the latency and
 * bandwidth figures and the row sizes of the strided one; 0-terminated,
 * empty for the default sequences */
#define MAX_SIZES 32
static long lat_sizes[MAX_SIZES + 1], bw_sizes[MAX_SIZES + 1];
static long row_sizes[MAX_SIZES + 1];
static char *priv_a, *priv_b; /* private buffers */
static void **buf;            /* ARMCI memory: 2 MiB + 1 MiB per process */

/* ---- timing ------------------------------------------------------------ */

typedef double (*kernel_t)(long size, long iters); /* seconds on proc 0 */

/* Iterations of @k at @size that take about the budget (process 0's
 * clock, shared). */
static long calibrate(kernel_t k, long size)
{
    double secs;
    long iters = 1;

    for (;;) {
        secs = k(size, iters);
        MPI_Bcast(&secs, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if ((secs >= budget / 4) || (iters >= (1L << 26))) {
            break;
        }
        iters *= 4;
    }
    return (secs > 0) ? (long)((double)iters * budget / secs) + 1 : iters;
}

static double per_op(kernel_t k, long size, long iters)
{
    double secs = k(size, iters);

    MPI_Bcast(&secs, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return secs / (double)iters;
}

/*
 * Seconds per operation of @k at @size and of its baseline @b at @bsize,
 * measured as b, k, b, k, ..., b (reps runs of k): the machine's state
 * drifts, so each run of k is compared with the better (faster) of the
 * baseline runs next to it.  Medians of k and b, k's best, and the median
 * of the ratios k / b (seconds: above 1 means slower than the baseline).
 */
typedef struct fig_result {
    double med, best, base_med, ratio;
    long iters;
} fig_result_t;

/* A figure and its baseline with their sizes and iteration counts. */
typedef struct fig_run {
    kernel_t k, b;
    long size, bsize, iters, biters;
} fig_run_t;

static double series_run(void *ctx, int baseline)
{
    const fig_run_t *f = ctx;

    return baseline ? per_op(f->b, f->bsize, f->biters)
                    : per_op(f->k, f->size, f->iters);
}

static fig_result_t measure(kernel_t k, long size, kernel_t b, long bsize)
{
    fig_run_t f = {k, b, size, bsize, 0, 0};
    bench_series_t s;
    fig_result_t res;

    f.iters  = calibrate(k, size);
    f.biters = calibrate(b, bsize);
    bench_series_run(&s, reps, 0, series_run, &f);
    qsort(s.m, (size_t)reps, sizeof(double), bench_cmp_double);
    qsort(s.b, (size_t)reps + 1, sizeof(double), bench_cmp_double);
    qsort(s.r, (size_t)reps, sizeof(double), bench_cmp_double);
    res.med      = s.m[reps / 2];
    res.best     = s.m[0];
    res.base_med = s.b[(reps + 1) / 2];
    res.ratio    = s.r[reps / 2];
    res.iters    = f.iters;
    return res;
}

/* One result line; @extra (pairs with their spaces) goes at its end. */
static void emit_line(const char *op, const char *kind, long size, double value,
                      double best, const char *unit, const char *base,
                      double base_value, double ratio, long iters,
                      const char *extra)
{
    bench_line_t l;

    bench_line_start(&l, "armci-bench");
    bench_line_add(&l, "lib", "%s", lib);
    bench_line_add(&l, "route", "%s", route);
    bench_line_add(&l, "npes", "%d", np);
    bench_line_add(&l, "op", "%s", op);
    bench_line_add(&l, "kind", "%s", kind);
    bench_line_add(&l, "size", "%ld", size);
    bench_line_add(&l, "value", "%.4g", value);
    bench_line_add(&l, "best", "%.4g", best);
    bench_line_add(&l, "unit", "%s", unit);
    bench_line_add(&l, "baseline", "%s", base);
    bench_line_add(&l, "baseline_value", "%.4g", base_value);
    bench_line_add(&l, "ratio", "%.4g", ratio);
    bench_line_add(&l, "iters", "%ld", iters);
    bench_line_add(&l, "reps", "%d", reps);
    bench_line_raw(&l, extra);
    bench_line_print(&l);
}

static void emit(const char *op, const char *kind, long size, double value,
                 double best, const char *unit, const char *base,
                 double base_value, double ratio, long iters)
{
    if (me != 0) {
        return;
    }
    emit_line(op, kind, size, value, best, unit, base, base_value, ratio, iters,
              "");
}

/* A bandwidth figure: @bytes per operation of @r, the baseline moving
 * @bbytes per operation. */
static void emit_bw(const char *op, long size, long bytes,
                    const fig_result_t *r, const char *base, long bbytes)
{
    emit(op, "bw", size, (double)bytes / r->med * 1e-9,
         (double)bytes / r->best * 1e-9, "GB/s", base,
         (double)bbytes / r->base_med * 1e-9,
         ((double)bytes / (double)bbytes) / r->ratio, r->iters);
}

/* ---- kernels --------------------------------------------------------------- */

static double k_memcpy(long size, long iters)
{
    double t0 = MPI_Wtime();
    long i;

    for (i = 0; i < iters; i++) {
        memcpy(priv_b, priv_a, (size_t)size);
        __asm__ __volatile__("" ::: "memory");
    }
    return MPI_Wtime() - t0;
}

/* What process 0 times against process 1 (the others wait): */
typedef enum kop {
    K_PUT_FENCE,  /* a blocking put completed at the target, each time */
    K_GET,        /* a blocking get */
    K_PUT_STREAM, /* blocking puts, one fence at the end */
    K_ACC_STREAM, /* contiguous accumulates of doubles, one fence */
    K_PUTS,       /* strided 1 MiB patches (size: row bytes), one fence */
    K_GETS,
    K_ACCS
} kop_t;

static void patch(long row, int *count, int *lstride, int *rstride);

static double k_run(long size, long iters, kop_t op)
{
    int count[2], ls[1], rs[1];
    double scale = 1.5, t0;
    long i;

    patch((op >= K_PUTS) ? size : 8, count, ls, rs);
    ARMCI_Barrier();
    t0 = MPI_Wtime();
    if (me == 0) {
        for (i = 0; i < iters; i++) {
            switch (op) {
            case K_PUT_FENCE:
                ARMCI_Put(priv_a, buf[1], (int)size, 1);
                ARMCI_Fence(1);
                break;
            case K_GET: ARMCI_Get(buf[1], priv_a, (int)size, 1); break;
            case K_PUT_STREAM: ARMCI_Put(priv_a, buf[1], (int)size, 1); break;
            case K_ACC_STREAM:
                ARMCI_Acc(ARMCI_ACC_DBL, &scale, priv_a, buf[1], (int)size, 1);
                break;
            case K_PUTS: ARMCI_PutS(priv_a, ls, buf[1], rs, count, 1, 1); break;
            case K_GETS: ARMCI_GetS(buf[1], rs, priv_a, ls, count, 1, 1); break;
            default:
                ARMCI_AccS(ARMCI_ACC_DBL, &scale, priv_a, ls, buf[1], rs, count,
                           1, 1);
            }
        }
        if ((op != K_PUT_FENCE) && (op != K_GET)) {
            ARMCI_Fence(1);
        }
    }
    t0 = MPI_Wtime() - t0;
    ARMCI_Barrier();
    return t0;
}

static double k_put_latency(long s, long n)
{
    return k_run(s, n, K_PUT_FENCE);
}
static double k_get_latency(long s, long n)
{
    return k_run(s, n, K_GET);
}
static double k_put_bw(long s, long n)
{
    return k_run(s, n, K_PUT_STREAM);
}
static double k_get_bw(long s, long n)
{
    return k_run(s, n, K_GET);
}
static double k_acc_contig(long s, long n)
{
    return k_run(s, n, K_ACC_STREAM);
}
static double k_puts(long s, long n)
{
    return k_run(s, n, K_PUTS);
}
static double k_gets(long s, long n)
{
    return k_run(s, n, K_GETS);
}
static double k_accs(long s, long n)
{
    return k_run(s, n, K_ACCS);
}

/* Where the remote rows of a patch sit: the patch of a 2-D array whose
 * rows are an eighth (at least 8 bytes) wider than the patch's (dense),
 * or twice as wide (sparse: every other row-length left out). */
static int sparse;

static long patch_stride(long row)
{
    return sparse ? 2 * row : row + ((row / 8 > 8) ? row / 8 : 8);
}

/* A 1 MiB patch of rows of @row bytes: local rows packed, remote rows
 * patch_stride() apart. */
static void patch(long row, int *count, int *lstride, int *rstride)
{
    count[0]   = (int)row;
    count[1]   = (int)(MIB / row);
    lstride[0] = (int)row;
    rstride[0] = (int)patch_stride(row);
}

/* The same 1 MiB patch copied with memcpy between two private buffers:
 * what the memory system does with the pattern. */
static double k_raw_strided(long row, long iters)
{
    double t0 = MPI_Wtime();
    long i, j, n = MIB / row;

    for (i = 0; i < iters; i++) {
        for (j = 0; j < n; j++) {
            memcpy(priv_b + j * patch_stride(row), priv_a + j * row,
                   (size_t)row);
        }
        __asm__ __volatile__("" ::: "memory");
    }
    return MPI_Wtime() - t0;
}

/* ---- the load-balance counter (Fig. 10) ----------------------------------- */

static void spin_for(double seconds)
{
    double t0 = MPI_Wtime();

    while (MPI_Wtime() - t0 < seconds) {
    }
}

/* Processes 1..p-1 of the first @p do @per fetch-and-adds each on
 * process 0's counter; returns their mean microseconds per operation. */
static double counter_run(int p, long per)
{
    long *counter = (long *)buf[0], v;
    int *done     = (int *)((char *)buf[0] + 64);
    double t0, mine = 0, sum = 0;
    int one = 1, old;
    long i;

    if (me == 0) {
        *counter = 0;
        *done    = 0;
    }
    ARMCI_Barrier();
    if ((me > 0) && (me < p)) {
        t0 = MPI_Wtime();
        for (i = 0; i < per; i++) {
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &v, counter, 1, 0);
        }
        mine = (MPI_Wtime() - t0) / (double)per * 1e6;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, done, one, 0);
    } else if ((me == 0) && (compute_us > 0)) {
        /* compute until every worker is done, serving between chunks */
        while (*(volatile int *)done < p - 1) {
            spin_for((double)compute_us * 1e-6);
            ARMCIX_Progress();
        }
    }
    ARMCI_Barrier(); /* process 0 waits here when it does not compute */
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return (p > 1) ? sum / (p - 1) : 0;
}

static void fig_counter(void)
{
    double t[MAX_REPS];
    long per = quick ? 20 : 200;
    int p, r;

    for (p = 2; p <= np; p++) {
        for (r = 0; r < reps; r++) {
            t[r] = counter_run(p, per);
        }
        if (me == 0) {
            char op[64], extra[64];

            qsort(t, (size_t)reps, sizeof(double), bench_cmp_double);
            snprintf(op, sizeof(op), "fadd_%s",
                     compute_us ? "owner_computes" : "owner_waits");
            snprintf(extra, sizeof(extra), " compute_us=%ld procs=%d",
                     compute_us, p);
            emit_line(op, "counter", 8, t[reps / 2], t[0], "us", "none", 0, 1,
                      per, extra);
        }
    }
}

/* ---- driver ---------------------------------------------------------------- */

static int wanted(const char *list, const char *name)
{
    char copy[256], *tok, *save;

    if (list == NULL) {
        return 1;
    }
    snprintf(copy, sizeof(copy), "%s", list);
    for (tok = strtok_r(copy, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, name) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Parses a comma-separated list of sizes into @out (0-terminated);
 * returns 0 on success, -1 when a size is outside 1..@max or there are
 * more than MAX_SIZES. */
static int parse_sizes(const char *list, long *out, long max)
{
    char copy[512], *tok, *save, *end;
    int n = 0;

    snprintf(copy, sizeof(copy), "%s", list);
    for (tok = strtok_r(copy, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        long v = strtol(tok, &end, 10);

        if ((*end != '\0') || (v < 1) || (v > max) || (n == MAX_SIZES)) {
            return -1;
        }
        out[n++] = v;
    }
    out[n] = 0;
    return (n > 0) ? 0 : -1;
}

/* The default sequence @first, @first * @step, ... up to @last, unless
 * @given holds sizes; 0-terminated in @out. */
static void size_list(long *out, const long *given, long first, long last,
                      long step)
{
    long size;
    int n = 0;

    if (given[0] != 0) {
        memcpy(out, given, sizeof(long) * (MAX_SIZES + 1));
        return;
    }
    for (size = first; (size <= last) && (n < MAX_SIZES); size *= step) {
        out[n++] = size;
    }
    out[n] = 0;
}

static void usage(void)
{
    if (me == 0) {
        fprintf(stderr,
                "usage: armci-bench [--quick] [--lib NAME] "
                "[--route NAME] [--figures latency,bw,strided,acc,counter] "
                "[--reps N] [--budget-ms MS] [--max-size BYTES] "
                "[--compute-us US] [--lat-sizes B,B,...] "
                "[--bw-sizes B,B,...] [--row-sizes B,B,...]\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    const char *figures = NULL;
    fig_result_t r;
    long size, sizes[MAX_SIZES + 1];
    int i, bad = 0;

    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick    = 1;
            reps     = 3;
            budget   = 0.002;
            max_size = 64 * 1024;
        } else if ((strcmp(argv[i], "--lib") == 0) && (i + 1 < argc)) {
            lib = argv[++i];
        } else if ((strcmp(argv[i], "--route") == 0) && (i + 1 < argc)) {
            route = argv[++i];
        } else if ((strcmp(argv[i], "--figures") == 0) && (i + 1 < argc)) {
            figures = argv[++i];
        } else if ((strcmp(argv[i], "--reps") == 0) && (i + 1 < argc)) {
            reps = atoi(argv[++i]);
        } else if ((strcmp(argv[i], "--budget-ms") == 0) && (i + 1 < argc)) {
            budget = atof(argv[++i]) / 1000.0;
        } else if ((strcmp(argv[i], "--max-size") == 0) && (i + 1 < argc)) {
            max_size = atol(argv[++i]);
        } else if ((strcmp(argv[i], "--compute-us") == 0) && (i + 1 < argc)) {
            compute_us = atol(argv[++i]);
        } else if ((strcmp(argv[i], "--lat-sizes") == 0) && (i + 1 < argc)) {
            bad |= parse_sizes(argv[++i], lat_sizes, MIB);
        } else if ((strcmp(argv[i], "--bw-sizes") == 0) && (i + 1 < argc)) {
            bad |= parse_sizes(argv[++i], bw_sizes, MIB);
        } else if ((strcmp(argv[i], "--row-sizes") == 0) && (i + 1 < argc)) {
            bad |= parse_sizes(argv[++i], row_sizes, MIB / 2);
        } else {
            usage();
        }
    }
    for (i = 0; row_sizes[i] != 0; i++) {
        bad |= (MIB % row_sizes[i] != 0) ? -1 : 0; /* whole rows of 1 MiB */
    }
    if ((reps < 1) || (reps > MAX_REPS) || (np < 2) || (max_size < 8) ||
        (max_size > MIB) || bad) {
        if (me == 0) {
            fprintf(stderr,
                    "armci-bench: needs 2 or more processes, reps "
                    "1..%d, max-size 8..1M, sizes 1..1M, row sizes "
                    "dividing 1M up to 512K\n",
                    MAX_REPS);
        }
        usage();
    }
    priv_a = malloc(2 * MIB);
    priv_b = malloc(3 * MIB); /* a sparse patch spans 2 MiB */
    for (i = 0; i < 2 * MIB / (long)sizeof(double); i++) {
        ((double *)priv_a)[i] = 1.0; /* data for puts, operand of accs */
    }
    memset(priv_b, 0, 2 * MIB);
    buf = malloc(sizeof(void *) * (size_t)np);
    ARMCI_Malloc(buf, 3 * MIB);
    memset(buf[me], 0, 3 * MIB);
    ARMCI_Barrier();
    if (me == 0) {
        printf("# armci-bench lib=%s route=%s npes=%d reps=%d budget_ms=%g\n",
               lib, route, np, reps, budget * 1000);
    }
    if (wanted(figures, "latency")) {
        size_list(sizes, lat_sizes, 8, (max_size < 65536) ? max_size : 65536,
                  8);
        for (i = 0; (size = sizes[i]) != 0; i++) {
            r = measure(k_put_latency, size, k_memcpy, size);
            emit("put", "latency", size, r.med * 1e6, r.best * 1e6, "us",
                 "memcpy", r.base_med * 1e6, r.ratio, r.iters);
            r = measure(k_get_latency, size, k_memcpy, size);
            emit("get", "latency", size, r.med * 1e6, r.best * 1e6, "us",
                 "memcpy", r.base_med * 1e6, r.ratio, r.iters);
        }
    }
    /* bandwidths: GB/s, ratio = fraction of the baseline's */
    if (wanted(figures, "bw")) {
        size_list(sizes, bw_sizes, 1024, max_size, 4);
        for (i = 0; (size = sizes[i]) != 0; i++) {
            r = measure(k_put_bw, size, k_memcpy, size);
            emit_bw("put", size, size, &r, "memcpy", size);
            r = measure(k_get_bw, size, k_memcpy, size);
            emit_bw("get", size, size, &r, "memcpy", size);
        }
    }
    if (wanted(figures, "strided")) {
        size_list(sizes, row_sizes, 16, MIB / 2, 4);
        for (sparse = 0; sparse < 2; sparse++) {
            for (i = 0; (size = sizes[i]) != 0; i++) {
                r = measure(k_puts, size, k_put_bw, MIB);
                emit_bw(sparse ? "puts_sparse" : "puts", size, MIB, &r,
                        "contiguous_put", MIB);
                r = measure(k_raw_strided, size, k_memcpy, MIB);
                emit_bw(sparse ? "raw_strided_copy_sparse" : "raw_strided_copy",
                        size, MIB, &r, "memcpy", MIB);
            }
        }
        sparse = 0;
        for (i = 0; (size = sizes[i]) != 0; i++) {
            r = measure(k_gets, size, k_get_bw, MIB);
            emit_bw("gets", size, MIB, &r, "contiguous_get", MIB);
        }
    }
    if (wanted(figures, "acc")) {
        for (size = 64; size <= MIB / 2; size *= 8) {
            r = measure(k_accs, size, k_acc_contig, MIB);
            emit_bw("accs", size, MIB, &r, "contiguous_acc", MIB);
        }
        r = measure(k_acc_contig, MIB, k_memcpy, MIB);
        emit_bw("acc", MIB, MIB, &r, "memcpy", MIB);
    }
    if (wanted(figures, "counter")) {
        fig_counter();
    }
    ARMCI_Free(buf[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
