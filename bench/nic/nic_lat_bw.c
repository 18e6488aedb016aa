/*
 * nic-lat-bw: put, get and atomic latency, bandwidth and small-message
 * rate through the software NIC between PE 0 and PE 1, each next to the
 * direct load/store path (OpenSHMEM on the PVAS region) measured in the
 * same run with the same pattern:
 *
 *   put  pingpong  NIC: PtlPut of size bytes, the peer waits on its entry's
 *                  counter (PtlCTWait) and answers the same way; half a
 *                  round trip.  Direct: shmem_putmem + shmem_fence +
 *                  shmem_long_p of a flag, shmem_long_wait_until.
 *   get  latency   NIC: PtlGet, wait for the reply's count.  Direct:
 *                  shmem_getmem.  (The peer makes no call meanwhile.)
 *   atomic latency NIC: PtlFetchAtomic PTL_SUM on an int64, wait for the
 *                  reply.  Direct: shmem_long_atomic_fetch_add.
 *   put  bw        NIC: a window of 32 puts in flight, counted acks.
 *                  Direct: shmem_putmem stream + shmem_quiet.  GB/s.
 *   put  rate      NIC: 8-byte puts without acks, the peer answers the
 *                  last one; ns per message = the NIC's cost per message
 *                  once pipelined.  Direct: shmem_putmem of 8 bytes +
 *                  shmem_quiet at the end.
 *
 * Latencies are timed per iteration and the median iteration is taken
 * (robust against a process being descheduled on a loaded machine);
 * bandwidth and rate are averages over a run.  Each figure is then the
 * median of 5 runs.  Run with exactly 2 PEs.
 * Output: bench=nic_lat_bw op=put kind=pingpong size=8 nic_ns=...
 *         direct_ns=... overhead_ns=...
 */
#include <shmem.h>

#include "nic_bench.h"

#define PT     5
#define MAXSZ  (4u << 20)
#define REPS   5
#define WINDOW 32

static ptl_env_t env;
static uint8_t *nic_buf, *nic_src;
static int64_t nic_counter, one = 1;
static ptl_handle_md_t md_src, md_dst;
static ptl_handle_ct_t ct_rx, ct_md;
static uint64_t rx_count, md_count;
static char *sym;
static long *flag;
static double *lat; /* one sample per timed iteration */

/* Times iteration i (negative: warm-up, not recorded). */
static inline void lat_mark(int i, uint64_t *t, double scale)
{
    uint64_t now = bench_now_ns();

    if (i >= 0) {
        lat[i] = (double)(now - *t) * scale;
    }
    *t = now;
}

static void nic_wait(ptl_handle_ct_t ct, uint64_t *count, uint64_t add)
{
    ptl_ct_event_t v;

    *count += add;
    PTL_ENV_OK(PtlCTWait(ct, *count, &v));
}

static double nic_pingpong(size_t size, int iters)
{
    int peer   = 1 - env.rank, i;
    uint64_t t = bench_now_ns();

    for (i = -iters / 10; i < iters; i++) {
        if (env.rank == 0) {
            PTL_ENV_OK(PtlPut(md_src, 0, size, PTL_NO_ACK_REQ,
                              ptl_env_rank(peer), PT, 1, 0, NULL, 0));
            nic_wait(ct_rx, &rx_count, 1);
            lat_mark(i, &t, 0.5);
        } else {
            nic_wait(ct_rx, &rx_count, 1);
            PTL_ENV_OK(PtlPut(md_src, 0, size, PTL_NO_ACK_REQ,
                              ptl_env_rank(peer), PT, 1, 0, NULL, 0));
        }
    }
    return (env.rank == 0) ? bench_median(lat, iters) : 0;
}

static double direct_pingpong(size_t size, int iters)
{
    int peer   = 1 - env.rank, i;
    uint64_t t = bench_now_ns();
    long turn  = 0;

    for (i = -iters / 10; i < iters; i++) {
        turn++;
        if (env.rank == 0) {
            shmem_putmem(sym, sym, size, peer);
            shmem_fence();
            shmem_long_p(flag, turn, peer);
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, turn);
            lat_mark(i, &t, 0.5);
        } else {
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, turn);
            shmem_putmem(sym, sym, size, peer);
            shmem_fence();
            shmem_long_p(flag, turn, peer);
        }
    }
    shmem_barrier_all();
    *flag = 0;
    shmem_barrier_all();
    return (env.rank == 0) ? bench_median(lat, iters) : 0;
}

