/*
 * spin_hw_conf.h -- the NIC memory map of the xgas sPIN engine, as the
 * host-side driver interface sees it (xgas, source-compatible with
 * PsPIN's header of the same name, same addresses).
 *
 * NIC addresses are 32-bit.  In xgas they are also the virtual addresses
 * of that memory in the process (the engine maps it there), so a driver's
 * spin_nicmem_write and a handler's pointer name the same bytes.
 *
 *   0x10000000 + c * 0x00400000   L1 of cluster c (c < NUM_CLUSTERS):
 *                                 runtime (per-HPU task descriptors),
 *                                 L1 packet area, then the scratchpads;
 *   0x1c000000                    L2 handler memory (4 MiB);
 *   0x1c400000                    L2 packet buffer;
 *   0x1d000000                    program memory: handler addresses are
 *                                 names of loaded handlers, not code;
 *   0x1e000000                    HPU stacks (xgas).
 */
#ifndef XGAS_SPIN_HW_CONF_H
#define XGAS_SPIN_HW_CONF_H

#define NUM_CLUSTERS  4
#define NUM_CORES     8
#define C_MSGID_WIDTH 10

/* Host addresses as the NIC sees them (PsPIN's PCIe window); in xgas a
 * host address is the process's own virtual address. */
#define PCIE_START_ADDR 0x1000000000000000

#define L1_CLUSTER_BASE            0x10000000
#define L1_CLUSTER_MEM_SIZE        0x00400000
#define L1_CLUSTER_ACTUAL_MEM_SIZE 0x00100000
#define L1_RUNTIME_OFFSET          0x00000400
#define L1_RUNTIME_SIZE            0x00004000
#define L1_PKT_BUFF_OFFSET         (L1_RUNTIME_OFFSET + L1_RUNTIME_SIZE)
#define L1_PKT_BUFF_SIZE           0x00008000
#define L1_SCRATCHPAD_OFFSET       (L1_PKT_BUFF_OFFSET + L1_PKT_BUFF_SIZE)
#define L1_SCRATCHPAD_SIZE         (L1_CLUSTER_ACTUAL_MEM_SIZE - L1_SCRATCHPAD_OFFSET)

#define L2_HANDLER_MEM_START 0x1c000000
#define L2_HANDLER_MEM_SIZE  (4 * 1024 * 1024)
#define L2_PKT_BUFF_START    0x1c400000
#define L2_PKT_BUFF_SIZE     (4 * 1024 * 1024)

#define PROG_MEM_START 0x1d000000
#define PROG_MEM_SIZE  0x00008000

#endif
