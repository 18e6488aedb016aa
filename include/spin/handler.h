/*
 * handler.h -- what a sPIN handler is and what it may call (xgas,
 * source-compatible with PsPIN's header of the same name).
 *
 * A handler file is compiled by the host compiler into a shared object
 * (docs/spin.md, "Writing and compiling handlers") and loaded by the xgas
 * sPIN engine; its header, payload and completion handlers are found by
 * symbol name.  The engine calls a handler on one of its HPU threads with
 * a handler_args_t whose task describes the packet, the execution
 * context's memories and the host window.
 *
 * NIC memory (handler memory, scratchpads, packet buffers, HPU stacks)
 * lives below 4 GiB, so a NIC address fits the 32-bit nic_addr of the
 * commands below and (uint32_t) casts of NIC pointers round-trip.
 *
 * Commands (spin_send_packet ... spin_write_to_host) complete before they
 * return: a send is copied into the NIC's send queue, a DMA is a
 * bounds-checked copy, a host write a store.  spin_cmd_wait and
 * spin_cmd_test accept every handle issued.  A handle pointer may be NULL.
 * A command outside what the context may touch (a host address outside
 * its host window, a NIC address outside its memories) ends the handler
 * as failed (docs/spin.md, "Faults").
 */
#ifndef XGAS_SPIN_HANDLER_H
#define XGAS_SPIN_HANDLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "packets.h"
#include "pspin.h"
#include "spin_conf.h"
#include "spin_dma.h"
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define __handler__ __attribute__((used))

#define SPIN_OK   0x0
#define SPIN_FAIL 0x1

#define SPIN_DMA_EXT2LOC 0
#define SPIN_DMA_LOC2EXT 1

/* The payload of a packet with an IP-like and a UDP-like header. */
#define GET_IP_UDP_PLD(pkt_ptr, pkt_pld_ptr, pkt_pld_len)                     \
    {                                                                         \
        ip_hdr_t *xgas_ip_ = (ip_hdr_t *)(pkt_ptr);                           \
        (pkt_pld_len) =                                                       \
            xgas_ip_->length - sizeof(ip_hdr_t) - sizeof(udp_hdr_t);          \
        (pkt_pld_ptr) =                                                       \
            ((uint8_t *)(pkt_ptr)) + (xgas_ip_->ihl * 4) + sizeof(udp_hdr_t); \
    }

typedef futex_t spin_lock_t;

/*
 * One handler call's view.  The fields up to flow_id are PsPIN's; the
 * xg_ fields after them are xgas extensions (0 where they do not apply).
 * The task is the calling HPU's: each call gets its own, writable.
 */
typedef struct task {
    void *handler_mem; /* the context's handler memory (L2) */
    size_t handler_mem_size;
    void *pkt_mem; /* the packet */
    size_t pkt_mem_size;
    void *scratchpad[NB_CLUSTERS];       /* the context's scratchpad */
    size_t scratchpad_size[NB_CLUSTERS]; /*   in each cluster (L1) */
    uint32_t host_mem_high;              /* the host window */
    uint32_t host_mem_low;
    size_t host_mem_size;
    void *l2_pkt_mem;         /* the packet in the packet buffer */
    uint32_t home_cluster_id; /* of the message */
    uint32_t flow_id;         /* the message's id */
    /* xgas extensions */
    uint64_t xg_msg_offset; /* offset of this packet's payload in
                                      the message (Portals contexts) */
    uint64_t xg_msg_length; /* Portals: bytes matched */
    uint64_t xg_match_bits; /* Portals: the message's */
    uint64_t xg_hdr_data;
    uint32_t xg_source;      /* Portals: the initiator's rank */
    uint32_t xg_eom;         /* this packet ends its message */
    void *xg_msg_scratchpad; /* this message's own scratchpad */
    size_t xg_msg_scratchpad_size;
} __attribute__((__packed__)) task_t;

typedef struct handler_args {
    task_t *task;
    uint32_t hpu_gid; /* cluster_id * NB_CORES + hpu_id */
    uint32_t cluster_id;
    uint32_t hpu_id;
} handler_args_t;

