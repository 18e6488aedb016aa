/*
 * Unit tests of the typed-operation table (src/base/xg_op.h): which
 * (operation, type) pairs are defined; every defined pair through the
 * three forms (xg_op_apply aligned and unaligned with the fetch-out, the
 * reduction loop of xg_op_kernel, the atomic form of xg_op_atomic) on
 * edge values -- INT_MIN-like and all-ones integers, signed zeros,
 * infinities, NaN, complex values -- against a reference computed here;
 * the types of XG_TYPE_OF; and the atomic form contended by threads,
 * mixed with plain CPU atomics on the same word.
 *
 * The integer reference works on 64-bit words masked to the type's width
 * (wrap-around by construction), the real and complex references in the
 * type itself.
 */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "base/xg_op.h"
#include "xg_test.h"

#define NVALS  10
#define NPAIRS (NVALS * NVALS)
#define WIDEST sizeof(long double complex)

typedef enum {
    CL_INT,
    CL_REAL,
    CL_COMPLEX
} op_class_t;

static const char *const op_names[XG_OP_COUNT] = {
    "SUM",      "PROD",     "MIN",      "MAX",      "BAND",
    "BOR",      "BXOR",     "LAND",     "LOR",      "LXOR",
    "ACC",      "SWAP",     "CSWAP",    "CSWAP_NE", "CSWAP_LE",
    "CSWAP_LT", "CSWAP_GE", "CSWAP_GT", "MSWAP",    "FETCH"};
static const char *const type_names[XG_TYPE_COUNT] = {
    "I8",  "U8",    "I16",    "U16",     "I32",    "U32",     "I64",
    "U64", "FLOAT", "DOUBLE", "LDOUBLE", "CFLOAT", "CDOUBLE", "CLDOUBLE"};

static op_class_t type_class(xg_op_type_t type)
{
    return (type <= XG_TYPE_U64)       ? CL_INT
           : (type <= XG_TYPE_LDOUBLE) ? CL_REAL
                                       : CL_COMPLEX;
}

/* The specification of xg_op.h, written out. */
static int expect_valid(xg_op_t op, xg_op_type_t type)
{
    switch (op) {
    case XG_OP_SUM:
    case XG_OP_PROD:
    case XG_OP_ACC:
    case XG_OP_SWAP:
    case XG_OP_CSWAP:
    case XG_OP_CSWAP_NE:
    case XG_OP_FETCH: return 1;
    case XG_OP_MIN:
    case XG_OP_MAX:
    case XG_OP_CSWAP_LE:
    case XG_OP_CSWAP_LT:
    case XG_OP_CSWAP_GE:
    case XG_OP_CSWAP_GT: return type_class(type) != CL_COMPLEX;
    default: return type_class(type) == CL_INT;
    }
}

static void test_valid_and_sizes(void)
{
    static const size_t sizes[XG_TYPE_COUNT] = {1,
                                                1,
                                                2,
                                                2,
                                                4,
                                                4,
                                                8,
                                                8,
                                                sizeof(float),
                                                sizeof(double),
                                                sizeof(long double),
                                                sizeof(float complex),
                                                sizeof(double complex),
                                                sizeof(long double complex)};
    int op, type;

    for (type = 0; type < XG_TYPE_COUNT; type++) {
        XG_CHECK(xg_op_type_size((xg_op_type_t)type) == sizes[type],
                 "size of %s", type_names[type]);
        for (op = 0; op < XG_OP_COUNT; op++) {
            XG_CHECK(xg_op_valid((xg_op_t)op, (xg_op_type_t)type) ==
                         expect_valid((xg_op_t)op, (xg_op_type_t)type),
                     "validity of %s on %s", op_names[op], type_names[type]);
            XG_CHECK((xg_op_kernel((xg_op_t)op, (xg_op_type_t)type) != NULL) ==
                         ((op < XG_OP_KERNEL_COUNT) &&
                          expect_valid((xg_op_t)op, (xg_op_type_t)type)),
                     "loop of %s on %s", op_names[op], type_names[type]);
        }
    }
    XG_CHECK(!xg_op_valid(XG_OP_COUNT, XG_TYPE_I8), "op out of range");
    XG_CHECK(!xg_op_valid(XG_OP_SUM, XG_TYPE_COUNT), "type out of range");
    XG_CHECK(xg_op_type_size(XG_TYPE_COUNT) == 0, "size out of range");
    XG_CHECK(xg_op_kernel(XG_OP_ACC, XG_TYPE_I32) == NULL, "ACC has no loop");
}

