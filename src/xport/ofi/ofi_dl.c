/*
 * libfabric on first use (see xg_ofi_dl.h).  This file sees libfabric's
 * own declarations (it does not include xg_ofi.h): the pointers have the
 * types of the real functions, and the wrappers the renamed names.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
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

static pthread_mutex_t ofi_dl_lock = PTHREAD_MUTEX_INITIALIZER;
static xg_status_t ofi_dl_status   = XG_ERR_NOT_INITIALIZED;
static char ofi_dl_why[512];

static void *ofi_dl_sym(void *lib, const char *name, const char *path)
{
    void *sym = dlsym(lib, name);

    if ((sym == NULL) && (ofi_dl_why[0] == '\0')) {
        snprintf(ofi_dl_why, sizeof(ofi_dl_why),
                 "the libfabric library %s has no %s: install the libfabric "
                 "xgas was built with (Debian: libfabric1), or name it in "
                 "XGAS_OFI_LIBRARY",
                 path, name);
    }
    return sym;
}

static xg_status_t ofi_dl_open(void)
{
    const char *path = (xg_config.ofi_library[0] != '\0')
                           ? xg_config.ofi_library
                           : XGAS_OFI_SONAME;
    void *lib        = dlopen(path, RTLD_NOW | RTLD_LOCAL);

    if (lib == NULL) {
        snprintf(ofi_dl_why, sizeof(ofi_dl_why),
                 "libfabric, which a job over several nodes needs, cannot "
                 "be loaded (%s): install it (Debian: apt install "
                 "libfabric1), or name the library in XGAS_OFI_LIBRARY",
                 dlerror());
        return XG_ERR_UNREACHABLE;
    }
    xg_ofi_restore_crash_signals();
    ofi_dl.getinfo  = ofi_dl_sym(lib, "fi_getinfo", path);
    ofi_dl.freeinfo = ofi_dl_sym(lib, "fi_freeinfo", path);
    ofi_dl.dupinfo  = ofi_dl_sym(lib, "fi_dupinfo", path);
    ofi_dl.fabric   = ofi_dl_sym(lib, "fi_fabric", path);
    ofi_dl.strerror = ofi_dl_sym(lib, "fi_strerror", path);
    if (ofi_dl_why[0] != '\0') {
        /* libxgas stays loaded (nodelete): so may this */
        return XG_ERR_UNREACHABLE;
    }
    xg_debug("ofi", "libfabric loaded from %s", path);
    return XG_OK;
}

xg_status_t xg_ofi_dl_load(char *why, size_t why_len)
{
    xg_status_t status;

    pthread_mutex_lock(&ofi_dl_lock);
    if (ofi_dl_status == XG_ERR_NOT_INITIALIZED) {
        ofi_dl_status = ofi_dl_open();
    }
    status = ofi_dl_status;
    pthread_mutex_unlock(&ofi_dl_lock);
    if ((status != XG_OK) && (why != NULL)) {
        snprintf(why, why_len, "%s", ofi_dl_why);
    }
    return status;
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
