/* count_smc.S: exact --stats counts across a store that rewrites code
 * later in its own block (the machine leaves the block after the store
 * and takes back the counts of the instructions it skipped):
 *   lla 2, li 2, jalr 1, the code 5 (sw, nop, nop, the rewritten li,
 *   ret), the check 2, exit 3: 15 instructions: 1 store, 14 other, and
 *   the exit status is 0 only if the rewritten li ran. */
    .option norvc
    .text
    .globl _start
_start:
    lla a0, code
    li a1, 0x00500513         /* li a0, 5 */
    jalr a0
    li t0, 5
    bne a0, t0, fail
    li a7, 93
    li a0, 0
    ecall
fail:                         /* one more: the count differs too */
    nop
    li a7, 93
    li a0, 1
    ecall

    .data
    .balign 4096
code:
    sw a1, 12(a0)             /* rewrites the li below */
    nop
    nop
    li a0, 1
    ret
