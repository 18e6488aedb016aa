/*
 * libpmix on first use (see xg_pmix_dl.h).  This file sees libpmix's own
 * declarations: the pointers have the types of the real functions, the
 * wrappers the renamed names (hidden, as everything of libxgas not
 * marked XG_EXPORT).
 */
#include <pmix.h>

#include "base/xg_config.h"
#include "base/xg_dl.h"
#define XG_PMIX_DL_IMPL
#include "boot/xg_pmix_dl.h"

#ifndef XGAS_PMIX_SONAME
#define XGAS_PMIX_SONAME "libpmix.so.2"
#endif

/* One row per function: its name, and the wrapper's declaration. */
/* clang-format off */
#define PMIX_DL_FUNCTIONS(X)                                                   \
    X(Abort) X(Commit) X(Error_string) X(Fence) X(Finalize) X(Get)             \
    X(Info_load) X(Init) X(Put) X(Register_event_handler) X(Value_destruct)    \
    X(Value_load)
/* clang-format on */

#define PMIX_DL_DECLARE(name) __typeof__(PMIx_##name) xg_pmix_dl_##name;
PMIX_DL_FUNCTIONS(PMIX_DL_DECLARE)

static struct {
#define PMIX_DL_POINTER(name) __typeof__(PMIx_##name) *name;
    PMIX_DL_FUNCTIONS(PMIX_DL_POINTER)
} pmix_dl;

#define PMIX_DL_NAME(name) "PMIx_" #name,
static const char *const pmix_dl_symbols[] = {PMIX_DL_FUNCTIONS(PMIX_DL_NAME)};
#define PMIX_DL_SLOT(name) (void **)&pmix_dl.name,
static void **const pmix_dl_slots[] = {PMIX_DL_FUNCTIONS(PMIX_DL_SLOT)};

static xg_dl_t pmix_lib = {
    .name      = "libpmix",
    .needed_by = "a start by a PMIx launcher",
    .fix_load  = "install it (Debian: apt install libpmix2), name the "
                 "library in XGAS_PMIX_LIBRARY, or start the program with "
                 "xgasrun",
    .fix_sym   = "install the libpmix xgas was built with (Debian: "
                 "libpmix2), or name it in XGAS_PMIX_LIBRARY",
    .symbols   = pmix_dl_symbols,
    .slots     = pmix_dl_slots,
    .count     = sizeof(pmix_dl_symbols) / sizeof(pmix_dl_symbols[0]),
    .failure   = XG_ERR_BOOT,
    .lock      = PTHREAD_MUTEX_INITIALIZER,
    .status    = XG_ERR_NOT_INITIALIZED,
};

xg_status_t xg_pmix_dl_load(char *why, size_t why_len)
{
    return xg_dl_load(&pmix_lib,
                      (xg_config.pmix_library[0] != '\0')
                          ? xg_config.pmix_library
                          : XGAS_PMIX_SONAME,
                      why, why_len);
}

/* The renamed functions: called only after a successful xg_pmix_dl_load,
 * which the PMIx backend's join does first. */
pmix_status_t xg_pmix_dl_Abort(int status, const char msg[],
                               pmix_proc_t procs[], size_t nprocs)
{
    return pmix_dl.Abort(status, msg, procs, nprocs);
}

pmix_status_t xg_pmix_dl_Commit(void)
{
    return pmix_dl.Commit();
}

const char *xg_pmix_dl_Error_string(pmix_status_t status)
{
    return (pmix_dl.Error_string != NULL) ? pmix_dl.Error_string(status)
                                          : "libpmix is not loaded";
}

pmix_status_t xg_pmix_dl_Fence(const pmix_proc_t procs[], size_t nprocs,
                               const pmix_info_t info[], size_t ninfo)
{
    return pmix_dl.Fence(procs, nprocs, info, ninfo);
}

pmix_status_t xg_pmix_dl_Finalize(const pmix_info_t info[], size_t ninfo)
{
    return pmix_dl.Finalize(info, ninfo);
}

pmix_status_t xg_pmix_dl_Get(const pmix_proc_t *proc, const char key[],
                             const pmix_info_t info[], size_t ninfo,
                             pmix_value_t **val)
{
    return pmix_dl.Get(proc, key, info, ninfo, val);
}

pmix_status_t xg_pmix_dl_Info_load(pmix_info_t *info, const char *key,
                                   const void *data, pmix_data_type_t type)
{
    return pmix_dl.Info_load(info, key, data, type);
}

pmix_status_t xg_pmix_dl_Init(pmix_proc_t *proc, pmix_info_t info[],
                              size_t ninfo)
{
    return pmix_dl.Init(proc, info, ninfo);
}

pmix_status_t xg_pmix_dl_Put(pmix_scope_t scope, const char key[],
                             pmix_value_t *val)
{
    return pmix_dl.Put(scope, key, val);
}

pmix_status_t xg_pmix_dl_Register_event_handler(
    pmix_status_t codes[], size_t ncodes, pmix_info_t info[], size_t ninfo,
    pmix_notification_fn_t evhdlr, pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata)
{
    return pmix_dl.Register_event_handler(codes, ncodes, info, ninfo, evhdlr,
                                          cbfunc, cbdata);
}

void xg_pmix_dl_Value_destruct(pmix_value_t *val)
{
    pmix_dl.Value_destruct(val);
}

pmix_status_t xg_pmix_dl_Value_load(pmix_value_t *val, const void *data,
                                    pmix_data_type_t type)
{
    return pmix_dl.Value_load(val, data, type);
}
