/*
 * isa.c: a differential test of the machine's RV64GC: the same program is
 * built for the host and for the machine and the outputs must be equal.
 * It prints the results of integer, M, A, F and D operations on inputs
 * the compiler cannot fold (volatile), and uses glibc (qsort, setjmp,
 * strings, malloc, snprintf of floats, file I/O), and the floating-point
 * environment: the exception flags each operation raises and the four
 * rounding modes (fenv.h; the flags are printed by name, as the two
 * libraries' bit values differ).  No undefined behaviour.
 */
#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile int64_t vi[] = {0,
                                1,
                                -1,
                                7,
                                -7,
                                123456789,
                                -987654321,
                                INT64_MAX,
                                INT64_MIN + 1,
                                0x7fffffff,
                                -0x80000000ll,
                                0x123456789abcdefll};
static volatile double vd[]  = {0.0,     -0.0,    1.5,        -2.25, 1e300,
                                3.14159, -1e-300, 123456.789, 0.1,   -7.5};
#define NI (sizeof(vi) / sizeof(vi[0]))
#define ND (sizeof(vd) / sizeof(vd[0]))

static uint64_t h = 1469598103934665603ull;
static void mix(uint64_t v)
{
    h = (h ^ v) * 1099511628211ull;
}

static void ints(void)
{
    for (unsigned i = 0; i < NI; i++) {
        for (unsigned j = 0; j < NI; j++) {
            int64_t a = vi[i], b = vi[j];
            uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
            mix(ua + ub);
            mix(ua - ub);
            mix(ua * ub);
            mix((uint64_t)(a < b));
            mix(ua < ub);
            mix(ua ^ ub);
            mix(ua << (ub & 63));
            mix(ua >> (ub & 63));
            mix((uint64_t)(a >> (ub & 63)));
            mix((uint64_t)(int32_t)((uint32_t)ua + (uint32_t)ub));
            mix((uint64_t)(int32_t)((uint32_t)ua << (ub & 31)));
            mix((uint64_t)((int32_t)ua >> (ub & 31)));
            mix((uint64_t)(((unsigned __int128)ua * ub) >> 64));
            mix((uint64_t)(((__int128)a * b) >> 64));
            if (b != 0 && !(b == -1)) {
                mix((uint64_t)(a / b));
                mix((uint64_t)(a % b));
            }
            if (ub != 0) {
                mix(ua / ub);
                mix(ua % ub);
            }
            if ((int32_t)b != 0 && (int32_t)b != -1) {
                mix((uint64_t)((int32_t)a / (int32_t)b));
                mix((uint64_t)((int32_t)a % (int32_t)b));
            }
            if ((uint32_t)b) {
                mix((uint32_t)a / (uint32_t)b);
                mix((uint32_t)a % (uint32_t)b);
            }
        }
    }
    printf("ints %016" PRIx64 "\n", h);
}

/* NaN signs and fmin/fmax of zeros differ between x86 and RISC-V. */
static double c(double x)
{
    return isnan(x) ? fabs(x) : x + 0.0;
}

static void floats(void)
{
    for (unsigned i = 0; i < ND; i++) {
        for (unsigned j = 0; j < ND; j++) {
            double a = vd[i], b = vd[j];
            float fa = (float)a, fb = (float)b;
            printf("%g %g %g %g %d %d %g %g | %g %g %g %g %g %d\n", c(a + b),
                   c(a - b), c(a * b), c(b != 0 ? a / b : 0.0), a < b, a <= b,
                   c(fmin(a, b)), c(fmax(a, b)), c(fa + fb), c(fa * fb),
                   c(fb != 0 ? fa / fb : 0.0f), c(fmaf(fa, fb, 1.0f)),
                   c(fma(a, b, -1.0)), fa == fb);
        }
    }
    for (unsigned i = 0; i < ND; i++) {
        double a = vd[i];
        printf("%g %g %.17g %ld %lu %d %u %g %g %g\n", sqrt(fabs(a)),
               copysign(3.0, a), (double)(float)a,
               fabs(a) < 9e18 ? (long)a : 0L,
               a >= 0 && a < 1.8e19 ? (unsigned long)a : 0UL,
               fabs(a) < 2e9 ? (int)a : 0, a >= 0 && a < 4e9 ? (unsigned)a : 0u,
               floor(a), ceil(a), round(a));
    }
    for (unsigned i = 0; i < NI; i++) {
        printf("%.17g %.9g %.17g\n", (double)vi[i], (float)vi[i],
               (double)(uint64_t)vi[i]);
    }
}

