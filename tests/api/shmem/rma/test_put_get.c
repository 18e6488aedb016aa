/*
 * Contiguous put and get: every standard RMA type, the sized forms
 * (8..128 bits), putmem/getmem and all their _nbi forms, each with 0, 1, 7,
 * 8, 64 and 4096 elements; then 1 MiB of data plus 3 elements (an odd tail)
 * for every sized and byte form and for the blocking put/get of a spread of
 * types (BIG_TYPES).  Every PE puts to its right neighbour and gets from
 * it; the data is checked element by element and the element after the
 * range must be untouched.  Each round uses new values, so data left from
 * an earlier round cannot pass.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define GUARD_BYTES  64
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The large case: 1 MiB of data plus 3 elements. */
#define BIG_BYTES       (1u << 20)
#define BIG_COUNT(size) (BIG_BYTES / (size) + 3)

static const size_t counts[] = {0, 1, 7, 8, 64, 4096};

/* The types that also move BIG_COUNT elements. */
#define BIG_TYPES(X)           \
    X(char, char)              \
    X(short, short)            \
    X(int, int)                \
    X(long, long)              \
    X(long long, longlong)     \
    X(float, float)            \
    X(double, double)          \
    X(long double, longdouble) \
    X(uint64_t, uint64)        \
    X(size_t, size)            \
    X(ptrdiff_t, ptrdiff)

static int me, npes, right, left;
static unsigned salt;
static unsigned char *sym;   /* symmetric, as large as the largest case */
static unsigned char *local; /* local source or destination */

/* Small enough for every type (signed char included), exact in float, and
 * different for each PE (7 * pe is distinct modulo 64 for pe < 64). */
static int value(int pe, size_t i, unsigned round)
{
    return (int)((i * 31 + (size_t)pe * 7 + round * 11) & 63);
}

static unsigned char byte_value(int pe, size_t i, unsigned round)
{
    return (unsigned char)(i * 131 + (size_t)pe * 17 + round * 29 + 1);
}

/*
 * Typed put/get (and _nbi) of n elements.  The guard element after the
 * range holds the sentinel -1 and must keep it.
 */
#define TEST_TYPED(TYPE, TYPENAME)                                \
    static void test_##TYPENAME(size_t n, int nbi)                \
    {                                                             \
        TYPE *dst = (TYPE *)sym, *buf = (TYPE *)local;            \
        size_t i;                                                 \
                                                                  \
        /* put: my values into the right neighbour's dst */       \
        salt++;                                                   \
        for (i = 0; i <= n; i++) {                                \
            dst[i] = (TYPE)-1;                                    \
            buf[i] = (TYPE)value(me, i, salt);                    \
        }                                                         \
        shmem_barrier_all();                                      \
        if (nbi) {                                                \
            shmem_##TYPENAME##_put_nbi(dst, buf, n, right);       \
            shmem_quiet();                                        \
        } else {                                                  \
            shmem_##TYPENAME##_put(dst, buf, n, right);           \
        }                                                         \
        shmem_barrier_all();                                      \
        for (i = 0; i < n; i++) {                                 \
            XG_CHECK(dst[i] == (TYPE)value(left, i, salt),        \
                     #TYPENAME "_put%s n=%zu: element %zu wrong", \
                     nbi ? "_nbi" : "", n, i);                    \
        }                                                         \
        XG_CHECK(dst[n] == (TYPE)-1,                              \
                 #TYPENAME "_put n=%zu wrote past "               \
                           "the end",                             \
                 n);                                              \
        shmem_barrier_all();                                      \
                                                                  \
        /* get: the right neighbour's values into my buffer */    \
        salt++;                                                   \
        for (i = 0; i <= n; i++) {                                \
            dst[i] = (TYPE)value(me, i, salt);                    \
            buf[i] = (TYPE)-1;                                    \
        }                                                         \
        shmem_barrier_all();                                      \
        if (nbi) {                                                \
            shmem_##TYPENAME##_get_nbi(buf, dst, n, right);       \
            shmem_quiet();                                        \
        } else {                                                  \
            shmem_##TYPENAME##_get(buf, dst, n, right);           \
        }                                                         \
        for (i = 0; i < n; i++) {                                 \
            XG_CHECK(buf[i] == (TYPE)value(right, i, salt),       \
                     #TYPENAME "_get%s n=%zu: element %zu wrong", \
                     nbi ? "_nbi" : "", n, i);                    \
        }                                                         \
        XG_CHECK(buf[n] == (TYPE)-1,                              \
                 #TYPENAME "_get n=%zu read past the "            \
                           "end",                                 \
                 n);                                              \
        shmem_barrier_all();                                      \
    }

