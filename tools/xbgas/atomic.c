/*
 * The A extension on local guest memory: lr, sc and the amos.
 *
 * Guest memory is host memory (the symmetric heap), so each amo is a host
 * atomic (__atomic builtins: the memory is user symmetric memory, not
 * typed _Atomic) and is atomic against other PEs of the node that reach
 * this memory directly (xBGAS eamo* through a direct pointer, or xgas
 * atomics of the direct route).  lr/sc: lr records the address and the
 * value; sc succeeds with a compare-and-swap against that value (ABA is
 * possible but harmless for the lock-free patterns glibc uses).
 * Misaligned amo/lr/sc faults (as on hardware without Zam).
 */
#include "machine_int.h"

/* The read-modify-write of funct5 @f5 on @p with @v, of one width (U
 * unsigned, S signed): the old value.  min/max are a compare-and-swap
 * loop (no host instruction does them). */
#define AMO_FN(NAME, U, S)                                             \
    static U NAME(U *p, int f5, U v)                                   \
    {                                                                  \
        U old = __atomic_load_n(p, __ATOMIC_RELAXED), nv;              \
        switch (f5) {                                                  \
        case 0x00: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);  \
        case 0x01: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); \
        case 0x04: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);  \
        case 0x08: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);   \
        case 0x0c: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);  \
        default: break;                                                \
        }                                                              \
        do {                                                           \
            S so = (S)old, sv = (S)v;                                  \
            switch (f5) {                                              \
            case 0x10: nv = so < sv ? old : v; break;                  \
            case 0x14: nv = so > sv ? old : v; break;                  \
            case 0x18: nv = old < v ? old : v; break;                  \
            default: nv = old > v ? old : v; break;                    \
            }                                                          \
        } while (!__atomic_compare_exchange_n(                         \
            p, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));      \
        return old;                                                    \
    }

AMO_FN(amo64, uint64_t, int64_t)
AMO_FN(amo32, uint32_t, int32_t)

uint64_t mach_amo_host(void *p, int f5, uint64_t v, int wide)
{
    if (wide) {
        return amo64(p, f5, v);
    }
    return (uint64_t)(int64_t)(int32_t)amo32(p, f5, (uint32_t)v);
}

static void exec_lr(hart_t *h, const insn_t *d, uint8_t *p, int wide)
{
    uint64_t v   = wide ? __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST)
                        : (uint64_t)(int64_t)(int32_t)__atomic_load_n(
                              (uint32_t *)p, __ATOMIC_SEQ_CST);
    h->resv_addr = h->x[d->rs1];
    h->resv_val  = v;
    h->x[d->rd]  = v;
}

static void exec_sc(hart_t *h, const insn_t *d, uint8_t *p, int wide)
{
    int ok = 0;
    if (h->resv_addr == h->x[d->rs1]) {
        if (wide) {
            uint64_t exp = h->resv_val;
            ok = __atomic_compare_exchange_n((uint64_t *)p, &exp, h->x[d->rs2],
                                             0, __ATOMIC_SEQ_CST,
                                             __ATOMIC_RELAXED);
        } else {
            uint32_t exp = (uint32_t)h->resv_val;
            ok           = __atomic_compare_exchange_n(
                          (uint32_t *)p, &exp, (uint32_t)h->x[d->rs2], 0,
                          __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
        }
    }
    h->resv_addr = UINT64_MAX;
    h->x[d->rd]  = !ok;
    if (ok) {
        mach_code_written(h, h->x[d->rs1], wide ? 8 : 4);
    }
}

void mach_exec_amo(hart_t *h, const insn_t *d)
{
    int wide = d->f3 == 3, n = wide ? 8 : 4;
    uint64_t a = h->x[d->rs1];
    uint8_t *p = mach_mem(h, d, a, (uint64_t)n);
    if (a & (uint64_t)(n - 1)) {
        mach_fault(h, d, a, "misaligned atomic access (%d bytes)", n);
    }
    if (d->op == OP_LR) {
        exec_lr(h, d, p, wide);
    } else if (d->op == OP_SC) {
        exec_sc(h, d, p, wide);
    } else {
        h->x[d->rd] = mach_amo_host(p, d->f7, h->x[d->rs2], wide);
        mach_code_written(h, a, (uint64_t)n);
    }
}
