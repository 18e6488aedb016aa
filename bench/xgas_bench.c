/*
 * xgas-bench: latency, bandwidth, GUPS and barrier of an OpenSHMEM library,
 * each measured next to a raw shared-memory baseline taken in the same run.
 *
 * The kernels are plain OpenSHMEM 1.4 code (shmem.h, libc, POSIX), so the
 * same source builds with xgas and with Open MPI's oshcc.  Pair figures run
 * between PE 0 and PE 1 while other PEs wait in shmem_barrier_all; GUPS and
 * the barrier use every PE.  A figure is measured as
 *
 *     baseline, measurement, baseline, measurement, ..., baseline
 *
 * (each run a time budget long, iteration counts calibrated first), because
 * the core-to-core latency of a VM drifts within seconds: each measurement
 * is divided by the better of the two baselines beside it (interference
 * only slows a run down), and the figure reports the medians.  Output is
 * one line of key=value pairs per figure (bench/README.md); nothing is
 * asserted on time.  The exit status is 1 if GUPS found a wrong table word
 * (an atomic that stores a wrong value is reported as error=wrong_result).
 * This file is the measurement plan -- kernels, figures, options; the
 * series, calibration, statistics, result line and raw baselines are
 * bench/lib's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

#include "bench.h"

/* Symmetric control words, each on lines of its own. */
typedef struct bench_ctl {
    long flag __attribute__((aligned(BENCH_LINE)));    /* ping-pong inbox */
    long req __attribute__((aligned(BENCH_LINE)));     /* get: request */
    long ans __attribute__((aligned(BENCH_LINE)));     /* get: answer */
    long ctr __attribute__((aligned(BENCH_LINE)));     /* atomic counter */
    long sink __attribute__((aligned(BENCH_LINE)));    /* issue target */
    long errs __attribute__((aligned(BENCH_LINE)));    /* GUPS errors sum */
    uint64_t sig __attribute__((aligned(BENCH_LINE))); /* signal inbox */
    long lock __attribute__((aligned(BENCH_LINE)));    /* shmem_set_lock */
} bench_ctl_t;

static bench_ctl_t *ctl;
static char *sym_data;            /* symmetric data, data_len bytes */
static unsigned long *sym_table;  /* symmetric GUPS table */
static unsigned long gups_errors; /* wrong words of sym_table seen */

static const char *const op_names[OP_COUNT] = {
    [OP_PUTMEM]        = "putmem",
    [OP_GETMEM]        = "getmem",
    [OP_LONG_P]        = "long_p",
    [OP_LONG_G]        = "long_g",
    [OP_FETCH]         = "long_atomic_fetch",
    [OP_SET]           = "long_atomic_set",
    [OP_SWAP]          = "long_atomic_swap",
    [OP_COMPARE_SWAP]  = "long_atomic_compare_swap",
    [OP_FETCH_INC]     = "long_atomic_fetch_inc",
    [OP_INC]           = "long_atomic_inc",
    [OP_FETCH_ADD]     = "long_atomic_fetch_add",
    [OP_ADD]           = "long_atomic_add",
    [OP_FETCH_AND]     = "ulong_atomic_fetch_and",
    [OP_FETCH_OR]      = "ulong_atomic_fetch_or",
    [OP_FETCH_XOR]     = "ulong_atomic_fetch_xor",
    [OP_GUPS]          = "gups",
    [OP_BARRIER_ALL]   = "barrier_all",
    [OP_PUTMEM_SIGNAL] = "putmem_signal",
    [OP_LOCK]          = "lock",
};

static const char *const kind_names[KIND_COUNT] = {
    [KIND_PINGPONG] = "pingpong", [KIND_PINGPONG_QUIET] = "pingpong_quiet",
    [KIND_ISSUE] = "issue",       [KIND_BW] = "bw",
    [KIND_RATE] = "rate",         [KIND_LATENCY] = "latency",
};

/* Options (bench_usage). */
static struct {
    int quick;
    int list;
    int no_bind;
    int internode; /* PE 0 and PE 1 on two nodes: no raw mapping */
    int bounce;    /* putmem ping-pong against raw_bounce_pingpong */
    size_t min_size;
    size_t max_size;
    size_t max_bw_size;
    size_t step;
    double budget_ns;
    int reps;
    size_t gups_words;
    char lib[SHMEM_MAX_NAME_LEN];
    int op_on[OP_COUNT];
    int kind_on[KIND_COUNT];
} opt;

/* ---- OpenSHMEM kernels ------------------------------------------------ */

/*
 * Ping-pong of PE 0 and PE 1 through the symmetric flag: each turn puts
 * the data (putmem figures; none for long_p), orders it before the flag
 * with shmem_fence (pingpong) or completes it with shmem_quiet
 * (pingpong_quiet), puts the turn number into the peer's flag with
 * shmem_long_p, and waits for the peer's answer with shmem_long_wait_until.
 * The putmem_signal figure does the same in one shmem_putmem_signal that
 * sets the peer's signal, and waits with shmem_signal_wait_until.
 */
static void pingpong_wait(const bench_fig_t *fig, long seq)
{
#ifdef SHMEM_SIGNAL_SET
    if (fig->op == OP_PUTMEM_SIGNAL) {
        shmem_signal_wait_until(&ctl->sig, SHMEM_CMP_EQ, (uint64_t)seq);
        return;
    }
#endif
    (void)fig;
    shmem_long_wait_until(&ctl->flag, SHMEM_CMP_EQ, seq);
}

