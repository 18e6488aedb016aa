/*
 * xbgas_ops.c: every xBGAS instruction group at 2 or more PEs, values
 * checked: the loads and stores of each width to the next PE (sign and
 * zero extension), namespace 0 and the own namespace, the raw forms, ele /
 * ese / erle / erse, eaddi / eaddie / eaddix, every eamo op at both widths
 * from every PE on PE 0, and eamocas.
 */
#include <string.h>

#include "guest.h"

static uint64_t cell[8];
static uint64_t amo_d[16];
static uint32_t amo_w[16];
static uint64_t ecell[2];

static void loads_stores(int me, int npes)
{
    int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    uint64_t ns = xbgas_ns(next);
    xbgas_esd(ns, &cell[0], 0x8877665544332211ull + (uint64_t)me);
    xbgas_esw(ns, &cell[1], 0x80000001u);
    xbgas_esh(ns, &cell[2], 0x8002);
    xbgas_esb(ns, &cell[3], 0x83);
    xbgas_ersd(ns, &cell[4], 0xfedcba9876543210ull);
    xbgas_ersw(ns, &cell[5], 0xc0000005u);
    xbgas_ersh(ns, &cell[6], 0xc006);
    xbgas_ersb(ns, &cell[7], 0xc7);
    guest_barrier();
    CHECK_EQ(cell[0], 0x8877665544332211ull + (uint64_t)prev);
    uint64_t pn = ns; /* read back what this PE wrote */
    CHECK_EQ(xbgas_eld(pn, &cell[0]), 0x8877665544332211ull + (uint64_t)me);
    CHECK_EQ(xbgas_elw(pn, &cell[1]), (int32_t)0x80000001);
    CHECK_EQ((uint64_t)xbgas_elw(pn, &cell[1]), 0xffffffff80000001ull);
    CHECK_EQ((int64_t)xbgas_elh(pn, &cell[2]), -32766);
    CHECK_EQ(xbgas_elhu(pn, &cell[2]), 0x8002);
    CHECK_EQ((int64_t)xbgas_elb(pn, &cell[3]), -125);
    CHECK_EQ(xbgas_elbu(pn, &cell[3]), 0x83);
    CHECK_EQ(xbgas_erld(pn, &cell[4]), 0xfedcba9876543210ull);
    CHECK_EQ((int64_t)xbgas_erlw(pn, &cell[5]), (int32_t)0xc0000005);
    CHECK_EQ((int64_t)xbgas_erlh(pn, &cell[6]), (int16_t)0xc006);
    CHECK_EQ(xbgas_erlhu(pn, &cell[6]), 0xc006);
    CHECK_EQ((int64_t)xbgas_erlb(pn, &cell[7]), (int8_t)0xc7);
    CHECK_EQ(xbgas_erlbu(pn, &cell[7]), 0xc7);
    /* namespace 0 and this PE's own namespace name the same memory */
    CHECK_EQ(xbgas_eld(0, &cell[0]), cell[0]);
    CHECK_EQ(xbgas_eld(xbgas_ns(me), &cell[4]), 0xfedcba9876543210ull);
    guest_barrier();
}

/* ele/ese/erle/erse move e-registers; eaddi/eaddix read them. */
static void eregs(int me, int npes)
{
    uint64_t ns  = xbgas_ns((me + 1) % npes), v1, v2, v3;
    uint64_t val = 0x1234000 + (uint64_t)me;
    __asm__ volatile(
        "mv t1, %[val]\n\t"
        ".insn i 0x7b, 5, x6, t1, 0\n\t" /* eaddie e6, t1, 0 */
        "mv t2, %[adr]\n\t"
        ".insn i 0x7b, 5, x7, %[ns], 0\n\t"  /* eaddie e7, ns, 0 */
        ".insn s 0x7b, 7, x6, 0(t2)\n\t"     /* ese e6, 0(t2) */
        ".insn i 0x77, 7, x28, 0(t2)\n\t"    /* ele e28, 0(t2) */
        ".insn i 0x7b, 6, %[v1], x28, 5\n\t" /* eaddi v1, e28, 5 */
        ".insn i 0x03, 7, x29, x28, -3\n\t"  /* eaddix e29, e28, -3 */
        ".insn i 0x7b, 6, %[v2], x29, 0\n\t" /* eaddi v2, e29, 0 */
        "addi t3, t2, 8\n\t"
        ".insn i 0x7b, 5, x30, %[ns], 0\n\t"      /* eaddie e30, ns, 0 */
        ".insn r 0x33, 7, 0x22, x30, x29, t3\n\t" /* erse e29, t3, e30 */
        ".insn r 0x33, 7, 0x55, x31, t3, x30\n\t" /* erle e31, t3, e30 */
        ".insn i 0x7b, 6, %[v3], x31, 0\n\t"      /* eaddi v3, e31, 0 */
        : [v1] "=&r"(v1), [v2] "=&r"(v2), [v3] "=&r"(v3)
        : [val] "r"(val), [adr] "r"(&ecell[0]), [ns] "r"(ns)
        : "t1", "t2", "t3", "memory");
    CHECK_EQ(v1, val + 5);
    CHECK_EQ(v2, val - 3);
    CHECK_EQ(v3, val - 3);
    guest_barrier();
    int prev = (me + npes - 1) % npes;
    CHECK_EQ(ecell[0], 0x1234000 + (uint64_t)prev);
    CHECK_EQ(ecell[1], 0x1234000 + (uint64_t)prev - 3);
    guest_barrier();
}