static int cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void lib(void)
{
    int64_t v[NI];
    for (unsigned i = 0; i < NI; i++) {
        v[i] = vi[i];
    }
    qsort(v, NI, sizeof(v[0]), cmp);
    for (unsigned i = 0; i < NI; i++) {
        printf("%" PRId64 " ", v[i]);
    }
    printf("\n");
    jmp_buf jb;
    volatile int n = 0;
    if (setjmp(jb) < 3) {
        n++;
        longjmp(jb, n);
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%s-%d-%.3e", "str", n, 6.02e23);
    /* strcmp's sign only: its magnitude is the library's (glibc gives the
     * byte difference, a sanitizer's interceptor 1) */
    printf("%s %zu %d\n", buf, strlen(buf),
           (strcmp(buf, "str") > 0) - (strcmp(buf, "str") < 0));
    _Atomic long a = 5;
    atomic_fetch_add(&a, 10);
    long exp = 15;
    atomic_compare_exchange_strong(&a, &exp, 99);
    long old = atomic_exchange(&a, 1);
    printf("atomic %ld %ld\n", old, (long)a);
    char *big = malloc(1 << 20);
    memset(big, 0x5a, 1 << 20);
    printf("malloc %d\n", big[(1 << 20) - 1]);
    free(big);
}

/* File I/O through the machine's system calls: openat, write, lseek,
 * read, fstat, close, unlinkat. */
static void files(void)
{
    char path[64], line[64];
    snprintf(path, sizeof path, "/tmp/xbgas_isa_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w+");
    if (!f) {
        printf("fopen failed\n");
        return;
    }
    for (int i = 0; i < 3; i++) {
        fprintf(f, "line %d %g\n", i, i * 0.5);
    }
    fflush(f);
    struct stat st;
    fstat(fileno(f), &st);
    printf("size %lld\n", (long long)st.st_size);
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        printf("read: %s", line);
    }
    fclose(f);
    printf("remove %d\n", remove(path));
}

/* The exception flags raised since the last call, by name. */
static void flags(const char *what)
{
    int e = fetestexcept(FE_ALL_EXCEPT);

    printf("fenv %s:%s%s%s%s%s\n", what, (e & FE_INVALID) ? " NV" : "",
           (e & FE_DIVBYZERO) ? " DZ" : "", (e & FE_OVERFLOW) ? " OF" : "",
           (e & FE_UNDERFLOW) ? " UF" : "", (e & FE_INEXACT) ? " NX" : "");
    feclearexcept(FE_ALL_EXCEPT);
}

static volatile double fe_one = 1.0, fe_three = 3.0, fe_zero = 0.0,
                       fe_big = 1e308, fe_tiny = 1e-308, fe_neg = -1.0,
                       fe_frac = 2.5, fe_nan = NAN;
static volatile float fe_onef = 1.0f, fe_threef = 3.0f, fe_bigf = 3e38f;

static void fenv(void)
{
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                                FE_UPWARD};
    static const char *const names[] = {"rne", "rtz", "rdn", "rup"};
    volatile double r;
    volatile float rf;
    volatile long l;
    volatile int cmp;
    unsigned i;

    feclearexcept(FE_ALL_EXCEPT);
    r = fe_one / fe_three;
    flags("1/3");
    r = fe_one / fe_zero;
    flags("1/0");
    r = fe_big * fe_big;
    flags("big*big");
    r = fe_tiny / 1e10;
    flags("tiny/1e10");
    r = sqrt(fe_neg);
    flags("sqrt(-1)");
    r = fe_one + fe_one;
    flags("1+1");
    rf = fe_bigf * fe_bigf;
    flags("float big*big");
    rf = (float)fe_big;
    flags("(float)1e308");
    l = lrint(fe_frac);
    flags("lrint(2.5)");
    l = lrint(fe_nan);
    flags("lrint(nan)");
    cmp = fe_nan < fe_one;
    flags("nan<1");
    cmp = fe_nan == fe_one;
    flags("nan==1");
    r = fma(fe_big, fe_big, -fe_big);
    flags("fma big");
    for (i = 0; i < 4; i++) {
        fesetround(modes[i]);
        r  = fe_one / fe_three;
        rf = fe_onef / fe_threef;
        l  = lrint(fe_frac);
        printf("round %s: %a %a %ld %a %d\n", names[i], r, (double)rf, l,
               -fe_one / fe_three, fegetround() == modes[i]);
    }
    fesetround(FE_TONEAREST);
    (void)cmp;
    feclearexcept(FE_ALL_EXCEPT);
}

int main(void)
{
    ints();
    floats();
    fenv();
    lib();
    files();
    return 0;
}
