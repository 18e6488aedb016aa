/*
 * libfabric on first use (ofi_dl.c): libxgas is not linked with
 * libfabric, which with its providers' libraries adds about 15 libraries
 * (and 5 mappings each) to every process -- too many for a PVAS node of
 * a thousand PEs (docs/pvas.md) -- while only jobs over several nodes use
 * it.  The few functions libfabric exports that the ofi component calls
 * are renamed here, before any libfabric header declares them, to
 * libxgas-internal (hidden) ones that forward through pointers dlsym
 * resolved; everything else of the fi_* API is static inline calls
 * through the objects' operation tables.  Being hidden, the renamed
 * functions never interpose on a program that links libfabric itself.
 *
 * Include this first (xg_ofi.h does).
 */
#ifndef XG_OFI_DL_H
#define XG_OFI_DL_H

#include <stddef.h>

#include "xgas_status.h"

/* ofi_dl.c itself sees the real names */
#ifndef XG_OFI_DL_IMPL
#ifdef FI_MAJOR_VERSION
#error "xport/ofi/xg_ofi_dl.h must come before every libfabric header"
#endif
/* clang-format off */
#define fi_getinfo  xg_ofi_dl_getinfo
#define fi_freeinfo xg_ofi_dl_freeinfo
#define fi_dupinfo  xg_ofi_dl_dupinfo
#define fi_fabric   xg_ofi_dl_fabric
#define fi_strerror xg_ofi_dl_strerror
/* clang-format on */
#endif

/* Loads libfabric and resolves the functions above, once (thread-safe):
 * XG_OK, or XG_ERR_UNREACHABLE with the reason -- which library, what the
 * loader said and how to fix it -- in @why. */
xg_status_t xg_ofi_dl_load(char *why, size_t why_len);

#endif
