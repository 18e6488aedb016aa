/**
 * @file shmemx.h
 * @brief xgas extensions to OpenSHMEM (names start with shmemx_).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <stdint.h>

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Namespace lookaside buffer counters of this PE, summed over its
 * threads: translations served by the NLB (hits) and by the namespace
 * table (misses).
 */
void shmemx_nlb_stats(uint64_t *hits, uint64_t *misses);

#ifdef __cplusplus
}
#endif

#endif
