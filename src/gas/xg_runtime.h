/*
 * Start-up and shut-down of the whole stack (boot, mem, gas), shared by every
 * API: xg_init() and shmem_init() both land here, counted, so a program may
 * use both APIs and initialize several times.  The first init joins the job;
 * the matching last fini leaves it; a later init starts it again (OpenSHMEM
 * 1.6), collectively, with a new symmetric heap.  A program that returns
 * from main() (exit status 0) while initialized is finalized by an exit
 * handler, as OpenSHMEM programs expect; a non-zero exit leaves at once, so
 * a failing PE never waits in a barrier for PEs that wait for it.
 */
#ifndef XG_RUNTIME_H
#define XG_RUNTIME_H

#include "xgas_status.h"

typedef enum {
    XG_RUNTIME_NEVER = 0,     /* not initialized yet */
    XG_RUNTIME_ACTIVE = 1,
    XG_RUNTIME_FINALIZED = 2  /* finalized (may start again) */
} xg_runtime_state_t;

xg_status_t xg_runtime_init(void);
xg_status_t xg_runtime_fini(void);
xg_runtime_state_t xg_runtime_state(void);

#endif
