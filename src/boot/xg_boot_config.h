/*
 * The configuration rows boot/ owns: what xgasrun hands the PEs it starts,
 * and xgasrun's own settings.  Rows are XG_CONFIG_VAR(...) as
 * base/xg_config.h describes; this file is named on the xgas_layer line of
 * boot in src/CMakeLists.txt, and the build collects it with the other
 * layers' rows into the one table that base parses and range-checks.  Only
 * this layer and the layers that see it read these fields (tests/layers
 * checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
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
XG_CONFIG_VAR(virtual_nodes, "XGAS_VIRTUAL_NODES", XG_CFG_INT, "1",
              "1", "4096", XG_CFG_USER,
              "xgasrun: split the job into this many virtual nodes, each with its own node region; PEs of different virtual nodes reach each other only through the network transport (docs/multinode.md)")
/* the words in the order of XG_CTL_MAP_* (boot/xg_ctl.h) */
XG_CONFIG_VAR(virtual_map, "XGAS_VIRTUAL_MAP", XG_CFG_ENUM, "block",
              "block|cyclic", "", XG_CFG_USER,
              "xgasrun: how ranks go to virtual nodes: block (consecutive ranks, as mpirun maps by slot) or cyclic (round robin, as mpirun --map-by node)")
XG_CONFIG_VAR(pvas, "XGAS_PVAS", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "xgasrun: run the PEs of the node as copies of the program in one address space, one PVAS segment each (as --pvas; docs/pvas.md)")
XG_CONFIG_VAR(pvas_segment_size, "XGAS_PVAS_SEGMENT_SIZE", XG_CFG_SIZE, "64G",
              "16M", "4T", XG_CFG_USER,
              "xgasrun --pvas: bytes of address space per PE (a power of two): its program, interpreter, symmetric heap, internal area and stack")
XG_CONFIG_VAR(pvas_room_lo, "XGAS_PVAS_ROOM_LO", XG_CFG_SIZE, "0",
              "0", "4T", XG_CFG_LAUNCHER,
              "offset in this PE's PVAS segment where the runtime's room (symmetric heap, internal area) starts; 0: not a PVAS job (set by xgasrun --pvas)")
XG_CONFIG_VAR(pvas_room_hi, "XGAS_PVAS_ROOM_HI", XG_CFG_SIZE, "0",
              "0", "4T", XG_CFG_LAUNCHER,
              "offset in this PE's PVAS segment where the runtime's room ends (set by xgasrun --pvas)")
XG_CONFIG_VAR(pmix_namespace, "PMIX_NAMESPACE", XG_CFG_STRING, "",
              "", "", XG_CFG_LAUNCHER,
              "PMIx namespace of the job (set by a PMIx launcher such as mpirun)")
XG_CONFIG_VAR(pmix_library, "XGAS_PMIX_LIBRARY", XG_CFG_STRING, "",
              "", "", XG_CFG_USER,
              "the libpmix library loaded under a PMIx launcher (empty: the one xgas was built with; docs/multinode.md)")
XG_CONFIG_VAR(run_grace_ms, "XGAS_RUN_GRACE_MS", XG_CFG_INT, "300",
              "0", "86400000", XG_CFG_USER,
              "xgasrun: milliseconds between SIGTERM and SIGKILL when ending a job")
XG_CONFIG_VAR(hang_timeout, "XGAS_HANG_TIMEOUT", XG_CFG_INT, "60",
              "0", "86400", XG_CFG_USER,
              "seconds every live PE may stay blocked in xgas waits before the hang watch (xgasrun, or the first PE of each node under mpirun/srun) reports the job as deadlocked and ends it (0: never)")
#endif