typedef void (*handler_fn)(handler_args_t *);

typedef dma_t spin_dma_t;
typedef uint32_t spin_cmd_t;

typedef struct spin_rw_lock {
    spin_lock_t glock;
    volatile int32_t num_readers;
} spin_rw_lock_t;

/* Cluster DMA between NIC memories: a copy, complete on return. */
static inline int spin_dma(void *source, void *dest, size_t size, int direction,
                           int options, spin_dma_t *xfer)
{
    (void)direction;
    (void)options;
    if (size == 0) {
        return SPIN_FAIL;
    }
    *xfer = spin__memcpy_nonblk(source, dest, (uint32_t)size);
    return SPIN_OK;
}

static inline int spin_dma_wait(spin_dma_t xfer)
{
    spin__wait_for_tf_completion(xfer);
    return SPIN_OK;
}

static inline int spin_dma_test(spin_dma_t xfer, uint32_t *completed)
{
    *completed = (uint32_t)spin__tf_completed(xfer);
    return SPIN_OK;
}

static inline int spin_lock_init(spin_lock_t *lock)
{
    futex_init(lock);
    return SPIN_OK;
}

static inline int spin_lock_try_lock(spin_lock_t *lock)
{
    return futex_try_lock(lock);
}

static inline int spin_lock_lock(spin_lock_t *lock)
{
    futex_lock_s(lock);
    return SPIN_OK;
}

static inline int spin_lock_unlock(spin_lock_t *lock)
{
    futex_unlock(lock);
    return SPIN_OK;
}

/* Readers share the lock: the first takes it, the last gives it back. */
static inline int spin_rw_lock_r_lock(spin_rw_lock_t *rwlock)
{
    if (amo_add(&rwlock->num_readers, 1) == 0) {
        spin_lock_lock(&rwlock->glock);
    }
    return SPIN_OK;
}

static inline int spin_rw_lock_r_unlock(spin_rw_lock_t *rwlock)
{
    if (amo_add(&rwlock->num_readers, -1) == 1) {
        spin_lock_unlock(&rwlock->glock);
    }
    return SPIN_OK;
}

static inline int spin_rw_lock_w_lock(spin_rw_lock_t *rwlock)
{
    return spin_lock_lock(&rwlock->glock);
}

static inline int spin_rw_lock_w_unlock(spin_rw_lock_t *rwlock)
{
    return spin_lock_unlock(&rwlock->glock);
}

/* NIC commands (libxgas).  Each returns SPIN_OK or SPIN_FAIL. */

/* Sends @length bytes at @data (a packet starting with a pkt_hdr_t) to
 * the PE named by its ip_hdr.dest_id (Portals contexts: to the context's
 * send portal; raw flows: the driver's outgoing-packet callback). */
int spin_send_packet(void *data, uint32_t length, spin_cmd_t *handle);
/* Sends @length bytes at @data to PE @dest (as spin_send_packet). */
int spin_rdma_put(uint32_t dest, void *data, uint32_t length,
                  spin_cmd_t *handle);
/* Copies @length bytes from NIC address @nic_addr to host address
 * @host_addr (inside the context's host window). */
int spin_dma_to_host(uint64_t host_addr, uint32_t nic_addr, uint32_t length,
                     bool generate_event, spin_cmd_t *xfer);
/* Copies @length bytes from host address @host_addr to @nic_addr. */
int spin_dma_from_host(uint64_t host_addr, uint32_t nic_addr, uint32_t length,
                       bool generate_event, spin_cmd_t *xfer);
/* Writes the 8 bytes of @user_data to host address @host_addr. */
int spin_write_to_host(uint64_t host_addr, uint64_t user_data,
                       spin_cmd_t *xfer);
/* PsPIN's older name of spin_write_to_host. */
#define spin_host_write spin_write_to_host

int spin_cmd_wait(spin_cmd_t handle);
int spin_cmd_test(spin_cmd_t handle, bool *completed);

/* Defined by every handler file (PsPIN's convention); the engine calls
 * it once when it loads the file. */
void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr);

#ifdef __cplusplus
}
#endif

#endif
