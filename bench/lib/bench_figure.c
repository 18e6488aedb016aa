/*
 * How an xgas-bench figure is measured and printed (bench.h): its unit,
 * the value of a run (per operation, per byte or per update), the
 * calibration of a kernel to the time budget, the series of runs
 * interleaved with the raw baseline, and the result line.  The program
 * sets bench_plan (names, budget, repetitions) before the first figure.
 * Plain OpenSHMEM: builds with oshcc too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clock_gettime under oshcc -std=c11 */
#endif

#include <stdio.h>
#include <string.h>

#include <shmem.h>

#include "bench.h"

bench_plan_t bench_plan;

/* Unit of the figure's values. */
static const char *fig_unit(const bench_fig_t *fig)
{
    switch (fig->kind) {
    case KIND_BW: return "GB/s";
    case KIND_RATE: return "GUP/s";
    default: return "ns";
    }
}

static int higher_is_better(const bench_fig_t *fig)
{
    return (fig->kind == KIND_BW) || (fig->kind == KIND_RATE);
}

/* Operations per timed iteration, as counted in the figure's value: a
 * ping-pong iteration is a round trip (two one-way latencies); a GUPS
 * iteration is two updates on every PE. */
static double ops_per_iter(const bench_fig_t *fig)
{
    switch (fig->kind) {
    case KIND_PINGPONG:
    case KIND_PINGPONG_QUIET: return 2.0;
    case KIND_RATE: return 2.0 * bench_env.npes;
    default:
        /* a lock figure is per acquisition, and every PE acquires */
        return (fig->op == OP_LOCK) ? (double)bench_env.npes : 1.0;
    }
}

/* The figure's value for a run of @iters iterations that took @ns. */
static double fig_value(const bench_fig_t *fig, uint64_t ns, long iters)
{
    double per_op =
        (double)(ns > 0 ? ns : 1) / ((double)iters * ops_per_iter(fig));

    switch (fig->kind) {
    case KIND_BW: return (double)fig->size / per_op; /* bytes per ns = GB/s */
    case KIND_RATE: return 1.0 / per_op; /* updates per ns = GUP/s */
    default: return per_op;
    }
}

/* One run of @kernel between two barriers (collective); PE 0's ns. */
static uint64_t run_once(const bench_fig_t *fig, bench_kernel_t kernel,
                         long iters)
{
    uint64_t ns;

    bench_plan.reset();
    shmem_barrier_all();
    ns = kernel(fig, 1 + iters / 16, iters);
    shmem_barrier_all();
    return ns;
}

/* Length of one timed run of @fig: GUPS runs end with a barrier, which
 * costs up to ~100 us with 8 PEs on 2 cores, so they get ten budgets. */
static double fig_budget(const bench_fig_t *fig)
{
    double budget = bench_plan.budget_ns;

    return (fig->kind == KIND_RATE) ? 10.0 * budget : budget;
}

/* A figure's kernel and iteration counts, for the callbacks of
 * bench_calibrate and bench_series_run. */
typedef struct fig_run {
    const bench_fig_t *fig;
    bench_kernel_t kernel; /* calibration: the kernel being counted */
    long iters;
    long base_iters;
} fig_run_t;

static uint64_t calibrate_once(void *ctx, long iters)
{
    const fig_run_t *fr = ctx;

    return run_once(fr->fig, fr->kernel, iters);
}

/* Iterations of @kernel that take about one time budget (collective). */
static long calibrate(const bench_fig_t *fig, bench_kernel_t kernel)
{
    fig_run_t fr = {fig, kernel, 0, 0};

    return bench_calibrate(calibrate_once, &fr, fig_budget(fig));
}

/* One measurement run (@baseline 0) or baseline run of the figure. */
static double series_run(void *ctx, int baseline)
{
    const fig_run_t *fr = ctx;
    long iters          = baseline ? fr->base_iters : fr->iters;

    return fig_value(
        fr->fig,
        run_once(fr->fig, baseline ? fr->fig->base : fr->fig->run, iters),
        iters);
}

void bench_measure(const bench_fig_t *fig, bench_result_t *res)
{
    fig_run_t fr = {fig, NULL, 0, 0};
    bench_series_t s;
    int k, reps = bench_plan.reps, higher = higher_is_better(fig);

    res->iters = fr.iters = calibrate(fig, fig->run);
    if (bench_plan.internode) {
        /* no shared mapping between nodes: the measurements alone */
        for (k = 0; k < reps; k++) {
            s.m[k] = series_run(&fr, 0);
        }
        res->ratio      = 0;
        res->base       = 0;
        res->base_iters = 0;
    } else {
        res->base_iters = fr.base_iters = calibrate(fig, fig->base);
        bench_series_run(&s, reps, higher, series_run, &fr);
        res->ratio = bench_median(s.r, reps);
        res->base  = bench_median(s.b, reps + 1);
    }
    res->value = bench_median(s.m, reps); /* sorts m: m[0] min */
    res->best  = higher ? s.m[reps - 1] : s.m[0];
}

/* Appends @key=@v with the precision of @unit. */
static void add_number(bench_line_t *l, const char *key, double v,
                       const char *unit)
{
    const char *fmt = (strcmp(unit, "ns") == 0)     ? "%.1f"
                      : (strcmp(unit, "GB/s") == 0) ? "%.6f"
                                                    : "%.8f";

    bench_line_add(l, key, fmt, v);
}

void bench_print_result(const bench_fig_t *fig, const bench_result_t *res,
                        const char *extra)
{
    const char *unit = fig_unit(fig);
    bench_line_t l;

    bench_line_start(&l, "xgas-bench");
    bench_line_add(&l, "lib", "%s", bench_plan.lib);
    bench_line_add(&l, "npes", "%d", bench_env.npes);
    bench_line_add(&l, "op", "%s", bench_plan.op_names[fig->op]);
    bench_line_add(&l, "kind", "%s", bench_plan.kind_names[fig->kind]);
    bench_line_add(&l, "size", "%zu", fig->size);
    add_number(&l, "value", res->value, unit);
    add_number(&l, "best", res->best, unit);
    bench_line_add(&l, "unit", "%s", unit);
    bench_line_add(&l, "baseline", "%s",
                   bench_plan.internode ? "none" : fig->base_name);
    add_number(&l, "baseline_value", res->base, unit);
    bench_line_add(&l, "ratio", "%.3f", res->ratio);
    bench_line_add(&l, "iters", "%ld", res->iters);
    bench_line_add(&l, "baseline_iters", "%ld", res->base_iters);
    bench_line_add(&l, "reps", "%d", bench_plan.reps);
    bench_line_raw(&l, extra);
    bench_line_print(&l);
}
