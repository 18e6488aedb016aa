// shmem.h from C++, built with xgasc++: the header compiles as C++ (also
// inside an extern "C" block, and with pshmem.h), the complex reductions
// and scans take both the C layout type (GCC's __complex__, which is C's
// _Complex) and std::complex, and the other routine families link and
// work.
extern "C" {
#include <shmem.h>
}
#include <pshmem.h>

#include <complex>
#include <cstdio>
#include <cstdlib>

#define CHECK(cond, what)                                                  \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::fprintf(stderr, "FAIL [pe %d] %s:%d: %s\n", shmem_my_pe(), \
                         __FILE__, __LINE__, what);                        \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

static std::complex<double> zsrc[3], zdst[3];
static __complex__ float csrc[2], cdst[2];
static std::complex<float> fsrc[2], fdst[2], fwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long counter;

int main()
{
    shmem_init();
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();

    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) {
        psync[i] = SHMEM_SYNC_VALUE;
    }
    // std::complex<double>: sum over PEs of (me + 1, i) and a product
    for (int i = 0; i < 3; i++) {
        zsrc[i] = std::complex<double>(me + 1, i);
    }
    CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, zdst, zsrc, 3) == 0,
          "complexd_sum_reduce");
    for (int i = 0; i < 3; i++) {
        CHECK(zdst[i] == std::complex<double>(npes * (npes + 1) / 2.0,
                                              (double)i * npes),
              "std::complex<double> sum");
    }
    CHECK(shmem_complexd_sum_inscan(SHMEM_TEAM_WORLD, zdst, zsrc, 3) == 0,
          "complexd_sum_inscan");
    CHECK(zdst[0] == std::complex<double>((me + 1) * (me + 2) / 2.0, 0),
          "std::complex<double> inscan");

    // the C layout type: product of (0, 1) over the PEs is i^npes
    __real__ csrc[0] = 0.0f;
    __imag__ csrc[0] = 1.0f;
    __real__ csrc[1] = 2.0f;
    __imag__ csrc[1] = 0.0f;
    CHECK(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, cdst, csrc, 2) == 0,
          "complexf_prod_reduce");
    {
        std::complex<float> expect(1, 0), got(__real__ cdst[0],
                                              __imag__ cdst[0]);
        for (int p = 0; p < npes; p++) {
            expect *= std::complex<float>(0, 1);
        }
        CHECK(got == expect && __real__ cdst[1] == (float)(1 << npes),
              "__complex__ float product");
    }

    // the deprecated active-set form with std::complex
    fsrc[0] = std::complex<float>(1, -1);
    fsrc[1] = std::complex<float>(me, 0);
    shmem_barrier_all();
    shmem_complexf_sum_to_all(fdst, fsrc, 2, 0, 0, npes, fwrk, psync);
    CHECK(fdst[0] == std::complex<float>(npes, -npes) &&
          fdst[1] == std::complex<float>(npes * (npes - 1) / 2.0f, 0),
          "complexf_sum_to_all");

    // a few other families, and the deprecated names
    shmem_long_atomic_add(&counter, 1, 0);
    shmem_barrier_all();
    CHECK(shmem_long_atomic_fetch(&counter, 0) == npes, "atomic add");
    CHECK(_my_pe() == me && _num_pes() == npes && pshmem_my_pe() == me,
          "_my_pe, _num_pes, pshmem_my_pe");
    long *obj = static_cast<long *>(shmalloc(sizeof(long)));
    CHECK(obj != NULL && shmem_ptr(obj, me) == obj, "shmalloc, shmem_ptr");
    shmem_long_p(obj, me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(*obj == (me + npes - 1) % npes, "put into shmalloc object");
    shfree(obj);
    shmem_finalize();
    if (me == 0) {
        std::printf("C++: passed on %d PEs\n", npes);
    }
    return 0;
}
