/*
 * ARMCI one-sided transfers, checked byte by byte: contiguous put and get
 * of odd sizes (1 byte to past the NIC's rendezvous limit); strided
 * PutS/GetS and their non-blocking forms for every stride level 1..8
 * with odd counts and padded strides; PutV/GetV over two allocations;
 * single values; Put_flag and PutS_flag; armci_read/write_strided and
 * ARMCI_Copy; direct access to base_ptrs[me] between Access_begin/end.
 * Every process talks to its right neighbour.
 */
#include <string.h>

#include "armci_test.h"

#define AREA (64 * 1024)

static int right, left;

static void test_contiguous(void)
{
    static const int sizes[] = {1, 3, 8, 17, 1000, 8191, 9000, 40000};
    void **base              = at_malloc(AREA);
    static unsigned char src[AREA], back[AREA];
    unsigned char *mine = base[at_me];
    size_t k;
    int i;

    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        int n = sizes[k], off = (int)k + 1;

        ARMCI_Access_begin(mine);
        memset(mine, 0x5a, AREA);
        ARMCI_Access_end(mine);
        for (i = 0; i < n; i++) {
            src[i] = at_byte(at_me, i + (long)k);
        }
        ARMCI_Barrier();
        CHECK(ARMCI_Put(src, (char *)base[right] + off, n, right) == 0, "put");
        memset(src, 0, (size_t)n); /* reusable once the put returns */
        ARMCI_Barrier();
        ARMCI_Access_begin(mine);
        for (i = 0; i < AREA; i++) {
            unsigned char want = ((i >= off) && (i < off + n))
                                     ? at_byte(left, i - off + (long)k)
                                     : 0x5a;

            CHECK(mine[i] == want, "put of %d: byte %d is %u, not %u", n, i,
                  mine[i], want);
        }
        ARMCI_Access_end(mine);
        CHECK(ARMCI_Get((char *)base[right] + off, back, n, right) == 0, "get");
        for (i = 0; i < n; i++) {
            CHECK(back[i] == at_byte(at_me, i + (long)k),
                  "get of %d: byte "
                  "%d",
                  n, i);
        }
        ARMCI_Barrier();
    }
    at_free(base);
}

/* A shape of @levels levels: rows of 3 + levels bytes, odd counts, the
 * remote rows 2 bytes apart more than the local ones. */
static void shape(int levels, int *count, int *sstride, int *dstride, int *span)
{
    static const int counts[] = {3, 2, 3, 1, 2, 2, 3, 2};
    int i, s = 3 + levels, d = 3 + levels;

    count[0] = 3 + levels;
    for (i = 0; i < levels; i++) {
        count[i + 1] = counts[i];
        sstride[i]   = s + 1;
        dstride[i]   = d + 2;
        s            = sstride[i] * counts[i];
        d            = dstride[i] * counts[i];
    }
    *span = (s > d) ? s : d;
}

/* Whether byte @at of the side with strides @st lies in a row, and its
 * index in row-major order of the shape. */
static int in_shape(int levels, const int *count, const int *st, int at,
                    long *index)
{
    int idx[ARMCI_MAX_STRIDE_LEVEL] = {0}, i;
    long n                          = 0;

    for (;;) {
        int off = 0;

        for (i = 0; i < levels; i++) {
            off += idx[i] * st[i];
        }
        if ((at >= off) && (at < off + count[0])) {
            *index = n * count[0] + (at - off);
            return 1;
        }
        n++;
        for (i = 0; i < levels; i++) {
            if (++idx[i] < count[i + 1]) {
                break;
            }
            idx[i] = 0;
        }
        if (i == levels) {
            return 0;
        }
    }
}