static void test_type_of(void)
{
    XG_CHECK(XG_TYPE_OF(signed char) == XG_TYPE_I8, "signed char");
    XG_CHECK(XG_TYPE_OF(char) == ((CHAR_MIN < 0) ? XG_TYPE_I8 : XG_TYPE_U8),
             "char");
    XG_CHECK(XG_TYPE_OF(unsigned short) == XG_TYPE_U16, "unsigned short");
    XG_CHECK(XG_TYPE_OF(int) == XG_TYPE_I32, "int");
    XG_CHECK(XG_TYPE_OF(unsigned int) == XG_TYPE_U32, "unsigned int");
    XG_CHECK(XG_TYPE_OF(int8_t) == XG_TYPE_I8, "int8_t");
    XG_CHECK(XG_TYPE_OF(uint64_t) == XG_TYPE_U64, "uint64_t");
    XG_CHECK(XG_TYPE_OF(long long) == XG_TYPE_I64, "long long");
    XG_CHECK(xg_op_type_size(XG_TYPE_OF(long)) == sizeof(long), "long");
    XG_CHECK(xg_op_type_size(XG_TYPE_OF(size_t)) == sizeof(size_t) &&
                 (XG_TYPE_OF(size_t) & 1),
             "size_t: unsigned");
    XG_CHECK(xg_op_type_size(XG_TYPE_OF(ptrdiff_t)) == sizeof(ptrdiff_t) &&
                 !(XG_TYPE_OF(ptrdiff_t) & 1),
             "ptrdiff_t: signed");
    XG_CHECK(XG_TYPE_OF(float) == XG_TYPE_FLOAT, "float");
    XG_CHECK(XG_TYPE_OF(long double) == XG_TYPE_LDOUBLE, "long double");
    XG_CHECK(XG_TYPE_OF(float complex) == XG_TYPE_CFLOAT, "float complex");
    XG_CHECK(XG_TYPE_OF(double complex) == XG_TYPE_CDOUBLE, "double complex");
}

/* ---- references --------------------------------------------------------- */

/* Values of @type, NVALS of them, WIDEST bytes apart. */
static uint8_t vals[NVALS][WIDEST];

static unsigned int_width(xg_op_type_t type)
{
    return 8u << (type / 2);
}

static int int_signed(xg_op_type_t type)
{
    return (type % 2) == 0;
}

static uint64_t int_load(xg_op_type_t type, const uint8_t *p)
{
    uint64_t v = 0;

    memcpy(&v, p, int_width(type) / 8); /* little endian */
    return v;
}

/* a < b as the type compares them */
static int int_less(xg_op_type_t type, uint64_t a, uint64_t b)
{
    unsigned w = int_width(type);

    if (int_signed(type)) {
        uint64_t bias = 1ull << (w - 1); /* maps signed order to unsigned */
        return ((a ^ bias) & (~0ull >> (64 - w))) <
               ((b ^ bias) & (~0ull >> (64 - w)));
    }
    return a < b;
}

static void ref_int(xg_op_t op, xg_op_type_t type, const uint8_t *dp,
                    const uint8_t *sp, const uint8_t *xp, uint8_t *rp)
{
    uint64_t mask = ~0ull >> (64 - int_width(type));
    uint64_t d = int_load(type, dp), s = int_load(type, sp);
    uint64_t x = int_load(type, xp), r;

    switch (op) {
    case XG_OP_SUM: r = d + s; break;
    case XG_OP_PROD: r = d * s; break;
    case XG_OP_MIN: r = int_less(type, s, d) ? s : d; break;
    case XG_OP_MAX: r = int_less(type, d, s) ? s : d; break;
    case XG_OP_BAND: r = d & s; break;
    case XG_OP_BOR: r = d | s; break;
    case XG_OP_BXOR: r = d ^ s; break;
    case XG_OP_LAND: r = (d != 0) && (s != 0); break;
    case XG_OP_LOR: r = (d != 0) || (s != 0); break;
    case XG_OP_LXOR: r = (d != 0) != (s != 0); break;
    case XG_OP_ACC: r = d + x * s; break;
    case XG_OP_SWAP: r = s; break;
    case XG_OP_CSWAP: r = (x == d) ? s : d; break;
    case XG_OP_CSWAP_NE: r = (x != d) ? s : d; break;
    case XG_OP_CSWAP_LE: r = !int_less(type, d, x) ? s : d; break;
    case XG_OP_CSWAP_LT: r = int_less(type, x, d) ? s : d; break;
    case XG_OP_CSWAP_GE: r = !int_less(type, x, d) ? s : d; break;
    case XG_OP_CSWAP_GT: r = int_less(type, d, x) ? s : d; break;
    case XG_OP_MSWAP: r = (d & ~x) | (s & x); break;
    default: r = d; break;
    }
    r &= mask;
    memcpy(rp, &r, int_width(type) / 8);
}