static void pingpong_send(const bench_fig_t *fig, long seq, int peer)
{
#ifdef SHMEM_SIGNAL_SET
    if (fig->op == OP_PUTMEM_SIGNAL) {
        shmem_putmem_signal(sym_data, bench_env.src, fig->size, &ctl->sig,
                            (uint64_t)seq, SHMEM_SIGNAL_SET, peer);
        return;
    }
#endif
    if (fig->op == OP_PUTMEM) {
        shmem_putmem(sym_data, bench_env.src, fig->size, peer);
        if (fig->kind == KIND_PINGPONG_QUIET) {
            shmem_quiet();
        } else {
            shmem_fence();
        }
    }
    shmem_long_p(&ctl->flag, seq, peer);
}

static uint64_t sh_put_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    int me = bench_env.me, peer = 1 - me;
    uint64_t t0 = 0;
    long seq;

    if (me > 1) {
        return 0;
    }
    for (seq = 1; seq <= warm + iters; seq++) {
        if (seq == warm + 1) {
            t0 = bench_now_ns();
        }
        if (me == 1) {
            pingpong_wait(fig, seq);
        }
        pingpong_send(fig, seq, peer);
        if (me == 0) {
            pingpong_wait(fig, seq);
        }
    }
    return (me == 0) ? bench_now_ns() - t0 : 0;
}

/*
 * Remote read of a freshly written word (g, atomic fetch, getmem): PE 0
 * asks with shmem_long_p into PE 1's request word; PE 1 waits for it,
 * writes its data (getmem figures) and then its own answer word with a
 * plain store; PE 0 polls the answer with shmem_long_g (shmem_long_atomic_
 * fetch for that figure) and then reads the data with shmem_getmem.
 */
static uint64_t sh_get_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    size_t size = (fig->op == OP_GETMEM) ? fig->size : 0;
    int fetch   = (fig->op == OP_FETCH);
    uint64_t t0 = 0;
    unsigned polls;
    long seq;

    if (bench_env.me == 1) {
        for (seq = 1; seq <= warm + iters; seq++) {
            shmem_long_wait_until(&ctl->req, SHMEM_CMP_EQ, seq);
            if (size > 0) {
                memcpy(sym_data, bench_env.src, size);
            }
            __atomic_store_n(&ctl->ans, seq, __ATOMIC_RELEASE);
        }
    } else if (bench_env.me == 0) {
        for (seq = 1; seq <= warm + iters; seq++) {
            if (seq == warm + 1) {
                t0 = bench_now_ns();
            }
            shmem_long_p(&ctl->req, seq, 1);
            polls = 0;
            if (fetch) {
                while (shmem_long_atomic_fetch(&ctl->ans, 1) != seq) {
                    bench_poll(&polls);
                }
            } else {
                while (shmem_long_g(&ctl->ans, 1) != seq) {
                    bench_poll(&polls);
                }
            }
            if (size > 0) {
                shmem_getmem(bench_env.dst, sym_data, size, 1);
            }
        }
        return bench_now_ns() - t0;
    }
    return 0;
}

/*
 * Counter value at which it is @pe's turn number @i in the atomic
 * ping-pong.  Counting operations advance it by one per turn (PE 0 on even
 * values, PE 1 on odd ones); and/or cannot count, so for them the counter
 * toggles between 0 and 1: the PE that sees 0 sets it with fetch_or, the
 * one that sees 1 clears it with fetch_and, PE 0 doing the figure's
 * operation.
 */
static long amo_turn_value(bench_op_t op, int pe, long i)
{
    switch (op) {
    case OP_FETCH_OR: return pe;
    case OP_FETCH_AND: return 1 - pe;
    default: return 2 * i + pe;
    }
}

/* The counter's value after a turn that found @v. */
static long amo_turn_next(bench_op_t op, long v)
{
    return ((op == OP_FETCH_AND) || (op == OP_FETCH_OR)) ? 1 - v : v + 1;
}

/* Applies @op to the counter of PE @pe, whose value is @v, so that it
 * becomes the next turn's value. */
static void amo_step(bench_op_t op, long v, int pe)
{
    long *ctr           = &ctl->ctr;
    unsigned long *uctr = (unsigned long *)ctr;

    switch (op) {
    case OP_SET: shmem_long_atomic_set(ctr, v + 1, pe); break;
    case OP_SWAP: bench_sink = shmem_long_atomic_swap(ctr, v + 1, pe); break;
    case OP_COMPARE_SWAP:
        bench_sink = shmem_long_atomic_compare_swap(ctr, v, v + 1, pe);
        break;
    case OP_FETCH_INC: bench_sink = shmem_long_atomic_fetch_inc(ctr, pe); break;
    case OP_INC: shmem_long_atomic_inc(ctr, pe); break;
    case OP_FETCH_ADD:
        bench_sink = shmem_long_atomic_fetch_add(ctr, 1, pe);
        break;
    case OP_ADD: shmem_long_atomic_add(ctr, 1, pe); break;
    case OP_FETCH_XOR:
        bench_sink = (long)shmem_ulong_atomic_fetch_xor(
            uctr, (unsigned long)(v ^ (v + 1)), pe);
        break;
    case OP_FETCH_AND:
    case OP_FETCH_OR:
        if (v == 0) {
            bench_sink = (long)shmem_ulong_atomic_fetch_or(uctr, 1, pe);
        } else {
            bench_sink = (long)shmem_ulong_atomic_fetch_and(uctr, ~1ul, pe);
        }
        break;
    default: bench_die("%s is not an atomic ping-pong", op_names[op]);
    }
}

