/*
 * encodings.c: the words that xbgas-insn.h's macros assemble
 * (encodings_asm.S) against the encodings of docs/xbgas.md built here
 * from their fields, and a runtime-style assembly routine (eaddie +
 * eamoadd.d) run against every PE.
 */
#include <stdint.h>
#include <string.h>

#include "guest.h"

extern const uint32_t enc_code[], enc_code_end[];
uint64_t enc_remote_add(uint64_t *addr, uint64_t v, int pe);

enum {
    A0 = 10,
    A1 = 11,
    A2 = 12,
    A3 = 13,
    A4 = 14,
    A5 = 15,
    T0 = 5,
    S1 = 9
};

static uint32_t enc_i(int op, int f3, int rd, int rs1, int imm)
{
    return (uint32_t)imm << 20 | (uint32_t)rs1 << 15 | (uint32_t)f3 << 12 |
           (uint32_t)rd << 7 | (uint32_t)op;
}

static uint32_t enc_s(int op, int f3, int rs2, int rs1, int imm)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 |
           (uint32_t)f3 << 12 | (u & 0x1f) << 7 | (uint32_t)op;
}

static uint32_t enc_r(int op, int f3, int f7, int rd, int rs1, int rs2)
{
    return (uint32_t)f7 << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 |
           (uint32_t)f3 << 12 | (uint32_t)rd << 7 | (uint32_t)op;
}

static uint64_t cell;

int main(void)
{
    const uint32_t want[] = {
        enc_i(0x77, 3, A0, A1, 8),        enc_i(0x77, 2, T0, S1, -4),
        enc_i(0x77, 1, A2, A3, 0),        enc_i(0x77, 5, A2, A3, 2),
        enc_i(0x77, 0, A4, A5, 1),        enc_i(0x77, 4, A4, A5, 3),
        enc_i(0x77, 7, 5, A1, 16),        enc_s(0x7b, 3, A0, A1, 8),
        enc_s(0x7b, 2, T0, S1, -4),       enc_s(0x7b, 1, A2, A3, 2),
        enc_s(0x7b, 0, A4, A5, 1),        enc_s(0x7b, 7, 7, A1, 24),
        enc_r(0x33, 3, 0x55, A0, A1, 2),  enc_r(0x33, 2, 0x55, A0, A1, 2),
        enc_r(0x33, 1, 0x55, A0, A1, 2),  enc_r(0x33, 5, 0x55, A0, A1, 2),
        enc_r(0x33, 0, 0x55, A0, A1, 2),  enc_r(0x33, 4, 0x55, A0, A1, 2),
        enc_r(0x33, 7, 0x55, 3, A1, 2),   enc_r(0x33, 3, 0x22, 2, A0, A1),
        enc_r(0x33, 2, 0x22, 2, A0, A1),  enc_r(0x33, 1, 0x22, 2, A0, A1),
        enc_r(0x33, 0, 0x22, 2, A0, A1),  enc_r(0x33, 7, 0x22, 2, 3, A1),
        enc_i(0x7b, 6, A0, 10, 0),        enc_i(0x7b, 5, 10, A2, 0),
        enc_i(0x03, 7, 4, 5, -1),         enc_r(0x6b, 2, 0x01, T0, A0, A1),
        enc_r(0x6b, 3, 0x00, T0, A0, A1), enc_r(0x6b, 2, 0x04, T0, A0, A1),
        enc_r(0x6b, 3, 0x0c, T0, A0, A1), enc_r(0x6b, 2, 0x08, T0, A0, A1),
        enc_r(0x6b, 3, 0x10, T0, A0, A1), enc_r(0x6b, 2, 0x14, T0, A0, A1),
        enc_r(0x6b, 3, 0x18, T0, A0, A1), enc_r(0x6b, 2, 0x1c, T0, A0, A1),
        enc_r(0x6b, 3, 0x05, T0, A0, A1),
    };
    size_t n = (size_t)(enc_code_end - enc_code);
    CHECK_EQ(n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < n; i++) {
        if (enc_code[i] != want[i]) {
            fprintf(stderr, "instruction %zu: 0x%08x, expected 0x%08x\n", i,
                    enc_code[i], want[i]);
        }
        CHECK_EQ(enc_code[i], want[i]);
    }
    for (int pe = 0; pe < guest_npes; pe++) {
        enc_remote_add(&cell, 1 + (uint64_t)guest_me, pe);
    }
    guest_barrier();
    uint64_t n64 = (uint64_t)guest_npes;
    CHECK_EQ(cell, n64 * (n64 + 1) / 2);
    printf("PE %d: encodings ok (%zu instructions)\n", guest_me, n);
    return 0;
}