static int same_int(xg_op_type_t type, const uint8_t *a, const uint8_t *b)
{
    return memcmp(a, b, int_width(type) / 8) == 0;
}

/* MIN/MAX: a NaN destination stays, a NaN source leaves d (xg_op.h) */
#define REF_REAL(T, NAME)                                                     \
    static void ref_##NAME(xg_op_t op, xg_op_type_t type, const uint8_t *dp,  \
                           const uint8_t *sp, const uint8_t *xp, uint8_t *rp) \
    {                                                                         \
        T d, s, x, r;                                                         \
        int nan = 0;                                                          \
                                                                              \
        (void)type;                                                           \
        memcpy(&d, dp, sizeof(T));                                            \
        memcpy(&s, sp, sizeof(T));                                            \
        memcpy(&x, xp, sizeof(T));                                            \
        nan = isnan(d) || isnan(s);                                           \
        switch (op) {                                                         \
        case XG_OP_SUM: r = d + s; break;                                     \
        case XG_OP_PROD: r = d * s; break;                                    \
        case XG_OP_MIN: r = (nan || !(s < d)) ? d : s; break;                 \
        case XG_OP_MAX: r = (nan || !(s > d)) ? d : s; break;                 \
        case XG_OP_ACC: r = d + x * s; break;                                 \
        case XG_OP_SWAP: r = s; break;                                        \
        case XG_OP_CSWAP: r = (x == d) ? s : d; break;                        \
        case XG_OP_CSWAP_NE: r = (x != d) ? s : d; break;                     \
        case XG_OP_CSWAP_LE: r = (x <= d) ? s : d; break;                     \
        case XG_OP_CSWAP_LT: r = (x < d) ? s : d; break;                      \
        case XG_OP_CSWAP_GE: r = (x >= d) ? s : d; break;                     \
        case XG_OP_CSWAP_GT: r = (x > d) ? s : d; break;                      \
        default: r = d; break;                                                \
        }                                                                     \
        memset(rp, 0, WIDEST);                                                \
        memcpy(rp, &r, sizeof(T));                                            \
    }
REF_REAL(float, flt)
REF_REAL(double, dbl)
REF_REAL(long double, ldbl)

#define REF_COMPLEX(T, NAME)                                                  \
    static void ref_##NAME(xg_op_t op, xg_op_type_t type, const uint8_t *dp,  \
                           const uint8_t *sp, const uint8_t *xp, uint8_t *rp) \
    {                                                                         \
        T d, s, x, r;                                                         \
                                                                              \
        (void)type;                                                           \
        memcpy(&d, dp, sizeof(T));                                            \
        memcpy(&s, sp, sizeof(T));                                            \
        memcpy(&x, xp, sizeof(T));                                            \
        switch (op) {                                                         \
        case XG_OP_SUM: r = d + s; break;                                     \
        case XG_OP_PROD: r = d * s; break;                                    \
        case XG_OP_ACC: r = d + x * s; break;                                 \
        case XG_OP_SWAP: r = s; break;                                        \
        case XG_OP_CSWAP: r = (x == d) ? s : d; break;                        \
        case XG_OP_CSWAP_NE: r = (x != d) ? s : d; break;                     \
        default: r = d; break;                                                \
        }                                                                     \
        memset(rp, 0, WIDEST);                                                \
        memcpy(rp, &r, sizeof(T));                                            \
    }
REF_COMPLEX(float complex, cflt)
REF_COMPLEX(double complex, cdbl)
REF_COMPLEX(long double complex, cldbl)

