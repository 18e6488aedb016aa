/*
 * The OpenSHMEM side of the benchmark library, shared by xgas-bench and
 * xgas-coll-bench: the figure descriptor every kernel receives, the job
 * state (PE number, buffers, the raw shared mapping), the collective
 * helpers of bench_shmem.c, the figure driver of bench_figure.c and the
 * raw baseline kernels of bench_raw.c.
 *
 * Everything here is plain OpenSHMEM, libc and POSIX, so the benchmarks
 * build unchanged with Open MPI's oshcc.  A kernel runs `warm` untimed and
 * `iters` timed iterations between two barriers (the driver's), and returns
 * the nanoseconds its timed part took on PE 0 (0 on other PEs).  Control
 * words (flags, counters) sit BENCH_LINE bytes apart so that no two share a
 * cache line or an adjacent-line prefetch pair; each is reset to 0 by its
 * owner before every run.
 */
#ifndef XGAS_BENCH_H
#define XGAS_BENCH_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_core.h"

#define BENCH_LINE 128

/* The operations measured; names are the OpenSHMEM routine without the
 * shmem_ prefix (op_names in bench/xgas_bench.c). */
typedef enum bench_op {
    OP_PUTMEM,
    OP_GETMEM,
    OP_LONG_P,
    OP_LONG_G,
    OP_FETCH,
    OP_SET,
    OP_SWAP,
    OP_COMPARE_SWAP,
    OP_FETCH_INC,
    OP_INC,
    OP_FETCH_ADD,
    OP_ADD,
    OP_FETCH_AND,
    OP_FETCH_OR,
    OP_FETCH_XOR,
    OP_GUPS,
    OP_BARRIER_ALL,
    OP_PUTMEM_SIGNAL, /* OpenSHMEM 1.5: left out where the library lacks it */
    OP_LOCK,
    OP_COUNT
} bench_op_t;

/* How an operation is measured (kind_names in bench/xgas_bench.c). */
typedef enum bench_kind {
    KIND_PINGPONG,       /* PE 0 <-> PE 1, half round trip, fence+flag */
    KIND_PINGPONG_QUIET, /* the same with shmem_quiet before the flag */
    KIND_ISSUE,          /* back-to-back on PE 0 (+quiet), per operation */
    KIND_BW,             /* stream of puts/gets on PE 0, one quiet */
    KIND_RATE,           /* GUPS over all PEs */
    KIND_LATENCY,        /* barrier over all PEs */
    KIND_COUNT
} bench_kind_t;

typedef struct bench_fig bench_fig_t;

/* Runs @warm untimed then @iters timed iterations of @fig; returns the
 * timed nanoseconds on PE 0, 0 elsewhere. */
typedef uint64_t (*bench_kernel_t)(const bench_fig_t *fig, long warm,
                                   long iters);

struct bench_fig {
    bench_op_t op;
    bench_kind_t kind;
    size_t size;         /* bytes per operation (GUPS: table/PE) */
    bench_kernel_t run;  /* the OpenSHMEM kernel */
    bench_kernel_t base; /* its raw baseline */
    const char *base_name;
};

/* How the program measures its figures (bench_figure.c); set once before
 * the first bench_measure. */
typedef struct bench_plan {
    const char *lib;               /* value of lib= */
    const char *const *op_names;   /* [OP_COUNT]: op= */
    const char *const *kind_names; /* [KIND_COUNT]: kind= */
    double budget_ns;              /* length of one timed run */
    int reps;                      /* measurement runs per figure */
    int internode;                 /* no raw mapping: no baselines */
    void (*reset)(void);           /* zeroes this PE's control words */
} bench_plan_t;

extern bench_plan_t bench_plan;

/* A figure's result (meaningful on PE 0). */
typedef struct bench_result {
    double value; /* median of the measurement runs */
    double best;  /* their minimum (latency) or maximum (rates) */
    double base;  /* median of the baseline runs */
    double ratio; /* median of value / better adjacent baseline */
    long iters;
    long base_iters;
} bench_result_t;

/* The raw shared mapping (not from the library): control lines, one data
 * inbox per PE of the pair, and a GUPS table of npes * table_len words. */
typedef struct bench_raw {
    long *flag[2];        /* inbox flag of PE 0 and of PE 1 */
    long *req;            /* request word of the get ping-pong */
    long *ans;            /* answer word of the get ping-pong */
    long *ctr;            /* counter of the atomic ping-pong */
    long *bar_count;      /* centralized barrier: arrivals */
    long *bar_sense;      /* centralized barrier: release sense */
    long *lock;           /* test-and-test-and-set spin lock */
    char *data[2];        /* data inbox of PE 0 and of PE 1 */
    unsigned long *table; /* GUPS table, PE p owns [p * len, +len) */
    void *base;
    size_t len;
} bench_raw_t;

