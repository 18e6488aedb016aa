/*
 * The F and D extensions and Zicsr.
 *
 * Arithmetic runs on the host's IEEE-754 unit in the instruction's rounding
 * mode (rm, or frm for dynamic): each operation runs between fp_enter,
 * which sets the host's mode and clears its exception flags, and
 * fp_leave, which ORs the flags it raised into fflags and restores round
 * to nearest.  x86-64 detects tininess after rounding, as RISC-V does.
 * What the host cannot tell is added by hand: a signalling NaN operand
 * (a single's is quieted when it widens to double before the operation),
 * and the conversions to integers, which round and saturate by the RISC-V
 * rules (invalid when out of range or NaN, inexact when rounded).  RMM
 * (round to nearest, ties away) has no host mode: it runs as round to
 * nearest even, except in the conversions to integers.  This file is
 * compiled with -frounding-math, so the compiler keeps every operation
 * where the mode is set.  Singles live NaN-boxed in the 64-bit f
 * registers; a NaN result is the RISC-V canonical NaN.
 * CSRs: fflags, frm, fcsr, cycle, time, instret (read-only counters);
 * any other CSR is an illegal instruction.
 */
#include "machine_int.h"

#include <fenv.h>
#include <math.h>
#include <string.h>
#include <time.h>

#define CANON_S 0x7fc00000u
#define CANON_D 0x7ff8000000000000ull