typedef void (*ref_fn_t)(xg_op_t op, xg_op_type_t type, const uint8_t *d,
                         const uint8_t *s, const uint8_t *x, uint8_t *r);

/* The reference of @type, called through a pointer: inlined into the
 * checking loop, the references make the sanitizers' builds crawl. */
static ref_fn_t ref_for(xg_op_type_t type)
{
    switch (type) {
    case XG_TYPE_FLOAT: return ref_flt;
    case XG_TYPE_DOUBLE: return ref_dbl;
    case XG_TYPE_LDOUBLE: return ref_ldbl;
    case XG_TYPE_CFLOAT: return ref_cflt;
    case XG_TYPE_CDOUBLE: return ref_cdbl;
    case XG_TYPE_CLDOUBLE: return ref_cldbl;
    default: return ref_int;
    }
}

/* Equal values: NaN equals NaN, 0.0 differs from -0.0. */
static int same_ld(long double a, long double b)
{
    return (isnan(a) && isnan(b)) || ((a == b) && (signbit(a) == signbit(b)));
}

static int same(xg_op_type_t type, const uint8_t *a, const uint8_t *b)
{
    float f[2];
    double d[2];
    long double l[2];
    float complex fc[2];
    double complex dc[2];
    long double complex lc[2];

    switch (type) {
    case XG_TYPE_FLOAT:
        memcpy(&f[0], a, sizeof(f[0]));
        memcpy(&f[1], b, sizeof(f[1]));
        return same_ld(f[0], f[1]);
    case XG_TYPE_DOUBLE:
        memcpy(&d[0], a, sizeof(d[0]));
        memcpy(&d[1], b, sizeof(d[1]));
        return same_ld(d[0], d[1]);
    case XG_TYPE_LDOUBLE:
        memcpy(&l[0], a, sizeof(l[0]));
        memcpy(&l[1], b, sizeof(l[1]));
        return same_ld(l[0], l[1]);
    case XG_TYPE_CFLOAT:
        memcpy(&fc[0], a, sizeof(fc[0]));
        memcpy(&fc[1], b, sizeof(fc[1]));
        return same_ld(crealf(fc[0]), crealf(fc[1])) &&
               same_ld(cimagf(fc[0]), cimagf(fc[1]));
    case XG_TYPE_CDOUBLE:
        memcpy(&dc[0], a, sizeof(dc[0]));
        memcpy(&dc[1], b, sizeof(dc[1]));
        return same_ld(creal(dc[0]), creal(dc[1])) &&
               same_ld(cimag(dc[0]), cimag(dc[1]));
    case XG_TYPE_CLDOUBLE:
        memcpy(&lc[0], a, sizeof(lc[0]));
        memcpy(&lc[1], b, sizeof(lc[1]));
        return same_ld(creall(lc[0]), creall(lc[1])) &&
               same_ld(cimagl(lc[0]), cimagl(lc[1]));
    default: return same_int(type, a, b);
    }
}

/* The edge values of @type into vals. */
static void make_vals(xg_op_type_t type)
{
    static const long double reals[NVALS] = {0.0L,      -0.0L, 1.0L,   -1.5L,
                                             3.25L,     1e10L, -1e-3L, INFINITY,
                                             -INFINITY, NAN};
    static const long double imags[NVALS] = {0.0L,  2.0L,  -0.5L, 1e-3L, 0.0L,
                                             -7.0L, 0.25L, 1.0L,  0.0L,  3.0L};
    unsigned w;
    uint64_t mask, ints[NVALS];
    int i;

    memset(vals, 0, sizeof(vals));
    for (i = 0; i < NVALS; i++) {
        float f       = (float)reals[i];
        double d      = (double)reals[i];
        long double l = reals[i];
        /* complex: finite values only, the NaN row reused as 2 - 3i */
        long double re = isnan(reals[i])   ? 2.0L
                         : isinf(reals[i]) ? 5.0L
                                           : reals[i];
        /* a complex is laid out as its real and imaginary parts (C11
         * 6.2.5), so no CMPLX macro is needed (clang's glibc has none) */
        float fc[2]       = {(float)re, (float)imags[i]};
        double dc[2]      = {(double)re, (double)imags[i]};
        long double lc[2] = {re, imags[i]};

        switch (type) {
        case XG_TYPE_FLOAT: memcpy(vals[i], &f, sizeof(f)); break;
        case XG_TYPE_DOUBLE: memcpy(vals[i], &d, sizeof(d)); break;
        case XG_TYPE_LDOUBLE: memcpy(vals[i], &l, sizeof(l)); break;
        case XG_TYPE_CFLOAT: memcpy(vals[i], fc, sizeof(fc)); break;
        case XG_TYPE_CDOUBLE: memcpy(vals[i], dc, sizeof(dc)); break;
        case XG_TYPE_CLDOUBLE: memcpy(vals[i], lc, sizeof(lc)); break;
        default:
            w    = int_width(type);
            mask = ~0ull >> (64 - w);
            /* 0, 1, 2, 3, 100, -1 / all ones, signed max, signed min
             * (INT_MIN and friends), alternating bits both ways */
            ints[0] = 0;
            ints[1] = 1;
            ints[2] = 2;
            ints[3] = 3;
            ints[4] = 100;
            ints[5] = mask;
            ints[6] = mask >> 1;
            ints[7] = (mask >> 1) + 1;
            ints[8] = 0x5555555555555555ull;
            ints[9] = 0xaaaaaaaaaaaaaaaaull;
            ints[i] &= mask;
            memcpy(vals[i], &ints[i], w / 8);
            break;
        }
    }
}

