/*
 * The configuration rows xport/ owns: the packet rings of the shm component.
 * Rows are XG_CONFIG_VAR(...) as base/xg_config.h describes; this file is
 * named on the xgas_layer line of xport in src/CMakeLists.txt, and the build
 * collects it with the other layers' rows into the one table that base
 * parses and range-checks.  Only this layer and the layers that see it read
 * these fields (tests/layers checks it).
 */
#ifdef XG_CONFIG_VAR
XG_CONFIG_VAR(nic_ring_slots, "XGAS_NIC_RING_SLOTS", XG_CFG_INT, "256",
              "2", "1048576", XG_CFG_USER,
              "software NIC: packet slots of each process's inbound ring (power of two)")
XG_CONFIG_VAR(nic_slot_size, "XGAS_NIC_SLOT_SIZE", XG_CFG_SIZE, "8K",
              "512", "16M", XG_CFG_USER,
              "software NIC: bytes per ring slot, i.e. the largest packet (same for every PE)")
#endif
