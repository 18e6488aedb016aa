/*
 * The transport contract.  A transport tells gas/ how bytes reach a PE:
 *   - load/store reachability: the transport maps the PE's symmetric
 *     partition into this process, and gas/ turns a put into a memcpy and an
 *     atomic into a CPU atomic (same-node PEs, through shm/);
 *   - later, packet transports (software NIC, libfabric) for the rest.
 * This release builds "self" (a job of one PE maps its own partition) and
 * "shm" (the node region shared by every PE on the host); both are the same
 * mapping code in shm/, differing only in who creates the memory.
 */
#ifndef XG_XPORT_H
#define XG_XPORT_H

#include <stddef.h>
#include <stdint.h>

/* What a transport offers for a peer (capability bits). */
enum {
    XG_XPORT_CAP_LOAD_STORE = 1u << 0, /* direct CPU access to the peer */
    XG_XPORT_CAP_ATOMIC_CPU = 1u << 1  /* CPU atomics are coherent with it */
};

#endif
