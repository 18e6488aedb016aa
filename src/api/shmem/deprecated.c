/*
 * Deprecated OpenSHMEM names that the 1.6 specification still requires
 * ("last version supported: current" in its deprecation table): start_pes
 * with implicit finalization at exit, _my_pe, _num_pes and the 1.0 heap
 * routines.  Each is one call into the current routine.  They call the
 * strong pshmem_ names, so a profiling tool that wraps, say, shmem_malloc
 * sees the calls a program makes under that name only, and one that wraps
 * shmalloc sees those (each also has its p-name: pstart_pes, pshmalloc...).
 * Messages name the current routine (shmem_malloc for shmalloc).
 */
#include <stdlib.h>

#include "api/shmem/shmem_int.h"
#include "pshmem.h"
#include "runtime/xg_runtime.h"

/* Set once start_pes has initialized the library. */
static int deprecated_started;

/* Implicit finalization of a program that used start_pes and did not call
 * shmem_finalize: collective, like shmem_finalize.  Registered after the
 * library's own exit handler, so it runs first; only a normal exit
 * (status 0) finalizes, as for programs that call shmem_init -- a PE that
 * fails leaves without waiting for the others. */
static void deprecated_at_exit(int status, void *arg)
{
    (void)arg;
    if ((status == 0) &&
        (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_ACTIVE)) {
        pshmem_finalize();
    }
}

XG_SHMEM_API void start_pes(int npes)
{
    (void)npes; /* ignored, as the specification says */
    if (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_ACTIVE) {
        return; /* a second call has no effect */
    }
    pshmem_init();
    if (!deprecated_started) {
        deprecated_started = 1;
        on_exit(deprecated_at_exit, NULL);
    }
}
XG_PSHMEM(start_pes)

XG_SHMEM_API int _my_pe(void)
{
    return pshmem_my_pe();
}
XG_PSHMEM(_my_pe)

XG_SHMEM_API int _num_pes(void)
{
    return pshmem_n_pes();
}
XG_PSHMEM(_num_pes)

XG_SHMEM_API void *shmalloc(size_t size)
{
    return pshmem_malloc(size);
}
XG_PSHMEM(shmalloc)

XG_SHMEM_API void shfree(void *ptr)
{
    pshmem_free(ptr);
}
XG_PSHMEM(shfree)

XG_SHMEM_API void *shrealloc(void *ptr, size_t size)
{
    return pshmem_realloc(ptr, size);
}
XG_PSHMEM(shrealloc)

XG_SHMEM_API void *shmemalign(size_t alignment, size_t size)
{
    return pshmem_align(alignment, size);
}
XG_PSHMEM(shmemalign)
