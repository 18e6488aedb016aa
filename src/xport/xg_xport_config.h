/*
 * The configuration rows xport/ owns: the packet rings of the shm component
 * and the network (libfabric) of the ofi component.
 * Rows are XG_CONFIG_VAR(...) as base/xg_config.h describes; this file is
 * named on the xgas_layer line of xport in src/CMakeLists.txt, and the build
 * collects it with the other layers' rows into the one table that base
 * parses and range-checks.  Only this layer and the layers that see it read
 * these fields (tests/layers checks it).
 */
/* the rows are a table, laid out by hand */
/* clang-format off */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(huge_pages, "XGAS_HUGE_PAGES", XG_CFG_BOOL, "0",
              "", "", XG_CFG_USER,
              "back the node region with 2 MiB transparent huge pages where the system allows them (docs/memory.md, \"Huge pages\"); else a one-line notice and 4 KiB pages")
XG_CONFIG_VAR(nic_ring_slots, "XGAS_NIC_RING_SLOTS", XG_CFG_POW2, "256",
              "2", "1048576", XG_CFG_USER,
              "software NIC: packet slots of each process's inbound ring (power of two)")
XG_CONFIG_VAR(nic_slot_size, "XGAS_NIC_SLOT_SIZE", XG_CFG_SIZE, "8K",
              "512", "16M", XG_CFG_USER,
              "software NIC: bytes per ring slot, i.e. the largest packet (same for every PE)")
XG_CONFIG_VAR(ofi_provider, "XGAS_OFI_PROVIDER", XG_CFG_STRING, "",
              "", "", XG_CFG_USER,
              "network: the libfabric provider for the PEs of other nodes (e.g. tcp, verbs, sockets; empty: the best available, see docs/multinode.md)")
XG_CONFIG_VAR(ofi_library, "XGAS_OFI_LIBRARY", XG_CFG_STRING, "",
              "", "", XG_CFG_USER,
              "network: the libfabric library loaded for a job over several nodes (empty: the one xgas was built with; docs/multinode.md)")
XG_CONFIG_VAR(ofi_domain, "XGAS_OFI_DOMAIN", XG_CFG_STRING, "",
              "", "", XG_CFG_USER,
              "network: the provider's domain, for tcp the network interface (e.g. eth0; empty: the first that is not loopback)")
XG_CONFIG_VAR(ofi_tx_buffers, "XGAS_OFI_TX_BUFFERS", XG_CFG_INT, "256",
              "4", "65536", XG_CFG_USER,
              "network: packets in flight to other nodes per process (send buffers of XGAS_NIC_SLOT_SIZE bytes)")
XG_CONFIG_VAR(ofi_rx_buffers, "XGAS_OFI_RX_BUFFERS", XG_CFG_INT, "64",
              "4", "65536", XG_CFG_USER,
              "network: receive buffers of XGAS_NIC_SLOT_SIZE bytes posted per process")
XG_CONFIG_VAR(ofi_rma, "XGAS_OFI_RMA", XG_CFG_BOOL, "1",
              "", "", XG_CFG_USER,
              "network: put and get to PEs of other nodes by the provider's RMA (1), or as packets through the software NIC (0)")
#endif
