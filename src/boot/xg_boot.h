/*
 * Who am I and who are my peers.  boot joins the job through the first of
 * its backends (xg_boot_backend.h) that started the process: xgasrun (the
 * variables XGAS_RANK, XGAS_NPES, XGAS_CTL_FD, XGAS_SEG_FD), a PMIx
 * launcher such as mpirun (PMIX_NAMESPACE; pmix.c) or, without a launcher,
 * the singleton (a job of one PE).  It offers a
 * key/value exchange (put, fence, get) to the layers above and the ways a
 * PE leaves a job (finalize, abort, global exit).  boot knows ranks, not
 * memory: the node segment descriptor is only handed through.
 */
#ifndef XG_BOOT_H
#define XG_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "boot/xg_ctl.h"
#include "xgas_status.h"

typedef struct xg_boot {
    int rank;
    int npes;
    int local_rank;   /* among the PEs of this node */
    int local_npes;   /* PEs on this node */
    int host_npes;    /* PEs of the job on this host's CPUs: local_npes, or
                       * every PE under xgasrun's virtual nodes */
    int node;         /* this PE's node, 0..nnodes-1 */
    int nnodes;       /* nodes of the job */
    int ctl_pes;      /* PEs that share the control area: npes, or
                            * local_npes when each node has its own (PMIx
                            * over several nodes) */
    uint64_t job_id;  /* the same in every PE of the job */
    uint64_t job_key; /* random, the same in every PE of the job */
    /* the nodes (topo.c): node and node-local rank of every rank, and the
     * ranks of each node in order (node_ranks[node_first[n] ..
     * node_first[n + 1] - 1]) */
    int32_t *pe_node;
    int32_t *pe_local;
    int32_t *node_first;
    int32_t *node_ranks;
    const char *backend; /* name of the backend that joined */
    int singleton;       /* started without xgasrun */
    int seg_fd;          /* node region from the launcher, or -1 */
    xg_ctl_t *ctl;       /* the head: header and PE slots */
    size_t ctl_size;     /* bytes mapped at ctl */
    int ctl_fd;          /* the control area (close-on-exec), or -1 */
    uint8_t *kv_own;     /* this PE's key/value area (mapped) */
    uint32_t kv_used;    /* bytes appended locally, published at fence */
} xg_boot_t;

extern xg_boot_t xg_boot;

/*
 * Exported from libxgas for libpmi (src/api/pmi), which sits on this layer
 * in its own library: xg_boot_init, xg_boot_job, xg_boot_kv_put,
 * xg_boot_kv_publish, xg_boot_kv_read, xg_boot_fence, xg_boot_abort.  They
 * are no public API (no installed header declares them), but one process
 * has one boot, whichever library joins first.
 */

/* Joins the job (or sets up a singleton) once; later calls return at once.
 * Thread-safe: libxgas and libpmi may both call it, from any thread.
 * There is no leaving: the job control area stays mapped for the life of
 * the process, so a PE that finalizes may initialize again (OpenSHMEM 1.6)
 * and rejoin through it, and a finalized PE still reports to xgasrun. */
xg_status_t xg_boot_init(void);

/* The backend that would join this process (xgasrun, pmix, singleton)
 * and what made it the choice, without joining; requires xg_config_load.
 * For xgas-info. */
void xg_boot_describe(const char **name_p, const char **why_p);

/* This PE's rank, the job size, and whether it is a singleton (a job of
 * one process started without xgasrun).  Requires xg_boot_init. */
void xg_boot_job(int *rank_p, int *npes_p, int *singleton_p);

/* The job as boot knows it: what the layers above ask instead of reading
 * the launcher's control area.  A job runs on one or more nodes; the PEs
 * of a node share its node region, whose partitions are indexed by
 * node-local rank (local_rank), and reach the PEs of other nodes through
 * the network (or, under xgasrun's virtual nodes, as if they did). */
typedef struct xg_boot_identity {
    uint64_t job_id;  /* the same in every PE (Portals' jid) */
    uint64_t job_key; /* random, the same in every PE: a foreign job
                          * cannot guess it */
    int rank;
    int npes;
    int local_rank;
    int local_npes;
    int host_npes; /* PEs sharing this host's CPUs (virtual nodes do) */
    int node;
    int nnodes;
    int singleton; /* a job of one process without a launcher */
} xg_boot_identity_t;

/* Requires xg_boot_init. */
void xg_boot_identity(xg_boot_identity_t *id);

/* A random 64-bit value from the kernel (job keys, registration keys). */
uint64_t xg_boot_random64(void);

