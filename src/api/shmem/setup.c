/*
 * OpenSHMEM library setup, exit and query routines.
 */
#include <stdio.h>
#include <string.h>

#include "api/shmem/shmem_int.h"
#include "base/xg_config.h"
#include "boot/xg_boot.h"
#include "gas/coll/xg_coll.h"
#include "runtime/xg_runtime.h"
#include "shmemx.h"
#include "xgas_version.h"

static int shmem_thread_level = SHMEM_THREAD_SINGLE;

/* SHMEM_VERSION and SHMEM_INFO: printed once, by PE 0, at start-up. */
static void shmem_print_startup_info(void)
{
    if (xg_gas.me != 0) {
        return;
    }
    if (xg_config.shmem_version || xg_config.shmem_info) {
        printf("%s %s, OpenSHMEM %d.%d\n", SHMEM_VENDOR_STRING,
               XGAS_VERSION_STRING, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
    }
    if (xg_config.shmem_info) {
        printf("environment variables (value, default, help):\n");
        xg_config_print(stdout, 0);
    }
    fflush(stdout);
}

/* A disagreement between PEs that the collective engine found. */
XG_NORETURN static void shmem_coll_fail(const char *routine, const char *text)
{
    xg_shmem_fail(routine, "%s", text);
}

/* The collective engine's messages in OpenSHMEM's words. */
static const xg_coll_naming_t shmem_coll_naming = {
    .kinds =
        {
            [XG_COLL_SYNC]    = "a barrier (shmem_team_sync, shmem_sync_all, "
                                "shmem_barrier_all, shmem_init or "
                                "shmem_finalize)",
            [XG_COLL_DESTROY] = "shmem_team_destroy",
        },
    .heap_ops =
        {
            [XG_COLL_HEAP_MALLOC]       = "shmem_malloc",
            [XG_COLL_HEAP_MALLOC_HINTS] = "shmem_malloc_with_hints",
            [XG_COLL_HEAP_CALLOC]       = "shmem_calloc",
            [XG_COLL_HEAP_ALIGN]        = "shmem_align",
            [XG_COLL_HEAP_REALLOC]      = "shmem_realloc",
            [XG_COLL_HEAP_FREE]         = "shmem_free",
        },
    .world  = "SHMEM_TEAM_WORLD",
    .shared = "SHMEM_TEAM_SHARED",
    .fail   = shmem_coll_fail,
};

static void shmem_start(const char *routine)
{
    xg_status_t status;

    xg_coll_set_naming(&shmem_coll_naming);
    status = xg_runtime_init(XG_RUNTIME_PGAS);

    if (status != XG_OK) {
        xg_shmem_fail(routine,
                      "cannot start the library (%s); the messages "
                      "above say why",
                      xg_status_str(status));
    }
    shmem_print_startup_info();
}

XG_SHMEM_API void shmem_init(void)
{
    shmem_start(__func__);
}
XG_PSHMEM(shmem_init)

XG_SHMEM_API int shmem_init_thread(int requested, int *provided)
{
    if ((requested < SHMEM_THREAD_SINGLE) ||
        (requested > SHMEM_THREAD_MULTIPLE)) {
        xg_shmem_fail(__func__,
                      "requested thread level %d is not one of "
                      "SHMEM_THREAD_SINGLE, _FUNNELED, _SERIALIZED or "
                      "_MULTIPLE",
                      requested);
    }
    shmem_start(__func__);
    /* every level is supported: the data path takes no locks, and the
     * rest (allocation, start-up) is serialized internally */
    shmem_thread_level = requested;
    if (provided != NULL) {
        *provided = requested;
    }
    return 0;
}
XG_PSHMEM(shmem_init_thread)

/* May be called at any time, before shmem_init and after shmem_finalize. */
XG_SHMEM_API void shmem_query_initialized(int *initialized)
{
    *initialized = (xg_runtime_state(XG_RUNTIME_PGAS) == XG_RUNTIME_ACTIVE);
}
XG_PSHMEM(shmem_query_initialized)

XG_SHMEM_API void shmem_query_thread(int *provided)
{
    xg_shmem_check_init(__func__);
    *provided = shmem_thread_level;
}
XG_PSHMEM(shmem_query_thread)

XG_SHMEM_API void shmem_finalize(void)
{
    if (xg_runtime_fini(XG_RUNTIME_PGAS) != XG_OK) {
        xg_shmem_not_initialized(__func__);
    }
    if (xg_runtime_state(XG_RUNTIME_PGAS) != XG_RUNTIME_ACTIVE) {
        /* the last finalize destroys every shareable context */
        xg_shmem_ctx_release_team(NULL);
    }
}
XG_PSHMEM(shmem_finalize)

XG_SHMEM_API void shmem_global_exit(int status)
{
    xg_shmem_check_init(__func__);
    xg_boot_global_exit(status);
}
XG_PSHMEM_NORETURN(shmem_global_exit)

XG_SHMEM_API int shmem_my_pe(void)
{
    xg_shmem_check_init(__func__);
    return xg_gas.me;
}
XG_PSHMEM(shmem_my_pe)

XG_SHMEM_API int shmem_n_pes(void)
{
    xg_shmem_check_init(__func__);
    return xg_gas.npes;
}
XG_PSHMEM(shmem_n_pes)

XG_SHMEM_API int shmem_pe_accessible(int pe)
{
    xg_shmem_check_init(__func__);
    return (pe >= 0) && (pe < xg_gas.npes);
}
XG_PSHMEM(shmem_pe_accessible)

XG_SHMEM_API int shmem_addr_accessible(const void *addr, int pe)
{
    xg_shmem_check_init(__func__);
    /* by any route: data routines reach it, shmem_ptr may not */
    return xg_gas_diagnose(addr, 1, pe) == XG_OK;
}
XG_PSHMEM(shmem_addr_accessible)

/* For the calling PE the pointer is @dest itself, on any route: a global
 * is then the variable the program uses, not its image in the data window
 * (the same memory at another address, which a compiler would not know
 * aliases). */
void *xg_shmem_ptr(const void *dest, int pe)
{
    if (pe == xg_gas.me) {
        return (xg_gas_diagnose(dest, 1, pe) == XG_OK) ? (void *)(uintptr_t)dest
                                                       : NULL;
    }
    return xg_gas_translate(dest, 1, pe);
}

XG_SHMEM_API void *shmem_ptr(const void *dest, int pe)
{
    xg_shmem_check_init(__func__);
    return xg_shmem_ptr(dest, pe);
}
XG_PSHMEM(shmem_ptr)

/* A profiling tool replaces this (weak) routine to be told what to do. */
XG_SHMEM_API void shmem_pcontrol(const int level, ...)
{
    (void)level;
}
XG_PSHMEM(shmem_pcontrol)

XG_SHMEM_API void shmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}
XG_PSHMEM(shmem_info_get_version)