static double nic_get(size_t size, int iters)
{
    uint64_t t = bench_now_ns();
    int i;

    for (i = -iters / 10; i < iters; i++) {
        PTL_ENV_OK(PtlGet(md_dst, 0, size, ptl_env_rank(1), PT, 3, 0, NULL));
        nic_wait(ct_md, &md_count, 1);
        lat_mark(i, &t, 1.0);
    }
    return bench_median(lat, iters);
}

static double direct_get(size_t size, int iters)
{
    uint64_t t = bench_now_ns();
    int i;

    for (i = -iters / 10; i < iters; i++) {
        shmem_getmem(sym + MAXSZ, sym, size, 1);
        lat_mark(i, &t, 1.0);
    }
    return bench_median(lat, iters);
}

static double nic_atomic(int iters)
{
    uint64_t t = bench_now_ns();
    int i;

    for (i = -iters / 10; i < iters; i++) {
        /* fetched into md_dst's start, the operand from nic_src */
        PTL_ENV_OK(PtlFetchAtomic(md_dst, 0, md_src, 0, 8, ptl_env_rank(1), PT,
                                  2, 0, NULL, 0, PTL_SUM, PTL_INT64_T));
        nic_wait(ct_md, &md_count, 1);
        lat_mark(i, &t, 1.0);
    }
    return bench_median(lat, iters);
}

static double direct_atomic(int iters)
{
    uint64_t t = bench_now_ns();
    int i;

    for (i = -iters / 10; i < iters; i++) {
        (void)shmem_long_atomic_fetch_add(flag + 8, 1, 1);
        lat_mark(i, &t, 1.0);
    }
    return bench_median(lat, iters);
}

static double nic_bw(size_t size, int iters)
{
    uint64_t t0 = bench_now_ns();
    int i;

    for (i = 0; i < iters; i++) {
        PTL_ENV_OK(PtlPut(md_src, 0, size, PTL_CT_ACK_REQ, ptl_env_rank(1), PT,
                          3, 0, NULL, 0));
        if (i >= WINDOW) {
            nic_wait(ct_md, &md_count, 1);
        }
    }
    nic_wait(ct_md, &md_count, (uint64_t)((iters < WINDOW) ? iters : WINDOW));
    return (double)size * iters / (double)(bench_now_ns() - t0);
}

static double direct_bw(size_t size, int iters)
{
    uint64_t t0 = bench_now_ns();
    int i;

    for (i = 0; i < iters; i++) {
        shmem_putmem(sym, sym + MAXSZ, size, 1);
    }
    shmem_quiet();
    return (double)size * iters / (double)(bench_now_ns() - t0);
}

/* 8-byte puts, no acks; PE 1 answers the last one. */
static double nic_rate(int iters)
{
    uint64_t t0 = bench_now_ns();
    int i;

    if (env.rank == 0) {
        for (i = 0; i < iters; i++) {
            PTL_ENV_OK(PtlPut(md_src, 0, 8, PTL_NO_ACK_REQ, ptl_env_rank(1), PT,
                              1, 0, NULL, 0));
        }
        nic_wait(ct_rx, &rx_count, 1);
    } else {
        nic_wait(ct_rx, &rx_count, (uint64_t)iters);
        PTL_ENV_OK(PtlPut(md_src, 0, 0, PTL_NO_ACK_REQ, ptl_env_rank(0), PT, 1,
                          0, NULL, 0));
    }
    return (double)(bench_now_ns() - t0) / iters;
}

static double direct_rate(int iters)
{
    uint64_t t0 = bench_now_ns();
    int i;

    for (i = 0; i < iters; i++) {
        shmem_putmem(sym + (size_t)(i % 64) * 8, sym, 8, 1);
    }
    shmem_quiet();
    return (double)(bench_now_ns() - t0) / iters;
}

typedef double (*figure_func_t)(size_t, int);