/* ---- the three forms against the reference ----------------------------- */

static _Alignas(64) uint8_t dst[NPAIRS * WIDEST + 64];
static _Alignas(64) uint8_t src[NPAIRS * WIDEST];
static _Alignas(64) uint8_t got_fetch[NPAIRS * WIDEST];
static _Alignas(64) uint8_t want[NPAIRS * WIDEST];

/* d of pair k is vals[k / NVALS], s is vals[k % NVALS] */
static void fill(xg_op_type_t type, uint8_t *d)
{
    size_t size = xg_op_type_size(type), k;

    for (k = 0; k < NPAIRS; k++) {
        memcpy(d + k * size, vals[k / NVALS], size);
        memcpy(src + k * size, vals[k % NVALS], size);
    }
}

static void check_results(xg_op_t op, xg_op_type_t type, const uint8_t *d,
                          const uint8_t *fetch, const char *form, int x)
{
    size_t size = xg_op_type_size(type), k;

    for (k = 0; k < NPAIRS; k++) {
        XG_CHECK(same(type, d + k * size, want + k * size),
                 "%s of %s, %s: d = value %zu, s = value %zu, x = value %d: "
                 "wrong result",
                 op_names[op], type_names[type], form, k / NVALS, k % NVALS, x);
        XG_CHECK((fetch == NULL) ||
                     same(type, fetch + k * size, vals[k / NVALS]),
                 "%s of %s, %s: pair %zu, x = value %d: wrong value fetched",
                 op_names[op], type_names[type], form, k, x);
    }
}

static void check_pair(xg_op_t op, xg_op_type_t type)
{
    size_t size           = xg_op_type_size(type), k;
    xg_op_kernel_t kernel = xg_op_kernel(op, type);
    ref_fn_t ref          = ref_for(type);
    int x, lock_free = (size <= 8);

    make_vals(type);
    for (x = 0; x < NVALS; x++) {
        for (k = 0; k < NPAIRS; k++) {
            ref(op, type, vals[k / NVALS], vals[k % NVALS], vals[x],
                want + k * size);
        }
        /* any alignment, with the fetch-out */
        fill(type, dst + 1);
        xg_op_apply(op, type, dst + 1, src, vals[x], got_fetch, NPAIRS);
        check_results(op, type, dst + 1, got_fetch, "xg_op_apply, unaligned",
                      x);
        fill(type, dst);
        xg_op_apply(op, type, dst, src, vals[x], NULL, NPAIRS);
        check_results(op, type, dst, NULL, "xg_op_apply", x);
        /* one element at a time with CPU atomics (or refused) */
        fill(type, dst);
        memset(got_fetch, 0, sizeof(got_fetch));
        for (k = 0; k < NPAIRS; k++) {
            XG_CHECK(xg_op_atomic(op, type, dst + k * size, src + k * size,
                                  vals[x], got_fetch + k * size) == lock_free,
                     "xg_op_atomic of %s on %s: %s", op_names[op],
                     type_names[type],
                     lock_free ? "refused" : "wider than 8 bytes, accepted");
            if (!lock_free) {
                xg_op_apply(op, type, dst + k * size, src + k * size, vals[x],
                            got_fetch + k * size, 1);
            }
        }
        check_results(op, type, dst, got_fetch, "xg_op_atomic", x);
        if ((size > 1) && lock_free) {
            XG_CHECK(!xg_op_atomic(op, type, dst + 1, src, vals[x], NULL),
                     "xg_op_atomic of %s on %s accepted an unaligned word",
                     op_names[op], type_names[type]);
        }
        if (kernel == NULL) {
            continue;
        }
        /* the reduction loop takes no operand: one pass is enough */
        fill(type, dst);
        kernel(dst, src, NPAIRS);
        check_results(op, type, dst, NULL, "xg_op_kernel", x);
        if (op < XG_OP_KERNEL_COUNT) {
            break;
        }
    }
}

