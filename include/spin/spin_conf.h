/*
 * spin_conf.h -- the shape of the sPIN engine as handlers see it
 * (xgas, source-compatible with PsPIN's header of the same name).
 *
 * The engine always presents NB_CLUSTERS clusters to handlers: task_t
 * holds one scratchpad per cluster, so its layout depends on this number
 * and a handler built for another value could not run.  How many HPU
 * threads really run in each cluster is a run-time setting of the engine
 * (XGAS_SPIN_CLUSTER_HPUS, at most NB_CORES); see docs/spin.md.
 */
#ifndef XGAS_SPIN_CONF_H
#define XGAS_SPIN_CONF_H

#ifndef NB_CORES
#define NB_CORES 8
#endif

#ifdef NB_CLUSTERS
#if NB_CLUSTERS != 4
#error \
    "the xgas sPIN engine has 4 clusters: task_t is laid out for NB_CLUSTERS 4"
#endif
#else
#define NB_CLUSTERS 4
#endif

#define CORE_COUNT       (NB_CORES * NB_CLUSTERS)
#define NUM_CLUSTER_HPUS (NB_CORES)

/* The largest packet a handler should expect by default (the engine takes
 * packets of up to XGAS_SPIN_PKT_SIZE bytes). */
#ifndef PKT_SIZE
#define PKT_SIZE 1024
#endif

/* PsPIN's L2 packet queue length: 4 MiB less three words of metadata. */
#define PacketQueueLength (4 * (1 << 20) - 3 * 4)

#endif
