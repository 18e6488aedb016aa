/*
 * The interpreter: direct-threaded code over translated blocks (block.c).
 * Each record holds the address of its handler, a label in mach_run; a
 * handler runs its instruction and jumps to the next record's handler
 * (`goto *d->fn`), a fused pair runs both with a direct jump between
 * them.  A block's end looks up its successor once and chains it
 * (block_t.next), so a loop runs without a table lookup.
 *
 * Integer instructions, local loads/stores and the direct (same-node)
 * case of the xBGAS loads/stores run inline; FP, CSR, AMO, the other
 * xBGAS and ecall cases call out of line (fp.c, atomic.c, xbgas.c,
 * syscall.c) with h->pc set, so a fault there names the pc.
 * Invariants: the pc is not kept while a block runs (each record has its
 * own); the total of a block's instructions is added when it is entered
 * (its other counters count entries, block.c), so h->st.total is exact (the loop stores its local count less the records
 * still to come) whenever an out-of-line case runs: the guest may read
 * instret and exit prints exact counts.  A local store into a page of
 * translated code flushes the cache and leaves the block after the store,
 * taking back the counts of the records it skips.
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
}

static void exec_fstore(hart_t *h, const insn_t *d)
{
    uint64_t a = X(d->rs1) + (uint64_t)d->imm;
    uint64_t n = d->op == OP_FSW ? 4 : 8;
    memcpy(mach_mem(h, d, a, n), &h->f[d->rs2], n);
    mach_code_written(h, a, n);
}

/* The cases that leave the loop's hot path. */
static void exec_other(hart_t *h, const insn_t *d)
{
    h->pc = d->pc;
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
    case OP_FENCE_I: mach_code_flush(h); break;
    case OP_ECALL: mach_syscall(h, d); break;
    case OP_EBREAK: mach_fault(h, d, d->pc, "breakpoint (ebreak) reached");
    case OP_ILLEGAL:
        mach_fault(h, d, d->pc, "illegal instruction 0x%0*x", d->len * 2,
                   d->raw);
    default: mach_exec_xbgas(h, d); break;
    }
}

/*
 * The fast path of an xBGAS load/store: a PE whose memory is directly
 * reachable (its row filled by an earlier access), in bounds and aligned;
 * NULL sends everything else (namespace 0 too) to xbgas.c, which checks.
 */
