/*
 * Handles of the NIC's objects (addressing of EQs, CTs, MDs, entries and
 * internal objects): type (3 bits) | NI index (2) | generation (7) | slot
 * index (20).  The generation and slot are the pool's (base/xg_pool.h);
 * type and NI form the pool's tag, so a lookup checks all four.
 */
#ifndef XG_NIC_OBJ_INT_H
#define XG_NIC_OBJ_INT_H

#include <stdint.h>

#include "base/xg_pool.h"

#define XG_NIC_NUM_NI 4
#define XG_NIC_MAX_PT 256 /* portal indexes 0..255 */

typedef enum xg_nic_obj_type {
    XG_NIC_OBJ_NI = 1,
    XG_NIC_OBJ_EQ,
    XG_NIC_OBJ_CT,
    XG_NIC_OBJ_MD,
    XG_NIC_OBJ_ME,
    XG_NIC_OBJ_LE,
    XG_NIC_OBJ_INTERNAL /* target operations, headers, triggers */
} xg_nic_obj_type_t;

#define XG_NIC_H_TYPE_SHIFT 29
#define XG_NIC_H_NI_SHIFT   27

static inline uint32_t xg_nic_handle_make(unsigned type, unsigned ni,
                                          unsigned gen, uint32_t index)
{
    return ((uint32_t)type << XG_NIC_H_TYPE_SHIFT) |
           ((uint32_t)ni << XG_NIC_H_NI_SHIFT) |
           ((uint32_t)(gen & XG_POOL_GEN_MASK) << XG_POOL_GEN_SHIFT) |
           (index & XG_POOL_INDEX_MASK);
}

static inline unsigned xg_nic_handle_type(uint32_t h)
{
    return h >> XG_NIC_H_TYPE_SHIFT;
}

static inline unsigned xg_nic_handle_ni(uint32_t h)
{
    return (h >> XG_NIC_H_NI_SHIFT) & 3u;
}

/* Handle tag of an NI's pool of @type objects (see base/xg_pool.h). */
static inline uint32_t xg_nic_pool_tag(unsigned type, unsigned ni)
{
    return ((uint32_t)type << (XG_NIC_H_TYPE_SHIFT - XG_POOL_TAG_SHIFT)) | ni;
}

#endif