/*
 * Whether a turn of the atomic ping-pong of @op really updates the counter,
 * done once by PE 0 (remote) and once by PE 1 (on itself); collective.  A
 * library whose atomic returns the right old value but stores a wrong new
 * one would otherwise leave the ping-pong waiting forever.  On failure
 * *@want_p and *@got_p hold the expected and the stored value (PE 0).
 */
static int amo_works(bench_op_t op, long *want_p, long *got_p)
{
    long v, got = 0;
    int pe, ok  = 1;

    for (pe = 0; pe < 2; pe++) {
        v = amo_turn_value(op, pe, 0);
        if (bench_env.me == 1) {
            ctl->ctr = v;
        }
        shmem_barrier_all();
        if (bench_env.me == pe) {
            amo_step(op, v, 1);
            shmem_quiet();
        }
        shmem_barrier_all();
        if (bench_env.me == 0) {
            got = shmem_long_g(&ctl->ctr, 1);
            if (ok && (got != amo_turn_next(op, v))) {
                ok      = 0;
                *want_p = amo_turn_next(op, v);
                *got_p  = got;
            }
        }
    }
    return (int)bench_bcast(ok);
}

/*
 * PE 0 and PE 1 take turns applying the figure's atomic to one counter on
 * PE 1, each waiting for the other's update (PE 0 polls it with
 * shmem_long_atomic_fetch, PE 1 with shmem_long_wait_until on its own
 * counter): every operation hits a line dirty in the other core.
 */
static uint64_t sh_amo_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    int me      = bench_env.me;
    uint64_t t0 = 0;
    unsigned polls;
    long i, v;

    if (me > 1) {
        return 0;
    }
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        v = amo_turn_value(fig->op, me, i);
        if (me == 0) {
            polls = 0;
            while (shmem_long_atomic_fetch(&ctl->ctr, 1) != v) {
                bench_poll(&polls);
            }
        } else {
            shmem_long_wait_until(&ctl->ctr, SHMEM_CMP_EQ, v);
        }
        amo_step(fig->op, v, 1);
    }
    return (me == 0) ? bench_now_ns() - t0 : 0;
}

/*
 * Back-to-back operations from PE 0 to PE 1 (PE 1 idle): puts and
 * non-fetching atomics are each followed by shmem_quiet; gets and fetching
 * atomics are complete when they return.
 */
static uint64_t sh_issue(const bench_fig_t *fig, long warm, long iters)
{
    long *ctr = &ctl->ctr, *word = &ctl->sink, prev = 0;
    unsigned long *uctr = (unsigned long *)ctr;
    size_t size         = fig->size;

    switch (fig->op) {
    case OP_PUTMEM:
        BENCH_PE0_LOOP(
            warm, iters,
            {
                shmem_putmem(sym_data, bench_env.src, size, 1);
                shmem_quiet();
            },
            (void)0);
    case OP_GETMEM:
        BENCH_PE0_LOOP(
            warm, iters, { shmem_getmem(bench_env.dst, sym_data, size, 1); },
            (void)0);
    case OP_LONG_P:
        BENCH_PE0_LOOP(
            warm, iters,
            {
                shmem_long_p(word, i, 1);
                shmem_quiet();
            },
            (void)0);
    case OP_LONG_G:
        BENCH_PE0_LOOP(
            warm, iters, { bench_sink = shmem_long_g(word, 1); }, (void)0);
    case OP_FETCH:
        BENCH_PE0_LOOP(
            warm, iters, { bench_sink = shmem_long_atomic_fetch(ctr, 1); },
            (void)0);
    case OP_SET:
        BENCH_PE0_LOOP(
            warm, iters,
            {
                shmem_long_atomic_set(ctr, i, 1);
                shmem_quiet();
            },
            (void)0);
    case OP_SWAP:
        BENCH_PE0_LOOP(
            warm, iters, { bench_sink = shmem_long_atomic_swap(ctr, i, 1); },
            (void)0);
    case OP_COMPARE_SWAP:
        /* succeeds every time: the counter always holds prev */
        BENCH_PE0_LOOP(
            warm, iters,
            {
                bench_sink =
                    shmem_long_atomic_compare_swap(ctr, prev, prev + 1, 1);
                prev++;
            },
            (void)0);
    case OP_FETCH_INC:
        BENCH_PE0_LOOP(
            warm, iters, { bench_sink = shmem_long_atomic_fetch_inc(ctr, 1); },
            (void)0);
    case OP_INC:
        BENCH_PE0_LOOP(
            warm, iters,
            {
                shmem_long_atomic_inc(ctr, 1);
                shmem_quiet();
            },
            (void)0);
    case OP_FETCH_ADD:
        BENCH_PE0_LOOP(
            warm, iters,
            { bench_sink = shmem_long_atomic_fetch_add(ctr, 1, 1); }, (void)0);
    case OP_ADD:
        BENCH_PE0_LOOP(
            warm, iters,
            {
                shmem_long_atomic_add(ctr, 1, 1);
                shmem_quiet();
            },
            (void)0);
    case OP_FETCH_AND:
        BENCH_PE0_LOOP(
            warm, iters,
            { bench_sink = (long)shmem_ulong_atomic_fetch_and(uctr, ~1ul, 1); },
            (void)0);
    case OP_FETCH_OR:
        BENCH_PE0_LOOP(
            warm, iters,
            { bench_sink = (long)shmem_ulong_atomic_fetch_or(uctr, 1, 1); },
            (void)0);
    case OP_FETCH_XOR:
        BENCH_PE0_LOOP(
            warm, iters,
            { bench_sink = (long)shmem_ulong_atomic_fetch_xor(uctr, 1, 1); },
            (void)0);
    default: bench_die("%s has no issue kernel", op_names[fig->op]);
    }
}