static inline uint8_t *xfast(const hart_t *h, uint64_t ns, uint64_t off,
                             uint64_t n)
{
    if (ns > (uint64_t)h->npes || off - h->lo > h->span - n ||
        (off & (n - 1))) {
        return NULL;
    }
    uint8_t *b = h->ns_dir[ns]; /* NULL for namespace 0 */
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

/* Each handler ends by jumping to the next record's. */
#define NEXT()        \
    do {              \
        d++;          \
        goto * d->fn; \
    } while (0)
#define ALU(name, expr)                        \
    l_##name:                                  \
    {                                          \
        uint64_t a = x[d->rs1], c = x[d->rs2]; \
        (void)a, (void)c;                      \
        x[d->rd] = (expr);                     \
        NEXT();                                \
    }
#define LOAD(name, n, cast)                                         \
    l_##name:                                                       \
    {                                                               \
        uint64_t a = x[d->rs1] + (uint64_t)d->imm;                  \
        x[d->rd]   = (uint64_t)(cast)ld_u(mach_mem(h, d, a, n), n); \
        NEXT();                                                     \
    }
#define STORE(name, n)                              \
    l_##name:                                       \
    {                                               \
        uint64_t a = x[d->rs1] + (uint64_t)d->imm;  \
        st_u(mach_mem(h, d, a, n), x[d->rs2], n);   \
        if (mach_unlikely(mach_is_code(h, a, n))) { \
            goto code_written;                      \
        }                                           \
        NEXT();                                     \
    }
/* a branch leaves the block through one of its two chains */
#define BRANCH(name, cond)                     \
    l_##name:                                  \
    {                                          \
        uint64_t a = x[d->rs1], c = x[d->rs2]; \
        if (cond) {                            \
            pc   = d->pc + (uint64_t)d->imm;   \
            slot = &blk->next[1];              \
        } else {                               \
            pc   = d->pc + d->len;             \
            slot = &blk->next[0];              \
        }                                      \
        goto chain;                            \
    }
/* the first of a fused pair: its own work, then the second's handler */
#define FUSED(name, first, second) \
    l_##name:                      \
    {                              \
        first;                     \
        d++;                       \
        goto l_##second;           \
    }

int mach_run(hart_t *h)
{
    /* clang-format off */
    static const void *const fn[H_COUNT] = {
        [OP_JAL] = &&l_jal, [OP_JALR] = &&l_jalr, [OP_BEQ] = &&l_beq,
        [OP_BNE] = &&l_bne, [OP_BLT] = &&l_blt, [OP_BGE] = &&l_bge,
        [OP_BLTU] = &&l_bltu, [OP_BGEU] = &&l_bgeu, [OP_LB] = &&l_lb,
        [OP_LH] = &&l_lh, [OP_LW] = &&l_lw, [OP_LD] = &&l_ld,
        [OP_LBU] = &&l_lbu, [OP_LHU] = &&l_lhu, [OP_LWU] = &&l_lwu,
        [OP_SB] = &&l_sb, [OP_SH] = &&l_sh, [OP_SW] = &&l_sw,
        [OP_SD] = &&l_sd, [OP_ADDI] = &&l_addi, [OP_SLTI] = &&l_slti,
        [OP_SLTIU] = &&l_sltiu, [OP_XORI] = &&l_xori, [OP_ORI] = &&l_ori,
        [OP_ANDI] = &&l_andi, [OP_SLLI] = &&l_slli, [OP_SRLI] = &&l_srli,
        [OP_SRAI] = &&l_srai, [OP_ADD] = &&l_add, [OP_SUB] = &&l_sub,
        [OP_SLL] = &&l_sll, [OP_SLT] = &&l_slt, [OP_SLTU] = &&l_sltu,
        [OP_XOR] = &&l_xor, [OP_SRL] = &&l_srl, [OP_SRA] = &&l_sra,
        [OP_OR] = &&l_or, [OP_AND] = &&l_and, [OP_ADDIW] = &&l_addiw,
        [OP_SLLIW] = &&l_slliw, [OP_SRLIW] = &&l_srliw,
        [OP_SRAIW] = &&l_sraiw, [OP_ADDW] = &&l_addw, [OP_SUBW] = &&l_subw,
        [OP_SLLW] = &&l_sllw, [OP_SRLW] = &&l_srlw, [OP_SRAW] = &&l_sraw,
        [OP_MUL] = &&l_mul, [OP_MULH] = &&l_mul, [OP_MULHSU] = &&l_mul,
        [OP_MULHU] = &&l_mul, [OP_DIV] = &&l_mul, [OP_DIVU] = &&l_mul,
        [OP_REM] = &&l_mul, [OP_REMU] = &&l_mul, [OP_MULW] = &&l_mul,
        [OP_DIVW] = &&l_mul, [OP_DIVUW] = &&l_mul, [OP_REMW] = &&l_mul,
        [OP_REMUW] = &&l_mul, [OP_ELOAD] = &&l_eload,
        [OP_ESTORE] = &&l_estore, [OP_EADDIE] = &&l_eaddie,
        [H_END] = &&l_end, [H_OTHER] = &&l_other,
        [H_OTHER_END] = &&l_other_end, [H_ELD] = &&l_eld,
        [H_ESD] = &&l_esd, [H_LI] = &&l_li,
        [H_EADDIE_ELD] = &&l_eaddie_eld, [H_EADDIE_ESD] = &&l_eaddie_esd,
        [H_EADDIE_ELOAD] = &&l_eaddie_eload,
        [H_EADDIE_ESTORE] = &&l_eaddie_estore,
        [H_LI_ADDI] = &&l_li_addi, [H_LI_LD] = &&l_li_ld,
        [H_LI_JALR] = &&l_li_jalr, [H_ADDI_BNE] = &&l_addi_bne,
        [H_ADDI_BLT] = &&l_addi_blt, [H_ADDI_BLTU] = &&l_addi_bltu,
        [H_ADDIW_BNE] = &&l_addiw_bne,
    };
    /* clang-format on */
    uint64_t *x = h->x, *e = h->e;
    uint64_t pc = h->pc, n = h->st.total, gen, ns;
    block_t *b, *blk, **slot;
    const insn_t *d;

lookup: /* pc: a block without a chain to it */
    b = h->btab[(pc >> 1) & (MACH_BTAB_SIZE - 1)];
    if (mach_unlikely(!b || b->pc != pc)) {
        b = mach_block(h, pc, fn);
    }
enter: /* b */
    blk = b;
    n += b->n;
    b->execs++;
    d = b->ins;
    goto * d->fn;
chain: /* pc and the chain slot of the block that ends */
    b = *slot;
    if (mach_likely(b && b->pc == pc)) {
        goto enter;
    }
    gen = h->gen;
    b   = mach_block(h, pc, fn);
    if (gen == h->gen) {
        *slot = b;
    }
    goto enter;
code_written: /* after a store into code at d: leave the block */
    n -= mach_block_uncount(h, d);
    pc = d->pc + d->len;
    mach_code_flush(h);
    goto lookup;

l_end:
    pc   = d->pc;
    slot = &blk->next[0];
    goto chain;
l_other:
    h->st.total = n - d->left;
    exec_other(h, d);
    n = h->st.total + d->left;
    if (mach_unlikely(h->flush_pending)) {
        goto code_written;
    }
    NEXT();
l_other_end:
    h->st.total = n;
    exec_other(h, d);
    n  = h->st.total;
    pc = d->pc + d->len;
    if (h->exited) {
        goto out;
    }
    if (h->flush_pending) {
        mach_code_flush(h);
    }
    goto lookup;
l_jal:
    x[d->rd] = d->pc + d->len;
    pc       = d->pc + (uint64_t)d->imm;
    slot     = &blk->next[1];
    goto chain;
l_jalr : {
    uint64_t t = (x[d->rs1] + (uint64_t)d->imm) & ~1ull;
    x[d->rd]   = d->pc + d->len;
    pc         = t;
    slot       = &blk->next[1];
    goto chain;
}
    BRANCH(beq, a == c)
    BRANCH(bne, a != c)
    BRANCH(blt, (int64_t)a < (int64_t)c)
    BRANCH(bge, (int64_t)a >= (int64_t)c)
    BRANCH(bltu, a < c)
    BRANCH(bgeu, a >= c)
    LOAD(lb, 1, int8_t)
    LOAD(lh, 2, int16_t)
    LOAD(lw, 4, int32_t)
    LOAD(ld, 8, uint64_t)
    LOAD(lbu, 1, uint8_t)
    LOAD(lhu, 2, uint16_t)
    LOAD(lwu, 4, uint32_t)
    STORE(sb, 1)
    STORE(sh, 2)
    STORE(sw, 4)
    STORE(sd, 8)
l_li:
    x[d->rd] = (uint64_t)d->imm;
    NEXT();
    ALU(addi, a + (uint64_t)d->imm)
    ALU(slti, (int64_t)a < d->imm)
    ALU(sltiu, a < (uint64_t)d->imm)
    ALU(xori, a ^ (uint64_t)d->imm)
    ALU(ori, a | (uint64_t)d->imm)
    ALU(andi, a & (uint64_t)d->imm)
    ALU(slli, a << d->imm)
    ALU(srli, a >> d->imm)
    ALU(srai, (uint64_t)((int64_t)a >> d->imm))
    ALU(add, a + c)
    ALU(sub, a - c)
    ALU(sll, a << (c & 63))
    ALU(slt, (int64_t)a < (int64_t)c)
    ALU(sltu, a < c)
    ALU(xor, a ^ c)
    ALU(srl, a >> (c & 63))
    ALU(sra, (uint64_t)((int64_t)a >> (c & 63)))
    ALU(or, a | c)
    ALU(and, a & c)
    ALU(addiw, sx32(a + (uint64_t)d->imm))
    ALU(slliw, sx32((uint32_t)a << d->imm))
    ALU(srliw, sx32((uint32_t)a >> d->imm))
    ALU(sraiw, (uint64_t)(int64_t)((int32_t)a >> d->imm))
    ALU(addw, sx32(a + c))
    ALU(subw, sx32(a - c))
    ALU(sllw, sx32((uint32_t)a << (c & 31)))
    ALU(srlw, sx32((uint32_t)a >> (c & 31)))
    ALU(sraw, (uint64_t)(int64_t)((int32_t)a >> (c & 31)))
    ALU(mul, exec_mul(h, d))
l_eaddie:
    e[d->rd] = x[d->rs1] + (uint64_t)d->imm;
    NEXT();
l_eaddie_eld:
    ns = e[d->rd] = x[d->rs1] + (uint64_t)d->imm;
    d++;
    goto eld;
l_eld:
    ns = e[d->rs1];
eld : {
    uint8_t *p = xfast(h, ns, x[d->rs1] + (uint64_t)d->imm, 8);
    if (mach_unlikely(!p)) {
        goto l_other;
    }
    x[d->rd] = ld_u(p, 8);
    NEXT();
}
l_eaddie_eload:
    ns = e[d->rd] = x[d->rs1] + (uint64_t)d->imm;
    d++;
    goto eload;
l_eload:
    ns = e[d->rs1];
eload : {
    uint64_t off = x[d->rs1] + (uint64_t)d->imm;
    uint8_t *p   = xfast(h, ns, off, 1u << (d->f3 & 3));
    if (mach_unlikely(!p)) {
        goto l_other;
    }
    x[d->rd] = xload(p, d->f3);
    NEXT();
}
l_eaddie_esd:
    ns = e[d->rd] = x[d->rs1] + (uint64_t)d->imm;
    d++;
    goto esd;
l_esd:
    ns = e[d->rs1];
esd : {
    uint8_t *p = xfast(h, ns, x[d->rs1] + (uint64_t)d->imm, 8);
    if (mach_unlikely(!p || ns - 1 == (uint64_t)h->pe)) {
        goto l_other; /* this PE's own memory: it may be code */
    }
    st_u(p, x[d->rs2], 8);
    NEXT();
}
l_eaddie_estore:
    ns = e[d->rd] = x[d->rs1] + (uint64_t)d->imm;
    d++;
    goto estore;
l_estore:
    ns = e[d->rs1];
estore : {
    uint8_t *p = xfast(h, ns, x[d->rs1] + (uint64_t)d->imm, 1u << d->f3);
    if (mach_unlikely(!p || ns - 1 == (uint64_t)h->pe)) {
        goto l_other;
    }
    xstore(p, x[d->rs2], d->f3);
    NEXT();
}
    FUSED(li_addi, x[d->rd] = (uint64_t)d->imm, addi)
    FUSED(li_ld, x[d->rd] = (uint64_t)d->imm, ld)
    FUSED(li_jalr, x[d->rd] = (uint64_t)d->imm, jalr)
    FUSED(addi_bne, x[d->rd] = x[d->rs1] + (uint64_t)d->imm, bne)
    FUSED(addi_blt, x[d->rd] = x[d->rs1] + (uint64_t)d->imm, blt)
    FUSED(addi_bltu, x[d->rd] = x[d->rs1] + (uint64_t)d->imm, bltu)
    FUSED(addiw_bne, x[d->rd] = sx32(x[d->rs1] + (uint64_t)d->imm), bne)
out:
    h->st.total = n;
    mach_block_fold(h);
    return h->exit_code;
}