/* The node of @rank (a rank of the job), 0..nnodes-1. */
static inline int xg_boot_node_of(int rank)
{
    return xg_boot.pe_node[rank];
}

/* The rank of @rank among the PEs of its node. */
static inline int xg_boot_local_of(int rank)
{
    return xg_boot.pe_local[rank];
}

/* 1 if @rank runs on this PE's node. */
static inline int xg_boot_same_node(int rank)
{
    return xg_boot.pe_node[rank] == xg_boot.node;
}

/* PEs of node @node (0..nnodes-1). */
static inline int xg_boot_node_size(int node)
{
    return xg_boot.node_first[node + 1] - xg_boot.node_first[node];
}

/* The rank of node-local PE @local of node @node, or -1 if there is
 * none. */
static inline int xg_boot_rank_at(int node, int local)
{
    if ((node < 0) || (node >= xg_boot.nnodes) || (local < 0) ||
        (local >= xg_boot_node_size(node))) {
        return -1;
    }
    return xg_boot.node_ranks[xg_boot.node_first[node] + local];
}

/* A packet transport's inbound endpoint, published without a fence in this
 * PE's slot (0: none; the value means something to the transport only),
 * and looked up by peers: the endpoint of PE @rank, with the pid of the
 * process that holds the rank in *pid_p (0 if none has joined). */
void xg_boot_endpoint_publish(int32_t ep);
int32_t xg_boot_endpoint_lookup(int rank, int32_t *pid_p);

/* Records this PE's life-cycle state for the launcher. */
void xg_boot_set_state(xg_pe_state_t state);

/* Appends a record visible to every PE after the next fence (or
 * xg_boot_kv_publish), and to this PE at once.  A key put twice: the later
 * value wins. */
xg_status_t xg_boot_kv_put(const char *key, const void *value, size_t len);

/* Makes this PE's records appended so far visible to every PE (no
 * synchronization: readers see them when they next look). */
void xg_boot_kv_publish(void);

/* Collective over all PEs: returns when every PE has called it; records
 * put before the fence are then readable by all. */
xg_status_t xg_boot_fence(void);

/* As xg_boot_fence, named @routine in hang reports (e.g. "PMI_Barrier"). */
xg_status_t xg_boot_fence_named(const char *routine);

/* As xg_boot_fence, and tells whether every PE passed a non-zero @ok: an
 * AND over the job in O(1) per PE (no PE reads the others' records). */
int xg_boot_fence_all(int ok);

/* Reads PE @rank's value for @key; the stored length must equal @len.  A
 * peer's records are read from the descriptor (one pread), not mapped:
 * call it for the peers a PE needs, not in a loop over every PE. */
xg_status_t xg_boot_kv_get(int rank, const char *key, void *value, size_t len);

/* Reads PE @rank's value for @key, of any length: sets *len_p to the stored
 * length and copies the value if it fits in @capacity bytes (else
 * XG_ERR_NO_RESOURCE).  A missing key: XG_ERR_INVALID_PARAM. */
xg_status_t xg_boot_kv_read(int rank, const char *key, void *value,
                            size_t capacity, size_t *len_p);

/* Ends the whole job now: this PE exits with @status (non-zero), and the
 * launcher ends the others.  Call after logging what went wrong. */
XG_NORETURN void xg_boot_abort(int status);

/* As xg_boot_abort, when this PE ends the job because @peer stopped
 * answering: the launcher is told that the failure is @peer's (xg_ctl.h,
 * cause), so that it names the PE that died, not this one. */
XG_NORETURN void xg_boot_abort_after(int peer, int status);

/* A PE asked the job to end (shmem_global_exit): this PE exits now, with
 * the job's status and without a word -- what it failed to reach is being
 * ended on purpose.  Returns if nobody asked.  Call before reporting a
 * peer that stopped answering. */
void xg_boot_follow_exit(void);

/* shmem_global_exit: asks the launcher to end every PE, reporting @status as
 * the job's exit status, and exits this PE with @status. */
XG_NORETURN void xg_boot_global_exit(int status);

/* Installs the hook through which watched waits report what they wait for
 * (boot/watch.c); called once the control area is mapped. */
void xg_boot_watch_start(void);

/* A helper thread of this PE (one that only serves others' requests, as
 * the NIC's progress thread) started (+1) or ended (-1): for the hang
 * watch, which does not count them among the threads that may still end
 * a wait. */
void xg_boot_helper_threads(int delta);

/* The synchronization of shmem_finalize over all PEs: marks this PE
 * FINALIZING (no collective of it may pair with another PE's any more),
 * then returns when every PE has called it.  Apart from the barriers of
 * the collective engine. */
void xg_boot_finalize_sync(int at_exit);

#endif
