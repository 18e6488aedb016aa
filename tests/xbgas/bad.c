/*
 * bad.c: the guest faults the machine must refuse, one per argument;
 * each must end the job with a message naming the PE, the pc, the
 * mnemonic and the address (tests/CMakeLists.txt checks the message).
 */
#include <string.h>
#include <unistd.h>

#include "guest.h"

static uint64_t cell[2];
static volatile uintptr_t low = 0x8; /* not folded: no warning */

/* fused pairs (eaddie + eld, lui + ld) whose second instruction faults */
extern uint64_t fused_eld(void *addr, uint64_t ns);
extern void fused_ld(void);
extern char fused_eld_pc[], fused_ld_pc[];
__asm__(".text\n"
        ".globl fused_eld, fused_eld_pc, fused_ld, fused_ld_pc\n"
        "fused_eld:\n"
        "    .insn i 0x7b, 5, a0, a1, 0\n" /* eaddie e10, a1, 0 */
        "fused_eld_pc:\n"
        "    .insn i 0x77, 3, a0, 0(a0)\n" /* eld a0, 0(a0) */
        "    ret\n"
        "fused_ld:\n"
        "    lui a0, 0\n"
        "fused_ld_pc:\n"
        "    ld a0, 8(a0)\n"
        "    ret\n");

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    int peer      = (guest_me + 1) % guest_npes;
    guest_barrier();
    if (guest_me != 0) { /* PE 0 faults; the others wait to be ended */
        for (;;) {
            sched_yield();
        }
    }
    if (strcmp(c, "namespace") == 0) {
        (void)xbgas_eld(99, &cell[0]);
    } else if (strcmp(c, "bounds") == 0) {
        (void)xbgas_eld(xbgas_ns(peer), (void *)(uintptr_t)0x100);
    } else if (strcmp(c, "bounds_high") == 0) {
        xbgas_esd(xbgas_ns(peer), (void *)(uintptr_t)(1ull << 40), 1);
    } else if (strcmp(c, "misaligned") == 0) {
        (void)xbgas_eld(xbgas_ns(peer), (char *)&cell[0] + 3);
    } else if (strcmp(c, "misaligned_amo") == 0) {
        (void)xbgas_eamoadd_w(xbgas_ns(peer), (char *)&cell[0] + 2, 1);
    } else if (strcmp(c, "illegal") == 0) {
        __asm__ volatile(".4byte 0xffffffff");
    } else if (strcmp(c, "segfault") == 0) {
        (void)*(volatile uint64_t *)low;
    } else if (strcmp(c, "syscall") == 0) {
        __asm__ volatile("li a7, 999\n\tecall" ::: "a7", "a0");
    } else if (strcmp(c, "abort") == 0) {
        abort();
    } else if (strcmp(c, "fused_eld") == 0) {
        /* the fault names the eld, not the eaddie fused with it */
        fprintf(stderr, "eld at %p ", (void *)fused_eld_pc);
        (void)fused_eld(&cell[0], 99);
    } else if (strcmp(c, "fused_ld") == 0) {
        fprintf(stderr, "ld at %p ", (void *)fused_ld_pc);
        fused_ld();
    } else if (strcmp(c, "exit3") == 0) {
        exit(3);
    }
    return 0;
}
