/*
 * The xBGAS extension: extended registers e0..e31 and the loads, stores
 * and atomics whose address is (namespace, offset).
 *
 * Namespace 0 is this PE's guest memory (checked like any local access).
 * Namespace k >= 1 is PE k - 1 (the xbgas-runtime's _PHYSICAL = PE + 1,
 * and xgas's own namespaces), and the offset is a guest address of that
 * PE, which must lie in its guest memory and be naturally aligned.
 * Per PE the machine keeps the host base of that PE's guest memory when
 * xgas gives a direct pointer (same node: xg_gaddr_ptr), else its global
 * address; a direct access is a host load/store/atomic, the others are
 * xgas operations (xg_get*, xg_put*, xg_atomic_*).  The table is filled
 * on the first access to a PE (an NLB that never misses twice).
 * Remote stores through the ops complete at the next fence (xg_quiet).
 */
#include "machine_int.h"

#include <string.h>

typedef struct eref {
    uint8_t *p;    /* direct host address, or NULL */
    xg_gaddr_t ga; /* otherwise: the xgas global address */
} eref_t;

void mach_start_gate(hart_t *h)
{
    if (h->start_gate && !h->gate_done) {
        h->gate_done = 1;
        xg_barrier();
    }
}

/* (the first access to each PE comes here: the start gate waits here) */
static void ns_fill(hart_t *h, int pe)
{
    mach_start_gate(h);
    xg_gaddr_t ga;
    xg_status_t s = xg_gaddr(h->base, pe, &ga);
    if (s != XG_OK) {
        mach_die("PE %d: the guest memory of PE %d has no global address: "
                 "%s",
                 h->pe, pe, xg_status_str(s));
    }
    h->ns_gaddr[pe] = ga;
    h->ns_ptr[pe]   = xg_gaddr_ptr(ga);
    h->ns_known[pe] = 1;
}

/* Resolves (ns, off) of an @p n byte access, faulting on bad input. */
static eref_t resolve(hart_t *h, const insn_t *d, uint64_t ns, uint64_t off,
                      uint64_t n)
{
    eref_t r = {NULL, {0, 0}};
    if (ns == 0) {
        h->st.xremote--; /* the block counted it remote */
        r.p = mach_mem(h, d, off, n);
        return r;
    }
    if (ns > (uint64_t)h->npes) {
        mach_fault(h, d, off,
                   "unknown namespace %llu: this job has %d PEs "
                   "(namespace 0 is local, 1..%d name PEs 0..%d)",
                   (unsigned long long)ns, h->npes, h->npes, h->npes - 1);
    }
    int pe = (int)(ns - 1);
    if (off - h->lo > h->span - n) {
        mach_fault(h, d, off,
                   "remote access out of bounds of PE %d's "
                   "guest memory [0x%llx, 0x%llx)",
                   pe, (unsigned long long)h->lo,
                   (unsigned long long)(h->lo + h->span));
    }
    if (off & (n - 1)) {
        mach_fault(h, d, off,
                   "misaligned remote access (%llu bytes) to "
                   "PE %d",
                   (unsigned long long)n, pe);
    }
    if (mach_unlikely(!h->ns_known[pe])) {
        ns_fill(h, pe);
    }
    if (h->ns_ptr[pe]) {
        r.p = h->ns_ptr[pe] + off;
    } else {
        r.ga = xg_gaddr_add(h->ns_gaddr[pe], (int64_t)off);
    }
    return r;
}

static void check(const hart_t *h, const insn_t *d, uint64_t off, xg_status_t s)
{
    if (s != XG_OK) {
        mach_fault(h, d, off, "xgas operation failed: %s", xg_status_str(s));
    }
}

static uint64_t op_get(const hart_t *h, const insn_t *d, xg_gaddr_t ga,
                       uint64_t n)
{
    uint8_t v8   = 0;
    uint16_t v16 = 0;
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    switch (n) {
    case 1: check(h, d, ga.off, xg_get8(ga, &v8)); return v8;
    case 2: check(h, d, ga.off, xg_get16(ga, &v16)); return v16;
    case 4: check(h, d, ga.off, xg_get32(ga, &v32)); return v32;
    default: check(h, d, ga.off, xg_get64(ga, &v64)); return v64;
    }
}

static void op_put(const hart_t *h, const insn_t *d, xg_gaddr_t ga, uint64_t n,
                   uint64_t v)
{
    switch (n) {
    case 1: check(h, d, ga.off, xg_put8(ga, (uint8_t)v)); break;
    case 2: check(h, d, ga.off, xg_put16(ga, (uint16_t)v)); break;
    case 4: check(h, d, ga.off, xg_put32(ga, (uint32_t)v)); break;
    default: check(h, d, ga.off, xg_put64(ga, v)); break;
    }
}

