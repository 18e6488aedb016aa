/*
 * Put-with-signal and the signal routines: the data of a put-with-signal is
 * visible once its signal is (large payloads, many rounds, in a ring), both
 * signal operations, every typed/sized/byte form blocking and _nbi,
 * shmem_signal_add/set without data, shmem_signal_fetch, and many PEs
 * adding to one signal.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

#define BIG    (1 << 20)
#define ROUNDS 20

static int me, npes, right, left;
static uint64_t ring_sig, add_sig, type_sig;

#define DEFINE_VAR(TYPE, TYPENAME) static TYPE dst_##TYPENAME[8];
XG_SHMEM_RMA_TYPES(DEFINE_VAR)

/* Round r: PE me sends a BIG-byte block to the right with the signal r;
 * the receiver checks every byte once the signal arrived. */
static void test_ring(unsigned char *inbox, unsigned char *outbox)
{
    int r;
    size_t i;

    for (r = 1; r <= ROUNDS; r++) {
        for (i = 0; i < BIG; i++) {
            outbox[i] = (unsigned char)(me * 13 + r * 7 + i);
        }
        if (r % 2) {
            shmem_putmem_signal(inbox, outbox, BIG, &ring_sig, (uint64_t)r,
                                SHMEM_SIGNAL_SET, right);
        } else {
            shmem_putmem_signal_nbi(inbox, outbox, BIG, &ring_sig, 1,
                                    SHMEM_SIGNAL_ADD, right);
        }
        XG_CHECK(shmem_signal_wait_until(&ring_sig, SHMEM_CMP_GE,
                                         (uint64_t)r) == (uint64_t)r,
                 "round %d signal", r);
        for (i = 0; i < BIG; i++) {
            if (inbox[i] != (unsigned char)(left * 13 + r * 7 + i)) {
                XG_CHECK(0, "round %d: byte %zu is %u before its signal", r, i,
                         inbox[i]);
            }
        }
        /* the sender may not overwrite the inbox before it was read */
        shmem_barrier_all();
    }
}

#define TEST_TYPED(TYPE, TYPENAME)                                          \
    {                                                                       \
        TYPE src[8];                                                        \
        int i;                                                              \
                                                                            \
        for (i = 0; i < 8; i++) {                                           \
            src[i] = (TYPE)(me + i + 1);                                    \
        }                                                                   \
        shmem_##TYPENAME##_put_signal(dst_##TYPENAME, src, 4, &type_sig, 1, \
                                      SHMEM_SIGNAL_ADD, right);             \
        shmem_##TYPENAME##_put_signal_nbi(dst_##TYPENAME + 4, src + 4, 4,   \
                                          &type_sig, 1, SHMEM_SIGNAL_ADD,   \
                                          right);                           \
        expect += 2;                                                        \
        shmem_uint64_wait_until(&type_sig, SHMEM_CMP_GE, expect);           \
        for (i = 0; i < 8; i++) {                                           \
            XG_CHECK(dst_##TYPENAME[i] == (TYPE)(left + i + 1),             \
                     "shmem_%s_put_signal element %d", #TYPENAME, i);       \
        }                                                                   \
    }

#define TEST_SIZED(SIZE)                                                       \
    {                                                                          \
        uint64_t src[4] = {me + 1, me + 2, me + 3, me + 4};                    \
        static uint64_t dst[4];                                                \
        size_t n = sizeof(src) / ((SIZE) / 8);                                 \
                                                                               \
        shmem_put##SIZE##_signal(dst, src, n / 2, &type_sig, 1,                \
                                 SHMEM_SIGNAL_ADD, right);                     \
        shmem_put##SIZE##_signal_nbi((char *)dst + sizeof(src) / 2,            \
                                     (char *)src + sizeof(src) / 2, n / 2,     \
                                     &type_sig, 1, SHMEM_SIGNAL_ADD, right);   \
        expect += 2;                                                           \
        shmem_uint64_wait_until(&type_sig, SHMEM_CMP_GE, expect);              \
        XG_CHECK(dst[0] == (uint64_t)left + 1 && dst[3] == (uint64_t)left + 4, \
                 "shmem_put%d_signal", SIZE);                                  \
        shmem_barrier_all();                                                   \
    }

static void test_every_form(void)
{
    uint64_t expect = 0;

    XG_SHMEM_RMA_TYPES(TEST_TYPED)
    shmem_barrier_all();
    XG_SHMEM_RMA_SIZES(TEST_SIZED)
    XG_CHECK(shmem_signal_fetch(&type_sig) == expect, "shmem_signal_fetch");
}

/* Every PE adds its number + 1 to PE 0's signal; then PE 0 sets each PE's
 * signal with shmem_signal_set. */
static void test_add_set(void)
{
    uint64_t want = (uint64_t)npes * (npes + 1) / 2;

    shmem_signal_add(&add_sig, (uint64_t)me + 1, 0);
    if (me == 0) {
        XG_CHECK(shmem_signal_wait_until(&add_sig, SHMEM_CMP_EQ, want) == want,
                 "shmem_signal_add total");
    }
    shmem_barrier_all();
    if (me == 0) {
        int pe;

        for (pe = 0; pe < npes; pe++) {
            shmem_signal_set(&add_sig, 1000 + (uint64_t)pe, pe);
        }
    }
    XG_CHECK(
        shmem_signal_wait_until(&add_sig, SHMEM_CMP_EQ, 1000 + (uint64_t)me) ==
            1000 + (uint64_t)me,
        "shmem_signal_set");
    XG_CHECK(shmem_signal_fetch(&add_sig) == 1000 + (uint64_t)me,
             "shmem_signal_fetch after set");
}

int main(void)
{
    unsigned char *inbox, *outbox;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;
    inbox      = shmem_malloc(BIG);
    outbox     = shmem_malloc(BIG);
    XG_CHECK(inbox != NULL && outbox != NULL, "shmem_malloc");

    test_ring(inbox, outbox);
    test_every_form();
    shmem_barrier_all();
    test_add_set();
    shmem_barrier_all();
    shmem_free(outbox);
    shmem_free(inbox);
    shmem_finalize();
    return XG_TEST_PASS;
}
