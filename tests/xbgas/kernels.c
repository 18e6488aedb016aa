/*
 * kernels.c: the paper's comparison in spirit (its random access, scatter,
 * gather, random put, broadcast and reduce kernels), each written twice:
 *   xbgas  the accesses are xBGAS instructions (xbgas.h: eaddie + access)
 *   soft   the accesses go through a software OpenSHMEM-style library in
 *          the guest (soft_long_g/p/atomic_xor, soft_getmem/putmem): per
 *          call a not-inlined function that checks initialization, the PE
 *          and the address (in the symmetric range, aligned), translates
 *          the address through a per-PE base table, then makes the same
 *          access; so the difference is the library's instructions.
 * Each kernel is verified; PE 0 prints its retired guest instructions
 * (rdinstret) and time per kernel and variant.
 * Usage: kernels.rv64 [elements (256)] [updates per PE (4096)]
 */
#include <string.h>
#include <time.h>

#include "guest.h"

#define MAXN  4096
#define MAXPE 64
static struct sym { /* the symmetric objects, one range */
    uint64_t table[MAXN], src[MAXN], dst[MAXN], tmp[MAXN];
} sym;
#define table sym.table
#define src   sym.src
#define dst   sym.dst
#define tmp   sym.tmp

/* ---- the software library ---------------------------------------- */
typedef struct soft_state {
    int init, npes;
    uintptr_t sym_lo, sym_hi; /* the symmetric range */
    uintptr_t base[MAXPE];    /* per PE: where the range starts there */
} soft_state_t;
static soft_state_t S;

__attribute__((noinline, noreturn)) static void soft_fail(const char *w)
{
    fprintf(stderr, "soft_shmem: %s\n", w);
    exit(1);
}

static void soft_init(void)
{
    S.npes   = guest_npes;
    S.sym_lo = (uintptr_t)&sym;
    S.sym_hi = (uintptr_t)(&sym + 1);
    for (int pe = 0; pe < S.npes; pe++) {
        S.base[pe] = S.sym_lo; /* symmetric: the same on every PE */
    }
    S.init = 1;
}

static inline uintptr_t soft_translate(const void *a, size_t n, int pe)
{
    uintptr_t p = (uintptr_t)a;
    if (!S.init) {
        soft_fail("not initialized");
    }
    if ((unsigned)pe >= (unsigned)S.npes) {
        soft_fail("PE out of range");
    }
    if (p < S.sym_lo || p + n > S.sym_hi || (p & 7)) {
        soft_fail("not a symmetric address");
    }
    return S.base[pe] + (p - S.sym_lo);
}

__attribute__((noinline)) static uint64_t soft_long_g(const uint64_t *s, int pe)
{
    return xbgas_eld(xbgas_ns(pe), (void *)soft_translate(s, 8, pe));
}

__attribute__((noinline)) static void soft_long_p(uint64_t *d, uint64_t v,
                                                  int pe)
{
    xbgas_esd(xbgas_ns(pe), (void *)soft_translate(d, 8, pe), v);
}

__attribute__((noinline)) static void soft_atomic_xor(uint64_t *d, uint64_t v,
                                                      int pe)
{
    xbgas_eamoxor_d(xbgas_ns(pe), (void *)soft_translate(d, 8, pe), v);
}

__attribute__((noinline)) static void soft_putmem(uint64_t *d,
                                                  const uint64_t *s, size_t n,
                                                  int pe)
{
    uint64_t *r = (uint64_t *)soft_translate(d, n * 8, pe);
    uint64_t ns = xbgas_ns(pe);
    for (size_t i = 0; i < n; i++) {
        xbgas_esd(ns, &r[i], s[i]);
    }
}

__attribute__((noinline)) static void soft_getmem(uint64_t *d,
                                                  const uint64_t *s, size_t n,
                                                  int pe)
{
    const uint64_t *r = (const uint64_t *)soft_translate(s, n * 8, pe);
    uint64_t ns       = xbgas_ns(pe);
    for (size_t i = 0; i < n; i++) {
        d[i] = xbgas_eld(ns, &r[i]);
    }
}

/* ---- kernels ------------------------------------------------------- */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void gups(int soft, size_t n, long u)
{
    uint64_t s = 88172645463325252ull + (uint64_t)guest_me;
    for (long i = 0; i < u; i++) {
        uint64_t r = rnd(&s), w = (r >> 8) % (n * (size_t)guest_npes);
        int pe = (int)(w / n);
        if (soft) {
            soft_atomic_xor(&table[w % n], r, pe);
        } else {
            xbgas_eamoxor_d(xbgas_ns(pe), &table[w % n], r);
        }
    }
}

static void scatter(int soft, size_t n) /* PE 0 -> dst of every PE */
{
    if (guest_me != 0) {
        return;
    }
    for (int pe = 0; pe < guest_npes; pe++) {
        for (size_t i = 0; i < n; i++) {
            if (soft) {
                soft_long_p(&dst[i], src[i] + (uint64_t)pe, pe);
            } else {
                xbgas_esd(xbgas_ns(pe), &dst[i], src[i] + (uint64_t)pe);
            }
        }
    }
}

