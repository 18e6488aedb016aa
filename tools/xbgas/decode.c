/*
 * Decoding RV64GC + xBGAS into insn_t, the form the interpreter runs.
 *
 * A compressed instruction decodes to the operation of the instruction it
 * expands to (len 2), so the interpreter has one case per operation.
 * Invariants: a destination x0 becomes 32 (the sink, machine_int.h); an
 * encoding that is not RV64GC or xBGAS decodes to OP_ILLEGAL, which faults
 * when it is executed (not when it is decoded: a pc is decoded only when it
 * is reached).
 */
#include "machine_int.h"

#include <string.h>

static int64_t sext(uint64_t v, int bits)
{
    return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static uint32_t bits(uint32_t v, int hi, int lo)
{
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static void set(insn_t *d, mach_op_t op, int rd, int rs1, int rs2, int64_t imm)
{
    d->op  = (uint16_t)op;
    d->rd  = (uint8_t)(rd == 0 ? 32 : rd);
    d->rs1 = (uint8_t)rs1;
    d->rs2 = (uint8_t)rs2;
    d->imm = imm;
}

static int64_t imm_i(uint32_t in)
{
    return (int32_t)in >> 20;
}

static int64_t imm_s(uint32_t in)
{
    return ((int32_t)in >> 25) * 32 + (int64_t)bits(in, 11, 7);
}

static int64_t imm_b(uint32_t in)
{
    uint32_t v = bits(in, 31, 31) << 12 | bits(in, 7, 7) << 11 |
                 bits(in, 30, 25) << 5 | bits(in, 11, 8) << 1;
    return sext(v, 13);
}

static int64_t imm_j(uint32_t in)
{
    uint32_t v = bits(in, 31, 31) << 20 | bits(in, 19, 12) << 12 |
                 bits(in, 20, 20) << 11 | bits(in, 30, 21) << 1;
    return sext(v, 21);
}

static const mach_op_t load_ops[8]  = {OP_LB,  OP_LH,  OP_LW,  OP_LD,
                                       OP_LBU, OP_LHU, OP_LWU, OP_ILLEGAL};
static const mach_op_t store_ops[8] = {
    OP_SB, OP_SH, OP_SW, OP_SD, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
static const mach_op_t branch_ops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL,
                                        OP_BLT, OP_BGE, OP_BLTU,    OP_BGEU};
static const mach_op_t opimm_ops[8]  = {OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU,
                                        OP_XORI, OP_SRLI, OP_ORI,  OP_ANDI};
static const mach_op_t op_ops[8]     = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU,
                                        OP_XOR, OP_SRL, OP_OR,  OP_AND};
static const mach_op_t mul_ops[8]    = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
                                        OP_DIV, OP_DIVU, OP_REM,    OP_REMU};
static const mach_op_t mulw_ops[8]   = {OP_MULW,    OP_ILLEGAL, OP_ILLEGAL,
                                        OP_ILLEGAL, OP_DIVW,    OP_DIVUW,
                                        OP_REMW,    OP_REMUW};

static void dec_opimm(insn_t *d, uint32_t in, int rd, int rs1, int f3)
{
    mach_op_t op = opimm_ops[f3];
    int64_t imm  = imm_i(in);
    if (f3 == 1 || f3 == 5) {
        uint32_t hi = bits(in, 31, 26);
        imm         = bits(in, 25, 20);
        if (f3 == 5 && hi == 0x10) {
            op = OP_SRAI;
        } else if (hi != 0) {
            op = OP_ILLEGAL;
        }
    }
    set(d, op, rd, rs1, 0, imm);
}

static void dec_opimm32(insn_t *d, uint32_t in, int rd, int rs1, int f3)
{
    uint32_t f7  = bits(in, 31, 25);
    mach_op_t op = OP_ILLEGAL;
    int64_t imm  = bits(in, 24, 20);
    if (f3 == 0) {
        op  = OP_ADDIW;
        imm = imm_i(in);
    } else if (f3 == 1 && f7 == 0) {
        op = OP_SLLIW;
    } else if (f3 == 5 && f7 == 0) {
        op = OP_SRLIW;
    } else if (f3 == 5 && f7 == 0x20) {
        op = OP_SRAIW;
    }
    set(d, op, rd, rs1, 0, imm);
}

