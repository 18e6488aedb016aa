/*
 * The measuring core every benchmark shares, whatever library it measures
 * (OpenSHMEM, Portals, ARMCI, raw libfabric, sPIN): the clock, medians,
 * the same-run baseline series, the key=value result line, option parsing
 * and CPU binding.
 *
 * libc and POSIX only, so it builds with any compiler wrapper (oshcc,
 * mpicc) next to the program.  The baseline discipline: a figure is
 * measured as baseline, run, baseline, run, ..., baseline, and each run is
 * divided by the better of the two baselines beside it, because
 * interference (another process, an interrupt) only ever slows a run down;
 * bench_series_run does exactly that and nothing is asserted on time.
 */
#ifndef XGAS_BENCH_CORE_H
#define XGAS_BENCH_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The most measurement runs a series holds. */
#define BENCH_REPS_MAX 63

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* qsort comparators, ascending. */
int bench_cmp_double(const void *a, const void *b);
int bench_cmp_u64(const void *a, const void *b);

/* Sorts @v and returns its median (the mean of the two middle values when
 * @n is even). */
double bench_median(double *v, int n);

/* Sorts @v and returns v[n / 2] (the upper middle value when @n is even). */
uint64_t bench_upper_median_u64(uint64_t *v, unsigned n);

/* The better of two baseline values: the larger if @higher_is_better. */
static inline double bench_better(int higher_is_better, double a, double b)
{
    if (higher_is_better) {
        return (a > b) ? a : b;
    }
    return (a < b) ? a : b;
}

/*
 * One figure's runs in the order they were taken: b[0], m[0], b[1], m[1],
 * ..., m[reps-1], b[reps]; r[k] = m[k] / better(b[k], b[k+1]).
 */
typedef struct bench_series {
    int reps;
    double m[BENCH_REPS_MAX];
    double b[BENCH_REPS_MAX + 1];
    double r[BENCH_REPS_MAX];
} bench_series_t;

/* One run of the figure (@baseline 0) or of its baseline (1); returns the
 * run's value (the same on every process that uses it). */
typedef double (*bench_run_fn)(void *ctx, int baseline);

/* Takes @reps (1..BENCH_REPS_MAX) runs of the figure interleaved with
 * @reps + 1 of its baseline into @s; the arrays are left in run order. */
void bench_series_run(bench_series_t *s, int reps, int higher_is_better,
                      bench_run_fn run, void *ctx);

/*
 * A result line: space-separated key=value pairs after an optional first
 * word (the program's name), values without spaces.  Lines longer than
 * the buffer are cut, never overflow.
 */
typedef struct bench_line {
    char buf[1024];
    size_t len;
} bench_line_t;

/* Starts @l with @word ("" for none: the line begins with the first key). */
void bench_line_start(bench_line_t *l, const char *word);

/* Appends " key=" (no space before the first pair of a word-less line)
 * and the value printed with @fmt. */
void bench_line_add(bench_line_t *l, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends @text as is (already formatted pairs, each with its space). */
void bench_line_raw(bench_line_t *l, const char *text);

/* Writes the line and a newline to stdout and flushes it. */
void bench_line_print(const bench_line_t *l);

/* "4096", "64K", "1M", "1G" (powers of 1024) in bytes; 0 if @arg is not
 * a positive size. */
size_t bench_parse_size(const char *arg);

/*
 * Sets on[i] for each of the @count @names listed in the comma-separated
 * @list and clears the others.  Returns 0, or -1 with the first unknown
 * name copied into @bad (@bad_len bytes).
 */
int bench_parse_names(const char *list, const char *const *names, int count,
                      int *on, char *bad, size_t bad_len);

/*
 * Pins the calling process to the (@index mod n)-th of the n CPUs it may
 * run on, so that the two sides of a pair figure sit on two cores (left
 * alone, the scheduler of a busy machine may keep both on one core and a
 * ping-pong then measures context switches).  Returns the CPU, or -1.
 */
int bench_bind_cpu(int index);

/* This process's page tables in KiB (VmPTE of /proc/self/status: in a
 * PVAS node the whole node's), or -1 where the kernel does not say. */
long bench_vmpte_kb(void);

#endif
