/*
 * putmem/getmem at the lengths where the C library's memcpy changes
 * strategy on x86-64 (glibc 2.36: vector copies below 2,112 bytes, rep
 * movsb up to the L2 size, 1 MiB here, then a vector loop) and around a
 * page, each with misaligned starts on both sides (remote offsets 0, 1, 63;
 * local 0, 7): a direct bulk transfer is one memcpy of the whole range
 * (gas/xg_gas.h, xg_gas_copy), and a copy routine of our own would have to
 * pass the same cases.  Every PE puts to its right neighbour and gets from
 * it; every byte of the range is checked, and the guard bytes before the
 * start and after the end must be untouched.  Each case uses new values.
 */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define GUARD        64
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIB          ((size_t)1 << 20)

static const size_t lens[]        = {2111, 2112,    2113, 4095,
                                     4097, MIB - 1, MIB,  MIB + 1};
static const size_t remote_offs[] = {0, 1, 63};
static const size_t local_offs[]  = {0, 7};

static int me, right, left;
static unsigned salt;
static unsigned char *sym;   /* symmetric: GUARD + offset + len + GUARD */
static unsigned char *local; /* the same, private */

static unsigned char byte_value(int pe, size_t i)
{
    return (unsigned char)(i * 131 + (i >> 8) * 7 + (size_t)pe * 17 +
                           salt * 29 + 1);
}

/* @buf holds @pe's values in [@start, @start + @len) and @fill around it
 * (@what, @roff and @loff name the case). */
static void check(const unsigned char *buf, size_t start, size_t len, int pe,
                  unsigned char fill, const char *what, size_t roff,
                  size_t loff)
{
    size_t i;

    for (i = 0; i < start + len + GUARD; i++) {
        unsigned char want = ((i >= start) && (i < start + len))
                                 ? byte_value(pe, i - start)
                                 : fill;

        XG_CHECK(buf[i] == want,
                 "%s len=%zu remote offset %zu local offset "
                 "%zu: buffer byte %zu (the range is %zu..%zu) is %u, not %u",
                 what, len, roff, loff, i, start, start + len - 1,
                 (unsigned)buf[i], (unsigned)want);
    }
}

static void test_case(size_t len, size_t roff, size_t loff)
{
    size_t rs = GUARD + roff, ls = GUARD + loff, i;

    salt++;
    memset(sym, 0xa5, rs + len + GUARD);
    for (i = 0; i < len; i++) {
        local[ls + i] = byte_value(me, i);
    }
    shmem_barrier_all();
    shmem_putmem(sym + rs, local + ls, len, right);
    shmem_quiet();
    shmem_barrier_all();
    check(sym, rs, len, left, 0xa5, "put", roff, loff);
    shmem_barrier_all();

    salt++;
    for (i = 0; i < len; i++) {
        sym[rs + i] = byte_value(me, i);
    }
    memset(local, 0x5a, ls + len + GUARD);
    shmem_barrier_all();
    shmem_getmem(local + ls, sym + rs, len, right);
    check(local, ls, len, right, 0x5a, "get", roff, loff);
    shmem_barrier_all();
}

int main(void)
{
    size_t most = 2 * GUARD + 64 + MIB + 1, l, r, o;
    int npes;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    sym        = shmem_malloc(most);
    local      = malloc(most);
    XG_CHECK((sym != NULL) && (local != NULL), "allocating %zu bytes", most);
    for (l = 0; l < ARRAY_LEN(lens); l++) {
        for (r = 0; r < ARRAY_LEN(remote_offs); r++) {
            for (o = 0; o < ARRAY_LEN(local_offs); o++) {
                test_case(lens[l], remote_offs[r], local_offs[o]);
            }
        }
    }
    shmem_free(sym);
    free(local);
    shmem_finalize();
    return XG_TEST_PASS;
}