/* OP (0x33): base, M, and the xBGAS raw loads (0x55) and stores (0x22). */
static void dec_op(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    uint32_t f7  = bits(in, 31, 25);
    mach_op_t op = OP_ILLEGAL;
    if (f7 == 0) {
        op = op_ops[f3];
    } else if (f7 == 1) {
        op = mul_ops[f3];
    } else if (f7 == 0x20 && f3 == 0) {
        op = OP_SUB;
    } else if (f7 == 0x20 && f3 == 5) {
        op = OP_SRA;
    } else if (f7 == 0x55) {
        op = f3 == 7 ? OP_ERLE : (f3 == 6 ? OP_ILLEGAL : OP_ERLOAD);
    } else if (f7 == 0x22) {
        op = f3 == 7 ? OP_ERSE : (f3 > 3 ? OP_ILLEGAL : OP_ERSTORE);
    }
    set(d, op, rd, rs1, rs2, 0);
    d->f3 = (uint8_t)f3;
    if (op == OP_ERSTORE || op == OP_ERSE) {
        d->rd = (uint8_t)rd; /* the namespace register: read, not written */
    }
}

static void dec_op32(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    uint32_t f7  = bits(in, 31, 25);
    mach_op_t op = OP_ILLEGAL;
    if (f7 == 1) {
        op = mulw_ops[f3];
    } else if (f7 == 0 && f3 == 0) {
        op = OP_ADDW;
    } else if (f7 == 0x20 && f3 == 0) {
        op = OP_SUBW;
    } else if (f7 == 0 && f3 == 1) {
        op = OP_SLLW;
    } else if (f7 == 0 && f3 == 5) {
        op = OP_SRLW;
    } else if (f7 == 0x20 && f3 == 5) {
        op = OP_SRAW;
    }
    set(d, op, rd, rs1, rs2, 0);
}

/* A (0x2f): lr, sc and the amos, funct5 in f7, width (2/3) in f3. */
static void dec_amo(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    uint32_t f5  = bits(in, 31, 27);
    mach_op_t op = OP_AMO;
    if (f3 != 2 && f3 != 3) {
        op = OP_ILLEGAL;
    } else if (f5 == 2) {
        op = rs2 == 0 ? OP_LR : OP_ILLEGAL;
    } else if (f5 == 3) {
        op = OP_SC;
    } else if (f5 != 0 && f5 != 1 && f5 != 4 && f5 != 8 && f5 != 12 &&
               f5 != 16 && f5 != 20 && f5 != 24 && f5 != 28) {
        op = OP_ILLEGAL;
    }
    set(d, op, rd, rs1, rs2, 0);
    d->f3 = (uint8_t)f3;
    d->f7 = (uint8_t)f5;
}

/* xBGAS remote AMOs (0x6b): funct7 is the AMO's funct5, 5 is eamocas. */
static void dec_eamo(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    uint32_t f7  = bits(in, 31, 25);
    mach_op_t op = f7 == 5 ? OP_EAMOCAS : OP_EAMO;
    if (f3 != 2 && f3 != 3) {
        op = OP_ILLEGAL;
    } else if (f7 != 5 && f7 != 0 && f7 != 1 && f7 != 4 && f7 != 8 &&
               f7 != 12 && f7 != 16 && f7 != 20 && f7 != 24 && f7 != 28) {
        op = OP_ILLEGAL;
    }
    set(d, op, rd, rs1, rs2, 0);
    d->f3 = (uint8_t)f3;
    d->f7 = (uint8_t)f7;
}

static void dec_system(insn_t *d, uint32_t in, int rd, int rs1, int f3)
{
    if (f3 == 0) {
        mach_op_t op = OP_ILLEGAL;
        if (in == 0x00000073) {
            op = OP_ECALL;
        } else if (in == 0x00100073) {
            op = OP_EBREAK;
        }
        set(d, op, 0, 0, 0, 0);
        return;
    }
    set(d, f3 == 4 ? OP_ILLEGAL : OP_CSR, rd, rs1, 0, bits(in, 31, 20));
    d->f3 = (uint8_t)f3;
}

