/* count.S: a guest without libc whose retired instructions are known, for
 * the exact check of --stats (tests/xbgas/CMakeLists.txt):
 *   prologue 4 (1 xBGAS address), 1000 x 6 in the loop (ld, sd, eaddie,
 *   eld to this PE's own namespace, addi, bnez), epilogue 3 (exit):
 *   6007 instructions: 1000 xBGAS memory (1000 remote), 1001 xBGAS
 *   address, 1000 loads, 1000 stores, 2006 other. */
    .text
    .globl _start
_start:
    li t0, 1000
    lla t1, buf
    eaddi t2, e10, 1          /* this PE's namespace: PE + 1 */
loop:
    ld a0, 0(t1)
    sd a0, 8(t1)
    eaddie e6, t2, 0          /* t1 is x6: its e-register names the PE */
    eld a1, 0(t1)
    addi t0, t0, -1
    bnez t0, loop
    li a7, 93
    li a0, 0
    ecall

    .data
    .balign 8
buf:
    .dword 1, 2