static void gather(int soft, size_t n) /* every PE's src -> PE 0 */
{
    if (guest_me != 0) {
        return;
    }
    size_t per = n / (size_t)guest_npes;
    for (int pe = 0; pe < guest_npes; pe++) {
        for (size_t i = 0; i < per; i++) {
            tmp[(size_t)pe * per + i] = soft ? soft_long_g(&src[i], pe)
                                             : xbgas_eld(xbgas_ns(pe), &src[i]);
        }
    }
}

static void randput(int soft, size_t n, long u)
{
    uint64_t s = 0x2545f4914f6cdd1dull * (uint64_t)(guest_me + 1);
    for (long i = 0; i < u; i++) {
        uint64_t r = rnd(&s);
        int pe     = (int)(r % (uint64_t)guest_npes);
        size_t at  = (size_t)((r >> 20) % n);
        if (soft) {
            soft_long_p(&tmp[at], r, pe);
        } else {
            xbgas_esd(xbgas_ns(pe), &tmp[at], r);
        }
    }
}

static void bcast(int soft, size_t n) /* PE 0's src -> dst of all */
{
    if (guest_me != 0) {
        return;
    }
    for (int pe = 0; pe < guest_npes; pe++) {
        if (soft) {
            soft_putmem(dst, src, n, pe);
            continue;
        }
        uint64_t ns = xbgas_ns(pe);
        for (size_t i = 0; i < n; i++) {
            xbgas_esd(ns, &dst[i], src[i]);
        }
    }
}

static void reduce(int soft, size_t n) /* sum of every PE's src -> PE 0 */
{
    if (guest_me != 0) {
        return;
    }
    memset(dst, 0, n * 8);
    for (int pe = 0; pe < guest_npes; pe++) {
        if (soft) {
            soft_getmem(tmp, src, n, pe);
            for (size_t i = 0; i < n; i++) {
                dst[i] += tmp[i];
            }
            continue;
        }
        uint64_t ns = xbgas_ns(pe);
        for (size_t i = 0; i < n; i++) {
            dst[i] += xbgas_eld(ns, &src[i]);
        }
    }
}

/* ---- driver -------------------------------------------------------- */
static uint64_t instret(void)
{
    uint64_t v;
    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void reset(size_t n)
{
    for (size_t i = 0; i < MAXN; i++) {
        table[i] = i;
        src[i]   = (uint64_t)guest_me * 1000 + i;
        dst[i] = tmp[i] = 0;
    }
    (void)n;
}

static void verify(int k, size_t n)
{
    uint64_t np = (uint64_t)guest_npes;
    switch (k) {
    case 1:
        for (size_t i = 0; i < n; i++) {
            CHECK_EQ(dst[i], (uint64_t)i + (uint64_t)guest_me);
        }
        break;
    case 2:
        if (guest_me == 0) {
            for (size_t i = 0; i < n / np * np; i++) {
                CHECK_EQ(tmp[i], (i / (n / np)) * 1000 + i % (n / np));
            }
        }
        break;
    case 4:
        for (size_t i = 0; i < n; i++) {
            CHECK_EQ(dst[i], (uint64_t)i); /* PE 0's src */
        }
        break;
    case 5:
        if (guest_me == 0) {
            for (size_t i = 0; i < n; i++) {
                CHECK_EQ(dst[i], 1000 * np * (np - 1) / 2 + np * i);
            }
        }
        break;
    default: /* gups: checked by xor of both variants; randput: ran */ break;
    }
}

static uint64_t table_xor(size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= table[i] * (i + 1);
    }
    return x;
}

int main(int argc, char **argv)
{
    static const char *names[6] = {"gups",    "scatter",   "gather",
                                   "randput", "broadcast", "reduce"};
    size_t n                    = argc > 1 ? (size_t)atol(argv[1]) : 256;
    long u                      = argc > 2 ? atol(argv[2]) : 4096;
    CHECK(n >= (size_t)guest_npes && n <= MAXN && guest_npes <= MAXPE);
    soft_init();
    uint64_t gups_sum[2] = {0, 0};
    for (int k = 0; k < 6; k++) {
        uint64_t ins[2];
        double t[2];
        for (int soft = 0; soft < 2; soft++) {
            reset(n);
            guest_barrier();
            uint64_t i0 = instret();
            double t0   = now();
            switch (k) {
            case 0: gups(soft, n, u); break;
            case 1: scatter(soft, n); break;
            case 2: gather(soft, n); break;
            case 3: randput(soft, n, u); break;
            case 4: bcast(soft, n); break;
            default: reduce(soft, n); break;
            }
            ins[soft] = instret() - i0;
            t[soft]   = now() - t0;
            guest_barrier();
            verify(k, n);
            if (k == 0) {
                gups_sum[soft] = table_xor(n);
            }
        }
        if (guest_me == 0) {
            printf("kernel %-9s PE 0: xbgas %8llu instructions %8.3f ms | "
                   "soft %8llu instructions %8.3f ms | ratio %.2f\n",
                   names[k], (unsigned long long)ins[0], t[0] * 1e3,
                   (unsigned long long)ins[1], t[1] * 1e3,
                   (double)ins[0] / (double)ins[1]);
        }
    }
    CHECK_EQ(gups_sum[0], gups_sum[1]);
    guest_barrier();
    if (guest_me == 0) {
        printf("kernels: verified\n");
    }
    return 0;
}
