/*
 * xgas-kernels-native: the paper's six kernels (random access, scatter,
 * gather, random put, broadcast, reduce) natively on the host, the same
 * patterns as the xBGAS machine's guest kernels (tests/xbgas/kernels.c),
 * written with OpenSHMEM (k_*_shmem) and, built against xgas, with the
 * xbrtime API (k_*_xbrtime).  bench/xbgas_native.sh counts each kernel
 * function's instructions on PE 0 with callgrind (inclusive Ir) and
 * prints its time.  Plain OpenSHMEM without XGAS_XBRTIME: builds with
 * oshcc too.
 *   xgas-kernels-native [elements (4096)] [updates per PE (16384)]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>
#ifdef XGAS_XBRTIME
#include <xbrtime.h>
#endif

#define MAXN 4096
static unsigned long table[MAXN], src[MAXN], dst[MAXN], tmp[MAXN];
static int me, npes;
static size_t n;
static long u;

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The access of each variant: OpenSHMEM, or xbrtime. */
#define SHMEM_XOR(d, v, pe)    shmem_ulong_atomic_xor(d, v, pe)
#define SHMEM_P(d, v, pe)      shmem_ulong_p(d, v, pe)
#define SHMEM_G(s, pe)         shmem_ulong_g(s, pe)
#define SHMEM_PUT(d, s, k, pe) shmem_putmem(d, s, (k)*8, pe)
#define SHMEM_GET(d, s, k, pe) shmem_getmem(d, s, (k)*8, pe)
#ifdef XGAS_XBRTIME
#define XBRT_XOR(d, v, pe) xbrtime_ulong_atomic_lxor(d, v, pe)
#define XBRT_P(d, v, pe)                     \
    do {                                     \
        unsigned long v_ = (v);              \
        xbrtime_ulong_put(d, &v_, 1, 1, pe); \
    } while (0)
static unsigned long xbrt_g(const unsigned long *s, int pe)
{
    unsigned long v;
    xbrtime_ulong_get(&v, s, 1, 1, pe);
    return v;
}
#define XBRT_G(s, pe)         xbrt_g(s, pe)
#define XBRT_PUT(d, s, k, pe) xbrtime_ulong_put(d, s, k, 1, pe)
#define XBRT_GET(d, s, k, pe) xbrtime_ulong_get(d, s, k, 1, pe)
#endif

#define KERNELS(V, XOR, P, G, PUT, GET)                                       \
    __attribute__((noinline)) static void k_gups_##V(void)                    \
    {                                                                         \
        uint64_t s = 88172645463325252ull + (uint64_t)me;                     \
        for (long i = 0; i < u; i++) {                                        \
            uint64_t r = rnd(&s), w = (r >> 8) % (n * (size_t)npes);          \
            XOR(&table[w % n], r, (int)(w / n));                              \
        }                                                                     \
    }                                                                         \
    __attribute__((noinline)) static void k_scatter_##V(void)                 \
    {                                                                         \
        if (me == 0)                                                          \
            for (int pe = 0; pe < npes; pe++)                                 \
                for (size_t i = 0; i < n; i++)                                \
                    P(&dst[i], src[i] + (unsigned long)pe, pe);               \
    }                                                                         \
    __attribute__((noinline)) static void k_gather_##V(void)                  \
    {                                                                         \
        size_t per = n / (size_t)npes;                                        \
        if (me == 0)                                                          \
            for (int pe = 0; pe < npes; pe++)                                 \
                for (size_t i = 0; i < per; i++)                              \
                    tmp[(size_t)pe * per + i] = G(&src[i], pe);               \
    }                                                                         \
    __attribute__((noinline)) static void k_randput_##V(void)                 \
    {                                                                         \
        uint64_t s = 0x2545f4914f6cdd1dull * (uint64_t)(me + 1);              \
        for (long i = 0; i < u; i++) {                                        \
            uint64_t r = rnd(&s);                                             \
            P(&tmp[(r >> 20) % n], r, (int)(r % (uint64_t)npes));             \
        }                                                                     \
    }                                                                         \
    __attribute__((noinline)) static void k_bcast_##V(void)                   \
    {                                                                         \
        if (me == 0)                                                          \
            for (int pe = 0; pe < npes; pe++)                                 \
                PUT(dst, src, n, pe);                                         \
    }                                                                         \
    __attribute__((noinline)) static void k_reduce_##V(void)                  \
    {                                                                         \
        if (me != 0)                                                          \
            return;                                                           \
        memset(dst, 0, n * 8);                                                \
        for (int pe = 0; pe < npes; pe++) {                                   \
            GET(tmp, src, n, pe);                                             \
            for (size_t i = 0; i < n; i++)                                    \
                dst[i] += tmp[i];                                             \
        }                                                                     \
    }                                                                         \
    static void (*const kernels_##V[6])(void) = {k_gups_##V,   k_scatter_##V, \
                                                 k_gather_##V, k_randput_##V, \
                                                 k_bcast_##V,  k_reduce_##V};

KERNELS(shmem, SHMEM_XOR, SHMEM_P, SHMEM_G, SHMEM_PUT, SHMEM_GET)
#ifdef XGAS_XBRTIME
KERNELS(xbrtime, XBRT_XOR, XBRT_P, XBRT_G, XBRT_PUT, XBRT_GET)
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(const char *variant, void (*const *k)(void))
{
    static const char *names[6] = {"gups",    "scatter", "gather",
                                   "randput", "bcast",   "reduce"};
    for (int i = 0; i < 6; i++) {
        for (size_t j = 0; j < MAXN; j++) {
            table[j] = j;
            src[j]   = (unsigned long)me * 1000 + j;
            dst[j] = tmp[j] = 0;
        }
        shmem_barrier_all();
        double t0 = now();
        k[i]();
        shmem_quiet();
        double t = now() - t0;
        shmem_barrier_all();
        if (me == 0) {
            printf("kernel=%s variant=%s pe0_ms=%.3f\n", names[i], variant,
                   t * 1e3);
        }
    }
}

int main(int argc, char **argv)
{
    n = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    u = argc > 2 ? atol(argv[2]) : 16384;
    shmem_init();
    me   = shmem_my_pe();
    npes = shmem_n_pes();
    if (n < (size_t)npes || n > MAXN) {
        fprintf(stderr, "elements: %zu..%d\n", (size_t)npes, MAXN);
        return 2;
    }
    run("shmem", kernels_shmem);
#ifdef XGAS_XBRTIME
    xbrtime_init();
    run("xbrtime", kernels_xbrtime);
    xbrtime_close();
#endif
    if (me == 0) {
        printf("pid=%d\n", (int)getpid());
    }
    shmem_finalize();
    return 0;
}
