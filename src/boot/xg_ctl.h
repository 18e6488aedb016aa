/*
 * The job control area: one shared mapping (a memfd created by xgasrun and
 * inherited by every PE) through which the launcher and the PEs of a job
 * coordinate.  It holds
 *   - a header written once by the launcher (magic, layout, job size),
 *   - one slot per PE (pid, life-cycle state) read by the launcher when the
 *     PE exits, so a PE that exits 0 without finalizing is caught, and
 *     where the packet transport publishes the PE's inbound ring,
 *   - the job-exit request of shmem_global_exit(),
 *   - a central barrier used by the key/value fence, which also counts
 *     the PEs that report a failure (xg_boot_fence_all),
 *   - one append-only key/value area per PE, page-aligned after the head
 *     (header and slots).
 * The singleton (a program started without xgasrun) builds the same layout
 * in private memory for one PE, so boot has a single code path.
 *
 * Start-up state is O(1) mapped per PE, not O(npes): a PE maps the head and
 * its own key/value area only, and reads a peer's records with pread() on
 * the descriptor when it needs them (xg_boot_kv_get), so no page tables
 * cover the other PEs' areas (at 4096 PEs, mapping them all cost every PE
 * 512 KiB of page tables and a fault per peer).
 *
 * Invariants: only the owning PE writes its slot and its key/value area; a
 * record becomes visible to others at the next fence (release store of
 * kv_used, acquire load by readers; pread after the acquire sees the bytes
 * written through the owner's shared mapping before its release).  The
 * launcher seals the area at its size: nobody may resize it.
 */
#ifndef XG_CTL_H
#define XG_CTL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/xg_compiler.h"

#define XG_CTL_MAGIC           0x316c746373616778ULL /* "xgasctl1" */
#define XG_CTL_VERSION         4u
#define XG_CTL_KV_BYTES_PER_PE (64u * 1024u)
#define XG_CTL_MAX_PES         4096

typedef enum xg_pe_state {
    XG_PE_STARTED     = 0, /* running, library not initialized */
    XG_PE_INITIALIZED = 1, /* between init and finalize */
    XG_PE_FINALIZED   = 2, /* finalize done: may exit */
    XG_PE_FINALIZING  = 3, /* in shmem_finalize: joins no collective */
    XG_PE_EXITING     = 4  /* in the finalize of exit() or of a return
                            * from main without shmem_finalize: likewise */
} xg_pe_state_t;

/*
 * What a PE is blocked in, for the launcher's hang reports (written by
 * boot/watch.c, read by xgasrun).  Written only when a wait has backed off
 * to yielding, never on the data path.  @gen is a seqlock (odd while the
 * text changes) and counts published waits: a new value means the PE got
 * past its previous wait.  @heartbeat advances at each back-off round of
 * the published wait: if it moves while @gen stays, the PE is still in that
 * wait; if it stands still, the PE left it (or is not being scheduled).
 */
#define XG_CTL_WAIT_ROUTINE 48
#define XG_CTL_WAIT_DETAIL  160

typedef struct xg_ctl_wait {
    _Atomic uint64_t gen;
    _Atomic uint64_t heartbeat;
    _Atomic int32_t peer; /* the PE waited for, or -1 */
    uint32_t pad;
    _Atomic uint64_t object; /* xg_wait_what_t.object, 0: none */
    /* sizes multiples of 8, 8-aligned: see xg_ctl_text_store */
    char routine[XG_CTL_WAIT_ROUTINE];
    char detail[XG_CTL_WAIT_DETAIL];
} xg_ctl_wait_t;

/* The texts of a wait are copied in and out a word at a time with relaxed
 * atomics: the seqlock @gen tells a reader whether its copy is whole, and
 * the reader may be a thread of the writer's own process (the node
 * watcher), where a plain copy would be a data race. */
static inline void xg_ctl_text_store(char *slot_text, const char *text,
                                     size_t size)
{
    uint64_t word;
    size_t i, len = strnlen(text, size - 1);

    for (i = 0; i < size; i += sizeof(word)) {
        word = 0;
        if (i < len) {
            memcpy(&word, text + i,
                   (len - i < sizeof(word)) ? len - i : sizeof(word));
        }
        __atomic_store_n((uint64_t *)(void *)(slot_text + i), word,
                         __ATOMIC_RELAXED);
    }
}

static inline void xg_ctl_text_load(char *text, const char *slot_text,
                                    size_t size)
{
    uint64_t word;
    size_t i;

    for (i = 0; i < size; i += sizeof(word)) {
        word = __atomic_load_n((const uint64_t *)(const void *)(slot_text + i),
                               __ATOMIC_RELAXED);
        memcpy(text + i, &word, sizeof(word));
    }
    text[size - 1] = '\0';
}

typedef struct xg_ctl_pe {
    _Atomic uint32_t state;   /* xg_pe_state_t */
    _Atomic uint32_t kv_used; /* bytes of published records */
    _Atomic int32_t pid;
    /* the packet transport's inbound endpoint, published by its owner
     * without a fence (so opening it is not collective): descriptor + 1,
     * 0 while the PE has none (xport/shm) */
    _Atomic int32_t pkt_ep;
    /* 1 + the rank of the peer whose loss made this PE end the job (its
     * packets to it failed), written before the PE exits; 0 if the PE
     * failed on its own.  The launcher then blames that peer if it died
     * too, not the PE that noticed. */
    _Atomic int32_t cause;
    /* threads of the PE that only serve requests of others (the NIC's
     * progress thread): they cannot end a wait of the PE on their own, so
     * the hang watch does not count them against a proof of deadlock */
    _Atomic int32_t helpers;
    xg_ctl_wait_t wait XG_CACHE_ALIGNED;
} XG_CACHE_ALIGNED xg_ctl_pe_t;

