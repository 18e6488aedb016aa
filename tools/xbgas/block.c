/*
 * The block cache: guest code translated into basic blocks of decoded
 * records (insn_t), each with the address of its handler in mach_run,
 * so the interpreter runs a block by jumping from record to record.
 *
 * Invariants:
 * - A block starts at the pc it is looked up by and ends after a jump, a
 *   branch or a case that ends blocks (ecall, ebreak, fence.i, an illegal
 *   instruction), after MACH_BLOCK_MAX instructions, or before bytes that
 *   are not guest memory; a block not ended by a jump ends in an H_END
 *   record (no instruction).  A jump into the middle of a block starts a
 *   block of its own (blocks may overlap).
 * - Blocks live in one arena; a flush (fence.i, riscv_flush_icache, a
 *   store into a page of code, a full arena) empties the table and the
 *   arena at once and bumps h->gen, so a chain pointer is stored only if
 *   no flush came between its lookup and the store (exec.c).
 * - codemap[page] is 1 for each 4 KiB guest page that holds a byte of a
 *   translated instruction since the last flush.
 * - The counters in a block are those of its records (H_END excluded);
 *   fused pairs count as their two instructions.  Every xBGAS memory
 *   instruction counts as remote; the slow path takes it back for
 *   namespace 0 (xbgas.c).
 */
#include "machine_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    C_LOAD  = 1,
    C_STORE = 2,
    C_XMEM  = 4,
    C_XADDR = 8,
    C_END   = 16 /* ends the block */
};

static int op_class(int op)
{
    switch (op) {
    case OP_LB:
    case OP_LH:
    case OP_LW:
    case OP_LD:
    case OP_LBU:
    case OP_LHU:
    case OP_LWU:
    case OP_FLW:
    case OP_FLD:
    case OP_LR: return C_LOAD;
    case OP_SB:
    case OP_SH:
    case OP_SW:
    case OP_SD:
    case OP_FSW:
    case OP_FSD:
    case OP_SC:
    case OP_AMO: return C_STORE;
    case OP_ELOAD:
    case OP_ESTORE:
    case OP_ERLOAD:
    case OP_ERSTORE:
    case OP_ELE:
    case OP_ESE:
    case OP_ERLE:
    case OP_ERSE:
    case OP_EAMO:
    case OP_EAMOCAS: return C_XMEM;
    case OP_EADDI:
    case OP_EADDIE:
    case OP_EADDIX: return C_XADDR;
    case OP_JAL:
    case OP_JALR:
    case OP_BEQ:
    case OP_BNE:
    case OP_BLT:
    case OP_BGE:
    case OP_BLTU:
    case OP_BGEU:
    case OP_ECALL:
    case OP_EBREAK:
    case OP_FENCE_I:
    case OP_ILLEGAL: return C_END;
    default: return 0;
    }
}

/* The fused pairs: the first record's handler, the second's, the pair's. */
static const uint16_t fused[][3] = {
    {OP_EADDIE, H_ELD, H_EADDIE_ELD},
    {OP_EADDIE, H_ESD, H_EADDIE_ESD},
    {OP_EADDIE, OP_ELOAD, H_EADDIE_ELOAD},
    {OP_EADDIE, OP_ESTORE, H_EADDIE_ESTORE},
    {H_LI, OP_ADDI, H_LI_ADDI},
    {H_LI, OP_LD, H_LI_LD},
    {H_LI, OP_JALR, H_LI_JALR},
    {OP_ADDI, OP_BNE, H_ADDI_BNE},
    {OP_ADDI, OP_BLT, H_ADDI_BLT},
    {OP_ADDI, OP_BLTU, H_ADDI_BLTU},
    {OP_ADDIW, OP_BNE, H_ADDIW_BNE},
};

void mach_code_init(hart_t *h)
{
    h->btab    = calloc(MACH_BTAB_SIZE, sizeof(*h->btab));
    h->arena   = malloc(MACH_ARENA_SIZE);
    h->codemap = calloc((size_t)(h->size >> 12) + 1, 1);
    if (!h->btab || !h->arena || !h->codemap) {
        mach_die("out of memory");
    }
}

void mach_code_free(hart_t *h)
{
    free(h->btab);
    free(h->arena);
    free(h->codemap);
}

/* The bytes a block of @p n instructions takes in the arena. */
static size_t block_size(uint32_t n)
{
    size_t sz = sizeof(block_t) + (n + 1) * sizeof(insn_t);
    return (sz + 7) & ~(size_t)7;
}

void mach_block_fold(hart_t *h)
{
    for (size_t at = 0; at < h->arena_used;) {
        block_t *b = (block_t *)(void *)(h->arena + at);
        h->st.loads += b->execs * b->loads;
        h->st.stores += b->execs * b->stores;
        h->st.xmem += b->execs * b->xmem;
        h->st.xremote += b->execs * b->xmem;
        h->st.xaddr += b->execs * b->xaddr;
        b->execs = 0;
        at += block_size(b->n);
    }
}

void mach_code_flush(hart_t *h)
{
    mach_block_fold(h);
    memset(h->btab, 0, MACH_BTAB_SIZE * sizeof(*h->btab));
    memset(h->codemap, 0, (size_t)(h->size >> 12) + 1);
    h->arena_used    = 0;
    h->flush_pending = 0;
    h->gen++;
}

