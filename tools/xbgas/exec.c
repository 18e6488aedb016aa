/*
 * The interpreter loop: fetch the decoded instruction for pc from the
 * decode cache (decoding on a miss), count it, run it.
 *
 * Integer instructions, local loads/stores and the direct (same-node)
 * case of the xBGAS loads/stores run inline in one switch;
 * FP, CSR, AMO, xBGAS and ecall cases call out of line (fp.c, atomic.c,
 * xbgas.c, syscall.c) with h->pc set, so a fault there names the pc.
 * Invariant: h->st.total is exact whenever an out-of-line case runs (the
 * loop stores its local count first), so the guest may read instret and
 * exit prints exact counts.
 */
#include "machine_int.h"

#include <string.h>

#define X(r) (h->x[(r)])

static inline uint64_t ld_u(const uint8_t *p, int n)
{
    uint64_t v = 0;
    memcpy(&v, p, (size_t)n); /* little-endian host and guest */
    return v;
}

static inline void st_u(uint8_t *p, uint64_t v, int n)
{
    memcpy(p, &v, (size_t)n);
}

static uint64_t mulh_s(int64_t a, int64_t b)
{
    return (uint64_t)(((__int128)a * b) >> 64);
}

static uint64_t mulh_su(int64_t a, uint64_t b)
{
    return (uint64_t)(((__int128)a * (__int128)b) >> 64);
}