/* OP-FP (0x53): checked further when executed (fp.c). */
static void dec_fp(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    uint32_t f7 = bits(in, 31, 25);
    set(d, (f7 & 3) > 1 ? OP_ILLEGAL : OP_FP, rd, rs1, rs2, 0);
    d->f3 = (uint8_t)f3;
    d->f7 = (uint8_t)f7;
}

static void dec_fma(insn_t *d, uint32_t in, int opc, int rd, int rs1, int rs2,
                    int f3)
{
    uint32_t fmt = bits(in, 26, 25);
    set(d, fmt > 1 ? OP_ILLEGAL : OP_FMA, rd, rs1, rs2, 0);
    d->rs3 = (uint8_t)bits(in, 31, 27);
    d->f3  = (uint8_t)f3;
    d->f7  = (uint8_t)(((opc >> 2) & 3) | fmt << 2);
}

static void dec_xload(insn_t *d, uint32_t in, int rd, int rs1, int f3)
{
    mach_op_t op = f3 == 7 ? OP_ELE : (f3 == 6 ? OP_ILLEGAL : OP_ELOAD);
    set(d, op, rd, rs1, 0, imm_i(in));
    d->f3 = (uint8_t)f3;
}

/* 0x7b: esd family (S), eaddie (f3 5) and eaddi (f3 6) (I). */
static void dec_xstore(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3)
{
    if (f3 == 5 || f3 == 6) {
        set(d, f3 == 5 ? OP_EADDIE : OP_EADDI, rd, rs1, 0, imm_i(in));
        return;
    }
    mach_op_t op = f3 == 7 ? OP_ESE : (f3 > 3 ? OP_ILLEGAL : OP_ESTORE);
    set(d, op, 0, rs1, rs2, imm_s(in));
    d->f3 = (uint8_t)f3;
}

static void dec_load(insn_t *d, uint32_t in, int rd, int rs1, int f3)
{
    if (f3 == 7) {
        set(d, OP_EADDIX, rd, rs1, 0, imm_i(in));
        return;
    }
    set(d, load_ops[f3], rd, rs1, 0, imm_i(in));
}

static void dec_fload(insn_t *d, uint32_t in, int rd, int rs1, int rs2, int f3,
                      int store)
{
    mach_op_t op = OP_ILLEGAL;
    if (f3 == 2) {
        op = store ? OP_FSW : OP_FLW;
    } else if (f3 == 3) {
        op = store ? OP_FSD : OP_FLD;
    }
    set(d, op, rd, rs1, rs2, store ? imm_s(in) : imm_i(in));
}

static void dec_misc_mem(insn_t *d, int f3)
{
    mach_op_t op = OP_ILLEGAL;
    if (f3 == 0) {
        op = OP_FENCE;
    } else if (f3 == 1) {
        op = OP_FENCE_I;
    }
    set(d, op, 0, 0, 0, 0);
}

static void decode32(insn_t *d, uint32_t in)
{
    int opc = (int)bits(in, 6, 0), rd = (int)bits(in, 11, 7);
    int f3 = (int)bits(in, 14, 12), rs1 = (int)bits(in, 19, 15);
    int rs2 = (int)bits(in, 24, 20);
    d->len  = 4;
    switch (opc) {
    case 0x37: set(d, OP_LUI, rd, 0, 0, (int32_t)(in & 0xfffff000)); break;
    case 0x17: set(d, OP_AUIPC, rd, 0, 0, (int32_t)(in & 0xfffff000)); break;
    case 0x6f: set(d, OP_JAL, rd, 0, 0, imm_j(in)); break;
    case 0x67: set(d, f3 ? OP_ILLEGAL : OP_JALR, rd, rs1, 0, imm_i(in)); break;
    case 0x63: set(d, branch_ops[f3], 0, rs1, rs2, imm_b(in)); break;
    case 0x03: dec_load(d, in, rd, rs1, f3); break;
    case 0x23: set(d, store_ops[f3], 0, rs1, rs2, imm_s(in)); break;
    case 0x13: dec_opimm(d, in, rd, rs1, f3); break;
    case 0x1b: dec_opimm32(d, in, rd, rs1, f3); break;
    case 0x33: dec_op(d, in, rd, rs1, rs2, f3); break;
    case 0x3b: dec_op32(d, in, rd, rs1, rs2, f3); break;
    case 0x0f: dec_misc_mem(d, f3); break;
    case 0x73: dec_system(d, in, rd, rs1, f3); break;
    case 0x2f: dec_amo(d, in, rd, rs1, rs2, f3); break;
    case 0x07: dec_fload(d, in, rd, rs1, rs2, f3, 0); break;
    case 0x27: dec_fload(d, in, rd, rs1, rs2, f3, 1); break;
    case 0x53: dec_fp(d, in, rd, rs1, rs2, f3); break;
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f: dec_fma(d, in, opc, rd, rs1, rs2, f3); break;
    case 0x77: dec_xload(d, in, rd, rs1, f3); break;
    case 0x7b: dec_xstore(d, in, rd, rs1, rs2, f3); break;
    case 0x6b: dec_eamo(d, in, rd, rs1, rs2, f3); break;
    default: set(d, OP_ILLEGAL, 0, 0, 0, 0); break;
    }
}