static float get_s(const hart_t *h, int r)
{
    uint32_t v = (uint32_t)h->f[r];
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static double get_d(const hart_t *h, int r)
{
    double f;
    memcpy(&f, &h->f[r], 8);
    return f;
}

static void set_s(hart_t *h, int r, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    if (isnan(f)) {
        v = CANON_S;
    }
    h->f[r] = 0xffffffff00000000ull | v;
}

static void set_d(hart_t *h, int r, double f)
{
    uint64_t v;
    memcpy(&v, &f, 8);
    if (isnan(f)) {
        v = CANON_D;
    }
    h->f[r] = v;
}

static int frm_of(const hart_t *h, int rm)
{
    return rm == 7 ? (int)(h->fcsr >> 5) & 7 : rm;
}

/* fflags bits */
enum {
    FF_NX = 1,
    FF_UF = 2,
    FF_OF = 4,
    FF_DZ = 8,
    FF_NV = 16
};

/* f register @r holds a signalling NaN of its format. */
static int is_snan(const hart_t *h, int r, int dbl)
{
    if (dbl) {
        uint64_t v = h->f[r];
        return ((v >> 52 & 0x7ff) == 0x7ff) && (v & 0xfffffffffffffull) &&
               !(v >> 51 & 1);
    }
    uint32_t v = (uint32_t)h->f[r];
    return ((v >> 23 & 0xff) == 0xff) && (v & 0x7fffffu) && !(v >> 22 & 1);
}

/* The host's rounding mode for RISC-V rm 0..4 (RMM: see the header). */
static int host_round(int rm)
{
    switch (rm) {
    case 1: return FE_TOWARDZERO;
    case 2: return FE_DOWNWARD;
    case 3: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Before a host operation in rounding mode @rm (0..4): the mode set, the
 * host's flags clear. */
static void fp_enter(int rm)
{
    if ((rm != 0) && (rm != 4)) {
        fesetround(host_round(rm));
    }
    feclearexcept(FE_ALL_EXCEPT);
}

/* After it: the flags it raised, and @extra, into fflags. */
static void fp_leave(hart_t *h, int rm, unsigned extra)
{
    int e      = fetestexcept(FE_ALL_EXCEPT);
    unsigned f = extra;

    f |= (e & FE_INVALID) ? FF_NV : 0;
    f |= (e & FE_DIVBYZERO) ? FF_DZ : 0;
    f |= (e & FE_OVERFLOW) ? FF_OF : 0;
    f |= (e & FE_UNDERFLOW) ? FF_UF : 0;
    f |= (e & FE_INEXACT) ? FF_NX : 0;
    if ((rm != 0) && (rm != 4)) {
        fesetround(FE_TONEAREST);
    }
    h->fcsr |= f;
}

static double round_rm(double v, int rm)
{
    switch (rm) {
    case 1: return trunc(v);
    case 2: return floor(v);
    case 3: return ceil(v);
    case 4: return round(v);
    default: return nearbyint(v);
    }
}

/* fcvt to an integer of @p bits, signed or not, saturating like RISC-V;
 * *@ff gets invalid (NaN, out of range) or inexact (rounded). */
static uint64_t cvt_to_int(double v, int rm, int is_signed, int bits,
                           unsigned *ff)
{
    double in = v;

    if (isnan(v)) {
        v = INFINITY;
    }
    v   = round_rm(v, rm);
    *ff = (!isnan(in) && (v != in)) ? FF_NX : 0;
    if (is_signed) {
        double lim = ldexp(1.0, bits - 1);
        int64_t r;
        if (v >= lim) {
            r = bits == 64 ? INT64_MAX : INT32_MAX;
        } else if (v < -lim) {
            r = bits == 64 ? INT64_MIN : INT32_MIN;
        } else {
            r = (int64_t)v;
        }
        if ((v >= lim) || (v < -lim)) {
            *ff = FF_NV;
        }
        return (uint64_t)r;
    }
    double lim = ldexp(1.0, bits);
    uint64_t r;
    if (v >= lim) {
        r   = bits == 64 ? UINT64_MAX : UINT32_MAX;
        *ff = FF_NV;
    } else if (v <= -1.0 || v < 0) {
        r   = 0;
        *ff = FF_NV;
    } else {
        r = (uint64_t)v;
    }
    return bits == 32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)r : r;
}

static double cvt_from_int(uint64_t x, int kind)
{
    switch (kind) {
    case 0: return (double)(int32_t)x;
    case 1: return (double)(uint32_t)x;
    case 2: return (double)(int64_t)x;
    default: return (double)x;
    }
}

static float cvt_from_int_s(uint64_t x, int kind)
{
    switch (kind) {
    case 0: return (float)(int32_t)x;
    case 1: return (float)(uint32_t)x;
    case 2: return (float)(int64_t)x;
    default: return (float)x;
    }
}

static uint64_t fclass(double v, int neg, int snan)
{
    if (snan) {
        return 1u << 8;
    }
    int c = fpclassify(v);
    if (c == FP_INFINITE) {
        return neg ? 1u << 0 : 1u << 7;
    }
    if (c == FP_NORMAL) {
        return neg ? 1u << 1 : 1u << 6;
    }
    if (c == FP_SUBNORMAL) {
        return neg ? 1u << 2 : 1u << 5;
    }
    if (c == FP_ZERO) {
        return neg ? 1u << 3 : 1u << 4;
    }
    return 1u << 9; /* quiet NaN */
}

static double fminmax(double a, double b, int max)
{
    if (isnan(a)) {
        return b;
    }
    if (isnan(b)) {
        return a;
    }
    if (a == b && a == 0) {
        return (signbit(a) != 0) == !max ? a : b;
    }
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

static uint64_t sgnj(uint64_t a, uint64_t b, int f3, uint64_t sign)
{
    uint64_t s = f3 == 0   ? (b & sign)
                 : f3 == 1 ? (~b & sign)
                           : ((a ^ b) & sign);
    return (a & ~sign) | s;
}

static void fp_arith(hart_t *h, const insn_t *d, int dbl, double a, double b)
{
    double r;
    switch (d->f7 >> 2) {
    case 0x00: r = a + b; break;
    case 0x01: r = a - b; break;
    case 0x02: r = a * b; break;
    case 0x03: r = a / b; break;
    default: r = sqrt(a); break; /* 0x0b */
    }
    if (dbl) {
        set_d(h, d->rd & 31, r);
    } else {
        set_s(h, d->rd & 31, (float)r);
    }
}

/* Single arithmetic in float, so results round as the guest expects. */
static void fp_arith_s(hart_t *h, const insn_t *d, float a, float b)
{
    float r;
    switch (d->f7 >> 2) {
    case 0x00: r = a + b; break;
    case 0x01: r = a - b; break;
    case 0x02: r = a * b; break;
    case 0x03: r = a / b; break;
    default: r = sqrtf(a); break;
    }
    set_s(h, d->rd & 31, r);
}

static void fp_sign_minmax(hart_t *h, const insn_t *d, int dbl, double a,
                           double b)
{
    int rd = d->rd & 31;
    if ((d->f7 >> 2) == 0x04) {
        if (d->f3 > 2) {
            mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
        }
        uint64_t sign = dbl ? 1ull << 63 : 1ull << 31;
        uint64_t v    = sgnj(h->f[d->rs1], h->f[d->rs2], d->f3, sign);
        h->f[rd]      = dbl ? v : (0xffffffff00000000ull | (uint32_t)v);
        return;
    }
    if (d->f3 > 1) {
        mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
    }
    double r = fminmax(a, b, d->f3);
    if (dbl) {
        set_d(h, rd, r);
    } else {
        set_s(h, rd, (float)r);
    }
}

static uint64_t fp_compare(const hart_t *h, const insn_t *d, double a, double b)
{
    switch (d->f3) {
    case 2: return a == b;
    case 1: return a < b;
    case 0: return a <= b;
    default: mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
    }
}

static void fp_convert(hart_t *h, const insn_t *d, int dbl, double a)
{
    int rm = frm_of(h, d->f3), k = d->rs2;
    if (k > 3) {
        mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
    }
    switch (d->f7 >> 2) {
    case 0x18: {
        unsigned ff;

        h->x[d->rd] = cvt_to_int(a, rm, !(k & 1), k & 2 ? 64 : 32, &ff);
        h->fcsr |= ff;
        break;
    }
    case 0x1a:
        fp_enter(rm);
        if (dbl) {
            set_d(h, d->rd & 31, cvt_from_int(h->x[d->rs1], k));
        } else {
            set_s(h, d->rd & 31, cvt_from_int_s(h->x[d->rs1], k));
        }
        fp_leave(h, rm, 0);
        break;
    default: /* 0x08: between formats (rs1 is of the other one) */
        fp_enter(rm);
        if (dbl) {
            set_d(h, d->rd & 31, (double)get_s(h, d->rs1));
        } else {
            set_s(h, d->rd & 31, (float)get_d(h, d->rs1));
        }
        fp_leave(h, rm, is_snan(h, d->rs1, !dbl) ? FF_NV : 0);
        break;
    }
}

static void fp_move(hart_t *h, const insn_t *d, int dbl, double a)
{
    uint64_t raw = h->f[d->rs1];
    if ((d->f7 >> 2) == 0x1e) { /* fmv.w.x / fmv.d.x */
        uint64_t v       = h->x[d->rs1];
        h->f[d->rd & 31] = dbl ? v : (0xffffffff00000000ull | (uint32_t)v);
    } else if (d->f3 == 0) { /* fmv.x.w / fmv.x.d */
        h->x[d->rd] = dbl ? raw : (uint64_t)(int64_t)(int32_t)raw;
    } else if (d->f3 == 1) { /* fclass */
        int neg     = dbl ? (int)(raw >> 63) : (int)(raw >> 31) & 1;
        h->x[d->rd] = fclass(a, neg, is_snan(h, d->rs1, dbl));
    } else {
        mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
    }
}

static void exec_fma(hart_t *h, const insn_t *d)
{
    int dbl = d->f7 >> 2, op = d->f7 & 3;
    double a = dbl ? get_d(h, d->rs1) : get_s(h, d->rs1);
    double b = dbl ? get_d(h, d->rs2) : get_s(h, d->rs2);
    double c = dbl ? get_d(h, d->rs3) : get_s(h, d->rs3);
    if (op == 1 || op == 3) {
        c = -c;
    }
    if (op >= 2) {
        a = -a;
    }
    int rm        = frm_of(h, d->f3);
    unsigned snan = is_snan(h, d->rs1, dbl) || is_snan(h, d->rs2, dbl) ||
                    is_snan(h, d->rs3, dbl);
    fp_enter(rm);
    if (dbl) {
        set_d(h, d->rd & 31, fma(a, b, c));
    } else {
        set_s(h, d->rd & 31, fmaf((float)a, (float)b, (float)c));
    }
    fp_leave(h, rm, snan ? FF_NV : 0);
}

void mach_exec_fp(hart_t *h, const insn_t *d)
{
    if (d->op == OP_FMA) {
        exec_fma(h, d);
        return;
    }
    int dbl  = d->f7 & 1;
    double a = dbl ? get_d(h, d->rs1) : get_s(h, d->rs1);
    double b = dbl ? get_d(h, d->rs2) : get_s(h, d->rs2);
    int f5   = d->f7 >> 2;
    unsigned snan =
        is_snan(h, d->rs1, dbl) || ((f5 != 0x0b) && is_snan(h, d->rs2, dbl));
    switch (f5) {
    case 0x00:
    case 0x01:
    case 0x02:
    case 0x03:
    case 0x0b: {
        int rm = frm_of(h, d->f3);

        fp_enter(rm);
        if (dbl) {
            fp_arith(h, d, 1, a, b);
        } else {
            fp_arith_s(h, d, (float)a, (float)b);
        }
        fp_leave(h, rm, snan ? FF_NV : 0);
        break;
    }
    case 0x04: fp_sign_minmax(h, d, dbl, a, b); break; /* raises nothing */
    case 0x05:
        fp_enter(0);
        fp_sign_minmax(h, d, dbl, a, b);
        fp_leave(h, 0, snan ? FF_NV : 0);
        break;
    case 0x14:
        fp_enter(0);
        h->x[d->rd] = fp_compare(h, d, a, b);
        fp_leave(h, 0, snan ? FF_NV : 0);
        break;
    case 0x08:
    case 0x18:
    case 0x1a: fp_convert(h, d, dbl, a); break;
    case 0x1c:
    case 0x1e: fp_move(h, d, dbl, a); break;
    default: mach_fault(h, d, d->pc, "illegal instruction 0x%08x", d->raw);
    }
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t csr_read(hart_t *h, const insn_t *d, uint32_t csr)
{
    switch (csr) {
    case 0x001: return h->fcsr & 0x1f;
    case 0x002: return (h->fcsr >> 5) & 7;
    case 0x003: return h->fcsr & 0xff;
    case 0xc00:
    case 0xc02: return h->st.total;
    case 0xc01: return now_ns();
    default:
        mach_fault(h, d, d->pc,
                   "illegal instruction: CSR 0x%03x is not "
                   "served (fflags, frm, fcsr, cycle, time, instret are)",
                   csr);
    }
}

static void csr_write(hart_t *h, const insn_t *d, uint32_t csr, uint64_t v)
{
    switch (csr) {
    case 0x001: h->fcsr = (h->fcsr & ~0x1fu) | (uint32_t)(v & 0x1f); break;
    case 0x002: h->fcsr = (h->fcsr & 0x1f) | (uint32_t)(v & 7) << 5; break;
    case 0x003: h->fcsr = (uint32_t)(v & 0xff); break;
    default:
        mach_fault(h, d, d->pc,
                   "illegal instruction: CSR 0x%03x is "
                   "read-only here",
                   csr);
    }
}

void mach_exec_csr(hart_t *h, const insn_t *d)
{
    uint32_t csr = (uint32_t)d->imm;
    uint64_t src = d->f3 & 4 ? d->rs1 : h->x[d->rs1];
    uint64_t old = csr_read(h, d, csr);
    uint64_t val = old;
    switch (d->f3 & 3) {
    case 1: val = src; break;
    case 2: val = old | src; break;
    default: val = old & ~src; break;
    }
    /* csrrs/csrrc with x0 (or uimm 0) only read */
    if ((d->f3 & 3) == 1 || d->rs1 != 0) {
        csr_write(h, d, csr, val);
    }
    h->x[d->rd] = old;
}
