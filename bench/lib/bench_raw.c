/*
 * Raw baselines of xgas-bench: the same communication patterns as the
 * OpenSHMEM kernels, done with plain loads, stores, memcpy and CPU atomics
 * on a shared mapping that does not come from the library, so that each
 * measurement can be divided by what the hardware does for the same job.
 *
 * The mapping is a memfd created by PE 0; the other PEs open it through
 * /proc/<pid of PE 0>/fd/<fd>, learnt from PE 0 through a symmetric word.
 * It has no name anywhere, so nothing is left behind whatever happens to
 * the job, and it works the same under xgas and under OSHMEM.  Its layout
 * mirrors the symmetric objects of the OpenSHMEM kernels: control words on
 * lines of their own, one page-aligned data inbox per PE of the pair, and a
 * GUPS table of which each PE owns a slice.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <shmem.h>

#include "bench.h"

#define RAW_PAGE 4096u

static long raw_sense; /* this PE's sense of the centralized barrier */

static size_t raw_round_page(size_t len)
{
    return (len + RAW_PAGE - 1) & ~(size_t)(RAW_PAGE - 1);
}

void bench_raw_open(bench_raw_t *raw, size_t data_len, size_t table_len)
{
    size_t data  = raw_round_page(data_len);
    size_t table = (size_t)bench_env.npes * table_len * sizeof(long);
    size_t len   = RAW_PAGE + 2 * data + raw_round_page(table);
    char path[64];
    long pid, fd = -1;
    char *base;
    size_t j;

    if (bench_env.me == 0) {
        fd = memfd_create("xgas-bench-raw", MFD_CLOEXEC);
        if ((fd < 0) || (ftruncate((int)fd, (off_t)len) != 0)) {
            bench_die("raw shared mapping of %zu bytes: %m", len);
        }
    }
    pid = bench_bcast((long)getpid());
    fd  = bench_bcast(fd);
    if (bench_env.me != 0) {
        snprintf(path, sizeof(path), "/proc/%ld/fd/%ld", pid, fd);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            bench_die("cannot open PE 0's raw mapping %s: %m", path);
        }
    }
    base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    if (base == MAP_FAILED) {
        bench_die("mmap of the raw mapping (%zu bytes): %m", len);
    }
    /* PE 0 keeps its descriptor until every PE has mapped */
    shmem_barrier_all();
    close((int)fd);

    raw->base      = base;
    raw->len       = len;
    raw->flag[0]   = (long *)(base + 0 * BENCH_LINE);
    raw->flag[1]   = (long *)(base + 1 * BENCH_LINE);
    raw->req       = (long *)(base + 2 * BENCH_LINE);
    raw->ans       = (long *)(base + 3 * BENCH_LINE);
    raw->ctr       = (long *)(base + 4 * BENCH_LINE);
    raw->bar_count = (long *)(base + 5 * BENCH_LINE);
    raw->bar_sense = (long *)(base + 6 * BENCH_LINE);
    raw->lock      = (long *)(base + 7 * BENCH_LINE);
    raw->data[0]   = base + RAW_PAGE;
    raw->data[1]   = base + RAW_PAGE + data;
    raw->table     = (unsigned long *)(base + RAW_PAGE + 2 * data);

    if (bench_env.me < 2) {
        memset(raw->data[bench_env.me], 0, data);
    }
    for (j = 0; j < table_len; j++) {
        raw->table[(size_t)bench_env.me * table_len + j] =
            bench_gups_init(bench_env.me, j);
    }
    shmem_barrier_all();
}

void bench_raw_close(bench_raw_t *raw)
{
    munmap(raw->base, raw->len);
}

void bench_raw_reset(void)
{
    bench_raw_t *raw = &bench_env.raw;

    if (bench_env.me == 0) {
        *raw->flag[0] = 0;
    } else if (bench_env.me == 1) {
        *raw->flag[1] = 0;
        *raw->req     = 0;
        *raw->ans     = 0;
        *raw->ctr     = 0;
    }
}

/* Waits until *@word == @value (acquire). */
static inline void raw_wait_eq(long *word, long value)
{
    unsigned polls = 0;

    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != value) {
        bench_poll(&polls);
    }
}

/*
 * Ping-pong of PE 0 and PE 1 through their inboxes: each turn writes
 * @size bytes of data (none if @size is 0) into the peer's data inbox and
 * then the turn number into its flag (release store), and waits for the
 * peer to do the same.  With @copy_out the inbox is only a bounce buffer:
 * a PE that sees its flag first copies the data out of its inbox into its
 * private destination (the second copy of a shared-memory transport).
 * Returns PE 0's timed nanoseconds.
 */