static void test_strided(void)
{
    void **base = at_malloc(AREA);
    static unsigned char src[AREA], back[AREA], packed[AREA];
    unsigned char *mine = base[at_me];
    int count[ARMCI_MAX_STRIDE_LEVEL + 1], ss[ARMCI_MAX_STRIDE_LEVEL],
        ds[ARMCI_MAX_STRIDE_LEVEL], span, levels, i, nb;
    long idx;

    for (nb = 0; nb < 2; nb++) {
        for (levels = 1; levels <= ARMCI_MAX_STRIDE_LEVEL; levels++) {
            armci_hdl_t h;

            shape(levels, count, ss, ds, &span);
            CHECK(span <= AREA, "shape too large");
            /* the source patch: packed data written into strided rows */
            for (i = 0; i < AREA; i++) {
                packed[i] = at_byte(at_me, i + levels);
            }
            memset(src, 0, AREA);
            armci_write_strided(src, levels, ss, count, (char *)packed);
            ARMCI_Access_begin(mine);
            memset(mine, 0, AREA);
            ARMCI_Access_end(mine);
            ARMCI_Barrier();
            if (nb) {
                ARMCI_INIT_HANDLE(&h);
                CHECK(ARMCI_NbPutS(src, ss, base[right], ds, count, levels,
                                   right, &h) == 0,
                      "nbputs");
                CHECK(ARMCI_Wait(&h) == 0, "wait");
            } else {
                CHECK(ARMCI_PutS(src, ss, base[right], ds, count, levels,
                                 right) == 0,
                      "puts");
            }
            ARMCI_Barrier();
            for (i = 0; i < AREA; i++) {
                unsigned char want = in_shape(levels, count, ds, i, &idx)
                                         ? at_byte(left, idx + levels)
                                         : 0;

                CHECK(mine[i] == want, "%d levels: byte %d is %u, not %u",
                      levels, i, mine[i], want);
            }
            /* back with the strides swapped, then packed and compared */
            memset(back, 0, AREA);
            if (nb) {
                ARMCI_INIT_HANDLE(&h);
                CHECK(ARMCI_NbGetS(base[right], ds, back, ss, count, levels,
                                   right, &h) == 0,
                      "nbgets");
                CHECK(ARMCI_Wait(&h) == 0, "wait");
            } else {
                CHECK(ARMCI_GetS(base[right], ds, back, ss, count, levels,
                                 right) == 0,
                      "gets");
            }
            memset(packed, 0, AREA);
            armci_read_strided(back, levels, ss, count, (char *)packed);
            {
                long total = count[0];

                for (i = 1; i <= levels; i++) {
                    total *= count[i];
                }
                for (idx = 0; idx < total; idx++) {
                    CHECK(packed[idx] == at_byte(at_me, idx + levels),
                          "gets %d levels: packed byte %ld", levels, idx);
                }
            }
            ARMCI_Barrier();
        }
    }
    at_free(base);
}

static void test_vector(void)
{
    enum {
        SEGS = 12,
        LEN  = 20
    };
    void **a = at_malloc(2048), **b = at_malloc(1024);
    void *rem[SEGS], *loc[SEGS], *mine_seg[SEGS];
    static char src[SEGS][LEN], back[SEGS][LEN];
    armci_giov_t iov[2];
    armci_hdl_t h;
    int i, j;

    for (i = 0; i < SEGS; i++) {
        int off = (i % 2) ? 150 * i : 70 * i;

        rem[i]      = (char *)((i % 2) ? a : b)[right] + off;
        mine_seg[i] = (char *)((i % 2) ? a : b)[at_me] + off;
        loc[i]      = src[i];
        for (j = 0; j < LEN; j++) {
            src[i][j] = (char)at_byte(at_me, i * LEN + j);
        }
    }
    memset(a[at_me], 0, 2048);
    memset(b[at_me], 0, 1024);
    ARMCI_Barrier();
    /* two descriptors: the first half, then the rest */
    iov[0] = (armci_giov_t){loc, rem, LEN, SEGS / 2};
    iov[1] = (armci_giov_t){loc + SEGS / 2, rem + SEGS / 2, LEN, SEGS / 2};
    CHECK(ARMCI_PutV(iov, 2, right) == 0, "putv");
    ARMCI_Barrier();
    for (i = 0; i < SEGS; i++) {
        for (j = 0; j < LEN; j++) {
            CHECK(((char *)mine_seg[i])[j] == (char)at_byte(left, i * LEN + j),
                  "putv segment %d", i);
        }
        loc[i] = back[i];
    }
    iov[0] = (armci_giov_t){rem, loc, LEN, SEGS / 2};
    iov[1] = (armci_giov_t){rem + SEGS / 2, loc + SEGS / 2, LEN, SEGS / 2};
    ARMCI_INIT_HANDLE(&h);
    CHECK(ARMCI_NbGetV(iov, 2, right, &h) == 0, "nbgetv");
    CHECK(ARMCI_Wait(&h) == 0, "wait");
    CHECK(memcmp(back, src, sizeof(src)) == 0, "getv");
    ARMCI_Barrier();
    at_free(a);
    at_free(b);
}

