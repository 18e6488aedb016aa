/*
 * spin_dma.h -- the cluster DMA engine's low-level calls (xgas,
 * source-compatible with PsPIN's header of the same name).
 *
 * On PsPIN these program the cluster's DMA engine between L2 and L1.  In
 * the xgas engine every NIC memory is ordinary process memory, so a
 * transfer is a memcpy done before the call returns; the transfer ids
 * count transfers of the calling thread, and every id issued is complete.
 * A wild address faults in the handler (docs/spin.md, "Faults").
 */
#ifndef XGAS_SPIN_DMA_H
#define XGAS_SPIN_DMA_H

#include <stdint.h>
#include <string.h>

#include "pspin.h"

static __thread uint32_t xgas_spin_dma_last __attribute__((unused));

static inline uint32_t spin__memcpy_nonblk(void *src_addr, void *dst_addr,
                                           uint32_t num_bytes)
{
    memcpy(dst_addr, src_addr, num_bytes);
    return ++xgas_spin_dma_last;
}

static inline void spin__memcpy(void *src_addr, void *dst_addr,
                                uint32_t num_bytes)
{
    memcpy(dst_addr, src_addr, num_bytes);
}

static inline void spin__wait_for_tf_completion(uint32_t tf_id)
{
    (void)tf_id;
}

static inline char spin__tf_completed(uint32_t tf_id)
{
    return tf_id <= xgas_spin_dma_last;
}

/* The public (other cluster's) engine: the same copies. */
static inline uint32_t spin__public_memcpy_nonblk(void *src_addr,
                                                  void *dst_addr,
                                                  uint32_t num_bytes,
                                                  uint32_t cluster_id)
{
    (void)cluster_id;
    return spin__memcpy_nonblk(src_addr, dst_addr, num_bytes);
}

static inline void spin__public_memcpy(void *src_addr, void *dst_addr,
                                       uint32_t num_bytes, uint32_t cluster_id)
{
    (void)cluster_id;
    spin__memcpy(src_addr, dst_addr, num_bytes);
}

static inline void spin__public_wait_for_tf_completion(uint32_t tf_id,
                                                       uint32_t cluster_id)
{
    (void)tf_id;
    (void)cluster_id;
}

static inline char spin__public_tf_completed(uint32_t tf_id,
                                             uint32_t cluster_id)
{
    (void)cluster_id;
    return spin__tf_completed(tf_id);
}

#endif