XG_SHMEM_API void shmem_info_get_name(char *name)
{
    snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}
XG_PSHMEM(shmem_info_get_name)

XG_SHMEM_API void shmem_fence(void)
{
    xg_shmem_check_init(__func__);
    xg_gas_ctx_fence(XG_SHMEM_GAS_DEFAULT);
}
XG_PSHMEM(shmem_fence)

XG_SHMEM_API void shmem_quiet(void)
{
    xg_shmem_check_init(__func__);
    xg_gas_ctx_quiet(XG_SHMEM_GAS_DEFAULT);
}
XG_PSHMEM(shmem_quiet)

XG_SHMEM_API void shmem_barrier_all(void)
{
    xg_shmem_check_init(__func__);
    xg_gas_ctx_quiet(XG_SHMEM_GAS_DEFAULT);
    xg_gas_barrier_named(__func__);
}
XG_PSHMEM(shmem_barrier_all)

XG_SHMEM_API void shmem_sync_all(void)
{
    xg_shmem_check_init(__func__);
    xg_gas_barrier_named(__func__);
}
XG_PSHMEM(shmem_sync_all)

XG_EXPORT void shmemx_nlb_stats(uint64_t *hits, uint64_t *misses)
{
    xg_gas_nlb_stats(hits, misses);
}
