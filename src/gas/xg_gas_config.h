/*
 * The configuration rows gas/ owns: the namespace lookaside buffer, the
 * route, the collectives, and the design points of regions
 * (xg_gas_region.h).  Rows are XG_CONFIG_VAR(...) as
 * base/xg_config.h describes; this file is named on the xgas_layer line of
 * gas in src/CMakeLists.txt, and the build collects it with the other
 * layers' rows into the one table that base parses and range-checks.  Only
 * this layer and the layers that see it read these fields (tests/layers
 * checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(nlb_size, "XGAS_NLB_SIZE", XG_CFG_INT, "8",
              "1", "64", XG_CFG_USER,
              "entries of the namespace lookaside buffer per thread (1..64)")
XG_CONFIG_VAR(route, "XGAS_ROUTE", XG_CFG_ENUM, "direct",
              "direct|nic", "", XG_CFG_USER,
              "how gas reaches the PEs of this node: direct (CPU loads, stores and atomics) or nic (every PE, this one too, through the software NIC: the route of off-node PEs, for testing it)")
XG_CONFIG_VAR(coll_barrier, "XGAS_COLL_BARRIER", XG_CFG_ENUM, "auto",
              "auto|dissemination|counter|tree", "", XG_CFG_USER,
              "barrier algorithm: dissemination, counter, tree, or auto (counter when PEs outnumber CPUs, tree above 64 PEs, else dissemination)")
XG_CONFIG_VAR(coll_radix, "XGAS_COLL_RADIX", XG_CFG_INT, "0",
              "0", "64", XG_CFG_USER,
              "children per node of the collective trees (broadcast, small reductions, tree barrier): 2..64, or 0 for 4 (8 when PEs outnumber CPUs)")
XG_CONFIG_VAR(coll_reduce_split, "XGAS_COLL_REDUCE_SPLIT", XG_CFG_SIZE, "16K",
              "0", "1T", XG_CFG_USER,
              "reductions and scans of at least this many bytes use the split (reduce-scatter + allgather) algorithm")
XG_CONFIG_VAR(coll_channel, "XGAS_COLL_CHANNEL", XG_CFG_ENUM, "auto",
              "auto|direct|remote", "", XG_CFG_USER,
              "how collectives reach the other members: direct (loads and stores), remote (gas operations through each PE's route), or auto (remote when some PE is not reached directly)")
XG_CONFIG_VAR(coll_yield, "XGAS_COLL_YIELD", XG_CFG_INT, "-1",
              "-1", "1", XG_CFG_USER,
              "collective waits yield the CPU after a few polls: 1 yes, 0 no, -1 when PEs outnumber CPUs")
XG_CONFIG_VAR(acc_mode, "XGAS_ACC", XG_CFG_ENUM, "target",
              "target|source", "", XG_CFG_USER,
              "accumulates to a region through the NIC: target (an active message applied at the target by its NIC's progress thread) or source (get, add, put under the region's lock, by the caller)")
XG_CONFIG_VAR(am_thread, "XGAS_AM_THREAD", XG_CFG_BOOL, "1",
              "", "", XG_CFG_USER,
              "read-modify-writes that arrive through the NIC are served by the NIC's asynchronous progress thread (1) or wait until the owner's application thread calls the library (0)")
XG_CONFIG_VAR(amo_batch, "XGAS_AMO_BATCH", XG_CFG_INT, "64",
              "0", "255", XG_CFG_USER,
              "non-fetching atomics (add, and, or, xor) and puts of up to 8 bytes to a PE of another node that travel in one message, applied there by its NIC (0 or 1: one message each); a batch goes out when full, at fence and quiet, before any other operation to that PE, whenever this PE waits in the library, and at the latest 50-100 us after it opened")
XG_CONFIG_VAR(region_cache, "XGAS_REGION_CACHE", XG_CFG_INT, "64",
              "0", "65536", XG_CFG_USER,
              "entries of the cache of other PEs' region keys (least frequently used out); a miss, or 0, sends the operation as an active message")
XG_CONFIG_VAR(consistency, "XGAS_CONSISTENCY", XG_CFG_ENUM, "region",
              "region|process", "", XG_CFG_USER,
              "location consistency through the NIC: region (a get waits only for writes to its own region still in flight) or process (for every write of this PE in flight)")
XG_CONFIG_VAR(teams_max, "XGAS_TEAMS_MAX", XG_CFG_INT, "64",
              "1", "4096", XG_CFG_USER,
              "teams that may exist at once besides the predefined ones (sync slots per PE, 1..4096)")
#endif
