/*
 * spin.h -- the host side of a sPIN NIC: execution contexts, NIC memory,
 * handler lookup (xgas, source-compatible with PsPIN's header of the same
 * name; implemented in libxgas).
 */
#ifndef XGAS_SPIN_SPIN_H
#define XGAS_SPIN_SPIN_H

#include <stdint.h>
#include <stdlib.h>

#include "spin_hw_conf.h"

#define SPIN_SUCCESS 0
#define SPIN_ERR     1

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t mem_addr_t;
typedef uint32_t mem_size_t;
typedef uint64_t host_addr_t;

/*
 * An execution context as a driver describes it: every address is a NIC
 * address (spin_hw_conf.h) but the host window's.  The handler addresses
 * come from spin_find_handler_by_name (0: no such handler).  Scratchpad
 * addresses are offsets in each cluster's scratchpad area.
 */
typedef struct spin_ec {
    mem_addr_t handler_mem_addr;
    mem_size_t handler_mem_size;
    host_addr_t host_mem_addr;
    mem_size_t host_mem_size;
    mem_addr_t hh_addr;
    mem_size_t hh_size;
    mem_addr_t ph_addr;
    mem_size_t ph_size;
    mem_addr_t th_addr;
    mem_size_t th_size;
    mem_addr_t scratchpad_addr[NUM_CLUSTERS];
    mem_size_t scratchpad_size[NUM_CLUSTERS];
} __attribute__((__packed__)) spin_ec_t;

typedef uint32_t spin_nic_addr_t;

/* Copies @size bytes between host memory @data and NIC memory at @addr
 * (L1 or L2 handler memory); the PCIe-master completion callback, if
 * set, gets @user_ptr.  SPIN_ERR (logged) outside NIC memory. */
int spin_nicmem_write(spin_nic_addr_t addr, void *data, size_t size,
                      void *user_ptr);
int spin_nicmem_read(spin_nic_addr_t addr, void *data, size_t size,
                     void *user_ptr);

/* Loads the handler file @binfile (a shared object; once per file) and
 * finds @handler_name in it.  A name the file does not define gives
 * address 0 and size 0 (no handler), as PsPIN does, with a warning.
 * SPIN_ERR (logged) if the file cannot be loaded. */
int spin_find_handler_by_name(const char *binfile, const char *handler_name,
                              spin_nic_addr_t *handler_addr,
                              size_t *handler_size);

#ifdef __cplusplus
}
#endif

#endif
