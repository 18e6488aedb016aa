/*
 * The configuration rows spin/ owns: the sPIN engine (docs/spin.md,
 * "Settings").  Rows are XG_CONFIG_VAR(...) as base/xg_config.h
 * describes; this file is named on the xgas_layer line of spin in
 * src/CMakeLists.txt.
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(spin_clusters, "XGAS_SPIN_CLUSTERS", XG_CFG_INT, "4",
              "1", "4", XG_CFG_USER,
              "sPIN engine: clusters that run HPU threads (handlers always see 4)")
XG_CONFIG_VAR(spin_cluster_hpus, "XGAS_SPIN_CLUSTER_HPUS", XG_CFG_INT, "1",
              "1", "8", XG_CFG_USER,
              "sPIN engine: HPU threads per cluster")
XG_CONFIG_VAR(spin_pkt_size, "XGAS_SPIN_PKT_SIZE", XG_CFG_SIZE, "8K",
              "64", "64K", XG_CFG_USER,
              "sPIN engine: largest packet, headers included (one packet buffer slot)")
XG_CONFIG_VAR(spin_pkt_buffer, "XGAS_SPIN_PKT_BUFFER", XG_CFG_SIZE, "4M",
              "1K", "12M", XG_CFG_USER,
              "sPIN engine: packet buffer; when it is full the NIC holds the sender back")
XG_CONFIG_VAR(spin_mpqs, "XGAS_SPIN_MPQS", XG_CFG_INT, "256",
              "1", "65536", XG_CFG_USER,
              "sPIN engine: messages processed at a time (message processing queues)")
XG_CONFIG_VAR(spin_hpu_stack, "XGAS_SPIN_HPU_STACK", XG_CFG_SIZE, "2M",
              "64K", "7M", XG_CFG_USER,
              "sPIN engine: stack of each HPU thread, the process's static TLS included (a guard page below it)")
XG_CONFIG_VAR(spin_watchdog_us, "XGAS_SPIN_WATCHDOG_US", XG_CFG_INT, "1000000",
              "100", "3600000000", XG_CFG_USER,
              "sPIN engine: CPU time a handler may run before it is stopped (contexts may set their own)")
XG_CONFIG_VAR(spin_stall_ms, "XGAS_SPIN_STALL_MS", XG_CFG_INT, "5000",
              "1", "86400000", XG_CFG_USER,
              "sPIN engine: a message with no packet for this long is reset (contexts may set their own)")
XG_CONFIG_VAR(spin_idle_us, "XGAS_SPIN_IDLE_US", XG_CFG_INT, "20",
              "0", "10000000", XG_CFG_USER,
              "sPIN engine: microseconds an idle HPU thread polls before it sleeps")
XG_CONFIG_VAR(spin_trace, "XGAS_SPIN_TRACE", XG_CFG_STRING, "",
              "", "", XG_CFG_USER,
              "sPIN engine: file to log the packets, commands and faults of pspinsim_* drivers in")
#endif
