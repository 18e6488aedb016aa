/*
 * Broadcast: on every test team, from the first, a middle and the last
 * member, for a spread of types (0, 1, 7 and 1000 elements), for the byte
 * form from 0 bytes to 64 KiB (4 MiB + 3 on the world and the reverse
 * team, which keeps the test quick under the sanitizers), and through the
 * C11 shmem_broadcast; then the deprecated broadcast32/64 on active sets
 * (the job, the even PEs), where the root's dest must stay untouched and
 * pSync must end at SHMEM_SYNC_VALUE.  Each call uses new values (a round
 * number), the element after the range must keep its sentinel, and
 * back-to-back broadcasts into the same dest need no synchronization in
 * between.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "coll_test.h"

#define BIG (4u << 20)

static int me, npes;
static unsigned round_no;
static unsigned char *src, *dst;
static long psync[SHMEM_BCAST_SYNC_SIZE];

static unsigned char byte_at(size_t i, int root, unsigned round)
{
    return (unsigned char)(i * 131 + (size_t)root * 17 + round * 29 + 1);
}

/* Small values, exact in every type. */
static int value_at(size_t i, int root, unsigned round)
{
    return (int)((i * 7 + (size_t)root * 5 + round * 3) & 63);
}

#define CHECK_TYPED(TYPE, TYPENAME)                                         \
    static void typed_##TYPENAME(const char *what, shmem_team_t team,       \
                                 int root, size_t n)                        \
    {                                                                       \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                            \
        unsigned r = ++round_no;                                            \
        size_t i;                                                           \
                                                                            \
        for (i = 0; i < n; i++) {                                           \
            s[i] = (TYPE)value_at(i, shmem_team_my_pe(team), r);            \
        }                                                                   \
        for (i = 0; i <= n; i++) {                                          \
            d[i] = (TYPE)-1;                                                \
        }                                                                   \
        XG_CHECK(shmem_##TYPENAME##_broadcast(team, d, s, n, root) == 0,    \
                 "%s " #TYPENAME " broadcast", what);                       \
        for (i = 0; i < n; i++) {                                           \
            XG_CHECK(d[i] == (TYPE)value_at(i, root, r),                    \
                     "%s " #TYPENAME " root %d n %zu: element %zu wrong",   \
                     what, root, n, i);                                     \
        }                                                                   \
        XG_CHECK(d[n] == (TYPE)-1, "%s " #TYPENAME ": past the end", what); \
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
    X(size_t, size)
TEST_TYPES(CHECK_TYPED)

static void bytes(const char *what, shmem_team_t team, int root, size_t n)
{
    unsigned r = ++round_no;
    size_t i;

    for (i = 0; i < n; i++) {
        src[i] = byte_at(i, shmem_team_my_pe(team), r);
    }
    memset(dst, 0xee, n + 1);
    XG_CHECK(shmem_broadcastmem(team, dst, src, n, root) == 0,
             "%s broadcastmem", what);
    for (i = 0; i < n; i++) {
        if (dst[i] != byte_at(i, root, r)) {
            XG_CHECK(0,
                     "%s broadcastmem root %d, %zu bytes: byte %zu is "
                     "%#x, expected %#x",
                     what, root, n, i, dst[i], byte_at(i, root, r));
        }
    }
    XG_CHECK(dst[n] == 0xee, "%s broadcastmem: byte past the end", what);
}

static void generic(shmem_team_t team, int root)
{
    int *si = (int *)src, *di = (int *)dst;
    double *sd = (double *)src, *dd = (double *)dst;

    si[0] = 100 + shmem_team_my_pe(team);
    XG_CHECK(shmem_broadcast(team, di, si, 1, root) == 0, "C11 int");
    XG_CHECK(di[0] == 100 + root, "C11 int broadcast gave %d", di[0]);
    sd[0] = 0.5 + shmem_team_my_pe(team);
    XG_CHECK(shmem_broadcast(team, dd, sd, 1, root) == 0, "C11 double");
    XG_CHECK(dd[0] == 0.5 + root, "C11 double broadcast gave %g", dd[0]);
}

/* @big: also the 4 MiB + 3 case (on two of the teams: it is the slow one
 * under the sanitizers) */
static void team_case(const char *what, shmem_team_t team, int big)
{
    static const size_t counts[] = {0, 1, 7, 1000};
    static const size_t sizes[]  = {0, 1, 100, 65536, BIG + 3};
    int n = shmem_team_n_pes(team), roots[3] = {0, n / 2, n - 1}, k;
    size_t c, nsizes = sizeof(sizes) / sizeof(sizes[0]) - (big ? 0 : 1);

    for (k = 0; k < 3; k++) {
        for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
#define RUN_TYPED(TYPE, TYPENAME) \
    typed_##TYPENAME(what, team, roots[k], counts[c]);
            TEST_TYPES(RUN_TYPED)
#undef RUN_TYPED
        }
        for (c = 0; c < nsizes; c++) {
            bytes(what, team, roots[k], sizes[c]);
        }
        generic(team, roots[k]);
    }
}

/* broadcast32/64 over PE_start + i * 2^logstride, i < size. */
static void active_set(int start, int logstride, int size)
{
    int root, i, bits;
    unsigned r;

    for (bits = 32; bits <= 64; bits += 32) {
        for (root = 0; root < size; root++) {
            size_t n = 333, len = n * (size_t)bits / 8;

            r = ++round_no;
            for (i = 0; i < (int)len; i++) {
                src[i] = byte_at((size_t)i, (me - start) >> logstride, r);
            }
            memset(dst, 0xee, len + 1);
            if (bits == 32) {
                shmem_broadcast32(dst, src, n, root, start, logstride, size,
                                  psync);
            } else {
                shmem_broadcast64(dst, src, n, root, start, logstride, size,
                                  psync);
            }
            for (i = 0; i < (int)len; i++) {
                unsigned char want = ((me - start) >> logstride == root)
                                         ? 0xee
                                         : byte_at((size_t)i, root, r);

                XG_CHECK(dst[i] == want,
                         "broadcast%d root %d: byte %d is %#x, expected %#x",
                         bits, root, i, dst[i], want);
            }
            /* the same pSync is reused: the set must have finished */
            shmem_barrier_all();
        }
    }
}

int main(void)
{
    int t, i;

    coll_test_start(BIG + 64, &src, &dst);
    me   = shmem_my_pe();
    npes = shmem_n_pes();

    for (t = 0; t < COLL_TEST_TEAMS; t++) {
        /* the same round numbers on every member of the team */
        round_no = (unsigned)(t + 1) * 100000u;
        if (coll_teams[t].team != SHMEM_TEAM_INVALID) {
            team_case(coll_teams[t].name, coll_teams[t].team,
                      (t == 0) || (t == 3));
        }
    }

    shmem_barrier_all();
    round_no = 0;
    active_set(0, 0, npes);
    if (me % 2 == 0) {
        round_no = 1000;
        active_set(0, 1, (npes + 1) / 2);
    } else {
        /* the odd PEs wait in the barriers the evens' loop calls */
        for (i = 0; i < 2 * ((npes + 1) / 2); i++) {
            shmem_barrier_all();
        }
    }
    return coll_test_finish(psync, SHMEM_BCAST_SYNC_SIZE, src, dst);
}
