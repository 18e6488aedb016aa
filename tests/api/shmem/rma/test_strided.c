/*
 * Strided transfers: iput/iget (element strides) and ibput/ibget (blocks of
 * bsize elements whose starts are dst/sst elements apart), typed for
 * several types and sized for 8..128 bits, with strides 1, 2, 3 and 7 and
 * blocks shorter than, equal to and (for the source) longer than contiguous.
 * Elements between the strided positions must stay untouched, and a count
 * of 0 must change nothing.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define MAX_ELEMS 4096
#define SENTINEL  0x5a

static int me, npes, right, left;
static unsigned round_no;
static unsigned char *sym;

struct shape {
    ptrdiff_t dst, sst;
    size_t bsize, nblocks;
};

/* {dst, sst, bsize, nblocks}.  iput/iget take the shapes with bsize 1;
 * {3, 1, 2, 5} reads overlapping source blocks; the last two move nothing. */
static const struct shape shapes[] = {
    {1, 1, 1, 5}, {2, 1, 1, 9},  {1, 3, 1, 9},  {7, 2, 1, 100},
    {3, 3, 3, 4}, {4, 2, 2, 10}, {5, 2, 2, 30}, {2, 7, 2, 50},
    {3, 1, 2, 5}, {2, 2, 1, 0},  {3, 1, 0, 4},
};

static size_t span(ptrdiff_t stride, const struct shape *s)
{
    return (s->nblocks == 0) ? 0 : (s->nblocks - 1) * (size_t)stride + s->bsize;
}

/* Element e of a strided array is at index (e / bsize) * stride + e % bsize. */
static size_t position(size_t e, ptrdiff_t stride, size_t bsize)
{
    return (e / bsize) * (size_t)stride + e % bsize;
}

static unsigned char byte_value(int pe, size_t i)
{
    return (unsigned char)(i * 37 + (size_t)pe * 11 + round_no * 3 + 1);
}

/*
 * Checks @len bytes of @buf, an array of @size-byte elements written at
 * stride @stride from a source filled by @pe at stride @src_stride: written
 * elements must match, all other bytes must hold SENTINEL.
 */
static void check(const char *what, const unsigned char *buf, size_t len,
                  size_t size, ptrdiff_t stride, ptrdiff_t src_stride,
                  const struct shape *s, int pe)
{
    size_t total          = s->bsize * s->nblocks, e, b, at;
    unsigned char *expect = malloc(len);

    XG_CHECK(expect != NULL, "malloc");
    memset(expect, SENTINEL, len);
    for (e = 0; e < total; e++) {
        size_t to   = position(e, stride, s->bsize) * size;
        size_t from = position(e, src_stride, s->bsize) * size;

        for (b = 0; b < size; b++) {
            expect[to + b] = byte_value(pe, from + b);
        }
    }
    for (at = 0; at < len; at++) {
        XG_CHECK(buf[at] == expect[at],
                 "%s dst=%td sst=%td bsize=%zu "
                 "nblocks=%zu size=%zu: byte %zu is %#x, expected %#x",
                 what, s->dst, s->sst, s->bsize, s->nblocks, size, at, buf[at],
                 expect[at]);
    }
    free(expect);
}

typedef void (*ibfunc_t)(void *dest, const void *source, ptrdiff_t dst,
                         ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);

/* One shape through one put and one get routine of @size-byte elements. */
static void run(const char *name, ibfunc_t put, ibfunc_t get, size_t size,
                const struct shape *s)
{
    size_t dlen          = (span(s->dst, s) + 1) * size;
    size_t slen          = (span(s->sst, s) + 1) * size;
    unsigned char *local = malloc(slen > dlen ? slen : dlen);
    size_t i;

    XG_CHECK(local != NULL, "malloc");
    XG_CHECK(dlen <= MAX_ELEMS * 16 && slen <= MAX_ELEMS * 16, "shape");

    /* put: strided source here, strided destination on the right */
    round_no++;
    memset(sym, SENTINEL, dlen);
    for (i = 0; i < slen; i++) {
        local[i] = byte_value(me, i);
    }
    shmem_barrier_all();
    put(sym, local, s->dst, s->sst, s->bsize, s->nblocks, right);
    shmem_barrier_all();
    check(name, sym, dlen, size, s->dst, s->sst, s, left);
    shmem_barrier_all();

    /* get: strided source on the right, strided destination here */
    round_no++;
    for (i = 0; i < slen; i++) {
        sym[i] = byte_value(me, i);
    }
    memset(local, SENTINEL, dlen);
    shmem_barrier_all();
    get(local, sym, s->dst, s->sst, s->bsize, s->nblocks, right);
    check(name, local, dlen, size, s->dst, s->sst, s, right);
    shmem_barrier_all();
    free(local);
}

