/*
 * The configuration rows nic/ owns: the software NIC.  Rows are
 * XG_CONFIG_VAR(...) as base/xg_config.h describes; this file is named on
 * the xgas_layer line of nic in src/CMakeLists.txt, and the build collects
 * it with the other layers' rows into the one table that base parses and
 * range-checks.  Only this layer and the layers that see it read these fields
 * (tests/layers checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(nic_eager_limit, "XGAS_NIC_EAGER_LIMIT", XG_CFG_SIZE, "16K",
              "0", "1G", XG_CFG_USER,
              "software NIC: puts up to this size are sent eagerly, larger ones by rendezvous")
XG_CONFIG_VAR(nic_rndv_eager, "XGAS_NIC_RNDV_EAGER", XG_CFG_SIZE, "0",
              "0", "16M", XG_CFG_USER,
              "software NIC: payload bytes sent with a rendezvous header (at most one packet)")
XG_CONFIG_VAR(nic_rndv, "XGAS_NIC_RNDV", XG_CFG_ENUM, "triggered",
              "get|triggered", "", XG_CFG_USER,
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
#endif
