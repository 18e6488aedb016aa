/*
 * Where xgasrun's PEs run (docs/launcher.md, "Binding"): the cores and
 * NUMA nodes of this host as hwloc sees them, within the CPUs xgasrun was
 * allowed (a taskset or an outer launcher's mask is kept), and the CPU set
 * of each PE.
 *
 *   core (the default when the host has at least as many allowed cores as
 *        the job has PEs): PE r on the r-th allowed core, all of that
 *        core's allowed hardware threads;
 *   numa: the PEs spread in blocks over the allowed NUMA nodes, each on
 *        every allowed CPU of its node;
 *   none: every PE on every CPU xgasrun may use.
 *
 * A default that finds fewer cores than PEs leaves the PEs unbound
 * (oversubscribed) and says why in the report.  xgas-info describes the
 * binding of the calling process with the same topology.
 */
#ifndef XGASRUN_BIND_H
#define XGASRUN_BIND_H

#include <stddef.h>

#include <hwloc.h>

typedef enum xg_bind_policy {
    XG_BIND_DEFAULT = 0, /* core if there are enough cores, else none */
    XG_BIND_CORE,
    XG_BIND_NUMA,
    XG_BIND_NONE
} xg_bind_policy_t;

#define XG_BIND_VALUES "core, numa or none"

typedef struct xg_bind {
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed; /* the CPUs xgasrun may run on */
    hwloc_bitmap_t *pe_set; /* per PE; NULL while unbound */
    int *pe_numa;           /* per PE: its NUMA node's OS index, or -1 */
    int npes;
    xg_bind_policy_t applied; /* what the plan did: CORE, NUMA or NONE */
    char why[192];            /* under NONE: why the PEs are unbound */
} xg_bind_t;

/* Parses the value of --bind-to; -1 if it is not one of XG_BIND_VALUES. */
int xg_bind_parse(const char *text, xg_bind_policy_t *policy);

/* Loads the topology and the CPUs allowed; 0, or -1 after saying why. */
int xg_bind_init(xg_bind_t *b);
void xg_bind_fini(xg_bind_t *b);

/* Works out the CPU set of each of @npes PEs under @policy; 0, or -1 after
 * saying why (an explicit core binding with fewer cores than PEs). */
int xg_bind_plan(xg_bind_t *b, xg_bind_policy_t policy, int npes);

/* In PE @rank's process, before exec: binds it to its set (nothing when
 * unbound); 0, or -1 with errno set. */
int xg_bind_apply(const xg_bind_t *b, int rank);

/* PE @rank's CPU set as a sched_setaffinity mask in @mask (@len bytes):
 * the bytes to pass, 0 when unbound, -1 if the set does not fit. */
int xg_bind_mask(const xg_bind_t *b, int rank, void *mask, size_t len);

/* PE @rank's line of --report-bindings, without the "xgasrun: " prefix. */
void xg_bind_describe_pe(const xg_bind_t *b, int rank, int node, char *buf,
                         size_t len);

/* The binding of the calling process, for xgas-info. */
void xg_bind_describe_self(char *buf, size_t len);

#endif
