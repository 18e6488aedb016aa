/*
 * xbrtime set-up, queries, symmetric memory and the barrier, and the
 * binding's error reports.  The runtime is the one OpenSHMEM uses
 * (runtime/xg_runtime.h): xbrtime_init and shmem_init both join the job, and
 * the symmetric heap is shared, so a program may mix the two APIs.
 */
#include <stdint.h>

#include "api/xbrtime/xbrtime_int.h"
#include "base/xg_log.h"
#include "gas/coll/xg_coll.h"
#include "mem/xg_heap.h"
#include "runtime/xg_runtime.h"

xg_gas_ctx_t xg_xbrtime_ctx = XG_GAS_CTX_INIT_SHARED;

/* ---- errors ------------------------------------------------------------- */

void xg_xbrtime_not_running(const char *routine)
{
    if (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_FINALIZED) {
        xg_xbrtime_fail(routine, "called after xbrtime_close: call it "
                                 "between xbrtime_init and xbrtime_close");
    }
    xg_xbrtime_fail(routine, "called before xbrtime_init: call "
                             "xbrtime_init first");
}

void xg_xbrtime_access_fail(const char *routine, xg_status_t status,
                            const void *addr, size_t len, int pe)
{
    char text[512];

    if ((status == XG_ERR_PE_RANGE) || (status == XG_ERR_NOT_SYMMETRIC) ||
        (status == XG_ERR_OUT_OF_BOUNDS) ||
        (status == XG_ERR_NOT_INITIALIZED)) {
        /* the gas status says what kind; the diagnosis which part */
        status = xg_gas_diagnose(addr, len, pe);
    }
    if (status == XG_ERR_NOT_INITIALIZED) {
        xg_xbrtime_not_running(routine);
    }
    xg_gas_describe_access(status, addr, len, pe, "xbrtime_malloc",
                           "nelems, stride and the object's size", text,
                           sizeof(text));
    xg_xbrtime_fail(routine, "%s", text);
}

void xg_xbrtime_check_stride(const char *routine, const char *what, int stride)
{
    if (stride < 1) {
        xg_xbrtime_fail(routine,
                        "%s %d is not a valid stride: it counts "
                        "elements and must be at least 1 (1 = "
                        "contiguous)",
                        what, stride);
    }
}

size_t xg_xbrtime_span(const char *routine, size_t nelems, int stride,
                       size_t elem_size)
{
    size_t step = (size_t)stride * elem_size;

    if (nelems == 0) {
        return 0;
    }
    if ((nelems - 1) > (SIZE_MAX - elem_size) / step) {
        xg_xbrtime_fail(routine,
                        "%zu elements of %zu bytes at stride %d "
                        "overflow the address space: check nelems",
                        nelems, elem_size, stride);
    }
    return (nelems - 1) * step + elem_size;
}

/* ---- set-up and queries ------------------------------------------------- */

/* A disagreement between PEs that the collective engine found. */
XG_NORETURN static void xbrtime_coll_fail(const char *routine, const char *text)
{
    xg_xbrtime_fail(routine, "%s", text);
}

/* The collective engine's messages in xbrtime's words (the gas defaults
 * name the rest). */
static const xg_coll_naming_t xbrtime_coll_naming = {
    .kinds =
        {
            [XG_COLL_SYNC] = "a barrier (xbrtime_barrier, xbrtime_init or "
                             "xbrtime_close)",
        },
    .world = "all PEs",
    .fail  = xbrtime_coll_fail,
};

XG_XBRTIME_API int xbrtime_init(void)
{
    xg_status_t status;

    /* the API that starts the runtime names its collectives */
    if (xg_runtime_state(XG_RUNTIME_PGAS) != XG_RUNTIME_ACTIVE) {
        xg_coll_set_naming(&xbrtime_coll_naming);
    }
    status = xg_runtime_init(XG_RUNTIME_PGAS);

    if (status != XG_OK) {
        xg_error("xbrtime",
                 "xbrtime_init: cannot start the library (%s); "
                 "the messages above say why",
                 xg_status_str(status));
        return (int)status;
    }
    return 0;
}

XG_XBRTIME_API void xbrtime_close(void)
{
    /* the published runtime lets a program close what it never opened */
    if (xg_runtime_state(XG_RUNTIME_PGAS) != XG_RUNTIME_ACTIVE) {
        return;
    }
    xg_gas_ctx_quiet(&xg_xbrtime_ctx);
    xg_runtime_fini(XG_RUNTIME_PGAS);
}

XG_XBRTIME_API int xbrtime_mype(void)
{
    return (xg_gas.npes == 0) ? -1 : xg_gas.me;
}

XG_XBRTIME_API int xbrtime_num_pes(void)
{
    return (xg_gas.npes == 0) ? -1 : xg_gas.npes;
}

XG_XBRTIME_API int xbrtime_addr_accessible(const void *addr, int pe)
{
    /* by any route, as the data routines reach it */
    return (xg_gas.npes != 0) && (xg_gas_diagnose(addr, 1, pe) == XG_OK);
}

XG_XBRTIME_API void xbrtime_barrier(void)
{
    xg_xbrtime_check_running(__func__);
    xg_gas_ctx_quiet(&xg_xbrtime_ctx);
    xg_gas_barrier_named(__func__);
}

/* ---- symmetric memory --------------------------------------------------- */

XG_XBRTIME_API void *xbrtime_malloc(size_t sz)
{
    void *ptr = NULL;
    xg_status_t status;

    if (xg_gas.npes == 0) {
        xg_error("xbrtime", "xbrtime_malloc: called before xbrtime_init "
                            "(returns NULL): call xbrtime_init first");
        return NULL;
    }
    if (sz == 0) {
        /* NULL, as published; still a synchronization of every PE */
        xg_gas_barrier_named(__func__);
        return NULL;
    }
    status = xg_gas_alloc(sz, XG_HEAP_MIN_ALIGN, &ptr);
    if (status == XG_ERR_NO_MEMORY) {
        xg_gas_heap_diag_t heap;

        xg_gas_heap_diagnose(sz, &heap);
        xg_error("xbrtime",
                 "xbrtime_malloc: cannot allocate %zu bytes "
                 "(returns NULL): the symmetric heap of %llu bytes cannot "
                 "hold them (largest free block %llu bytes); check the "
                 "size, or set SHMEM_SYMMETRIC_SIZE above the total the "
                 "program allocates",
                 sz, (unsigned long long)heap.heap,
                 (unsigned long long)heap.largest_free);
        ptr = NULL;
    } else if (status != XG_OK) {
        xg_error("xbrtime",
                 "xbrtime_malloc: cannot allocate %zu bytes "
                 "(returns NULL): %s",
                 sz, xg_status_str(status));
        ptr = NULL;
    }
    /* the object exists on every PE before any PE uses it */
    xg_gas_barrier_named(__func__);
    return ptr;
}

XG_XBRTIME_API void xbrtime_free(void *ptr)
{
    xg_xbrtime_check_running(__func__);
    /* no PE still uses the object */
    xg_gas_ctx_quiet(&xg_xbrtime_ctx);
    xg_gas_barrier_named(__func__);
    if ((ptr != NULL) && (xg_gas_free(ptr) != XG_OK)) {
        xg_xbrtime_fail(__func__,
                        "%p is not an object of the symmetric "
                        "heap (or was freed already): pass a pointer "
                        "returned by xbrtime_malloc",
                        ptr);
    }
}
