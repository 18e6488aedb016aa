/*
 * The packet transport of a job over several nodes (private to xport/):
 * one transport for the software NIC made of the components that reach
 * the peers -- shm for the PEs of this node, the network for the others
 * -- each packet going through its peer's component, the receiver polling
 * and sleeping on all of them at once (mux.c).
 */
#ifndef XG_XPORT_MUX_H
#define XG_XPORT_MUX_H

#include "xport/xg_xport_pkt.h"

/* Opens the components' packet endpoints and the transport over them
 * (once per process; later calls return the same one). */
xg_status_t xg_xport_mux_open(xg_pkt_xport_t *xport);

#endif