static void report(const char *op, const char *kind, size_t size, double *nic,
                   double *direct, int higher_better)
{
    double n = bench_median(nic, REPS), d = bench_median(direct, REPS);

    if (env.rank != 0) {
        return;
    }
    if (higher_better) {
        printf("bench=nic_lat_bw op=%s kind=%s size=%zu nic_gbs=%.3f "
               "direct_gbs=%.3f\n",
               op, kind, size, n, d);
    } else {
        printf("bench=nic_lat_bw op=%s kind=%s size=%zu nic_ns=%.1f "
               "direct_ns=%.1f overhead_ns=%.1f\n",
               op, kind, size, n, d, n - d);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static const size_t lat_sizes[] = {8, 64, 512, 4096, 65536, 1 << 20};
    double nic[REPS], direct[REPS];
    int quick = (argc > 1) && (strcmp(argv[1], "--quick") == 0);
    int iters = quick ? 200 : 4000, r;
    size_t k, size;
    ptl_md_t mdd;
    ptl_me_t me;
    ptl_handle_me_t h;

    shmem_init();
    sym  = shmem_malloc(2 * MAXSZ);
    flag = shmem_calloc(16, sizeof(long));
    nb_init(&env);
    if (env.npes != 2) {
        if (env.rank == 0) {
            fprintf(stderr, "nic-lat-bw: run with 2 PEs (xgasrun -n 2)\n");
        }
        nb_fini(&env);
        shmem_finalize();
        return 2;
    }
    lat     = calloc((size_t)iters, sizeof(*lat));
    nic_buf = calloc(1, MAXSZ);
    nic_src = calloc(1, MAXSZ);
    memcpy(nic_src, &one, 8);
    PTL_ENV_OK(PtlCTAlloc(env.ni, &ct_rx));
    PTL_ENV_OK(PtlCTAlloc(env.ni, &ct_md));
    PTL_ENV_OK(PtlPTAlloc(env.ni, 0, PTL_EQ_NONE, PT, &(ptl_pt_index_t){0}));
    memset(&me, 0, sizeof(me));
    me.start         = nic_buf;
    me.length        = MAXSZ;
    me.ct_handle     = ct_rx;
    me.uid           = PTL_UID_ANY;
    me.options       = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_CT_COMM;
    me.match_id.rank = PTL_RANK_ANY;
    me.match_bits    = 1;
    PTL_ENV_OK(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    /* the same memory, uncounted, for gets and the bandwidth stream */
    me.ct_handle  = PTL_CT_NONE;
    me.options    = PTL_ME_OP_PUT | PTL_ME_OP_GET;
    me.match_bits = 3;
    PTL_ENV_OK(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    me.start      = &nic_counter;
    me.length     = 8;
    me.ct_handle  = PTL_CT_NONE;
    me.options    = PTL_ME_OP_PUT | PTL_ME_OP_GET;
    me.match_bits = 2;
    PTL_ENV_OK(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &h));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = nic_src;
    mdd.length    = MAXSZ;
    mdd.eq_handle = PTL_EQ_NONE;
    mdd.ct_handle = ct_md;
    mdd.options   = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY;
    PTL_ENV_OK(PtlMDBind(env.ni, &mdd, &md_src));
    mdd.start = calloc(1, MAXSZ); /* where gets and fetches land */
    PTL_ENV_OK(PtlMDBind(env.ni, &mdd, &md_dst));
    ptl_env_barrier(&env);
    shmem_barrier_all();

    for (k = 0; k < sizeof(lat_sizes) / sizeof(lat_sizes[0]); k++) {
        size = lat_sizes[k];
        for (r = 0; r < REPS; r++) {
            ptl_env_barrier(&env);
            nic[r] = nic_pingpong(size, size > 65536 ? iters / 20 : iters);
            shmem_barrier_all();
            direct[r] =
                direct_pingpong(size, size > 65536 ? iters / 20 : iters);
        }
        report("put", "pingpong", size, nic, direct, 0);
        for (r = 0; r < REPS; r++) {
            ptl_env_barrier(&env);
            nic[r] = direct[r] = 0;
            if (env.rank == 0) {
                nic[r]    = nic_get(size, size > 65536 ? iters / 20 : iters);
                direct[r] = direct_get(size, size > 65536 ? iters / 20 : iters);
            }
        }
        report("get", "latency", size, nic, direct, 0);
    }
    for (r = 0; r < REPS; r++) {
        ptl_env_barrier(&env);
        nic[r] = direct[r] = 0;
        if (env.rank == 0) {
            nic[r]    = nic_atomic(iters);
            direct[r] = direct_atomic(iters);
        }
    }
    report("fetch_add", "latency", 8, nic, direct, 0);
    for (size = 64; size <= MAXSZ; size *= 8) {
        int n = (int)((quick ? (64u << 20) : (512u << 20)) / size);

        if (n > 20000) {
            n = 20000;
        }
        for (r = 0; r < REPS; r++) {
            ptl_env_barrier(&env);
            nic[r] = direct[r] = 0;
            if (env.rank == 0) {
                nic[r]    = nic_bw(size, n);
                direct[r] = direct_bw(size, n);
            }
        }
        report("put", "bw", size, nic, direct, 1);
    }
    for (r = 0; r < REPS; r++) {
        ptl_env_barrier(&env);
        nic[r] = nic_rate(iters * 10);
        ptl_env_barrier(&env);
        direct[r] = (env.rank == 0) ? direct_rate(iters * 10) : 0;
    }
    report("put", "rate", 8, nic, direct, 0);
    nb_fini(&env);
    shmem_free(sym);
    shmem_free(flag);
    shmem_finalize();
    return 0;
}
