/*
 * The configuration rows base/ owns: logging, statistics and the wait
 * back-off.  Rows are XG_CONFIG_VAR(...) as base/xg_config.h describes; this
 * file is named on the xgas_layer line of base in src/CMakeLists.txt, and
 * the build collects it with the other layers' rows into the one table that
 * base parses and range-checks.  Only this layer and the layers that see it
 * read these fields (tests/layers checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(log_level, "XGAS_LOG", XG_CFG_LOGLEVEL, "warn",
              "", "", XG_CFG_USER,
              "message level: error, warn, info or debug")
XG_CONFIG_VAR(stats, "XGAS_STATS", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print namespace lookaside buffer and operation counts at finalize")
XG_CONFIG_VAR(shmem_debug, "SHMEM_DEBUG", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "enable debug messages (same as XGAS_LOG=debug)")
XG_CONFIG_VAR(wait_spin, "XGAS_WAIT_SPIN", XG_CFG_INT, "64",
              "0", "16777216", XG_CFG_USER,
              "polls of a wait loop before it starts to back off")
XG_CONFIG_VAR(wait_pause, "XGAS_WAIT_PAUSE", XG_CFG_INT, "8",
              "0", "24", XG_CFG_USER,
              "rounds of growing CPU-pause bursts before a wait loop yields the CPU")
#endif
