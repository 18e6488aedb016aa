/*
 * The configuration rows api/shmem/ owns: what the OpenSHMEM binding prints
 * at start-up.  Rows are XG_CONFIG_VAR(...) as base/xg_config.h describes;
 * this file is named on the xgas_layer line of api/shmem in
 * src/CMakeLists.txt, and the build collects it with the other layers' rows
 * into the one table that base parses and range-checks.  Only this layer and
 * the layers that see it read these fields (tests/layers checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(shmem_version, "SHMEM_VERSION", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print the library name and OpenSHMEM version at start-up (PE 0)")
XG_CONFIG_VAR(shmem_info, "SHMEM_INFO", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "print the version and every environment variable with its help at start-up (PE 0)")
#endif