/* A load of funct3 @p f3 (b h w d bu hu), sign or zero extended. */
static uint64_t eload(hart_t *h, const insn_t *d, uint64_t ns, uint64_t off,
                      int f3)
{
    uint64_t n = 1ull << (f3 & 3), v = 0;
    eref_t r = resolve(h, d, ns, off, n);
    if (r.p) {
        memcpy(&v, r.p, n);
    } else {
        v = op_get(h, d, r.ga, n);
    }
    if (f3 & 4 || n == 8) {
        return v;
    }
    int sh = 64 - 8 * (int)n;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

static void estore(hart_t *h, const insn_t *d, uint64_t ns, uint64_t off,
                   uint64_t n, uint64_t v)
{
    eref_t r = resolve(h, d, ns, off, n);
    if (r.p) {
        memcpy(r.p, &v, n);
        mach_code_written_host(h, r.p, n); /* this PE's own memory? */
    } else {
        op_put(h, d, r.ga, n, v);
    }
}

static int xg_op_of(int f5, xg_amo_op_t *op)
{
    switch (f5) {
    case 0x00: *op = XG_AMO_ADD; return 1;
    case 0x01: *op = XG_AMO_SWAP; return 1;
    case 0x04: *op = XG_AMO_XOR; return 1;
    case 0x08: *op = XG_AMO_OR; return 1;
    case 0x0c: *op = XG_AMO_AND; return 1;
    default: return 0;
    }
}

static uint64_t minmax(int f5, uint64_t old, uint64_t v, int wide)
{
    int64_t so  = wide ? (int64_t)old : (int32_t)old;
    int64_t sv  = wide ? (int64_t)v : (int32_t)v;
    uint64_t uo = wide ? old : (uint32_t)old, uv = wide ? v : (uint32_t)v;
    switch (f5) {
    case 0x10: return so < sv ? old : v;
    case 0x14: return so > sv ? old : v;
    case 0x18: return uo < uv ? old : v;
    default: return uo > uv ? old : v;
    }
}

static uint64_t cas_op(const hart_t *h, const insn_t *d, xg_gaddr_t ga,
                       int wide, uint64_t exp, uint64_t des)
{
    if (wide) {
        uint64_t old = 0;
        check(h, d, ga.off, xg_atomic_cswap64(ga, exp, des, &old));
        return old;
    }
    uint32_t old = 0;
    check(h, d, ga.off,
          xg_atomic_cswap32(ga, (uint32_t)exp, (uint32_t)des, &old));
    return old;
}

/* An amo through the xgas operations (other node); min/max by cswap. */
static uint64_t amo_op(const hart_t *h, const insn_t *d, xg_gaddr_t ga, int f5,
                       uint64_t v, int wide)
{
    xg_amo_op_t op;
    if (xg_op_of(f5, &op)) {
        if (wide) {
            uint64_t old = 0;
            check(h, d, ga.off, xg_atomic_fetch_op64(ga, op, v, &old));
            return old;
        }
        uint32_t old = 0;
        check(h, d, ga.off, xg_atomic_fetch_op32(ga, op, (uint32_t)v, &old));
        return old;
    }
    uint64_t old = op_get(h, d, ga, wide ? 8 : 4), seen;
    while ((seen = cas_op(h, d, ga, wide, old, minmax(f5, old, v, wide))) !=
           old) {
        old = seen;
    }
    return old;
}

static uint64_t sext_w(uint64_t v, int wide)
{
    return wide ? v : (uint64_t)(int64_t)(int32_t)v;
}

static void exec_eamo(hart_t *h, const insn_t *d)
{
    int wide   = d->f3 == 3;
    uint64_t n = wide ? 8 : 4, v = h->x[d->rs2], old;
    eref_t r = resolve(h, d, h->e[d->rs1], h->x[d->rs1], n);
    if (r.p && ((uintptr_t)r.p & (n - 1))) {
        mach_fault(h, d, h->x[d->rs1],
                   "misaligned atomic access (%llu "
                   "bytes)",
                   (unsigned long long)n);
    }
    if (d->op == OP_EAMOCAS) {
        uint64_t exp = h->x[d->rd & 31];
        if (r.p && wide) {
            old = exp;
            __atomic_compare_exchange_n((uint64_t *)r.p, &old, v, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        } else if (r.p) {
            uint32_t o32 = (uint32_t)exp;
            __atomic_compare_exchange_n((uint32_t *)r.p, &o32, (uint32_t)v, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            old = o32;
        } else {
            old = cas_op(h, d, r.ga, wide, exp, v);
        }
    } else if (r.p) {
        old = mach_amo_host(r.p, d->f7, v, wide);
    } else {
        old = amo_op(h, d, r.ga, d->f7, v, wide);
    }
    if (r.p) {
        mach_code_written_host(h, r.p, n);
    }
    h->x[d->rd] = sext_w(old, wide);
}

void mach_exec_xbgas(hart_t *h, const insn_t *d)
{
    uint64_t *x = h->x, *e = h->e;
    uint64_t off = x[d->rs1] + (uint64_t)d->imm;
    switch (d->op) {
    case OP_ELOAD: x[d->rd] = eload(h, d, e[d->rs1], off, d->f3); break;
    case OP_ESTORE:
        estore(h, d, e[d->rs1], off, 1ull << d->f3, x[d->rs2]);
        break;
    case OP_ELE: e[d->rd] = eload(h, d, e[d->rs1], off, 3); break;
    case OP_ESE: estore(h, d, e[d->rs1], off, 8, e[d->rs2]); break;
    case OP_ERLOAD: x[d->rd] = eload(h, d, e[d->rs2], x[d->rs1], d->f3); break;
    case OP_ERLE: e[d->rd] = eload(h, d, e[d->rs2], x[d->rs1], 3); break;
    case OP_ERSTORE:
        estore(h, d, e[d->rd & 31], x[d->rs2], 1ull << d->f3, x[d->rs1]);
        break;
    case OP_ERSE: estore(h, d, e[d->rd & 31], x[d->rs2], 8, e[d->rs1]); break;
    case OP_EADDI: x[d->rd] = e[d->rs1] + (uint64_t)d->imm; break;
    case OP_EADDIE: e[d->rd] = off; break;
    case OP_EADDIX: e[d->rd] = e[d->rs1] + (uint64_t)d->imm; break;
    default: exec_eamo(h, d); break; /* EAMO, EAMOCAS */
    }
}

void mach_xbgas_reset(hart_t *h)
{
    memset(h->e, 0, sizeof(h->e));
    h->e[10] = (uint64_t)h->pe;
    h->e[11] = (uint64_t)h->npes;
    h->e[12] = h->shared_size;
    h->e[13] = h->shared_lo;
}