typedef struct xg_ctl {
    uint64_t magic;
    uint32_t version;
    uint32_t npes;
    uint32_t kv_bytes_per_pe;
    /* virtual nodes (xgasrun, XGAS_VIRTUAL_NODES): the launcher splits
     * the job into @nodes nodes, each with its own node region, laid out
     * by @node_map (xg_ctl_virtual_node); 1 for a job on one node */
    uint32_t nodes;
    uint32_t node_map;
    uint32_t pad;
    /* random, written by whoever formats the area: what makes this job's
     * packets and memory registrations its own (xg_boot.job_key) */
    uint64_t job_key;

    /* shmem_global_exit(): first requester wins; launcher ends the rest.
     * exit_requested: 0, -1 while the winner stores exit_status, then
     * 1 + rank of the requester (release: the status is valid once this is
     * positive). */
    _Atomic int32_t exit_requested;
    _Atomic int32_t exit_status;

    /* central counter barrier for the key/value fence */
    _Atomic uint32_t barrier_arrived XG_CACHE_ALIGNED;
    _Atomic uint32_t barrier_epoch XG_CACHE_ALIGNED;
    /* PEs that reported a failure to the fence of epoch e, in [e & 1]; the
     * last arriver of fence e clears [(e + 1) & 1] for the next one */
    _Atomic uint32_t barrier_failed[2];

    /* counter barrier of shmem_finalize, apart from every other barrier so
     * that a PE's finalize never completes another PE's collective */
    _Atomic uint32_t fini_arrived XG_CACHE_ALIGNED;
    _Atomic uint32_t fini_epoch XG_CACHE_ALIGNED;

    xg_ctl_pe_t pe[] XG_CACHE_ALIGNED; /* npes slots, then the kv areas */
} xg_ctl_t;

/* How virtual nodes take the ranks: consecutive blocks (as mpirun maps by
 * slot) or round robin (as mpirun --map-by node).  In the order of the
 * words of XGAS_VIRTUAL_MAP (xg_boot_config.h), whose value is one. */
enum {
    XG_CTL_MAP_BLOCK  = 0,
    XG_CTL_MAP_CYCLIC = 1
};

/* The virtual node of @rank in a job of @npes split into @nodes nodes
 * (1 <= nodes <= npes) by @map: blocks differ in size by at most one PE. */
static inline uint32_t xg_ctl_virtual_node(uint32_t rank, uint32_t npes,
                                           uint32_t nodes, uint32_t map)
{
    if (map == XG_CTL_MAP_CYCLIC) {
        return rank % nodes;
    }
    return (uint32_t)(((uint64_t)rank * nodes) / npes);
}

/* One key/value record; key bytes then value bytes follow, padded to 8. */
typedef struct xg_ctl_kv_record {
    uint16_t key_len;
    uint16_t pad;
    uint32_t value_len;
} xg_ctl_kv_record_t;

/*
 * The process exit status for a job status given to shmem_global_exit or
 * an abort: a process can only report 8 bits, so statuses within 0..255
 * stay as they are, others keep their low 8 bits -- except that a non-zero
 * status whose low 8 bits are 0 (256, -256, ...) becomes 1: no failure may
 * read as success.
 */
static inline int xg_ctl_exit_code(int status)
{
    int code = status & 0xff;

    return ((code == 0) && (status != 0)) ? 1 : code;
}

/* Bytes needed for a control area for @npes PEs. */
size_t xg_ctl_size(uint32_t npes);

/* Bytes of the head (header and PE slots), a multiple of the page size:
 * what a PE maps of the area besides its own key/value area. */
size_t xg_ctl_head_size(uint32_t npes);

/* Offset of PE @rank's key/value area (page-aligned). */
static inline size_t xg_ctl_kv_offset(uint32_t npes, uint32_t rank)
{
    return xg_ctl_head_size(npes) + (size_t)rank * XG_CTL_KV_BYTES_PER_PE;
}

/* Fills the header of a zeroed area of xg_ctl_size(npes) bytes. */
void xg_ctl_format(xg_ctl_t *ctl, uint32_t npes);

/* Checks the header written by the launcher in an area of @area_size
 * bytes (of which at least the head is mapped at @ctl); 0 if it is usable
 * for npes. */
int xg_ctl_check(const xg_ctl_t *ctl, size_t area_size, uint32_t npes);

/*
 * Finds the last record with @key among the first @used bytes of a
 * key/value area of @capacity bytes written by another process.  The area
 * is not trusted: a record that does not fit ends the scan.  Returns 0 and
 * sets *value_p, *len_p when found; -1 otherwise.
 */
int xg_ctl_kv_find(const uint8_t *area, uint32_t used, uint32_t capacity,
                   const char *key, const uint8_t **value_p, uint32_t *len_p);

/* Start of PE @rank's key/value area in a mapping of the whole area (the
 * singleton's, or a test's). */
static inline uint8_t *xg_ctl_kv_area(xg_ctl_t *ctl, uint32_t rank)
{
    return (uint8_t *)ctl + xg_ctl_kv_offset(ctl->npes, rank);
}

#endif
