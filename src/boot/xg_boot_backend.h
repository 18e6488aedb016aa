/*
 * The bootstrap backends (private to boot/): how this process learns it is
 * part of a job.  boot_join() asks each backend of the list in order
 * whether it started the process and joins through the first that did.
 * Today: xgasrun (the launcher's control area), PMIx (a PMIx launcher such
 * as Open MPI's mpirun; built when libpmix is found) and singleton (a job
 * of one process, started without a launcher).  Each fills xg_boot with a
 * control area of the same layout (the singleton's in private memory, the
 * PMIx backend's created by the node's first PE), on which the key/value
 * exchange, the fences and the life-cycle states of boot.c work.
 */
#ifndef XG_BOOT_BACKEND_H
#define XG_BOOT_BACKEND_H

#include <stdint.h>

#include "xgas_status.h"

typedef struct xg_boot_backend {
    const char *name;
    /* 1 if this backend started the process (reads xg_config only) */
    int (*detect)(void);
    /* joins the job: sets every field of xg_boot but ops and kv_used */
    xg_status_t (*join)(void);
    /* ends the whole job with @status (non-zero) through the launcher and
     * does not return; NULL: exiting is enough (xgasrun watches its PEs) */
    void (*abort)(int status, const char *why);
    /* what detect() looks for, for xgas-info */
    const char *why;
} xg_boot_backend_t;

extern const xg_boot_backend_t xg_boot_backend_xgasrun;
#ifdef XGAS_HAVE_PMIX
extern const xg_boot_backend_t xg_boot_backend_pmix;
#endif
extern const xg_boot_backend_t xg_boot_backend_singleton;

/* Maps the control area behind @fd (created by @origin, a launcher or the
 * node's first PE) for PE @rank of @npes, claims the rank's slot and sets
 * xg_boot's control-area fields, rank, npes and singleton. */
xg_status_t xg_boot_ctl_attach(int fd, uint32_t npes, uint32_t rank,
                               const char *origin);

#endif