/* A stream of shmem_putmem from PE 0 into PE 1, completed by one quiet. */
static uint64_t sh_put_bw(const bench_fig_t *fig, long warm, long iters)
{
    size_t size = fig->size;

    BENCH_PE0_LOOP(
        warm, iters, { shmem_putmem(sym_data, bench_env.src, size, 1); },
        shmem_quiet());
}

/*
 * The message rate of 8-byte operations from PE 0 to PE 1 (kind bw,
 * size 8; the rate is the figure over 8 bytes): a stream of shmem_long_p,
 * of shmem_long_get_nbi or of non-fetching shmem_long_atomic_add completed
 * by one quiet, or of blocking shmem_long_atomic_fetch_add (OpenSHMEM 1.4
 * has no non-blocking fetching atomic, so both libraries wait for each).
 */
static uint64_t sh_word_rate(const bench_fig_t *fig, long warm, long iters)
{
    long *ctr = &ctl->ctr, *word = &ctl->sink, *dst = (long *)bench_env.dst;

    switch (fig->op) {
    case OP_LONG_P:
        BENCH_PE0_LOOP(
            warm, iters, { shmem_long_p(word, i, 1); }, shmem_quiet());
    case OP_LONG_G:
        BENCH_PE0_LOOP(
            warm, iters, { shmem_long_get_nbi(dst, word, 1, 1); },
            shmem_quiet());
    case OP_ADD:
        BENCH_PE0_LOOP(
            warm, iters, { shmem_long_atomic_add(ctr, 1, 1); }, shmem_quiet());
    case OP_FETCH_ADD:
        BENCH_PE0_LOOP(
            warm, iters,
            { bench_sink = shmem_long_atomic_fetch_add(ctr, 1, 1); }, (void)0);
    default: bench_die("%s has no rate kernel", op_names[fig->op]);
    }
}

/* A stream of shmem_getmem by PE 0 from PE 1. */
static uint64_t sh_get_bw(const bench_fig_t *fig, long warm, long iters)
{
    size_t size = fig->size;

    BENCH_PE0_LOOP(
        warm, iters, { shmem_getmem(bench_env.dst, sym_data, size, 1); },
        (void)0);
}

/*
 * GUPS: every PE applies @iters shmem_ulong_atomic_xor updates of random
 * words of the distributed table (random PE, random index, random value),
 * twice over the same stream, so that every word must be back to its first
 * value, which each PE then checks on its own slice.  Returns PE 0's
 * nanoseconds from the start to the barrier after the last update.
 */
static uint64_t sh_gups(const bench_fig_t *fig, long warm, long iters)
{
    size_t len = bench_env.table_len, j;
    int me = bench_env.me, npes = bench_env.npes, pass;
    uint64_t t0 = bench_now_ns(), t, r, state;
    long u;

    (void)fig;
    (void)warm;
    for (pass = 0; pass < 2; pass++) {
        state = bench_rand_seed(me);
        for (u = 0; u < iters; u++) {
            r = bench_rand_next(&state);
            shmem_ulong_atomic_xor(&sym_table[r & (len - 1)], (unsigned long)r,
                                   (int)((r >> 40) % (uint64_t)npes));
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    t = bench_now_ns() - t0;
    for (j = 0; j < len; j++) {
        if (sym_table[j] != bench_gups_init(me, j)) {
            gups_errors++;
        }
    }
    return (me == 0) ? t : 0;
}

/* shmem_barrier_all over every PE. */
static uint64_t sh_barrier(const bench_fig_t *fig, long warm, long iters)
{
    uint64_t t0 = 0;
    long i;

    (void)fig;
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        shmem_barrier_all();
    }
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}

/* Every PE takes and releases one lock @iters times (nothing inside the
 * critical section but a counter); the figure is the time per
 * acquisition, i.e. per handoff when PEs contend. */
static uint64_t sh_lock(const bench_fig_t *fig, long warm, long iters)
{
    uint64_t t0 = 0;
    long i;

    (void)fig;
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        shmem_set_lock(&ctl->lock);
        bench_sink = bench_sink + 1;
        shmem_clear_lock(&ctl->lock);
    }
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}

/* ---- figures ---------------------------------------------------------- */

typedef enum {
    SIZES_LAT,  /* min_size .. max_size */
    SIZES_BW,   /* min_size .. max_bw_size */
    SIZE_WORD,  /* 8 */
    SIZE_TABLE, /* GUPS table bytes per PE */
    SIZE_NONE
} bench_sizes_t;

typedef struct bench_spec {
    bench_op_t op;
    bench_kind_t kind;
    bench_sizes_t sizes;
    bench_kernel_t run;
    bench_kernel_t base;
    const char *base_name;
} bench_spec_t;

#define SPEC(op, kind, sizes, run, base)  \
    {                                     \
        op, kind, sizes, run, base, #base \
    }
