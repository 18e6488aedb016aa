/*
 * libpmix on first use (pmix_dl.c): libxgas is not linked with libpmix,
 * which with the libraries it needs (hwloc, libevent, munge ...) adds
 * about 8 libraries (and 5 mappings each) to every process -- too many
 * for a PVAS node of a thousand PEs (docs/pvas.md) -- while only a start
 * under a PMIx launcher (mpirun, srun --mpi=pmix) uses it.  The PMIx_*
 * functions the PMIx backend calls (directly or through pmix.h's macros)
 * are renamed here, before pmix.h declares them, to libxgas-internal
 * ones that forward through pointers dlsym resolved; libxgas exports
 * none of them, so they never interpose on a program that links libpmix
 * itself.
 *
 * Include this before <pmix.h> (pmix.c does).
 */
#ifndef XG_PMIX_DL_H
#define XG_PMIX_DL_H

#include <stddef.h>

#include "xgas_status.h"

/* pmix_dl.c itself sees the real names */
#ifndef XG_PMIX_DL_IMPL
#ifdef PMIx_H
#error "boot/xg_pmix_dl.h must come before <pmix.h>"
#endif
/* clang-format off */
#define PMIx_Abort                  xg_pmix_dl_Abort
#define PMIx_Commit                 xg_pmix_dl_Commit
#define PMIx_Error_string           xg_pmix_dl_Error_string
#define PMIx_Fence                  xg_pmix_dl_Fence
#define PMIx_Finalize               xg_pmix_dl_Finalize
#define PMIx_Get                    xg_pmix_dl_Get
#define PMIx_Info_load              xg_pmix_dl_Info_load
#define PMIx_Init                   xg_pmix_dl_Init
#define PMIx_Put                    xg_pmix_dl_Put
#define PMIx_Register_event_handler xg_pmix_dl_Register_event_handler
#define PMIx_Value_destruct         xg_pmix_dl_Value_destruct
#define PMIx_Value_load             xg_pmix_dl_Value_load
/* clang-format on */
#endif

/* Loads libpmix and resolves the functions above, once (thread-safe):
 * XG_OK, or XG_ERR_BOOT with the reason -- which library, what the
 * loader said and how to fix it -- in @why. */
xg_status_t xg_pmix_dl_load(char *why, size_t why_len);

#endif