/* Quadrant 0: stack-pointer-based addi and the rs1'-based loads/stores. */
static void decode_c0(insn_t *d, uint32_t c)
{
    int rdp = (int)bits(c, 4, 2) + 8, rs1p = (int)bits(c, 9, 7) + 8;
    int64_t uw = bits(c, 12, 10) << 3 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 6;
    int64_t ud = bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6;
    switch (bits(c, 15, 13)) {
    case 0: {
        int64_t nz = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 |
                     bits(c, 6, 6) << 2 | bits(c, 5, 5) << 3;
        set(d, nz ? OP_ADDI : OP_ILLEGAL, rdp, 2, 0, nz);
        break;
    }
    case 1: set(d, OP_FLD, rdp, rs1p, 0, ud); break;
    case 2: set(d, OP_LW, rdp, rs1p, 0, uw); break;
    case 3: set(d, OP_LD, rdp, rs1p, 0, ud); break;
    case 5: set(d, OP_FSD, 0, rs1p, rdp, ud); break;
    case 6: set(d, OP_SW, 0, rs1p, rdp, uw); break;
    case 7: set(d, OP_SD, 0, rs1p, rdp, ud); break;
    default: set(d, OP_ILLEGAL, 0, 0, 0, 0); break;
    }
}

static void decode_c1_alu(insn_t *d, uint32_t c)
{
    int r = (int)bits(c, 9, 7) + 8, rs2 = (int)bits(c, 4, 2) + 8;
    int64_t sh                    = bits(c, 12, 12) << 5 | bits(c, 6, 2);
    static const mach_op_t ops[8] = {OP_SUB,  OP_XOR,  OP_OR,      OP_AND,
                                     OP_SUBW, OP_ADDW, OP_ILLEGAL, OP_ILLEGAL};
    switch (bits(c, 11, 10)) {
    case 0: set(d, OP_SRLI, r, r, 0, sh); break;
    case 1: set(d, OP_SRAI, r, r, 0, sh); break;
    case 2: set(d, OP_ANDI, r, r, 0, sext((uint64_t)sh, 6)); break;
    default:
        set(d, ops[bits(c, 12, 12) << 2 | bits(c, 6, 5)], r, r, rs2, 0);
        break;
    }
}

static int64_t c_jimm(uint32_t c)
{
    uint32_t v = bits(c, 12, 12) << 11 | bits(c, 11, 11) << 4 |
                 bits(c, 10, 9) << 8 | bits(c, 8, 8) << 10 |
                 bits(c, 7, 7) << 6 | bits(c, 6, 6) << 7 | bits(c, 5, 3) << 1 |
                 bits(c, 2, 2) << 5;
    return sext(v, 12);
}

static int64_t c_bimm(uint32_t c)
{
    uint32_t v = bits(c, 12, 12) << 8 | bits(c, 11, 10) << 3 |
                 bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 | bits(c, 2, 2) << 5;
    return sext(v, 9);
}

