/*
 * The one table of every environment variable xgas reads.  Each row is
 *   XG_CONFIG_VAR(field, "ENV_NAME", type, "default", "min", "max",
 *                 visibility, "help")
 * and becomes a typed field of xg_config_t, a parser entry and a line of
 * `xgas-info -c`.  Every numeric row (XG_CFG_INT, XG_CFG_SIZE, XG_CFG_ADDR)
 * gives its range, written like a value; config.c rejects a value outside
 * it ("XGAS_X=value: must be between min and max") before any layer reads
 * it, so no layer needs its own check against overflow or negative values.
 * Other types leave both empty ("").  No other xgas code reads an XGAS_*
 * or SHMEM_* variable.  A SHMEM_ variable is also read under its deprecated
 * SMA_ name (OpenSHMEM 1.6 still defines them) when the SHMEM_ name is not
 * set.
 *
 * The default region address leaves room for the shadow memory of the
 * sanitizers: ASan shadows everything below 0x10007fff8000, TSan only lets
 * applications map below 0x8000000000 or in a few high ranges.
 */
#if defined(__SANITIZE_THREAD__)
#define XG_DEFAULT_SYMMETRIC_BASE "0x1000000000"
#elif defined(__SANITIZE_ADDRESS__)
#define XG_DEFAULT_SYMMETRIC_BASE "0x200000000000"
#else
#define XG_DEFAULT_SYMMETRIC_BASE "0x100000000000"
#endif
/*
 * visibility: XG_CFG_USER for user settings, XG_CFG_LAUNCHER for values that
 * xgasrun passes to the PEs it starts (users do not set them).
 */
XG_CONFIG_VAR(log_level, "XGAS_LOG", XG_CFG_LOGLEVEL, "warn",
              "", "", XG_CFG_USER,
              "message level: error, warn, info or debug")