static void test_every_pair(void)
{
    int op, type, n = 0;

    for (type = 0; type < XG_TYPE_COUNT; type++) {
        for (op = 0; op < XG_OP_COUNT; op++) {
            if (xg_op_valid((xg_op_t)op, (xg_op_type_t)type)) {
                check_pair((xg_op_t)op, (xg_op_type_t)type);
                n++;
            }
        }
    }
    XG_CHECK(n == 8 * 20 + 3 * 13 + 3 * 7, "%d pairs", n);
}

/* The documented NaN behaviour of MIN and MAX, spelled out once more. */
static void test_nan_min_max(void)
{
    double one = 1.0, nan = NAN, d;

    d = nan;
    xg_op_apply(XG_OP_MAX, XG_TYPE_DOUBLE, &d, &one, NULL, NULL, 1);
    XG_CHECK(isnan(d), "MAX(NaN, 1) is %g, expected NaN", d);
    d = one;
    xg_op_apply(XG_OP_MIN, XG_TYPE_DOUBLE, &d, &nan, NULL, NULL, 1);
    XG_CHECK(d == 1.0, "MIN(1, NaN) is %g, expected 1", d);
}

/* ---- contention ---------------------------------------------------------- */

#define ROUNDS 200000

static int64_t word; /* ACC through CAS loops against plain fetch-adds */
static double dword; /* SUM of doubles through CAS loops */
static int64_t prod; /* PROD by 1 (no change: no write) against fetch-adds */

/* @arg: NULL for plain CPU fetch-adds, else the table's atomic form */
static void *contend(void *arg)
{
    int64_t scale = 3, one = 1, two = 2, unit = 1;
    double half = 0.5;
    long i;

    for (i = 0; i < ROUNDS; i++) {
        if (arg != NULL) {
            XG_CHECK(
                xg_op_atomic(XG_OP_ACC, XG_TYPE_I64, &word, &two, &scale, NULL),
                "ACC");
            XG_CHECK(
                xg_op_atomic(XG_OP_PROD, XG_TYPE_I64, &prod, &unit, NULL, NULL),
                "PROD");
        } else {
            __atomic_fetch_add(&word, one, __ATOMIC_SEQ_CST);
            __atomic_fetch_add(&prod, one, __ATOMIC_SEQ_CST);
        }
        XG_CHECK(
            xg_op_atomic(XG_OP_SUM, XG_TYPE_DOUBLE, &dword, &half, NULL, NULL),
            "SUM");
    }
    return NULL;
}

static void test_contention(void)
{
    static int table = 1;
    pthread_t a, b;

    XG_CHECK(pthread_create(&a, NULL, contend, &table) == 0, "pthread_create");
    XG_CHECK(pthread_create(&b, NULL, contend, NULL) == 0, "pthread_create");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    XG_CHECK(word == 7 * (int64_t)ROUNDS,
             "ACC against fetch-add: %lld, "
             "expected %lld",
             (long long)word, 7LL * ROUNDS);
    XG_CHECK(prod == ROUNDS, "PROD against fetch-add: %lld, expected %d",
             (long long)prod, ROUNDS);
    XG_CHECK(dword == (double)ROUNDS,
             "double SUM from two threads: %f, "
             "expected %d",
             dword, ROUNDS);
}

int main(void)
{
    test_valid_and_sizes();
    test_type_of();
    test_every_pair();
    test_nan_min_max();
    test_contention();
    printf("typed-operation table: every pair, three forms, contention: "
           "ok\n");
    return XG_TEST_PASS;
}