#define SPEC_AMO(op)                                    \
    SPEC(op, KIND_PINGPONG, SIZE_WORD, sh_amo_pingpong, \
         raw_fetch_add_pingpong),                       \
        SPEC(op, KIND_ISSUE, SIZE_WORD, sh_issue, raw_fetch_add)

/* Every figure, in output order; pair figures are those with PE-0-and-1
 * kinds (pingpong, pingpong_quiet, issue, bw). */
static const bench_spec_t specs[] = {
    SPEC(OP_PUTMEM, KIND_PINGPONG, SIZES_LAT, sh_put_pingpong,
         raw_copy_flag_pingpong),
    SPEC(OP_PUTMEM, KIND_PINGPONG_QUIET, SIZES_LAT, sh_put_pingpong,
         raw_copy_flag_pingpong),
    SPEC(OP_PUTMEM, KIND_ISSUE, SIZES_LAT, sh_issue, raw_copy_fence),
    SPEC(OP_PUTMEM, KIND_BW, SIZES_BW, sh_put_bw, raw_memcpy_to_shared),
    SPEC(OP_GETMEM, KIND_PINGPONG, SIZES_LAT, sh_get_pingpong,
         raw_load_after_write),
    SPEC(OP_GETMEM, KIND_ISSUE, SIZES_LAT, sh_issue, raw_memcpy_from_shared),
    SPEC(OP_GETMEM, KIND_BW, SIZES_BW, sh_get_bw, raw_memcpy_from_shared),
    SPEC(OP_LONG_P, KIND_PINGPONG, SIZE_WORD, sh_put_pingpong,
         raw_store_pingpong),
    SPEC(OP_LONG_P, KIND_ISSUE, SIZE_WORD, sh_issue, raw_store_fence),
    SPEC(OP_LONG_P, KIND_BW, SIZE_WORD, sh_word_rate, raw_memcpy_to_shared),
    SPEC(OP_LONG_G, KIND_PINGPONG, SIZE_WORD, sh_get_pingpong,
         raw_load_after_write),
    SPEC(OP_LONG_G, KIND_ISSUE, SIZE_WORD, sh_issue, raw_load),
    SPEC(OP_LONG_G, KIND_BW, SIZE_WORD, sh_word_rate, raw_memcpy_from_shared),
    SPEC(OP_FETCH, KIND_PINGPONG, SIZE_WORD, sh_get_pingpong,
         raw_load_after_write),
    SPEC(OP_FETCH, KIND_ISSUE, SIZE_WORD, sh_issue, raw_load),
    SPEC_AMO(OP_SET),
    SPEC_AMO(OP_SWAP),
    SPEC_AMO(OP_COMPARE_SWAP),
    SPEC_AMO(OP_FETCH_INC),
    SPEC_AMO(OP_INC),
    SPEC_AMO(OP_FETCH_ADD),
    SPEC(OP_FETCH_ADD, KIND_BW, SIZE_WORD, sh_word_rate, raw_fetch_add),
    SPEC_AMO(OP_ADD),
    SPEC(OP_ADD, KIND_BW, SIZE_WORD, sh_word_rate, raw_fetch_add),
    SPEC_AMO(OP_FETCH_AND),
    SPEC_AMO(OP_FETCH_OR),
    SPEC_AMO(OP_FETCH_XOR),
    SPEC(OP_GUPS, KIND_RATE, SIZE_TABLE, sh_gups, raw_atomic_xor),
    SPEC(OP_BARRIER_ALL, KIND_LATENCY, SIZE_NONE, sh_barrier,
         raw_counter_barrier),
#ifdef SHMEM_SIGNAL_SET
    SPEC(OP_PUTMEM_SIGNAL, KIND_PINGPONG, SIZES_LAT, sh_put_pingpong,
         raw_copy_flag_pingpong),
#endif
    SPEC(OP_LOCK, KIND_LATENCY, SIZE_NONE, sh_lock, raw_spin_lock),
};

static int is_amo(bench_op_t op)
{
    return (op >= OP_SET) && (op <= OP_FETCH_XOR);
}

static int is_pair_kind(bench_kind_t kind)
{
    return (kind != KIND_RATE) && (kind != KIND_LATENCY);
}

/* Zeroes the control words this PE owns. */
static void reset_controls(void)
{
    ctl->flag = 0;
    ctl->req  = 0;
    ctl->ans  = 0;
    ctl->ctr  = 0;
    ctl->sink = 0;
    ctl->sig  = 0;
    if (!opt.internode) {
        bench_raw_reset();
    }
}

/* GUPS errors of every PE, summed on PE 0 (collective). */
static long gups_error_sum(void)
{
    ctl->errs = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(&ctl->errs, (long)gups_errors, 0);
    shmem_barrier_all();
    return ctl->errs;
}

/* Sizes of a figure: @min, then the powers of two aligned on 1 MiB by
 * the step (so 1 MiB is always one of them), then @max. */