static uint64_t mulh_u(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static uint64_t div_s(int64_t a, int64_t b)
{
    if (b == 0) {
        return UINT64_MAX;
    }
    if (a == INT64_MIN && b == -1) {
        return (uint64_t)a;
    }
    return (uint64_t)(a / b);
}

static uint64_t rem_s(int64_t a, int64_t b)
{
    if (b == 0) {
        return (uint64_t)a;
    }
    if (a == INT64_MIN && b == -1) {
        return 0;
    }
    return (uint64_t)(a % b);
}

static uint64_t divw_s(int32_t a, int32_t b)
{
    if (b == 0) {
        return UINT64_MAX;
    }
    if (a == INT32_MIN && b == -1) {
        return (uint64_t)(int64_t)a;
    }
    return (uint64_t)(int64_t)(a / b);
}

static uint64_t remw_s(int32_t a, int32_t b)
{
    if (b == 0) {
        return (uint64_t)(int64_t)a;
    }
    if (a == INT32_MIN && b == -1) {
        return 0;
    }
    return (uint64_t)(int64_t)(a % b);
}

static uint64_t sx32(uint64_t v)
{
    return (uint64_t)(int64_t)(int32_t)v;
}

/* The M extension's cases (rare enough to leave the hot switch). */
static uint64_t exec_mul(const hart_t *h, const insn_t *d)
{
    uint64_t a = X(d->rs1), b = X(d->rs2);
    uint32_t aw = (uint32_t)a, bw = (uint32_t)b;
    switch (d->op) {
    case OP_MUL: return a * b;
    case OP_MULH: return mulh_s((int64_t)a, (int64_t)b);
    case OP_MULHSU: return mulh_su((int64_t)a, b);
    case OP_MULHU: return mulh_u(a, b);
    case OP_DIV: return div_s((int64_t)a, (int64_t)b);
    case OP_DIVU: return b ? a / b : UINT64_MAX;
    case OP_REM: return rem_s((int64_t)a, (int64_t)b);
    case OP_REMU: return b ? a % b : a;
    case OP_MULW: return sx32(aw * bw);
    case OP_DIVW: return divw_s((int32_t)aw, (int32_t)bw);
    case OP_DIVUW: return sx32(bw ? aw / bw : UINT32_MAX);
    case OP_REMW: return remw_s((int32_t)aw, (int32_t)bw);
    default: return sx32(bw ? aw % bw : aw); /* REMUW */
    }
}

static int take_branch(const hart_t *h, const insn_t *d)
{
    uint64_t a = X(d->rs1), b = X(d->rs2);
    switch (d->op) {
    case OP_BEQ: return a == b;
    case OP_BNE: return a != b;
    case OP_BLT: return (int64_t)a < (int64_t)b;
    case OP_BGE: return (int64_t)a >= (int64_t)b;
    case OP_BLTU: return a < b;
    default: return a >= b;
    }
}

static void exec_fload(hart_t *h, const insn_t *d)
{
    uint64_t a = X(d->rs1) + (uint64_t)d->imm;
    if (d->op == OP_FLW) {
        uint32_t v;
        memcpy(&v, mach_mem(h, d, a, 4), 4);
        h->f[d->rd & 31] = 0xffffffff00000000ull | v;
    } else {
        memcpy(&h->f[d->rd & 31], mach_mem(h, d, a, 8), 8);
    }
    h->st.loads++;
}

static void exec_fstore(hart_t *h, const insn_t *d)
{
    uint64_t a = X(d->rs1) + (uint64_t)d->imm;
    memcpy(mach_mem(h, d, a, d->op == OP_FSW ? 4 : 8), &h->f[d->rs2],
           d->op == OP_FSW ? 4 : 8);
    h->st.stores++;
}

/* The cases that leave the loop's hot path; returns the next pc. */
static uint64_t exec_other(hart_t *h, const insn_t *d)
{
    uint64_t next = d->pc + d->len;
    h->pc         = d->pc;
    switch (d->op) {
    case OP_FLW:
    case OP_FLD: exec_fload(h, d); break;
    case OP_FSW:
    case OP_FSD: exec_fstore(h, d); break;
    case OP_FP:
    case OP_FMA: mach_exec_fp(h, d); break;
    case OP_CSR: mach_exec_csr(h, d); break;
    case OP_LR:
    case OP_SC:
    case OP_AMO: mach_exec_amo(h, d); break;
    case OP_FENCE: xg_quiet(); break;
    case OP_FENCE_I: mach_icache_flush(h); break;
    case OP_ECALL: mach_syscall(h, d); break;
    case OP_EBREAK: mach_fault(h, d, d->pc, "breakpoint (ebreak) reached");
    case OP_ILLEGAL:
        mach_fault(h, d, d->pc, "illegal instruction 0x%0*x", d->len * 2,
                   d->raw);
    default: mach_exec_xbgas(h, d); break;
    }
    return next;
}

/*
 * The fast path of an xBGAS load/store: a PE whose memory is directly
 * reachable (its row filled by an earlier access), in bounds and aligned;
 * NULL sends everything else (namespace 0 too) to xbgas.c, which checks.
 */
static inline uint8_t *xfast(const hart_t *h, uint64_t ns, uint64_t off,
                             uint64_t n)
{
    uint64_t pe = ns - 1;
    if (pe >= (uint64_t)h->npes || off - h->lo > h->span - n ||
        (off & (n - 1))) {
        return NULL;
    }
    uint8_t *b = h->ns_ptr[pe];
    return b ? b + off : NULL;
}

/* The value of an xBGAS load of width f3 (the funct3 of ld/lw/...: 0..3
 * signed, 4..6 unsigned) at @p: one host load of a constant size each. */
static inline uint64_t xload(const uint8_t *p, int f3)
{
    switch (f3) {
    case 0: return (uint64_t)(int64_t)(int8_t)ld_u(p, 1);
    case 1: return (uint64_t)(int64_t)(int16_t)ld_u(p, 2);
    case 2: return (uint64_t)(int64_t)(int32_t)ld_u(p, 4);
    case 4: return ld_u(p, 1);
    case 5: return ld_u(p, 2);
    case 6: return ld_u(p, 4);
    default: return ld_u(p, 8);
    }
}

/* An xBGAS store of width 1 << f3 at @p, likewise. */
static inline void xstore(uint8_t *p, uint64_t v, int f3)
{
    switch (f3) {
    case 0: st_u(p, v, 1); break;
    case 1: st_u(p, v, 2); break;
    case 2: st_u(p, v, 4); break;
    default: st_u(p, v, 8); break;
    }
}

#define NEXT() (pc += d->len)
#define LOAD(n, cast)                                                 \
    {                                                                 \
        uint64_t a_ = X(d->rs1) + (uint64_t)d->imm;                   \
        X(d->rd)    = (uint64_t)(cast)ld_u(mach_mem(h, d, a_, n), n); \
        h->st.loads++;                                                \
        NEXT();                                                       \
        break;                                                        \
    }
#define STORE(n)                                    \
    {                                               \
        uint64_t a_ = X(d->rs1) + (uint64_t)d->imm; \
        st_u(mach_mem(h, d, a_, n), X(d->rs2), n);  \
        h->st.stores++;                             \
        NEXT();                                     \
        break;                                      \
    }
/* each ends its case */
#define ALU(expr)          \
    {                      \
        X(d->rd) = (expr); \
        NEXT();            \
        break;             \
    }

int mach_run(hart_t *h)
{
    uint64_t pc = h->pc, n = h->st.total;
    insn_t *cache = h->icache;
    while (mach_likely(!h->exited)) {
        insn_t *d = &cache[(pc >> 1) & (MACH_ICACHE_SIZE - 1)];
        if (mach_unlikely(d->pc != pc)) {
            h->pc = pc;
            mach_decode(h, d, pc);
        }
        n++;
        uint64_t a  = X(d->rs1);
        int64_t imm = d->imm;
        switch (d->op) {
        case OP_LUI: ALU((uint64_t)imm);
        case OP_AUIPC: ALU(pc + (uint64_t)imm);
        case OP_JAL:
            X(d->rd) = pc + d->len;
            pc += (uint64_t)imm;
            break;
        case OP_JALR: {
            uint64_t t = (a + (uint64_t)imm) & ~1ull;
            X(d->rd)   = pc + d->len;
            pc         = t;
            break;
        }
        case OP_BEQ:
        case OP_BNE:
        case OP_BLT:
        case OP_BGE:
        case OP_BLTU:
        case OP_BGEU:
            if (take_branch(h, d)) {
                pc += (uint64_t)imm;
            } else {
                NEXT();
            }
            break;
        case OP_LB: LOAD(1, int8_t);
        case OP_LH: LOAD(2, int16_t);
        case OP_LW: LOAD(4, int32_t);
        case OP_LD: LOAD(8, uint64_t);
        case OP_LBU: LOAD(1, uint8_t);
        case OP_LHU: LOAD(2, uint16_t);
        case OP_LWU: LOAD(4, uint32_t);
        case OP_SB: STORE(1);
        case OP_SH: STORE(2);
        case OP_SW: STORE(4);
        case OP_SD: STORE(8);
        case OP_ADDI: ALU(a + (uint64_t)imm);
        case OP_SLTI: ALU((int64_t)a < imm);
        case OP_SLTIU: ALU(a < (uint64_t)imm);
        case OP_XORI: ALU(a ^ (uint64_t)imm);
        case OP_ORI: ALU(a | (uint64_t)imm);
        case OP_ANDI: ALU(a & (uint64_t)imm);
        case OP_SLLI: ALU(a << imm);
        case OP_SRLI: ALU(a >> imm);
        case OP_SRAI: ALU((uint64_t)((int64_t)a >> imm));
        case OP_ADD: ALU(a + X(d->rs2));
        case OP_SUB: ALU(a - X(d->rs2));
        case OP_SLL: ALU(a << (X(d->rs2) & 63));
        case OP_SLT: ALU((int64_t)a < (int64_t)X(d->rs2));
        case OP_SLTU: ALU(a < X(d->rs2));
        case OP_XOR: ALU(a ^ X(d->rs2));
        case OP_SRL: ALU(a >> (X(d->rs2) & 63));
        case OP_SRA: ALU((uint64_t)((int64_t)a >> (X(d->rs2) & 63)));
        case OP_OR: ALU(a | X(d->rs2));
        case OP_AND: ALU(a & X(d->rs2));
        case OP_ADDIW: ALU(sx32(a + (uint64_t)imm));
        case OP_SLLIW: ALU(sx32((uint32_t)a << imm));
        case OP_SRLIW: ALU(sx32((uint32_t)a >> imm));
        case OP_SRAIW: ALU((uint64_t)(int64_t)((int32_t)a >> imm));
        case OP_ADDW: ALU(sx32(a + X(d->rs2)));
        case OP_SUBW: ALU(sx32(a - X(d->rs2)));
        case OP_SLLW: ALU(sx32((uint32_t)a << (X(d->rs2) & 31)));
        case OP_SRLW: ALU(sx32((uint32_t)a >> (X(d->rs2) & 31)));
        case OP_SRAW: ALU((uint64_t)(int64_t)((int32_t)a >> (X(d->rs2) & 31)));
        case OP_MUL:
        case OP_MULH:
        case OP_MULHSU:
        case OP_MULHU:
        case OP_DIV:
        case OP_DIVU:
        case OP_REM:
        case OP_REMU:
        case OP_MULW:
        case OP_DIVW:
        case OP_DIVUW:
        case OP_REMW:
        case OP_REMUW: ALU(exec_mul(h, d));
        case OP_ELOAD: {
            uint8_t *p =
                xfast(h, h->e[d->rs1], a + (uint64_t)imm, 1u << (d->f3 & 3));
            if (mach_unlikely(!p)) {
                goto other;
            }
            X(d->rd) = xload(p, d->f3);
            h->st.xmem++;
            h->st.xremote++;
            NEXT();
            break;
        }
        case OP_ESTORE: {
            uint8_t *p = xfast(h, h->e[d->rs1], a + (uint64_t)imm, 1u << d->f3);
            if (mach_unlikely(!p)) {
                goto other;
            }
            xstore(p, X(d->rs2), d->f3);
            h->st.xmem++;
            h->st.xremote++;
            NEXT();
            break;
        }
        case OP_EADDIE:
            h->e[d->rd] = a + (uint64_t)imm;
            h->st.xaddr++;
            NEXT();
            break;
        default:
        other:
            h->st.total = n;
            pc          = exec_other(h, d);
            n           = h->st.total;
            break;
        }
    }
    h->st.total = n;
    return h->exit_code;
}
