/*
 * The one start-up and shut-down sequence of the library, shared by every
 * API.  An API asks for a component and the runtime brings up, in this
 * order, the layers it needs that are not up yet:
 *
 *   boot -> xport -> mem -> nic -> gas -> teams
 *
 * XG_RUNTIME_NIC (PtlInit) needs boot, xport and the NIC; XG_RUNTIME_PGAS
 * (shmem_init, xg_init, xbrtime_init) needs boot, xport, mem, gas and the
 * teams, and the NIC only when a route of gas goes through it
 * (XGAS_ROUTE=nic).  A process that uses both shares one NIC.  Each
 * component is counted: the first init starts it, the matching last fini
 * stops what no other component still needs, in reverse order; a later
 * init starts it again (OpenSHMEM 1.6: collectively, with a new symmetric
 * heap).  boot and xport stay for the life of the process.
 *
 * Exported from libxgas for libarmci (src/api/armci), which starts the
 * PGAS runtime through them from its own library.
 *
 * At exit (one handler, registered by the first start): a PGAS runtime
 * still initialized is finalized collectively when the exit status is 0,
 * as OpenSHMEM programs expect; a non-zero exit leaves at once, so a
 * failing PE never waits in a barrier for PEs that wait for it.  Then a
 * NIC still open stops receiving, so that senders are refused instead of
 * filling a queue nobody reads.
 */
#ifndef XG_RUNTIME_H
#define XG_RUNTIME_H

#include "base/xg_compiler.h"
#include "xgas_status.h"

typedef enum {
    XG_RUNTIME_NIC  = 0, /* the software NIC: Portals 4 */
    XG_RUNTIME_PGAS = 1, /* symmetric memory, gas, teams */
    XG_RUNTIME_COMPONENTS
} xg_runtime_component_t;

typedef enum {
    XG_RUNTIME_NEVER     = 0, /* not initialized yet */
    XG_RUNTIME_ACTIVE    = 1,
    XG_RUNTIME_FINALIZED = 2 /* finalized (may start again) */
} xg_runtime_state_t;

/* Counts a user of @component in, starting what it needs first.  On
 * failure nothing is counted and what this call started is stopped again
 * where a layer can stop. */
XG_EXPORT xg_status_t xg_runtime_init(xg_runtime_component_t component);

/* Counts a user of @component out; the last one stops what no other
 * component needs.  XG_ERR_NOT_INITIALIZED if it had no user. */
XG_EXPORT xg_status_t xg_runtime_fini(xg_runtime_component_t component);

/* Asks for a symmetric heap sized from the node's memory where the user
 * did not set SHMEM_SYMMETRIC_SIZE (mem/xg_mem.h says how), from the next
 * start of XG_RUNTIME_PGAS on.  libarmci asks before it starts the
 * runtime: ARMCI programs size their memory by their problem, not by an
 * OpenSHMEM setting.  Every PE of the job must ask alike (every process of
 * an ARMCI job runs libarmci's MPI_Init). */
XG_EXPORT void xg_runtime_heap_from_node(void);

/* The life-cycle state of @component. */
XG_EXPORT xg_runtime_state_t xg_runtime_state(xg_runtime_component_t component);

#endif