static int size_list(bench_sizes_t sizes, size_t *out, int cap)
{
    size_t max = (sizes == SIZES_BW) ? opt.max_bw_size : opt.max_size;
    size_t s;
    int n = 0, k, step_log = 0;

    switch (sizes) {
    case SIZE_WORD: out[0] = sizeof(long); return 1;
    case SIZE_TABLE: out[0] = bench_env.table_len * sizeof(long); return 1;
    case SIZE_NONE: out[0] = 0; return 1;
    default: break;
    }
    while (((size_t)1 << step_log) < opt.step) {
        step_log++;
    }
    out[n++] = opt.min_size;
    for (k = 0; (k < 63) && (n < cap - 1); k++) {
        s = (size_t)1 << k;
        if ((s > opt.min_size) && (s < max) && ((20 - k) % step_log == 0)) {
            out[n++] = s;
        }
    }
    if (max > opt.min_size) {
        out[n++] = max;
    }
    return n;
}

/* Runs (or, with --list, names) every selected figure; returns the exit
 * status: 1 if GUPS verification failed. */
static int run_figures(void)
{
    size_t sizes[72];
    bench_result_t res;
    bench_fig_t fig;
    char extra[96];
    int status = 0, s, k, n;
    long errs, want = 0, got = 0;

    for (s = 0; s < (int)(sizeof(specs) / sizeof(specs[0])); s++) {
        const bench_spec_t *spec = &specs[s];

        if (!opt.op_on[spec->op] || !opt.kind_on[spec->kind]) {
            continue;
        }
        if (is_pair_kind(spec->kind) && (bench_env.npes < 2)) {
            if (bench_env.me == 0) {
                printf("# skipped op=%s kind=%s: needs 2 PEs\n",
                       op_names[spec->op], kind_names[spec->kind]);
            }
            continue;
        }
        n = size_list(spec->sizes, sizes, 72);
        for (k = 0; k < n; k++) {
            fig.op        = spec->op;
            fig.kind      = spec->kind;
            fig.size      = sizes[k];
            fig.run       = spec->run;
            fig.base      = spec->base;
            fig.base_name = spec->base_name;
            if (opt.bounce && (fig.op == OP_PUTMEM) &&
                (fig.kind == KIND_PINGPONG)) {
                fig.base      = raw_bounce_pingpong;
                fig.base_name = "raw_bounce_pingpong";
            }
            if (opt.list) {
                if (bench_env.me == 0) {
                    printf("op=%s kind=%s size=%zu baseline=%s\n",
                           op_names[fig.op], kind_names[fig.kind], fig.size,
                           fig.base_name);
                }
                continue;
            }
            if (is_amo(fig.op) && !amo_works(fig.op, &want, &got)) {
                if (bench_env.me == 0) {
                    printf("xgas-bench lib=%s npes=%d op=%s kind=%s size=%zu "
                           "error=wrong_result expected=%ld got=%ld\n",
                           opt.lib, bench_env.npes, op_names[fig.op],
                           kind_names[fig.kind], fig.size, want, got);
                    fflush(stdout);
                }
                continue;
            }
            bench_measure(&fig, &res);
            extra[0] = '\0';
            if (fig.op == OP_GUPS) {
                errs = gups_error_sum();
                snprintf(extra, sizeof(extra), " verify=%s errors=%ld",
                         (errs == 0) ? "ok" : "FAILED", errs);
                status |= (errs != 0);
            }
            if (bench_env.me == 0) {
                bench_print_result(&fig, &res, extra);
            }
        }
    }
    return status;
}

/* ---- options and setup ------------------------------------------------ */

static void bench_usage(FILE *out)
{
    fprintf(
        out,
        "usage: xgas-bench [options]   (run under xgasrun or oshrun)\n"
        "\n"
        "Latency, bandwidth, GUPS and barrier of the OpenSHMEM library it is\n"
        "linked with, each next to a raw shared-memory baseline measured in\n"
        "the same run.  One key=value line per figure (bench/README.md).\n"
        "\n"
        "  --quick            a small subset in a few seconds (smoke test)\n"
        "  --op LIST          comma-separated operations (default: all):\n"
        "                     putmem getmem long_p long_g long_atomic_fetch\n"
        "                     long_atomic_{set,swap,compare_swap,fetch_inc,\n"
        "                     inc,fetch_add,add} ulong_atomic_fetch_{and,or,\n"
        "                     xor} gups barrier_all\n"
        "  --kind LIST        comma-separated kinds (default: all): pingpong\n"
        "                     pingpong_quiet issue bw rate latency\n"
        "  --min-size BYTES   smallest transfer (default 8)\n"
        "  --max-size BYTES   largest latency transfer (default 1M)\n"
        "  --max-bw-size BYTES\n"
        "                     largest bandwidth transfer (default 4M)\n"
        "  --step N           size step, a power of two (default 2;\n"
        "                     quick 64)\n"
        "  --budget-ms MS     length of each timed run (default 10; quick 1)\n"
        "  --reps N           measurement runs per figure, 1..%d (default 7;\n"
        "                     quick 3)\n"
        "  --gups-words N     GUPS table words per PE, a power of two\n"
        "                     (default 262144; quick 16384)\n"
        "  --no-bind          do not pin PE i to the (i mod n)-th CPU it may\n"
        "                     use\n"
        "  --lib NAME         value of lib= (default: from\n"
        "                     shmem_info_get_name)\n"
        "  --internode        PE 0 and PE 1 run on two nodes: no raw\n"
        "                     shared-memory baseline (baseline=none; the\n"
        "                     network's raw figures come from xgas-ofi-raw,\n"
        "                     bench/internode.sh)\n"
        "  --bounce           putmem pingpong against raw_bounce_pingpong\n"
        "                     (two copies through a shared bounce buffer,\n"
        "                     as a shared-memory transport moves data)\n"
        "                     instead of raw_copy_flag_pingpong\n"
        "  --list             print the figures instead of measuring them\n"
        "  --help             this text\n"
        "\n"
        "Pair figures (pingpong, issue, bw) run between PE 0 and PE 1; run\n"
        "them with exactly 2 PEs.  GUPS and barrier_all use every PE.\n",
        BENCH_REPS_MAX);
}