/* State of this PE, set up once by the program. */
typedef struct bench_env {
    int me;
    int npes;
    char *src;        /* private source buffer, data_len bytes */
    char *dst;        /* private destination buffer */
    size_t data_len;  /* largest transfer */
    size_t table_len; /* GUPS words per PE (power of two) */
    bench_raw_t raw;
} bench_env_t;

extern bench_env_t bench_env;
extern volatile long bench_sink; /* keeps loaded values alive */

/*
 * Called once per unsuccessful poll of a raw wait loop.  The pair kernels
 * run with one PE per core, where pure spinning is the hardware's best
 * case; the occasional yield only keeps an oversubscribed job moving.
 */
static inline void bench_poll(unsigned *polls)
{
    if ((++*polls & 0xffffu) == 0) {
        sched_yield();
    }
}

/* First GUPS value of PE @pe's table word @j (before and after each run). */
static inline unsigned long bench_gups_init(int pe, size_t j)
{
    return ((unsigned long)pe << 40) ^ (unsigned long)j;
}

/* xorshift64*: the GUPS update stream, seeded per PE. */
static inline uint64_t bench_rand_next(uint64_t *state)
{
    uint64_t x = *state;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

static inline uint64_t bench_rand_seed(int pe)
{
    return 0x9e3779b97f4a7c15ull * (uint64_t)(pe + 1);
}

/*
 * Body of the kernels that run on PE 0 alone (issue, bandwidth): runs BODY
 * @warm times untimed, then @iters times timed followed by END once, and
 * returns the timed nanoseconds (0 on other PEs).  The loop variable is
 * `i`.  A macro rather than a function taking a callback, so each loop is
 * as tight as hand-written code.
 */
#define BENCH_PE0_LOOP(warm, iters, BODY, END) \
    do {                                       \
        uint64_t t0_;                          \
        long i;                                \
        if (bench_env.me != 0) {               \
            return 0;                          \
        }                                      \
        for (i = 0; i < (warm); i++) {         \
            BODY;                              \
        }                                      \
        END;                                   \
        t0_ = bench_now_ns();                  \
        for (i = 0; i < (iters); i++) {        \
            BODY;                              \
        }                                      \
        END;                                   \
        return bench_now_ns() - t0_;           \
    } while (0)

/* The program's name in bench_die's messages; set by main. */
extern const char *bench_prog;

/* Ends the job with a message naming the program and this PE. */
void bench_die(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/* Option @name's size @arg ("4096", "64K", "1M"); dies on anything else. */
size_t bench_size_option(const char *arg, const char *name);

/* Value of PE 0's @value on every PE (collective). */
long bench_bcast(long value);

/* The most iterations of one timed run. */
#define BENCH_ITERS_MAX (1L << 28)

/* One timed run of @iters iterations (collective); PE 0's nanoseconds. */
typedef uint64_t (*bench_once_fn)(void *ctx, long iters);

/* Iterations of @once that take about @budget ns (collective; the same
 * count on every PE). */
long bench_calibrate(bench_once_fn once, void *ctx, double budget);

/* Measures @fig interleaved with its baseline (collective). */
void bench_measure(const bench_fig_t *fig, bench_result_t *res);

/* Prints @fig's result line (PE 0); @extra is appended as is. */
void bench_print_result(const bench_fig_t *fig, const bench_result_t *res,
                        const char *extra);

/* Creates the raw mapping (memfd of PE 0 opened by the others through
 * /proc/<pid>/fd/<fd>; nothing is left behind) and fills the GUPS table;
 * collective.  bench_raw_close unmaps it. */
void bench_raw_open(bench_raw_t *raw, size_t data_len, size_t table_len);
void bench_raw_close(bench_raw_t *raw);

/* Zeroes the raw control words this PE owns (before each run). */
void bench_raw_reset(void);

/* Raw baseline kernels (bench_kernel_t). */
uint64_t raw_store_pingpong(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_copy_flag_pingpong(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_bounce_pingpong(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_load_after_write(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_fetch_add_pingpong(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_store_fence(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_copy_fence(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_load(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_fetch_add(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_memcpy_to_shared(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_memcpy_from_shared(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_atomic_xor(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_counter_barrier(const bench_fig_t *fig, long warm, long iters);
uint64_t raw_spin_lock(const bench_fig_t *fig, long warm, long iters);

#endif
