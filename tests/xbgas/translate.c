/*
 * translate.c: the machine's block translation (tools/xbgas/block.c) seen
 * from the guest:
 *   smc      code rewritten with and without fence.i (or glibc's
 *            __riscv_flush_icache), by a store inside
 *            the block being run and by an xBGAS store to this PE's own
 *            namespace, runs as rewritten
 *   mid      a call into the middle of a translated block runs from there
 *   instret  rdinstret around straight-line code inside one block counts
 *            exactly the instructions between
 * Prints "translate: passed".
 */
#include <string.h>
#include <sys/cachectl.h>

#include "guest.h"

/* li a0, k (addi a0, x0, k), ret (jalr x0, 0(ra)), nop, sw a1, 12(a0) */
#define LI_A0(k) ((uint32_t)(k) << 20 | 10u << 7 | 0x13u)
#define RET      0x00008067u
#define NOP      0x00000013u
#define SW_A1_12 (11u << 20 | 10u << 15 | 2u << 12 | 12u << 7 | 0x23u)

/* a page of its own: code the test writes and runs */
static uint32_t code[1024] __attribute__((aligned(4096)));

typedef uint64_t (*fn_t)(uint32_t *self, uint32_t word);

static uint64_t run(void)
{
    fn_t f = (fn_t)(uintptr_t)code;
    return f(code, 0);
}

static void fence_i(void)
{
    __asm__ volatile("fence.i" ::: "memory");
}

static void smc(void)
{
    code[0] = LI_A0(1);
    code[1] = RET;
    fence_i();
    CHECK_EQ(run(), 1);
    code[0] = LI_A0(2); /* a store into a page of code: no fence.i */
    CHECK_EQ(run(), 2);
    code[0] = LI_A0(3);
    fence_i();
    CHECK_EQ(run(), 3);
    code[0] = LI_A0(8); /* glibc's flush: the riscv_flush_icache call */
    CHECK_EQ(__riscv_flush_icache(code, code + 2, 0), 0);
    CHECK_EQ(run(), 8);
    /* the first instruction rewrites the fourth of its own block */
    code[0] = SW_A1_12;
    code[1] = NOP;
    code[2] = NOP;
    code[3] = LI_A0(4);
    code[4] = RET;
    fence_i();
    fn_t f = (fn_t)(uintptr_t)code;
    CHECK_EQ(f(code, LI_A0(5)), 5);
    CHECK_EQ(f(code, LI_A0(6)), 6);
    /* an xBGAS store through this PE's own namespace */
    xbgas_esw(xbgas_ns(guest_me), &code[3], LI_A0(7));
    code[0] = NOP;
    CHECK_EQ(run(), 7);
}

/* blk_start and blk_mid are one block: start adds 7, mid adds 6 */
extern uint64_t blk_start(uint64_t), blk_mid(uint64_t);
__asm__(".text\n"
        ".globl blk_start\n"
        "blk_start:\n"
        "    addi a0, a0, 1\n"
        ".globl blk_mid\n"
        "blk_mid:\n"
        "    addi a0, a0, 2\n"
        "    addi a0, a0, 4\n"
        "    ret\n");

static void mid(void)
{
    CHECK_EQ(blk_start(0), 7);
    CHECK_EQ(blk_mid(0), 6);
    CHECK_EQ(blk_start(10), 17);
    CHECK_EQ(blk_mid(10), 16);
}

static void instret(void)
{
    uint64_t a, b;
    for (int i = 0; i < 3; i++) {
        __asm__ volatile("rdinstret %0\n\t"
                         "addi x0, x0, 0\n\t"
                         "addi x0, x0, 0\n\t"
                         "addi x0, x0, 0\n\t"
                         "rdinstret %1"
                         : "=r"(a), "=r"(b));
        CHECK_EQ(b - a, 4);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int all          = strcmp(what, "all") == 0;
    if (all || strcmp(what, "smc") == 0) {
        smc();
    }
    if (all || strcmp(what, "mid") == 0) {
        mid();
    }
    if (all || strcmp(what, "instret") == 0) {
        instret();
    }
    printf("translate: passed\n");
    return 0;
}
