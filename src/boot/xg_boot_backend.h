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

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
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
    /* 1 when no launcher of ours watches the PEs: the node's first PE then
     * runs the hang watch (node_watch.c) */
    int node_watch;
    /* A job whose nodes each have their own control area (ctl_pes <
     * npes: PMIx over several nodes) also needs the job-wide part of the
     * exchange; NULL where the control area is the job's (xgasrun,
     * singleton).  fence_nodes: every PE calls it after the PEs of its
     * node met in their control area, with the AND of their @ok; returns
     * when every PE of the job has, with the AND over the job.  kv_put
     * publishes a record for the PEs of other nodes (readable after the
     * next fence); kv_read reads a record of @rank on another node, as
     * xg_boot_kv_read does. */
    int (*fence_nodes)(int ok);
    xg_status_t (*kv_put)(const char *key, const void *value, size_t len);
    xg_status_t (*kv_read)(int rank, const char *key, void *value,
                           size_t capacity, size_t *len_p);
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

/* Builds the node map of xg_boot (topo.c) from the node each rank runs on,
 * @node_id[rank] in any numbering: sets pe_node, pe_local, node_first,
 * node_ranks, nnodes, node, local_rank and local_npes.  Requires rank and
 * npes. */
xg_status_t xg_boot_topology_set(const uint32_t *node_id);

/* The job-wide step of a fence after the control area's (the backend's
 * fence_nodes when the job has more control areas than this one): the
 * AND of @ok over the job.  For boot/watch.c. */
int xg_boot_fence_nodes(int ok);

/* A random 64-bit value from the kernel (a job key). */
uint64_t xg_boot_random64(void);

/* Ends the job with @status through the backend, telling the launcher
 * @why; does not return. */
XG_NORETURN void xg_boot_abort_why(int status, const char *why);

/* Starts the node's hang watch (node_watch.c) once the PE has joined: the
 * thread in the node's first PE, the SIGUSR1 handler in every PE. */
void xg_boot_node_watch_start(void);

#endif