/* Sets the entries of @on named in the comma-separated @list. */
static void parse_names(const char *list, const char *const *names, int count,
                        int *on, const char *option)
{
    char bad[128];

    if (bench_parse_names(list, names, count, on, bad, sizeof(bad)) != 0) {
        bench_die("%s: unknown name '%s' (see --help)", option, bad);
    }
}

/* lib= from the library's name: xgas, oshmem (Open MPI) or the name. */
static void default_lib_name(void)
{
    char name[SHMEM_MAX_NAME_LEN];
    char *c;

    shmem_info_get_name(name);
    if (strstr(name, "xgas") != NULL) {
        snprintf(opt.lib, sizeof(opt.lib), "xgas");
    } else if (strstr(name, "open-mpi") != NULL) {
        snprintf(opt.lib, sizeof(opt.lib), "oshmem");
    } else {
        snprintf(opt.lib, sizeof(opt.lib), "%s", name);
        for (c = opt.lib; *c != '\0'; c++) {
            if (!isalnum((unsigned char)*c)) {
                *c = '_';
            }
        }
    }
}

static void parse_options(int argc, char **argv)
{
    enum {
        O_OP = 256,
        O_KIND,
        O_MIN,
        O_MAX,
        O_MAXBW,
        O_STEP,
        O_BUDGET,
        O_REPS,
        O_GUPS,
        O_LIB,
        O_NO_BIND,
        O_INTERNODE,
        O_BOUNCE
    };
    static const struct option longopts[] = {
        {"quick", no_argument, NULL, 'q'},
        {"list", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {"op", required_argument, NULL, O_OP},
        {"kind", required_argument, NULL, O_KIND},
        {"min-size", required_argument, NULL, O_MIN},
        {"max-size", required_argument, NULL, O_MAX},
        {"max-bw-size", required_argument, NULL, O_MAXBW},
        {"step", required_argument, NULL, O_STEP},
        {"budget-ms", required_argument, NULL, O_BUDGET},
        {"reps", required_argument, NULL, O_REPS},
        {"gups-words", required_argument, NULL, O_GUPS},
        {"lib", required_argument, NULL, O_LIB},
        {"no-bind", no_argument, NULL, O_NO_BIND},
        {"internode", no_argument, NULL, O_INTERNODE},
        {"bounce", no_argument, NULL, O_BOUNCE},
        {NULL, 0, NULL, 0},
    };
    double budget_ms = 0;
    size_t step = 0, gups = 0;
    int c, i, reps = 0;

    opt.min_size    = 8;
    opt.max_size    = 1u << 20;
    opt.max_bw_size = 4u << 20;
    for (i = 0; i < OP_COUNT; i++) {
        opt.op_on[i] = 1;
    }
    for (i = 0; i < KIND_COUNT; i++) {
        opt.kind_on[i] = 1;
    }
    default_lib_name();
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'q': opt.quick = 1; break;
        case 'l': opt.list = 1; break;
        case 'h':
            if (bench_env.me == 0) {
                bench_usage(stdout);
            }
            shmem_finalize();
            exit(0);
        case O_OP:
            parse_names(optarg, op_names, OP_COUNT, opt.op_on, "--op");
            break;
        case O_KIND:
            parse_names(optarg, kind_names, KIND_COUNT, opt.kind_on, "--kind");
            break;
        case O_MIN:
            opt.min_size = bench_size_option(optarg, "--min-size");
            break;
        case O_MAX:
            opt.max_size = bench_size_option(optarg, "--max-size");
            break;
        case O_MAXBW:
            opt.max_bw_size = bench_size_option(optarg, "--max-bw-size");
            break;
        case O_STEP: step = bench_size_option(optarg, "--step"); break;
        case O_BUDGET: budget_ms = atof(optarg); break;
        case O_REPS: reps = atoi(optarg); break;
        case O_GUPS: gups = bench_size_option(optarg, "--gups-words"); break;
        case O_LIB: snprintf(opt.lib, sizeof(opt.lib), "%s", optarg); break;
        case O_NO_BIND: opt.no_bind = 1; break;
        case O_INTERNODE: opt.internode = 1; break;
        case O_BOUNCE: opt.bounce = 1; break;
        default:
            if (bench_env.me == 0) {
                bench_usage(stderr);
            }
            shmem_global_exit(2);
            exit(2);
        }
    }
    if (optind < argc) {
        bench_die("unexpected argument '%s' (see --help)", argv[optind]);
    }
    opt.step = (step != 0) ? step : (opt.quick ? 64 : 2);
    opt.budget_ns =
        1e6 * ((budget_ms > 0) ? budget_ms : (opt.quick ? 1.0 : 10.0));
    opt.reps            = (reps != 0) ? reps : (opt.quick ? 3 : 7);
    bench_env.table_len = (gups != 0) ? gups : (opt.quick ? 16384u : 262144u);
    if ((opt.step < 2) || ((opt.step & (opt.step - 1)) != 0)) {
        bench_die("--step %zu: expected a power of two, at least 2", opt.step);
    }
    if ((opt.reps < 1) || (opt.reps > BENCH_REPS_MAX)) {
        bench_die("--reps %d: expected 1..%d", opt.reps, BENCH_REPS_MAX);
    }
    if ((bench_env.table_len & (bench_env.table_len - 1)) != 0) {
        bench_die("--gups-words %zu: expected a power of two",
                  bench_env.table_len);
    }
    if ((opt.min_size > opt.max_size) || (opt.min_size > opt.max_bw_size)) {
        bench_die("--min-size %zu is larger than a maximum size", opt.min_size);
    }
}

