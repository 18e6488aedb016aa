/*
 * The bootstrap backends (private to boot/): how this process learns it is
 * part of a job.  boot_join() asks each backend of the list in order
 * whether it started the process and joins through the first that did.
 * Today: xgasrun (the launcher's control area) and singleton (a job of
 * one process, started without a launcher).  Both fill xg_boot with a
 * control area of the same layout (the singleton's in private memory), on
 * which the key/value exchange, the fences and the life-cycle states of
 * boot.c work; a backend without one (PMIx) adds its own exchange here.
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
} xg_boot_backend_t;

extern const xg_boot_backend_t xg_boot_backend_xgasrun;
extern const xg_boot_backend_t xg_boot_backend_singleton;

#endif
