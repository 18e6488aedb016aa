/*
 * The handlers' runtime under PsPIN's names (include/spin/handler.h,
 * pspin.h, util.h): what a running handler calls.  Thin: each routine is
 * one call into the engine (src/spin/cmd.c), which checks the addresses
 * against what the handler's context may touch.
 */
#include "base/xg_compiler.h"
#include "spin/xg_spin.h"

XG_EXPORT int spin_send_packet(void *data, uint32_t length, spin_cmd_t *handle)
{
    return xg_spin_cmd_send("spin_send_packet", 1, 0, data, length, handle);
}

XG_EXPORT int spin_rdma_put(uint32_t dest, void *data, uint32_t length,
                            spin_cmd_t *handle)
{
    return xg_spin_cmd_send("spin_rdma_put", 0, dest, data, length, handle);
}

XG_EXPORT int spin_dma_to_host(uint64_t host_addr, uint32_t nic_addr,
                               uint32_t length, bool generate_event,
                               spin_cmd_t *xfer)
{
    (void)generate_event; /* every command completes before it returns */
    return xg_spin_cmd_dma("spin_dma_to_host", 1, host_addr, nic_addr, length,
                           xfer);
}

XG_EXPORT int spin_dma_from_host(uint64_t host_addr, uint32_t nic_addr,
                                 uint32_t length, bool generate_event,
                                 spin_cmd_t *xfer)
{
    (void)generate_event;
    return xg_spin_cmd_dma("spin_dma_from_host", 0, host_addr, nic_addr, length,
                           xfer);
}

XG_EXPORT int spin_write_to_host(uint64_t host_addr, uint64_t user_data,
                                 spin_cmd_t *xfer)
{
    return xg_spin_cmd_host_write("spin_write_to_host", host_addr, user_data,
                                  xfer);
}

XG_EXPORT int spin_cmd_wait(spin_cmd_t handle)
{
    return xg_spin_cmd_done("spin_cmd_wait", handle, NULL);
}

XG_EXPORT int spin_cmd_test(spin_cmd_t handle, bool *completed)
{
    bool done;
    int ret = xg_spin_cmd_done("spin_cmd_test", handle, &done);

    if (completed != NULL) {
        *completed = done;
    }
    return ret;
}

XG_EXPORT uint32_t xg_spin_hpu_core_id(void)
{
    uint32_t cluster, core;

    xg_spin_rt_hpu(&cluster, &core);
    return core;
}

XG_EXPORT uint32_t xg_spin_hpu_cluster_id(void)
{
    uint32_t cluster, core;

    xg_spin_rt_hpu(&cluster, &core);
    return cluster;
}

XG_EXPORT void xg_spin_handler_terminate(const char *what, const char *file,
                                         int line)
{
    xg_spin_rt_terminate(what, file, line);
}
