/*
 * Every atomic operation on every datatype it is defined for, through
 * PtlAtomic, PtlFetchAtomic and PtlSwap (the conditional swaps with an
 * operand that makes the condition true and one that makes it false),
 * with two elements where the operation allows it.  Results are compared
 * with a reference computed here, in the widest type of each class.
 * Combinations the specification does not define must be refused with
 * PTL_ARG_INVALID.  Process r applies its operations to process r+1.
 */
#include <complex.h>

#include "ptl_test.h"

#define PT    13
#define SLOT  64
#define SLOTS 1024

enum {
    CL_INT,
    CL_UINT,
    CL_FLT,
    CL_CPLX
};

static const struct {
    ptl_datatype_t type;
    size_t size;
    int cls;
} types[] = {
    {PTL_INT8_T, 1, CL_INT},
    {PTL_UINT8_T, 1, CL_UINT},
    {PTL_INT16_T, 2, CL_INT},
    {PTL_UINT16_T, 2, CL_UINT},
    {PTL_INT32_T, 4, CL_INT},
    {PTL_UINT32_T, 4, CL_UINT},
    {PTL_INT64_T, 8, CL_INT},
    {PTL_UINT64_T, 8, CL_UINT},
    {PTL_FLOAT, 4, CL_FLT},
    {PTL_DOUBLE, 8, CL_FLT},
    {PTL_LONG_DOUBLE, sizeof(long double), CL_FLT},
    {PTL_FLOAT_COMPLEX, 8, CL_CPLX},
    {PTL_DOUBLE_COMPLEX, 16, CL_CPLX},
    {PTL_LONG_DOUBLE_COMPLEX, sizeof(long double complex), CL_CPLX},
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* Is @op defined for class @cls (the specification's table)? */
static int defined(ptl_op_t op, int cls)
{
    switch (op) {
    case PTL_SUM:
    case PTL_PROD:
    case PTL_SWAP:
    case PTL_CSWAP:
    case PTL_CSWAP_NE: return 1;
    case PTL_MIN:
    case PTL_MAX:
    case PTL_CSWAP_LE:
    case PTL_CSWAP_LT:
    case PTL_CSWAP_GE:
    case PTL_CSWAP_GT: return cls != CL_CPLX;
    default: /* logical, bitwise, masked swap */
        return (cls == CL_INT) || (cls == CL_UINT);
    }
}

static void store(int t, uint8_t *dst, long double re, long double im)
{
    int64_t i              = (int64_t)re;
    float f                = (float)re;
    double d               = (double)re;
    float complex fc       = (float)re + (float)im * I;
    double complex dc      = (double)re + (double)im * I;
    long double complex lc = re + im * I;

    switch (types[t].cls) {
    case CL_INT:
    case CL_UINT:
        memcpy(dst, &i, types[t].size); /* little endian: the low bytes */
        break;
    case CL_FLT:
        if (types[t].size == 4) {
            memcpy(dst, &f, 4);
        } else if (types[t].size == 8) {
            memcpy(dst, &d, 8);
        } else {
            memset(dst, 0, types[t].size);
            memcpy(dst, &re, sizeof(re));
        }
        break;
    default:
        if (types[t].type == PTL_FLOAT_COMPLEX) {
            memcpy(dst, &fc, sizeof(fc));
        } else if (types[t].type == PTL_DOUBLE_COMPLEX) {
            memcpy(dst, &dc, sizeof(dc));
        } else {
            memset(dst, 0, types[t].size);
            memcpy(dst, &lc, sizeof(lc));
        }
        break;
    }
}

static int64_t load_int(int t, const uint8_t *src)
{
    int64_t v  = 0;
    uint64_t u = 0;

    memcpy(&u, src, types[t].size);
    if ((types[t].cls == CL_INT) && (types[t].size < 8) &&
        (u >> (8 * types[t].size - 1)) & 1) {
        u |= ~0ull << (8 * types[t].size); /* sign-extend */
    }
    memcpy(&v, &u, 8);
    return v;
}

static long double complex load_num(int t, const uint8_t *src)
{
    float f;
    double d;
    long double l;
    float complex fc;
    double complex dc;
    long double complex lc;

    switch (types[t].type) {
    case PTL_FLOAT: memcpy(&f, src, 4); return f;
    case PTL_DOUBLE: memcpy(&d, src, 8); return d;
    case PTL_LONG_DOUBLE: memcpy(&l, src, sizeof(l)); return l;
    case PTL_FLOAT_COMPLEX: memcpy(&fc, src, sizeof(fc)); return fc;
    case PTL_DOUBLE_COMPLEX: memcpy(&dc, src, sizeof(dc)); return dc;
    case PTL_LONG_DOUBLE_COMPLEX: memcpy(&lc, src, sizeof(lc)); return lc;
    default: return (long double)load_int(t, src);
    }
}

/* The reference: one element, written to @out. */
static void reference(ptl_op_t op, int t, const uint8_t *tv, const uint8_t *sv,
                      const uint8_t *cv, uint8_t *out)
{
    if ((types[t].cls == CL_INT) || (types[t].cls == CL_UINT)) {
        int64_t a = load_int(t, tv), b = load_int(t, sv);
        int64_t c = (cv != NULL) ? load_int(t, cv) : 0, r = a;
        uint64_t ua = (uint64_t)a, ub = (uint64_t)b, uc = (uint64_t)c;

        switch (op) {
        case PTL_MIN: r = (b < a) ? b : a; break;
        case PTL_MAX: r = (b > a) ? b : a; break;
        case PTL_SUM: r = (int64_t)(ua + ub); break;
        case PTL_PROD: r = (int64_t)(ua * ub); break;
        case PTL_LOR: r = (a || b); break;
        case PTL_LAND: r = (a && b); break;
        case PTL_LXOR: r = (!a != !b); break;
        case PTL_BOR: r = (int64_t)(ua | ub); break;
        case PTL_BAND: r = (int64_t)(ua & ub); break;
        case PTL_BXOR: r = (int64_t)(ua ^ ub); break;
        case PTL_SWAP: r = b; break;
        case PTL_CSWAP: r = (c == a) ? b : a; break;
        case PTL_CSWAP_NE: r = (c != a) ? b : a; break;
        case PTL_CSWAP_LE: r = (c <= a) ? b : a; break;
        case PTL_CSWAP_LT: r = (c < a) ? b : a; break;
        case PTL_CSWAP_GE: r = (c >= a) ? b : a; break;
        case PTL_CSWAP_GT: r = (c > a) ? b : a; break;
        case PTL_MSWAP: r = (int64_t)((ua & ~uc) | (ub & uc)); break;
        default: break;
        }
        store(t, out, (long double)r, 0);
        return;
    }
    {
        long double complex a = load_num(t, tv), b = load_num(t, sv);
        long double complex c = (cv != NULL) ? load_num(t, cv) : 0, r = a;
        long double ra = creall(a), rb = creall(b), rc = creall(c);

        switch (op) {
        case PTL_MIN: r = (rb < ra) ? b : a; break;
        case PTL_MAX: r = (rb > ra) ? b : a; break;
        case PTL_SUM: r = a + b; break;
        case PTL_PROD: r = a * b; break;
        case PTL_SWAP: r = b; break;
        case PTL_CSWAP: r = (c == a) ? b : a; break;
        case PTL_CSWAP_NE: r = (c != a) ? b : a; break;
        case PTL_CSWAP_LE: r = (rc <= ra) ? b : a; break;
        case PTL_CSWAP_LT: r = (rc < ra) ? b : a; break;
        case PTL_CSWAP_GE: r = (rc >= ra) ? b : a; break;
        case PTL_CSWAP_GT: r = (rc > ra) ? b : a; break;
        default: break;
        }
        store(t, out, creall(r), cimagl(r));
    }
}

/* The plan: slot k gets one operation; both sides derive it alike. */
typedef struct {
    int kind; /* 0 atomic, 1 fetch, 2 swap */
    ptl_op_t op;
    int t;
    int n;    /* elements */
    int cval; /* swap operand value */
} plan_t;

static plan_t plan[SLOTS];
static int nplan;

static void make_plan(void)
{
    static const int operands[] = {4, 5, 6};
    size_t t;
    ptl_op_t op;
    int kind, o;

    for (t = 0; t < NTYPES; t++) {
        for (op = 0; op < PTL_OP_LAST; op++) {
            if (!defined(op, types[t].cls)) {
                continue;
            }
            for (kind = 0; kind < 3; kind++) {
                if ((kind == 2) != (op >= PTL_SWAP)) {
                    continue;
                }
                for (o = 0; o < ((op > PTL_SWAP) ? 3 : 1); o++) {
                    plan[nplan].kind = kind;
                    plan[nplan].op   = op;
                    plan[nplan].t    = (int)t;
                    plan[nplan].n    = (op > PTL_SWAP) ? 1 : 2;
                    plan[nplan].cval = operands[o];
                    nplan++;
                }
            }
        }
    }
    XG_CHECK(nplan <= SLOTS, "plan of %d operations too large", nplan);
}

/* Initial target elements (5, 9) and initiator ones (7, 3), with an
 * imaginary part for complex types. */
static void fill(int t, uint8_t *dst, int n, int initiator)
{
    int e;

    for (e = 0; e < n; e++) {
        store(t, dst + e * types[t].size, initiator ? (e ? 3 : 7) : (e ? 9 : 5),
              initiator ? 1 : 2);
    }
}

static uint8_t target_buf[SLOTS * SLOT];
static uint8_t io_buf[2][SLOTS * SLOT]; /* put half, then get half */
#define put_buf (io_buf[0])
#define get_buf (io_buf[1])

/* Compares @n elements; x87 long doubles have 6 padding bytes in each
 * 16-byte half, which carry no value and are not compared. */
static int same(int t, const uint8_t *a, const uint8_t *b, int n)
{
    size_t step  = ((types[t].type == PTL_LONG_DOUBLE) ||
                   (types[t].type == PTL_LONG_DOUBLE_COMPLEX))
                       ? 16
                       : 0;
    size_t total = types[t].size * (size_t)n, i;

    if (step == 0) {
        return memcmp(a, b, total) == 0;
    }
    for (i = 0; i < total; i += step) {
        if (memcmp(a + i, b + i, 10) != 0) {
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    ptl_test_env_t env;
    ptl_handle_eq_t teq, ieq;
    ptl_handle_md_t md;
    ptl_handle_me_t meh;
    ptl_md_t mdd;
    ptl_me_t me;
    ptl_event_t ev;
    uint8_t want[SLOT], tinit[SLOT], cop[32];
    int right, k, e, done, expected_events = 0;
    size_t sz;

    ptl_test_init(&env);
    right = (env.rank + 1) % env.npes;
    make_plan();
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4096, &teq));
    PTL_OK_OR_DIE(PtlEQAlloc(env.ni, 4096, &ieq));
    PTL_OK_OR_DIE(PtlPTAlloc(env.ni, 0, teq, PT, &(ptl_pt_index_t){0}));
    for (k = 0; k < nplan; k++) {
        fill(plan[k].t, target_buf + k * SLOT, plan[k].n, 0);
        fill(plan[k].t, put_buf + k * SLOT, plan[k].n, 1);
    }
    memset(&me, 0, sizeof(me));
    me.start     = target_buf;
    me.length    = sizeof(target_buf);
    me.ct_handle = PTL_CT_NONE;
    me.uid       = PTL_UID_ANY;
    me.options   = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE;
    me.match_id.rank = PTL_RANK_ANY;
    PTL_OK_OR_DIE(PtlMEAppend(env.ni, PT, &me, PTL_PRIORITY_LIST, NULL, &meh));
    memset(&mdd, 0, sizeof(mdd));
    mdd.start     = put_buf; /* one MD for both directions: disjoint */
    mdd.length    = sizeof(put_buf) + sizeof(get_buf);
    mdd.eq_handle = ieq;
    mdd.ct_handle = PTL_CT_NONE;
    mdd.options   = PTL_MD_EVENT_SEND_DISABLE;
    PTL_OK_OR_DIE(PtlMDBind(env.ni, &mdd, &md));

    /* undefined combinations are refused */
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlAtomic(md, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(right), PT, 0,
                         0, NULL, 0, PTL_BAND, PTL_DOUBLE));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlAtomic(md, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(right), PT, 0,
                         0, NULL, 0, PTL_MIN, PTL_FLOAT_COMPLEX));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlAtomic(md, 0, 8, PTL_NO_ACK_REQ, ptl_test_rank(right), PT, 0,
                         0, NULL, 0, PTL_SWAP, PTL_INT64_T));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlSwap(md, 0, md, 0, 16, ptl_test_rank(right), PT, 0, 0, NULL,
                       0, &k, PTL_CSWAP, PTL_INT64_T));
    PTL_EXPECT(PTL_ARG_INVALID,
               PtlAtomic(md, 0, 7, PTL_NO_ACK_REQ, ptl_test_rank(right), PT, 0,
                         0, NULL, 0, PTL_SUM, PTL_INT32_T));
    ptl_test_barrier(&env);

    for (k = 0; k < nplan; k++) {
        sz = types[plan[k].t].size * (size_t)plan[k].n;
        switch (plan[k].kind) {
        case 0:
            PTL_OK_OR_DIE(PtlAtomic(md, (ptl_size_t)k * SLOT, sz, PTL_ACK_REQ,
                                    ptl_test_rank(right), PT, 0,
                                    (ptl_size_t)k * SLOT, (void *)(intptr_t)k,
                                    0, plan[k].op, types[plan[k].t].type));
            break;
        case 1:
            PTL_OK_OR_DIE(
                PtlFetchAtomic(md, sizeof(put_buf) + (ptl_size_t)k * SLOT, md,
                               (ptl_size_t)k * SLOT, sz, ptl_test_rank(right),
                               PT, 0, (ptl_size_t)k * SLOT, (void *)(intptr_t)k,
                               0, plan[k].op, types[plan[k].t].type));
            break;
        default:
            store(plan[k].t, cop, plan[k].cval, 2);
            PTL_OK_OR_DIE(PtlSwap(md, sizeof(put_buf) + (ptl_size_t)k * SLOT,
                                  md, (ptl_size_t)k * SLOT, sz,
                                  ptl_test_rank(right), PT, 0,
                                  (ptl_size_t)k * SLOT, (void *)(intptr_t)k, 0,
                                  cop, plan[k].op, types[plan[k].t].type));
            break;
        }
        expected_events++;
    }
    for (done = 0; done < expected_events; done++) {
        PTL_OK_OR_DIE(PtlEQWait(ieq, &ev));
        XG_CHECK((ev.type == PTL_EVENT_ACK) || (ev.type == PTL_EVENT_REPLY),
                 "event %s", ptl_test_ev(ev.type));
        XG_CHECK(ev.ni_fail_type == PTL_NI_OK, "operation %d failed: %u",
                 (int)(intptr_t)ev.user_ptr, ev.ni_fail_type);
    }
    /* fetched values: the target's initial elements */
    for (k = 0; k < nplan; k++) {
        if (plan[k].kind == 0) {
            continue;
        }
        fill(plan[k].t, tinit, plan[k].n, 0);
        XG_CHECK(same(plan[k].t, get_buf + k * SLOT, tinit, plan[k].n),
                 "op %u type %u kind %d: fetched value wrong", plan[k].op,
                 types[plan[k].t].type, plan[k].kind);
    }
    ptl_test_barrier(&env);
    /* our memory, updated by our left neighbour */
    for (k = 0; k < nplan; k++) {
        const plan_t *p = &plan[k];
        size_t esz      = types[p->t].size;
        uint8_t sv[SLOT];

        fill(p->t, tinit, p->n, 0);
        fill(p->t, sv, p->n, 1);
        store(p->t, cop, p->cval, 2);
        memset(want, 0, sizeof(want));
        for (e = 0; e < p->n; e++) {
            reference(p->op, p->t, tinit + e * esz, sv + e * esz,
                      (p->op > PTL_SWAP) ? cop : NULL, want + e * esz);
        }
        XG_CHECK(same(p->t, target_buf + k * SLOT, want, p->n),
                 "op %u on type %u (kind %d, operand %d): wrong result", p->op,
                 types[p->t].type, p->kind, p->cval);
    }
    for (done = 0; done < expected_events; done++) {
        PTL_OK_OR_DIE(PtlEQWait(teq, &ev));
        XG_CHECK((ev.type == PTL_EVENT_ATOMIC) ||
                     (ev.type == PTL_EVENT_FETCH_ATOMIC),
                 "target event %s", ptl_test_ev(ev.type));
        k = (int)(ev.remote_offset / SLOT);
        XG_CHECK(
            (ev.atomic_operation == plan[k].op) &&
                (ev.atomic_type == types[plan[k].t].type) &&
                (ev.type == ((plan[k].kind == 0) ? PTL_EVENT_ATOMIC
                                                 : PTL_EVENT_FETCH_ATOMIC)),
            "target event fields of operation %d", k);
    }
    ptl_test_none(teq);
    PTL_OK_OR_DIE(PtlAtomicSync());
    ptl_test_barrier(&env);
    PTL_OK_OR_DIE(PtlMDRelease(md));
    PTL_OK_OR_DIE(PtlMEUnlink(meh));
    PTL_OK_OR_DIE(PtlPTFree(env.ni, PT));
    PTL_OK_OR_DIE(PtlEQFree(teq));
    PTL_OK_OR_DIE(PtlEQFree(ieq));
    ptl_test_fini(&env);
    return 0;
}
