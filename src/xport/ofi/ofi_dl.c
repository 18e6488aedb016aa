/*
 * libfabric on first use (see xg_ofi_dl.h).  This file sees libfabric's
 * own declarations (it does not include xg_ofi.h): the pointers have the
 * types of the real functions, and the wrappers the renamed names.
 */

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "base/xg_config.h"
#include "base/xg_dl.h"
#define XG_OFI_DL_IMPL
#include "xport/ofi/xg_ofi_dl.h"

__typeof__(fi_getinfo) xg_ofi_dl_getinfo;
__typeof__(fi_freeinfo) xg_ofi_dl_freeinfo;
__typeof__(fi_dupinfo) xg_ofi_dl_dupinfo;
__typeof__(fi_fabric) xg_ofi_dl_fabric;
__typeof__(fi_strerror) xg_ofi_dl_strerror;

#ifndef XGAS_OFI_SONAME
#define XGAS_OFI_SONAME "libfabric.so.1"
#endif

/* ofi.c: puts back the crash handlers libinfinipath's constructor
 * installed, which runs when libfabric is loaded */
void xg_ofi_restore_crash_signals(void);

static struct {
    __typeof__(fi_getinfo) *getinfo;
    __typeof__(fi_freeinfo) *freeinfo;
    __typeof__(fi_dupinfo) *dupinfo;
    __typeof__(fi_fabric) *fabric;
    __typeof__(fi_strerror) *strerror;
} ofi_dl;

static const char *const ofi_dl_symbols[] = {
    "fi_getinfo", "fi_freeinfo", "fi_dupinfo", "fi_fabric", "fi_strerror"};
static void **const ofi_dl_slots[] = {
    (void **)&ofi_dl.getinfo, (void **)&ofi_dl.freeinfo,
    (void **)&ofi_dl.dupinfo, (void **)&ofi_dl.fabric,
    (void **)&ofi_dl.strerror};

static xg_dl_t ofi_lib = {
    .name      = "libfabric",
    .needed_by = "a job over several nodes",
    .fix_load  = "install it (Debian: apt install libfabric1), or name the "
                 "library in XGAS_OFI_LIBRARY",
    .fix_sym   = "install the libfabric xgas was built with (Debian: "
                 "libfabric1), or name it in XGAS_OFI_LIBRARY",
    .symbols   = ofi_dl_symbols,
    .slots     = ofi_dl_slots,
    .count     = sizeof(ofi_dl_symbols) / sizeof(ofi_dl_symbols[0]),
    .failure   = XG_ERR_UNREACHABLE,
    .opened    = xg_ofi_restore_crash_signals,
    .lock      = PTHREAD_MUTEX_INITIALIZER,
    .status    = XG_ERR_NOT_INITIALIZED,
};

xg_status_t xg_ofi_dl_load(char *why, size_t why_len)
{
    return xg_dl_load(&ofi_lib,
                      (xg_config.ofi_library[0] != '\0') ? xg_config.ofi_library
                                                         : XGAS_OFI_SONAME,
                      why, why_len);
}

/* The renamed functions (xg_ofi_dl.h): called only after a successful
 * xg_ofi_dl_load, which every way into the component takes first. */
int xg_ofi_dl_getinfo(uint32_t version, const char *node, const char *service,
                      uint64_t flags, const struct fi_info *hints,
                      struct fi_info **info)
{
    return ofi_dl.getinfo(version, node, service, flags, hints, info);
}

void xg_ofi_dl_freeinfo(struct fi_info *info)
{
    ofi_dl.freeinfo(info);
}

struct fi_info *xg_ofi_dl_dupinfo(const struct fi_info *info)
{
    return ofi_dl.dupinfo(info);
}

int xg_ofi_dl_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
                     void *context)
{
    return ofi_dl.fabric(attr, fabric, context);
}

const char *xg_ofi_dl_strerror(int errnum)
{
    /* a message about an error before the load (none is expected) */
    return (ofi_dl.strerror != NULL) ? ofi_dl.strerror(errnum)
                                     : "libfabric is not loaded";
}