XG_CONFIG_VAR(stats, "XGAS_STATS", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print namespace lookaside buffer and operation counts at finalize")
XG_CONFIG_VAR(nlb_size, "XGAS_NLB_SIZE", XG_CFG_INT, "8",
              "1", "64", XG_CFG_USER,
              "entries of the namespace lookaside buffer per thread (1..64)")
XG_CONFIG_VAR(route, "XGAS_ROUTE", XG_CFG_STRING, "direct",
              "", "", XG_CFG_USER,
              "how gas reaches the PEs of this node: direct (CPU loads, stores and atomics) or nic (every PE, this one too, through the software NIC: the route of off-node PEs, for testing it)")
XG_CONFIG_VAR(symmetric_size, "SHMEM_SYMMETRIC_SIZE", XG_CFG_SIZE, "256M",
              "0", "64T", XG_CFG_USER,
              "bytes of symmetric heap per PE; suffixes K, M, G, T (powers of 1024)")
XG_CONFIG_VAR(symmetric_base, "XGAS_SYMMETRIC_BASE", XG_CFG_ADDR,
              XG_DEFAULT_SYMMETRIC_BASE,
              "0x10000", "0x7fffffe00000", XG_CFG_USER,
              "virtual address of the node-wide symmetric region (same in every PE)")
XG_CONFIG_VAR(shmem_version, "SHMEM_VERSION", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print the library name and OpenSHMEM version at start-up (PE 0)")
XG_CONFIG_VAR(shmem_info, "SHMEM_INFO", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print the version and every environment variable with its help at start-up (PE 0)")
XG_CONFIG_VAR(shmem_debug, "SHMEM_DEBUG", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "enable debug messages (same as XGAS_LOG=debug)")
XG_CONFIG_VAR(wait_spin, "XGAS_WAIT_SPIN", XG_CFG_INT, "64",
              "0", "16777216", XG_CFG_USER,
              "polls of a wait loop before it starts to back off")
XG_CONFIG_VAR(wait_pause, "XGAS_WAIT_PAUSE", XG_CFG_INT, "8",
              "0", "24", XG_CFG_USER,
              "rounds of growing CPU-pause bursts before a wait loop yields the CPU")
XG_CONFIG_VAR(teams_max, "XGAS_TEAMS_MAX", XG_CFG_INT, "64",
              "1", "4096", XG_CFG_USER,
              "teams that may exist at once besides the predefined ones (sync slots per PE, 1..4096)")
XG_CONFIG_VAR(coll_barrier, "XGAS_COLL_BARRIER", XG_CFG_STRING, "auto",
              "", "", XG_CFG_USER,
              "barrier algorithm: dissemination, counter, tree, or auto (counter when PEs outnumber CPUs, tree above 64 PEs, else dissemination)")
XG_CONFIG_VAR(coll_radix, "XGAS_COLL_RADIX", XG_CFG_INT, "0",
              "0", "64", XG_CFG_USER,
              "children per node of the collective trees (broadcast, small reductions, tree barrier): 2..64, or 0 for 4 (8 when PEs outnumber CPUs)")
XG_CONFIG_VAR(coll_reduce_split, "XGAS_COLL_REDUCE_SPLIT", XG_CFG_SIZE, "16K",
              "0", "1T", XG_CFG_USER,
              "reductions and scans of at least this many bytes use the split (reduce-scatter + allgather) algorithm")
XG_CONFIG_VAR(coll_yield, "XGAS_COLL_YIELD", XG_CFG_INT, "-1",
              "-1", "1", XG_CFG_USER,
              "collective waits yield the CPU after a few polls: 1 yes, 0 no, -1 when PEs outnumber CPUs")
XG_CONFIG_VAR(run_grace_ms, "XGAS_RUN_GRACE_MS", XG_CFG_INT, "300",
              "0", "86400000", XG_CFG_USER,
              "xgasrun: milliseconds between SIGTERM and SIGKILL when ending a job")
XG_CONFIG_VAR(hang_timeout, "XGAS_HANG_TIMEOUT", XG_CFG_INT, "60",
              "0", "86400", XG_CFG_USER,
              "xgasrun: seconds every live PE may stay blocked in xgas waits before the job is reported as deadlocked and ended (0: never)")
XG_CONFIG_VAR(nic_ring_slots, "XGAS_NIC_RING_SLOTS", XG_CFG_INT, "256",
              "2", "1048576", XG_CFG_USER,
              "software NIC: packet slots of each process's inbound ring (power of two)")
XG_CONFIG_VAR(nic_slot_size, "XGAS_NIC_SLOT_SIZE", XG_CFG_SIZE, "8K",
              "512", "16M", XG_CFG_USER,
              "software NIC: bytes per ring slot, i.e. the largest packet (same for every PE)")
XG_CONFIG_VAR(nic_eager_limit, "XGAS_NIC_EAGER_LIMIT", XG_CFG_SIZE, "16K",
              "0", "1G", XG_CFG_USER,
              "software NIC: puts up to this size are sent eagerly, larger ones by rendezvous")
XG_CONFIG_VAR(nic_rndv_eager, "XGAS_NIC_RNDV_EAGER", XG_CFG_SIZE, "0",
              "0", "16M", XG_CFG_USER,
              "software NIC: payload bytes sent with a rendezvous header (at most one packet)")
XG_CONFIG_VAR(nic_rndv, "XGAS_NIC_RNDV", XG_CFG_STRING, "triggered",
              "", "", XG_CFG_USER,
              "software NIC: how the target pulls a rendezvous put: triggered or get")
XG_CONFIG_VAR(nic_hash, "XGAS_NIC_HASH", XG_CFG_BOOL, "1",
              "", "", XG_CFG_USER,
              "software NIC: hashed matching (0: linear lists, for comparison)")
XG_CONFIG_VAR(nic_unexpected_size, "XGAS_NIC_UNEXPECTED_SIZE", XG_CFG_SIZE, "4M",
              "4K", "64G", XG_CFG_USER,
              "software NIC: buddy-allocated store per NI for held unexpected payloads")
XG_CONFIG_VAR(nic_spin_us, "XGAS_NIC_SPIN_US", XG_CFG_INT, "20",
              "0", "10000000", XG_CFG_USER,
              "software NIC: microseconds an idle progress thread polls before it sleeps")
XG_CONFIG_VAR(rank, "XGAS_RANK", XG_CFG_INT, "-1",
              "-1", "4095", XG_CFG_LAUNCHER,
              "rank of this PE (set by xgasrun)")
XG_CONFIG_VAR(npes, "XGAS_NPES", XG_CFG_INT, "0",
              "0", "4096", XG_CFG_LAUNCHER,
              "number of PEs in the job (set by xgasrun)")
XG_CONFIG_VAR(ctl_fd, "XGAS_CTL_FD", XG_CFG_INT, "-1",
              "-1", "2147483647", XG_CFG_LAUNCHER,
              "descriptor of the job control area (set by xgasrun)")
XG_CONFIG_VAR(seg_fd, "XGAS_SEG_FD", XG_CFG_INT, "-1",
              "-1", "2147483647", XG_CFG_LAUNCHER,
              "descriptor of the node-wide symmetric region (set by xgasrun)")
XG_CONFIG_VAR(pmix_namespace, "PMIX_NAMESPACE", XG_CFG_STRING, "",
              "", "", XG_CFG_LAUNCHER,
              "PMIx namespace of the job (set by a PMIx launcher such as mpirun)")