void mach_code_written(hart_t *h, uint64_t a, uint64_t n)
{
    if (n && a < h->size && h->size - a >= n && mach_is_code(h, a, n)) {
        h->flush_pending = 1;
    }
}

void mach_code_written_host(hart_t *h, const void *p, uint64_t n)
{
    uintptr_t a = (uintptr_t)p - (uintptr_t)h->base;
    mach_code_written(h, a, n);
}

/* The bytes of an instruction at @p pc are all guest memory. */
static int fetchable(const hart_t *h, uint64_t pc)
{
    if (pc - h->lo > h->span - 2) {
        return 0;
    }
    return (h->base[pc] & 3) != 3 || pc - h->lo <= h->span - 4;
}

/* The handler number of the decoded @p d, before fusion. */
static int handler_of(insn_t *d)
{
    switch (d->op) {
    case OP_ELOAD: return d->f3 == 3 ? H_ELD : OP_ELOAD;
    case OP_ESTORE: return d->f3 == 3 ? H_ESD : OP_ESTORE;
    case OP_LUI: return H_LI;
    case OP_AUIPC: d->imm = (int64_t)(d->pc + (uint64_t)d->imm); return H_LI;
    default: return d->op;
    }
}

static void count(block_t *b, int cls)
{
    b->loads += !!(cls & C_LOAD);
    b->stores += !!(cls & C_STORE);
    b->xmem += !!(cls & C_XMEM);
    b->xaddr += !!(cls & C_XADDR);
}

static const void *fn_of(const void *const *fn, int id)
{
    if (fn[id]) {
        return fn[id];
    }
    return op_class(id) & C_END ? fn[H_OTHER_END] : fn[H_OTHER];
}

/* The pair's registers fit: an eaddie fuses with the access whose address
 * register it sets (the form of xbgas.h), so the pair uses its value. */
static int pair_fits(const insn_t *a, const insn_t *b)
{
    return a->op != OP_EADDIE || a->rd == b->rs1;
}

/* Gives the pairs of @p b their fused handlers (ids[] are the records'). */
static void fuse(block_t *b, const int *ids, const void *const *fn)
{
    for (uint32_t k = 0; k + 1 < b->n; k++) {
        for (size_t f = 0; f < sizeof(fused) / sizeof(fused[0]); f++) {
            if (ids[k] == fused[f][0] && ids[k + 1] == fused[f][1] &&
                pair_fits(&b->ins[k], &b->ins[k + 1])) {
                b->ins[k].fn = fn[fused[f][2]];
                break;
            }
        }
    }
}

/* Translates the block at @p pc into @p b. */
static void translate(hart_t *h, block_t *b, uint64_t pc, const void *const *fn)
{
    int ids[MACH_BLOCK_MAX];
    memset(b, 0, sizeof(*b));
    b->pc   = pc;
    int cls = 0;
    while (b->n < MACH_BLOCK_MAX && !(cls & C_END) &&
           (b->n == 0 || fetchable(h, pc))) {
        insn_t *d = &b->ins[b->n];
        h->pc     = pc; /* a fetch fault names it */
        mach_decode(h, d, pc);
        cls                                 = op_class(d->op);
        ids[b->n]                           = handler_of(d);
        d->fn                               = fn_of(fn, ids[b->n]);
        h->codemap[pc >> 12]                = 1;
        h->codemap[(pc + d->len - 1) >> 12] = 1;
        count(b, cls);
        b->n++;
        pc += d->len;
    }
    for (uint32_t k = 0; k < b->n; k++) {
        b->ins[k].left = (uint8_t)(b->n - 1 - k);
    }
    if (!(cls & C_END)) {
        insn_t *e = &b->ins[b->n];
        memset(e, 0, sizeof(*e));
        e->fn = fn[H_END];
        e->pc = pc;
        e->op = OP_ILLEGAL; /* never a mnemonic: H_END faults nothing */
    }
    fuse(b, ids, fn);
}

block_t *mach_block(hart_t *h, uint64_t pc, const void *const *fn)
{
    size_t max    = sizeof(block_t) + (MACH_BLOCK_MAX + 1) * sizeof(insn_t);
    block_t **row = &h->btab[(pc >> 1) & (MACH_BTAB_SIZE - 1)];
    if (*row && (*row)->pc == pc) {
        return *row;
    }
    if (h->arena_used + max > MACH_ARENA_SIZE) {
        mach_code_flush(h);
    }
    block_t *b = (block_t *)(void *)(h->arena + h->arena_used);
    translate(h, b, pc, fn);
    h->arena_used += block_size(b->n);
    *row = b;
    return b;
}

uint64_t mach_block_uncount(hart_t *h, const insn_t *d)
{
    uint64_t n = d->left;
    for (uint64_t i = 1; i <= n; i++) {
        int cls = op_class(d[i].op);
        h->st.loads -= !!(cls & C_LOAD);
        h->st.stores -= !!(cls & C_STORE);
        h->st.xmem -= !!(cls & C_XMEM);
        h->st.xremote -= !!(cls & C_XMEM);
        h->st.xaddr -= !!(cls & C_XADDR);
    }
    return n;
}