/* Allocates the symmetric objects and private buffers and opens the raw
 * mapping (collective). */
static void setup(void)
{
    size_t len =
        (opt.max_size > opt.max_bw_size) ? opt.max_size : opt.max_bw_size;
    size_t j;

    bench_env.data_len = len;
    ctl                = shmem_align(BENCH_LINE, sizeof(*ctl));
    sym_data           = shmem_align(4096, len);
    sym_table          = shmem_malloc(bench_env.table_len * sizeof(*sym_table));
    bench_env.src      = aligned_alloc(4096, len);
    bench_env.dst      = aligned_alloc(4096, len);
    if ((ctl == NULL) || (sym_data == NULL) || (sym_table == NULL) ||
        (bench_env.src == NULL) || (bench_env.dst == NULL)) {
        bench_die("out of memory for %zu-byte buffers and a %zu-word GUPS "
                  "table: lower --max-size/--max-bw-size/--gups-words or "
                  "raise SHMEM_SYMMETRIC_SIZE",
                  len, bench_env.table_len);
    }
    memset(ctl, 0, sizeof(*ctl));
    memset(sym_data, 0, len);
    memset(bench_env.src, 0x5a, len);
    memset(bench_env.dst, 0, len);
    for (j = 0; j < bench_env.table_len; j++) {
        sym_table[j] = bench_gups_init(bench_env.me, j);
    }
    if (!opt.internode) {
        bench_raw_open(&bench_env.raw, len, bench_env.table_len);
    }
}

#ifdef XGAS_REPRODUCE_SCRIPT
/* `xgas-bench reproduce ...` is not a measurement of this process: it runs
 * bench/reproduce/reproduce.py (which launches the benchmarks of this
 * build itself) with this build's and source's trees; XGAS_PYTHON picks the
 * interpreter.  Returns only when the script cannot be started. */
static int run_reproduce(int argc, char **argv)
{
    const char *python = getenv("XGAS_PYTHON");
    char **args        = calloc((size_t)argc + 6, sizeof(*args));
    int n              = 0;

    if (args == NULL) {
        return 1;
    }
    python    = python != NULL ? python : "python3";
    args[n++] = (char *)python;
    args[n++] = (char *)XGAS_REPRODUCE_SCRIPT;
    args[n++] = (char *)"--build";
    args[n++] = (char *)XGAS_REPRODUCE_BUILD;
    args[n++] = (char *)"--source";
    args[n++] = (char *)XGAS_REPRODUCE_SOURCE;
    for (int i = 2; i < argc; i++) {
        args[n++] = argv[i];
    }
    execvp(python, args);
    fprintf(stderr,
            "xgas-bench reproduce: cannot run %s %s: %m (install python3, "
            "or name an interpreter in XGAS_PYTHON)\n",
            python, XGAS_REPRODUCE_SCRIPT);
    free(args);
    return 1;
}
#endif

int main(int argc, char **argv)
{
    char name[SHMEM_MAX_NAME_LEN];
    int status, cpu = -1;

#ifdef XGAS_REPRODUCE_SCRIPT
    if (argc > 1 && strcmp(argv[1], "reproduce") == 0) {
        return run_reproduce(argc, argv);
    }
#endif
    shmem_init();
    bench_env.me   = shmem_my_pe();
    bench_env.npes = shmem_n_pes();
    parse_options(argc, argv);
    bench_plan.lib        = opt.lib;
    bench_plan.op_names   = op_names;
    bench_plan.kind_names = kind_names;
    bench_plan.budget_ns  = opt.budget_ns;
    bench_plan.reps       = opt.reps;
    bench_plan.internode  = opt.internode;
    bench_plan.reset      = reset_controls;
    if (!opt.list) {
        /* PE i on the (i mod n)-th CPU it may use; a PE the launcher
         * bound to one CPU (oshrun does) stays there */
        cpu = opt.no_bind ? -1 : bench_bind_cpu(bench_env.me);
        setup();
    }
    if ((bench_env.me == 0) && !opt.list) {
        shmem_info_get_name(name);
        printf("# xgas-bench lib=%s npes=%d library=\"%s\" spec=%d.%d "
               "quick=%d budget_ms=%.1f reps=%d pe0_cpu=%d internode=%d\n",
               opt.lib, bench_env.npes, name, SHMEM_MAJOR_VERSION,
               SHMEM_MINOR_VERSION, opt.quick, opt.budget_ns / 1e6, opt.reps,
               cpu, opt.internode);
        fflush(stdout);
    }
    status = run_figures();
    if (!opt.list) {
        if (!opt.internode) {
            bench_raw_close(&bench_env.raw);
        }
        shmem_free(sym_table);
        shmem_free(sym_data);
        shmem_free(ctl);
        free(bench_env.src);
        free(bench_env.dst);
    }
    shmem_finalize();
    return status;
}