/* Adapters: every routine under test as an ibfunc_t.  The iput/iget ones
 * are used only with bsize 1 and pass nblocks as nelems. */
#define ADAPT_TYPED(TYPE, TYPENAME)                                        \
    static void ib_##TYPENAME##_put(void *d, const void *s, ptrdiff_t dst, \
                                    ptrdiff_t sst, size_t bsize,           \
                                    size_t nblocks, int pe)                \
    {                                                                      \
        shmem_##TYPENAME##_ibput(d, s, dst, sst, bsize, nblocks, pe);      \
    }                                                                      \
    static void ib_##TYPENAME##_get(void *d, const void *s, ptrdiff_t dst, \
                                    ptrdiff_t sst, size_t bsize,           \
                                    size_t nblocks, int pe)                \
    {                                                                      \
        shmem_##TYPENAME##_ibget(d, s, dst, sst, bsize, nblocks, pe);      \
    }                                                                      \
    static void i_##TYPENAME##_put(void *d, const void *s, ptrdiff_t dst,  \
                                   ptrdiff_t sst, size_t bsize,            \
                                   size_t nblocks, int pe)                 \
    {                                                                      \
        (void)bsize;                                                       \
        shmem_##TYPENAME##_iput(d, s, dst, sst, nblocks, pe);              \
    }                                                                      \
    static void i_##TYPENAME##_get(void *d, const void *s, ptrdiff_t dst,  \
                                   ptrdiff_t sst, size_t bsize,            \
                                   size_t nblocks, int pe)                 \
    {                                                                      \
        (void)bsize;                                                       \
        shmem_##TYPENAME##_iget(d, s, dst, sst, nblocks, pe);              \
    }

#define TEST_TYPES(X)          \
    X(char, char)              \
    X(short, short)            \
    X(int, int)                \
    X(long, long)              \
    X(float, float)            \
    X(double, double)          \
    X(long double, longdouble) \
    X(uint8_t, uint8)          \
    X(uint64_t, uint64)        \
    X(ptrdiff_t, ptrdiff)
TEST_TYPES(ADAPT_TYPED)

#define ADAPT_SIZED(SIZE)                                                  \
    static void i##SIZE##_put(void *d, const void *s, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t bsize, size_t nblocks, \
                              int pe)                                      \
    {                                                                      \
        (void)bsize;                                                       \
        shmem_iput##SIZE(d, s, dst, sst, nblocks, pe);                     \
    }                                                                      \
    static void i##SIZE##_get(void *d, const void *s, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t bsize, size_t nblocks, \
                              int pe)                                      \
    {                                                                      \
        (void)bsize;                                                       \
        shmem_iget##SIZE(d, s, dst, sst, nblocks, pe);                     \
    }
XG_SHMEM_RMA_SIZES(ADAPT_SIZED)

static const struct {
    const char *name;
    ibfunc_t put, get;
    size_t size;
    int blocked;
} routines[] = {
#define ROW_TYPED(TYPE, TYPENAME)                                        \
    {#TYPENAME "_ibput/ibget", ib_##TYPENAME##_put, ib_##TYPENAME##_get, \
     sizeof(TYPE), 1},                                                   \
        {#TYPENAME "_iput/iget", i_##TYPENAME##_put, i_##TYPENAME##_get, \
         sizeof(TYPE), 0},
    TEST_TYPES(ROW_TYPED)
#define ROW_SIZED(SIZE)                                                        \
    {"ibput" #SIZE "/ibget" #SIZE, shmem_ibput##SIZE, shmem_ibget##SIZE,       \
     (SIZE) / 8, 1},                                                           \
        {"iput" #SIZE "/iget" #SIZE, i##SIZE##_put, i##SIZE##_get, (SIZE) / 8, \
         0},
        XG_SHMEM_RMA_SIZES(ROW_SIZED)};

int main(void)
{
    size_t r, s;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    sym        = shmem_malloc(MAX_ELEMS * 16);
    XG_CHECK(sym != NULL, "shmem_malloc");

    for (r = 0; r < sizeof(routines) / sizeof(routines[0]); r++) {
        for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
            if (routines[r].blocked || (shapes[s].bsize == 1)) {
                run(routines[r].name, routines[r].put, routines[r].get,
                    routines[r].size, &shapes[s]);
            }
        }
    }

    shmem_free(sym);
    shmem_finalize();
    return 0;
}
