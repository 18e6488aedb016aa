/*
 * The job control area: one shared mapping (a memfd created by xgasrun and
 * inherited by every PE) through which the launcher and the PEs of a job
 * coordinate.  It holds
 *   - a header written once by the launcher (magic, layout, job size),
 *   - one slot per PE (pid, life-cycle state) read by the launcher when the
 *     PE exits, so a PE that exits 0 without finalizing is caught, and
 *     where the packet transport publishes the PE's inbound ring,
 *   - the job-exit request of shmem_global_exit(),
 *   - a central barrier used by the key/value fence,
 *   - one append-only key/value area per PE.
 * The singleton (a program started without xgasrun) builds the same layout
 * in private memory for one PE, so boot has a single code path.
 *
 * Invariants: only the owning PE writes its slot and its key/value area; a
 * record becomes visible to others at the next fence (release store of
 * kv_used, acquire load by readers).  The launcher seals the area at its
 * size: nobody may resize it.
 */
#ifndef XG_CTL_H
#define XG_CTL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"

#define XG_CTL_MAGIC   0x316c746373616778ULL /* "xgasctl1" */
#define XG_CTL_VERSION 1u
#define XG_CTL_KV_BYTES_PER_PE (64u * 1024u)
#define XG_CTL_MAX_PES 4096

typedef enum xg_pe_state {
    XG_PE_STARTED     = 0, /* running, library not initialized */
    XG_PE_INITIALIZED = 1, /* between init and finalize */
    XG_PE_FINALIZED   = 2  /* finalize done: may exit */
} xg_pe_state_t;

typedef struct xg_ctl_pe {
    _Atomic uint32_t state;   /* xg_pe_state_t */
    _Atomic uint32_t kv_used; /* bytes of published records */
    _Atomic int32_t  pid;
    /* the packet transport's inbound endpoint, published by its owner
     * without a fence (so opening it is not collective): descriptor + 1,
     * 0 while the PE has none (xport/shm) */
    _Atomic int32_t  pkt_ep;
} XG_CACHE_ALIGNED xg_ctl_pe_t;

typedef struct xg_ctl {
    uint64_t magic;
    uint32_t version;
    uint32_t npes;
    uint32_t kv_bytes_per_pe;
    uint32_t pad;

    /* shmem_global_exit(): first requester wins; launcher ends the rest.
     * exit_requested: 0, -1 while the winner stores exit_status, then
     * 1 + rank of the requester (release: the status is valid once this is
     * positive). */
    _Atomic int32_t exit_requested;
    _Atomic int32_t exit_status;

    /* central counter barrier for the key/value fence */
    _Atomic uint32_t barrier_arrived XG_CACHE_ALIGNED;
    _Atomic uint32_t barrier_epoch XG_CACHE_ALIGNED;

    xg_ctl_pe_t pe[] XG_CACHE_ALIGNED; /* npes slots, then the kv areas */
} xg_ctl_t;

/* One key/value record; key bytes then value bytes follow, padded to 8. */
typedef struct xg_ctl_kv_record {
    uint16_t key_len;
    uint16_t pad;
    uint32_t value_len;
} xg_ctl_kv_record_t;

/* Bytes needed for a control area for @npes PEs. */
size_t xg_ctl_size(uint32_t npes);

/* Fills the header of a zeroed area of xg_ctl_size(npes) bytes. */
void xg_ctl_format(xg_ctl_t *ctl, uint32_t npes);

/* Checks the header written by the launcher; 0 if it is usable for npes. */
int xg_ctl_check(const xg_ctl_t *ctl, size_t mapped_size, uint32_t npes);

/*
 * Finds the last record with @key among the first @used bytes of a
 * key/value area of @capacity bytes written by another process.  The area
 * is not trusted: a record that does not fit ends the scan.  Returns 0 and
 * sets *value_p, *len_p when found; -1 otherwise.
 */
int xg_ctl_kv_find(const uint8_t *area, uint32_t used, uint32_t capacity,
                   const char *key, const uint8_t **value_p,
                   uint32_t *len_p);

/* Start of PE @rank's key/value area. */
static inline uint8_t *xg_ctl_kv_area(xg_ctl_t *ctl, uint32_t rank)
{
    uint8_t *first = (uint8_t *)&ctl->pe[ctl->npes];

    return first + (size_t)rank * ctl->kv_bytes_per_pe;
}

#endif