XG_SHMEM_RMA_TYPES(TEST_TYPED)

typedef void (*bytes_func_t)(void *dest, const void *source, size_t nelems,
                             int pe);

/* Untyped put/get of n elements of size bytes, checked byte by byte. */
static void test_bytes(const char *name, bytes_func_t put, bytes_func_t get,
                       size_t n, size_t size)
{
    size_t len = n * size, i;

    salt++;
    memset(sym, 0xa5, len + GUARD_BYTES);
    for (i = 0; i < len; i++) {
        local[i] = byte_value(me, i, salt);
    }
    shmem_barrier_all();
    put(sym, local, n, right);
    shmem_quiet();
    shmem_barrier_all();
    for (i = 0; i < len; i++) {
        XG_CHECK(sym[i] == byte_value(left, i, salt),
                 "%s put n=%zu: byte "
                 "%zu wrong",
                 name, n, i);
    }
    for (i = len; i < len + GUARD_BYTES; i++) {
        XG_CHECK(sym[i] == 0xa5, "%s put n=%zu wrote byte %zu past the end",
                 name, n, i);
    }
    shmem_barrier_all();

    salt++;
    for (i = 0; i < len; i++) {
        sym[i] = byte_value(me, i, salt);
    }
    memset(local, 0x5a, len + GUARD_BYTES);
    shmem_barrier_all();
    get(local, sym, n, right);
    shmem_quiet();
    for (i = 0; i < len; i++) {
        XG_CHECK(local[i] == byte_value(right, i, salt),
                 "%s get n=%zu: "
                 "byte %zu wrong",
                 name, n, i);
    }
    for (i = len; i < len + GUARD_BYTES; i++) {
        XG_CHECK(local[i] == 0x5a, "%s get n=%zu read byte %zu past the end",
                 name, n, i);
    }
    shmem_barrier_all();
}

static const struct {
    const char *name;
    bytes_func_t put, get;
    size_t size;
} sized[] = {
    {"putmem/getmem", shmem_putmem, shmem_getmem, 1},
    {"putmem_nbi/getmem_nbi", shmem_putmem_nbi, shmem_getmem_nbi, 1},
    {"put8/get8", shmem_put8, shmem_get8, 1},
    {"put16/get16", shmem_put16, shmem_get16, 2},
    {"put32/get32", shmem_put32, shmem_get32, 4},
    {"put64/get64", shmem_put64, shmem_get64, 8},
    {"put128/get128", shmem_put128, shmem_get128, 16},
    {"put8_nbi/get8_nbi", shmem_put8_nbi, shmem_get8_nbi, 1},
    {"put16_nbi/get16_nbi", shmem_put16_nbi, shmem_get16_nbi, 2},
    {"put32_nbi/get32_nbi", shmem_put32_nbi, shmem_get32_nbi, 4},
    {"put64_nbi/get64_nbi", shmem_put64_nbi, shmem_get64_nbi, 8},
    {"put128_nbi/get128_nbi", shmem_put128_nbi, shmem_get128_nbi, 16},
};

int main(void)
{
    size_t max_bytes = BIG_BYTES + 4 * 16 + GUARD_BYTES;
    size_t c, s;
    int nbi;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    sym        = shmem_malloc(max_bytes);
    local      = malloc(max_bytes);
    XG_CHECK((sym != NULL) && (local != NULL), "allocating %zu bytes",
             max_bytes);

#define RUN_TYPED(TYPE, TYPENAME) test_##TYPENAME(counts[c], nbi);
    for (c = 0; c < ARRAY_LEN(counts); c++) {
        for (nbi = 0; nbi <= 1; nbi++) {
            XG_SHMEM_RMA_TYPES(RUN_TYPED)
        }
        for (s = 0; s < ARRAY_LEN(sized); s++) {
            test_bytes(sized[s].name, sized[s].put, sized[s].get, counts[c],
                       sized[s].size);
        }
    }
#undef RUN_TYPED

#define RUN_BIG(TYPE, TYPENAME) test_##TYPENAME(BIG_COUNT(sizeof(TYPE)), 0);
    BIG_TYPES(RUN_BIG)
#undef RUN_BIG
    for (s = 0; s < ARRAY_LEN(sized); s++) {
        test_bytes(sized[s].name, sized[s].put, sized[s].get,
                   BIG_COUNT(sized[s].size), sized[s].size);
    }

    /* a transfer of nothing touches nothing, whatever the addresses */
    shmem_putmem(NULL, NULL, 0, right);
    shmem_getmem(NULL, NULL, 0, right);
    shmem_long_put(NULL, NULL, 0, right);

    shmem_free(sym);
    free(local);
    shmem_finalize();
    return 0;
}