static uint64_t raw_pingpong(size_t size, int copy_out, long warm, long iters)
{
    bench_raw_t *raw = &bench_env.raw;
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
            raw_wait_eq(raw->flag[1], seq);
            if (copy_out && (size > 0)) {
                memcpy(bench_env.dst, raw->data[1], size);
            }
        }
        if (size > 0) {
            memcpy(raw->data[peer], bench_env.src, size);
        }
        __atomic_store_n(raw->flag[peer], seq, __ATOMIC_RELEASE);
        if (me == 0) {
            raw_wait_eq(raw->flag[0], seq);
            if (copy_out && (size > 0)) {
                memcpy(bench_env.dst, raw->data[0], size);
            }
        }
    }
    return (me == 0) ? bench_now_ns() - t0 : 0;
}

/* Cache-line ping-pong: a store to the peer's flag, no data. */
uint64_t raw_store_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    (void)fig;
    return raw_pingpong(0, 0, warm, iters);
}

/* memcpy of the figure's size into the peer's inbox, then the flag. */
uint64_t raw_copy_flag_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    return raw_pingpong(fig->size, 0, warm, iters);
}

/* The same through a bounce buffer: memcpy into the peer's shared inbox,
 * the flag, and the peer copies the data out into its private buffer --
 * the two copies of "memory copy via shared memory" (PVAS paper, Fig. 1),
 * whole messages, not pipelined in chunks. */
uint64_t raw_bounce_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    return raw_pingpong(fig->size, 1, warm, iters);
}

/*
 * Load after remote write (the pattern of g and get): PE 0 stores a
 * request into PE 1's line; PE 1 sees it, writes its data inbox (getmem
 * figures only) and then its own answer word; PE 0 polls the answer with
 * loads and then copies the data out.
 */
uint64_t raw_load_after_write(const bench_fig_t *fig, long warm, long iters)
{
    bench_raw_t *raw = &bench_env.raw;
    size_t size      = (fig->op == OP_GETMEM) ? fig->size : 0;
    uint64_t t0      = 0;
    unsigned polls;
    long seq;

    if (bench_env.me == 1) {
        for (seq = 1; seq <= warm + iters; seq++) {
            raw_wait_eq(raw->req, seq);
            if (size > 0) {
                memcpy(raw->data[1], bench_env.src, size);
            }
            __atomic_store_n(raw->ans, seq, __ATOMIC_RELEASE);
        }
    } else if (bench_env.me == 0) {
        for (seq = 1; seq <= warm + iters; seq++) {
            if (seq == warm + 1) {
                t0 = bench_now_ns();
            }
            __atomic_store_n(raw->req, seq, __ATOMIC_RELEASE);
            polls = 0;
            while (__atomic_load_n(raw->ans, __ATOMIC_ACQUIRE) != seq) {
                bench_poll(&polls);
            }
            if (size > 0) {
                memcpy(bench_env.dst, raw->data[1], size);
            }
        }
        return bench_now_ns() - t0;
    }
    return 0;
}

/* PE 0 and PE 1 take turns incrementing one counter with a CPU atomic,
 * each waiting (loads) for the other's increment: every fetch-add hits a
 * line dirty in the other core. */
uint64_t raw_fetch_add_pingpong(const bench_fig_t *fig, long warm, long iters)
{
    bench_raw_t *raw = &bench_env.raw;
    int me           = bench_env.me;
    uint64_t t0      = 0;
    long i;

    (void)fig;
    if (me > 1) {
        return 0;
    }
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        raw_wait_eq(raw->ctr, 2 * i + me);
        __atomic_fetch_add(raw->ctr, 1, __ATOMIC_SEQ_CST);
    }
    return (me == 0) ? bench_now_ns() - t0 : 0;
}

/* A store into PE 1's line, then a full fence (what p + quiet must do). */
uint64_t raw_store_fence(const bench_fig_t *fig, long warm, long iters)
{
    long *word = bench_env.raw.ans;

    (void)fig;
    BENCH_PE0_LOOP(
        warm, iters,
        {
            __atomic_store_n(word, i, __ATOMIC_RELAXED);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
        },
        (void)0);
}

/* memcpy into PE 1's inbox, then a full fence (putmem + quiet). */
uint64_t raw_copy_fence(const bench_fig_t *fig, long warm, long iters)
{
    char *to    = bench_env.raw.data[1];
    size_t size = fig->size;

    BENCH_PE0_LOOP(
        warm, iters,
        {
            memcpy(to, bench_env.src, size);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
        },
        (void)0);
}

/* Single-thread memcpy, shared mapping (PE 1's inbox) -> private buffer
 * (getmem). */
uint64_t raw_memcpy_from_shared(const bench_fig_t *fig, long warm, long iters)
{
    const char *from = bench_env.raw.data[1];
    size_t size      = fig->size;

    BENCH_PE0_LOOP(
        warm, iters,
        {
            memcpy(bench_env.dst, from, size);
            __asm__ __volatile__("" ::: "memory");
        },
        (void)0);
}

