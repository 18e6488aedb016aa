/*
 * ARMCI accumulates from every process onto the same elements of every
 * process, for each of the six types, with a scale, as contiguous
 * (ARMCI_Acc, ARMCI_NbAcc), strided (ARMCI_AccS on a 3-level patch,
 * ARMCI_NbAccS) and vector (ARMCI_AccV) operations, checked exactly: the
 * data are small integers, so every sum is exact in every type, whatever
 * the order in which the updates land.
 */
#include <complex.h>
#include <string.h>

#include "armci_test.h"

#define N 600 /* elements per process and type */

static const int types[] = {ARMCI_ACC_INT, ARMCI_ACC_LNG, ARMCI_ACC_FLT,
                            ARMCI_ACC_DBL, ARMCI_ACC_CPL, ARMCI_ACC_DCP};

static size_t elem_size(int t)
{
    switch (t) {
    case ARMCI_ACC_INT: return sizeof(int);
    case ARMCI_ACC_LNG: return sizeof(long);
    case ARMCI_ACC_FLT: return sizeof(float);
    case ARMCI_ACC_DBL: return sizeof(double);
    case ARMCI_ACC_CPL: return sizeof(float complex);
    default: return sizeof(double complex);
    }
}

/* Element i of type t at p is set to v (complex: v + 2v i). */
static void set(int t, void *p, int i, double v)
{
    switch (t) {
    case ARMCI_ACC_INT: ((int *)p)[i] = (int)v; break;
    case ARMCI_ACC_LNG: ((long *)p)[i] = (long)v; break;
    case ARMCI_ACC_FLT: ((float *)p)[i] = (float)v; break;
    case ARMCI_ACC_DBL: ((double *)p)[i] = v; break;
    case ARMCI_ACC_CPL:
        ((float *)p)[2 * i]     = (float)v;
        ((float *)p)[2 * i + 1] = (float)(2 * v);
        break;
    default:
        ((double *)p)[2 * i]     = v;
        ((double *)p)[2 * i + 1] = 2 * v;
        break;
    }
}

static double get(int t, const void *p, int i, int imag)
{
    switch (t) {
    case ARMCI_ACC_INT: return ((const int *)p)[i];
    case ARMCI_ACC_LNG: return (double)((const long *)p)[i];
    case ARMCI_ACC_FLT: return ((const float *)p)[i];
    case ARMCI_ACC_DBL: return ((const double *)p)[i];
    case ARMCI_ACC_CPL: return ((const float *)p)[2 * i + imag];
    default: return ((const double *)p)[2 * i + imag];
    }
}

int main(int argc, char **argv)
{
    static char src[N * 16];
    size_t k;
    int i, target;

    at_start(&argc, &argv);
    for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
        int t       = types[k];
        size_t es   = elem_size(t);
        void **base = at_malloc((long)(N * es));
        char *mine  = base[at_me];
        char scale[16];
        armci_hdl_t h;

        /* scale 2 (complex: 2 + 0i) */
        memset(scale, 0, sizeof(scale));
        set(t, scale, 0, 2);
        if ((t == ARMCI_ACC_CPL) || (t == ARMCI_ACC_DCP)) {
            set(t == ARMCI_ACC_CPL ? ARMCI_ACC_FLT : ARMCI_ACC_DBL, scale, 1,
                0);
        }
        for (i = 0; i < N; i++) {
            set(t, src, i, (double)((at_me + 1) * (i % 13 + 1)));
        }
        ARMCI_Access_begin(mine);
        memset(mine, 0, N * es);
        ARMCI_Access_end(mine);
        ARMCI_Barrier();
        for (target = 0; target < at_np; target++) {
            int p     = (at_me + target) % at_np; /* everyone at once */
            char *dst = base[p];
            int count[4], stride[3];
            void *vs[100], *vd[100];
            armci_giov_t iov;

            /* [0, 100): contiguous, blocking and non-blocking halves */
            CHECK(ARMCI_Acc(t, scale, src, dst, (int)(50 * es), p) == 0, "acc");
            ARMCI_INIT_HANDLE(&h);
            CHECK(ARMCI_NbAcc(t, scale, src + 50 * es, dst + 50 * es,
                              (int)(50 * es), p, &h) == 0,
                  "nbacc");
            CHECK(ARMCI_Wait(&h) == 0, "wait");
            /* [100, 400): 3 levels, 5 x 6 x 10 elements */
            count[0]  = (int)(5 * es);
            count[1]  = 6;
            count[2]  = 10;
            stride[0] = (int)(5 * es);
            stride[1] = (int)(30 * es);
            CHECK(ARMCI_AccS(t, scale, src + 100 * es, stride, dst + 100 * es,
                             stride, count, 2, p) == 0,
                  "accs");
            /* [400, 500): one element rows, non-blocking */
            count[0]  = (int)es;
            count[1]  = 100;
            stride[0] = (int)es;
            ARMCI_INIT_HANDLE(&h);
            CHECK(ARMCI_NbAccS(t, scale, src + 400 * es, stride, dst + 400 * es,
                               stride, count, 1, p, &h) == 0,
                  "nbaccs");
            CHECK(ARMCI_Wait(&h) == 0, "wait");
            /* [500, 600): a vector, in reverse order */
            for (i = 0; i < 100; i++) {
                vs[i] = src + (599 - i) * es;
                vd[i] = dst + (599 - i) * es;
            }
            iov = (armci_giov_t){vs, vd, (int)es, 100};
            CHECK(ARMCI_AccV(t, scale, &iov, 1, p) == 0, "accv");
        }
        ARMCI_Barrier();
        ARMCI_Access_begin(mine);
        for (i = 0; i < N; i++) {
            /* sum over q of 2 (q + 1)(i % 13 + 1) */
            double want = (double)(i % 13 + 1) * at_np * (at_np + 1);

            CHECK(get(t, mine, i, 0) == want,
                  "type %d element %d: %g, not "
                  "%g",
                  t, i, get(t, mine, i, 0), want);
            if ((t == ARMCI_ACC_CPL) || (t == ARMCI_ACC_DCP)) {
                CHECK(get(t, mine, i, 1) == 2 * want,
                      "type %d element %d "
                      "imaginary",
                      t, i);
            }
        }
        ARMCI_Access_end(mine);
        ARMCI_Barrier();
        at_free(base);
    }
    return at_finish("test_armci_acc");
}
