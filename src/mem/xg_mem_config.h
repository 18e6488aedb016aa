/*
 * The configuration rows mem/ owns: the symmetric heap, the node region, and
 * the team sync slots of the internal area.  Rows are XG_CONFIG_VAR(...) as
 * base/xg_config.h describes; this file is named on the xgas_layer line of
 * mem in src/CMakeLists.txt, and the build collects it with the other
 * layers' rows into the one table that base parses and range-checks.  Only
 * this layer and the layers that see it read these fields (tests/layers
 * checks it).
 */
/*
 * The default region address leaves room for the shadow memory of the
 * sanitizers: ASan shadows everything below 0x10007fff8000, TSan only lets
 * applications map below 0x8000000000 or in a few high ranges.
 */
#ifndef XG_DEFAULT_SYMMETRIC_BASE
#if defined(__SANITIZE_THREAD__)
#define XG_DEFAULT_SYMMETRIC_BASE "0x1000000000"
#elif defined(__SANITIZE_ADDRESS__)
#define XG_DEFAULT_SYMMETRIC_BASE "0x200000000000"
#else
#define XG_DEFAULT_SYMMETRIC_BASE "0x100000000000"
#endif
#endif
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(symmetric_size, "SHMEM_SYMMETRIC_SIZE", XG_CFG_SIZE, "256M",
              "0", "64T", XG_CFG_USER,
              "bytes of symmetric heap per PE; suffixes K, M, G, T (powers of 1024)")
XG_CONFIG_VAR(symmetric_base, "XGAS_SYMMETRIC_BASE", XG_CFG_ADDR,
              XG_DEFAULT_SYMMETRIC_BASE,
              "0x10000", "0x7fffffe00000", XG_CFG_USER,
              "virtual address of the node-wide symmetric region (same in every PE)")
#endif