/* A load of PE 1's word (g). */
uint64_t raw_load(const bench_fig_t *fig, long warm, long iters)
{
    long *word = bench_env.raw.ans;

    (void)fig;
    BENCH_PE0_LOOP(
        warm, iters, { bench_sink = __atomic_load_n(word, __ATOMIC_RELAXED); },
        (void)0);
}

/* A CPU fetch-add on PE 1's counter (a locked instruction is already a
 * full barrier on x86, as an atomic followed by quiet must be). */
uint64_t raw_fetch_add(const bench_fig_t *fig, long warm, long iters)
{
    long *word = bench_env.raw.ctr;

    (void)fig;
    BENCH_PE0_LOOP(
        warm, iters,
        { bench_sink = __atomic_fetch_add(word, 1, __ATOMIC_SEQ_CST); },
        (void)0);
}

/* Single-thread memcpy bandwidth, private buffer -> shared mapping. */
uint64_t raw_memcpy_to_shared(const bench_fig_t *fig, long warm, long iters)
{
    char *to    = bench_env.raw.data[1];
    size_t size = fig->size;

    BENCH_PE0_LOOP(
        warm, iters,
        {
            memcpy(to, bench_env.src, size);
            __asm__ __volatile__("" ::: "memory");
        },
        (void)0);
}

/*
 * GUPS on the raw table: every PE applies @iters random CPU atomic xors,
 * twice over the same stream so the table returns to its first values.
 * Returns PE 0's nanoseconds from the start to the barrier after the last
 * update.  (The library's table is the one verified; this one only times
 * the hardware.)
 */
uint64_t raw_atomic_xor(const bench_fig_t *fig, long warm, long iters)
{
    unsigned long *table = bench_env.raw.table;
    size_t len           = bench_env.table_len, j;
    int me = bench_env.me, npes = bench_env.npes, pass;
    uint64_t t0 = bench_now_ns(), t, r, state;
    long u;

    (void)fig;
    (void)warm;
    for (pass = 0; pass < 2; pass++) {
        state = bench_rand_seed(me);
        for (u = 0; u < iters; u++) {
            r = bench_rand_next(&state);
            j = (size_t)((r >> 40) % (uint64_t)npes) * len +
                (size_t)(r & (len - 1));
            __atomic_fetch_xor(&table[j], (unsigned long)r, __ATOMIC_RELAXED);
        }
    }
    raw_counter_barrier(fig, 0, 1);
    t = bench_now_ns() - t0;
    return (me == 0) ? t : 0;
}

/*
 * @iters rounds of a centralized sense-reversing barrier over all PEs: one
 * atomic increment per PE, the last arrival flips the sense.  Waiters spin
 * when every PE has a core, and yield quickly when the job is
 * oversubscribed.
 */
uint64_t raw_counter_barrier(const bench_fig_t *fig, long warm, long iters)
{
    bench_raw_t *raw    = &bench_env.raw;
    long npes           = bench_env.npes, i;
    unsigned spin_polls = (npes > sysconf(_SC_NPROCESSORS_ONLN)) ? 16u : 65536u;
    uint64_t t0         = 0;
    unsigned polls;

    (void)fig;
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        raw_sense ^= 1;
        if (__atomic_add_fetch(raw->bar_count, 1, __ATOMIC_ACQ_REL) == npes) {
            __atomic_store_n(raw->bar_count, 0, __ATOMIC_RELAXED);
            __atomic_store_n(raw->bar_sense, raw_sense, __ATOMIC_RELEASE);
            continue;
        }
        polls = 0;
        while (__atomic_load_n(raw->bar_sense, __ATOMIC_ACQUIRE) != raw_sense) {
            if (++polls >= spin_polls) {
                sched_yield();
            }
        }
    }
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}

/*
 * @iters acquisitions and releases per PE of a test-and-test-and-set spin
 * lock on one shared line: every PE spins on the same word, and nothing
 * orders the waiters (the fastest core wins).  The cheapest lock the
 * hardware allows for a handoff, not a fair one.
 */
uint64_t raw_spin_lock(const bench_fig_t *fig, long warm, long iters)
{
    long *lock  = bench_env.raw.lock, i;
    uint64_t t0 = 0;
    unsigned polls;

    (void)fig;
    for (i = 0; i < warm + iters; i++) {
        if (i == warm) {
            t0 = bench_now_ns();
        }
        polls = 0;
        while ((__atomic_load_n(lock, __ATOMIC_RELAXED) != 0) ||
               __atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
            if (++polls >= 64) {
                sched_yield(); /* waiters may outnumber cores */
                polls = 0;
            }
        }
        bench_sink = bench_sink + 1;
        __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
    }
    return (bench_env.me == 0) ? bench_now_ns() - t0 : 0;
}