static void decode_c1_lui(insn_t *d, uint32_t c, int rd)
{
    if (rd == 2) {
        int64_t v = sext(bits(c, 12, 12) << 9 | bits(c, 6, 6) << 4 |
                             bits(c, 5, 5) << 6 | bits(c, 4, 3) << 7 |
                             bits(c, 2, 2) << 5,
                         10);
        set(d, v ? OP_ADDI : OP_ILLEGAL, 2, 2, 0, v);
        return;
    }
    int64_t v = sext(bits(c, 12, 12) << 17 | bits(c, 6, 2) << 12, 18);
    set(d, v ? OP_LUI : OP_ILLEGAL, rd, 0, 0, v);
}

/* Quadrant 1: immediates, lui, the register ALU, jumps and branches. */
static void decode_c1(insn_t *d, uint32_t c)
{
    int rd = (int)bits(c, 11, 7), rs1p = (int)bits(c, 9, 7) + 8;
    int64_t imm6 = sext(bits(c, 12, 12) << 5 | bits(c, 6, 2), 6);
    switch (bits(c, 15, 13)) {
    case 0: set(d, OP_ADDI, rd, rd, 0, imm6); break;
    case 1: set(d, rd ? OP_ADDIW : OP_ILLEGAL, rd, rd, 0, imm6); break;
    case 2: set(d, OP_ADDI, rd, 0, 0, imm6); break;
    case 3: decode_c1_lui(d, c, rd); break;
    case 4: decode_c1_alu(d, c); break;
    case 5: set(d, OP_JAL, 0, 0, 0, c_jimm(c)); break;
    case 6: set(d, OP_BEQ, 0, rs1p, 0, c_bimm(c)); break;
    default: set(d, OP_BNE, 0, rs1p, 0, c_bimm(c)); break;
    }
}

static void decode_c2_jr(insn_t *d, uint32_t c, int rd, int rs2)
{
    if (!bits(c, 12, 12)) {
        if (rs2 == 0) {
            set(d, rd ? OP_JALR : OP_ILLEGAL, 0, rd, 0, 0);
        } else {
            set(d, OP_ADD, rd, 0, rs2, 0);
        }
    } else if (rd == 0 && rs2 == 0) {
        set(d, OP_EBREAK, 0, 0, 0, 0);
    } else if (rs2 == 0) {
        set(d, OP_JALR, 1, rd, 0, 0);
    } else {
        set(d, OP_ADD, rd, rd, rs2, 0);
    }
}

/* Quadrant 2: slli, sp-based loads/stores, jr/mv/ebreak/jalr/add. */
static void decode_c2(insn_t *d, uint32_t c)
{
    int rd = (int)bits(c, 11, 7), rs2 = (int)bits(c, 6, 2);
    int64_t ld = bits(c, 12, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6;
    int64_t lw = bits(c, 12, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6;
    int64_t sd = bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6;
    int64_t sw = bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6;
    switch (bits(c, 15, 13)) {
    case 0:
        set(d, OP_SLLI, rd, rd, 0, bits(c, 12, 12) << 5 | bits(c, 6, 2));
        break;
    case 1:
        set(d, OP_FLD, rd, 2, 0, ld);
        d->rd = (uint8_t)rd;
        break;
    case 2: set(d, rd ? OP_LW : OP_ILLEGAL, rd, 2, 0, lw); break;
    case 3: set(d, rd ? OP_LD : OP_ILLEGAL, rd, 2, 0, ld); break;
    case 4: decode_c2_jr(d, c, rd, rs2); break;
    case 5: set(d, OP_FSD, 0, 2, rs2, sd); break;
    case 6: set(d, OP_SW, 0, 2, rs2, sw); break;
    default: set(d, OP_SD, 0, 2, rs2, sd); break;
    }
}

void mach_decode(hart_t *h, insn_t *d, uint64_t pc)
{
    uint8_t *p = mach_mem(h, NULL, pc, 2);
    uint16_t lo;
    memset(d, 0, sizeof(*d));
    d->pc = pc;
    memcpy(&lo, p, 2);
    if ((lo & 3) != 3) {
        d->raw = lo;
        d->len = 2;
        switch (lo & 3) {
        case 0: decode_c0(d, lo); break;
        case 1: decode_c1(d, lo); break;
        default: decode_c2(d, lo); break;
        }
        return;
    }
    uint32_t in;
    memcpy(&in, mach_mem(h, NULL, pc, 4), 4);
    d->raw = in;
    decode32(d, in);
}