/* Every PE applies each op to PE 0's words; PE 0 checks the results. */
static void amos(int me, int npes)
{
    uint64_t n0 = xbgas_ns(0), m = (uint64_t)me;
    if (me == 0) {
        uint64_t init_d[10] = {0, 0, 0, ~0ull, 0, 100, 0, 100, 0, 5};
        for (int i = 0; i < 10; i++) {
            amo_d[i] = init_d[i];
            amo_w[i] = (uint32_t)init_d[i];
        }
    }
    guest_barrier();
    xbgas_eamoadd_d(n0, &amo_d[0], 10 + m);
    xbgas_eamoadd_w(n0, &amo_w[0], 10 + (uint32_t)m);
    xbgas_eamoxor_d(n0, &amo_d[1], 1ull << (m + 40));
    xbgas_eamoxor_w(n0, &amo_w[1], 1u << (m + 20));
    xbgas_eamoor_d(n0, &amo_d[2], 1ull << (m + 33));
    xbgas_eamoor_w(n0, &amo_w[2], 1u << (m + 3));
    xbgas_eamoand_d(n0, &amo_d[3], ~(1ull << (m + 50)));
    xbgas_eamoand_w(n0, &amo_w[3], ~(1u << (m + 10)));
    xbgas_eamoswap_d(n0, &amo_d[4], 0x5000000000ull + m);
    xbgas_eamoswap_w(n0, &amo_w[4], 0x50000u + (uint32_t)m);
    xbgas_eamomin_d(n0, &amo_d[5], (uint64_t)(-(int64_t)m - 1));
    xbgas_eamomin_w(n0, &amo_w[5], (uint32_t)(-(int32_t)m - 1));
    xbgas_eamomax_d(n0, &amo_d[6], (uint64_t)(-(int64_t)m - 1));
    xbgas_eamomax_w(n0, &amo_w[6], m);
    xbgas_eamominu_d(n0, &amo_d[7], 200 + m);
    xbgas_eamominu_w(n0, &amo_w[7], 50 + (uint32_t)m);
    xbgas_eamomaxu_d(n0, &amo_d[8], ~0ull - m);
    xbgas_eamomaxu_w(n0, &amo_w[8], 0x80000000u + (uint32_t)m);
    /* eamocas: only the PE that finds 5 + me succeeds; in turn */
    for (;;) {
        uint64_t old = xbgas_eamocas_d(n0, &amo_d[9], 5 + m, 6 + m);
        if (old == 5 + m) {
            break;
        }
        CHECK(old < 5 + m);
        sched_yield();
    }
    uint32_t w = 5; /* a CAS loop: an add made of eamocas.w */
    for (uint32_t seen;
         (seen = xbgas_eamocas_w(n0, &amo_w[9], w, w + 1)) != w;) {
        w = seen;
    }
    guest_barrier();
    if (me != 0) {
        return;
    }
    uint64_t n = (uint64_t)npes, bits_d = 0, bits_w = 0;
    for (uint64_t i = 0; i < n; i++) {
        bits_d |= 1ull << i;
        bits_w |= 1u << i;
    }
    CHECK_EQ(amo_d[0], 10 * n + n * (n - 1) / 2);
    CHECK_EQ(amo_w[0], 10 * n + n * (n - 1) / 2);
    CHECK_EQ(amo_d[1], bits_d << 40);
    CHECK_EQ(amo_w[1], bits_w << 20);
    CHECK_EQ(amo_d[2], bits_d << 33);
    CHECK_EQ(amo_w[2], bits_w << 3);
    CHECK_EQ(amo_d[3], ~(bits_d << 50));
    CHECK_EQ(amo_w[3], (uint32_t) ~(bits_w << 10));
    CHECK((amo_d[4] >> 32) == 0x50 && (amo_d[4] & 0xffffffff) < n);
    CHECK((amo_w[4] >> 16) == 5 && (amo_w[4] & 0xffff) < n);
    CHECK_EQ((int64_t)amo_d[5], -(int64_t)n);
    CHECK_EQ((int32_t)amo_w[5], -(int32_t)n);
    CHECK_EQ(amo_d[6], 0); /* max(0, -1..-n) */
    CHECK_EQ(amo_w[6], n - 1);
    CHECK_EQ(amo_d[7], 100); /* minu(100, 200..) */
    CHECK_EQ(amo_w[7], 50);
    CHECK_EQ(amo_d[8], ~0ull);
    CHECK_EQ(amo_w[8], 0x80000000u + n - 1);
    CHECK_EQ(amo_d[9], 5 + n);
    CHECK_EQ(amo_w[9], 5 + n);
}

/* The old value returned, sign-extended for .w. */
static void amo_results(int me)
{
    uint64_t ns = xbgas_ns(me);
    amo_w[12]   = 0xfffffff0u;
    uint64_t r;
    __asm__ volatile(".insn i 0x7b, 5, %1, %2, 0\n\t"
                     ".insn r 0x6b, 2, 0x00, %0, %1, %3"
                     : "=r"(r)
                     : "r"(&amo_w[12]), "r"(ns), "r"(1ull)
                     : "memory");
    CHECK_EQ(r, 0xfffffffffffffff0ull);
    CHECK_EQ(amo_w[12], 0xfffffff1u);
    amo_d[12] = 77;
    CHECK_EQ(xbgas_eamoswap_d(0, &amo_d[12], 78), 77);
    CHECK_EQ(amo_d[12], 78);
}

int main(void)
{
    int me = guest_me, npes = guest_npes;
    CHECK(npes >= 1 && me < npes);
    loads_stores(me, npes);
    eregs(me, npes);
    amos(me, npes);
    amo_results(me);
    guest_barrier();
    printf("PE %d of %d: xbgas_ops ok\n", me, npes);
    return 0;
}