static void test_values_flags(void)
{
    void **base = at_malloc(256);
    char *mine  = base[at_me];
    static char data[100];
    int i, *flag = (int *)(mine + 200);
    armci_hdl_t h;

    memset(mine, 0, 256);
    ARMCI_Barrier();
    CHECK(ARMCI_PutValueInt(at_me + 1, base[right], right) == 0, "int");
    CHECK(ARMCI_PutValueLong(-7L * at_me, (char *)base[right] + 8, right) == 0,
          "long");
    CHECK(ARMCI_PutValueFloat(0.5f + at_me, (char *)base[right] + 16, right) ==
              0,
          "float");
    ARMCI_INIT_HANDLE(&h);
    CHECK(ARMCI_NbPutValueDouble(1.25 * at_me, (char *)base[right] + 24, right,
                                 &h) == 0,
          "double");
    ARMCI_Wait(&h);
    ARMCI_Barrier();
    CHECK(ARMCI_GetValueInt(base[right], right) == at_me + 1, "get int");
    CHECK(ARMCI_GetValueLong((char *)base[right] + 8, right) == -7L * at_me,
          "get long");
    CHECK(ARMCI_GetValueFloat((char *)base[right] + 16, right) == 0.5f + at_me,
          "get float");
    CHECK(ARMCI_GetValueDouble((char *)base[right] + 24, right) == 1.25 * at_me,
          "get double");
    ARMCI_Barrier();
    /* flagged: the receiver waits for the flag, then sees the data */
    for (i = 0; i < 100; i++) {
        data[i] = (char)at_byte(at_me, i);
    }
    CHECK(ARMCI_Put_flag(data, (char *)base[right] + 32, 100,
                         (int *)((char *)base[right] + 200), 1, right) == 0,
          "put_flag");
    while (*(volatile int *)flag != 1) {
        ARMCIX_Progress();
    }
    ARMCI_Access_begin(mine);
    for (i = 0; i < 100; i++) {
        CHECK(mine[32 + i] == (char)at_byte(left, i), "flagged data %d", i);
    }
    ARMCI_Access_end(mine);
    ARMCI_Barrier();
    {
        int count[2] = {10, 5}, ss[1] = {20}, ds[1] = {12};

        CHECK(ARMCI_PutS_flag(data, ss, (char *)base[right] + 140, ds, count, 1,
                              (int *)((char *)base[right] + 200), 2,
                              right) == 0,
              "puts_flag");
        while (*(volatile int *)flag != 2) {
            ARMCIX_Progress();
        }
        for (i = 0; i < 5; i++) {
            CHECK(mine[140 + 12 * i] == (char)at_byte(left, 20 * i),
                  "flagged row %d", i);
        }
    }
    ARMCI_Copy(data, data + 50, 40);
    CHECK(data[50] == (char)at_byte(at_me, 0), "copy");
    ARMCI_Barrier();
    at_free(base);
}

int main(int argc, char **argv)
{
    at_start(&argc, &argv);
    right = (at_me + 1) % at_np;
    left  = (at_me + at_np - 1) % at_np;
    test_contiguous();
    test_strided();
    test_vector();
    test_values_flags();
    return at_finish("test_armci_rma");
}
