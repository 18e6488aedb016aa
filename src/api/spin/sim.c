/*
 * PsPIN's host-side driver interface (include/spin/pspinsim.h, spin.h):
 * argument checks, then one call into the engine's raw flows
 * (src/spin/flow.c).
 */
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "spin/xg_spin.h"

static int null_arg(const char *fn, const char *what)
{
    xg_error("spin", "%s: %s must not be NULL", fn, what);
    return SPIN_ERR;
}

XG_EXPORT int pspinsim_default_conf(pspin_conf_t *conf)
{
    if (conf == NULL) {
        return null_arg("pspinsim_default_conf", "conf");
    }
    /* PsPIN's defaults; the engine models none of these rates */
    memset(conf, 0, sizeof(*conf));
    conf->ni_conf.axi_aw_buffer         = 32;
    conf->ni_conf.axi_w_buffer          = 32;
    conf->ni_conf.axi_b_buffer          = 32;
    conf->no_conf.axi_ar_buffer         = 32;
    conf->no_conf.axi_r_buffer          = 32;
    conf->no_conf.max_pkt_size          = 2048;
    conf->no_conf.max_network_queue_len = 32;
    conf->pcie_slv_conf.axi_aw_buffer   = 32;
    conf->pcie_slv_conf.axi_w_buffer    = 32;
    conf->pcie_slv_conf.axi_ar_buffer   = 32;
    conf->pcie_slv_conf.axi_b_buffer    = 32;
    conf->pcie_slv_conf.axi_r_buffer    = 32;
    conf->pcie_slv_conf.pcie_L          = 2;
    conf->pcie_slv_conf.pcie_G          = 0.014782;
    return SPIN_SUCCESS;
}

XG_EXPORT int pspinsim_init(int argc, char **argv, pspin_conf_t *conf)
{
    (void)argc; /* PsPIN passes them to its simulator */
    (void)argv;
    (void)conf;
    return xg_spin_sim_init("pspinsim_init");
}

XG_EXPORT int pspinsim_run(void)
{
    uint8_t done;

    return xg_spin_sim_run("pspinsim_run", &done, 0);
}

XG_EXPORT int pspinsim_run_tick(uint8_t *done_flag)
{
    if (done_flag == NULL) {
        return null_arg("pspinsim_run_tick", "done_flag");
    }
    return xg_spin_sim_run("pspinsim_run_tick", done_flag, 1);
}

XG_EXPORT int pspinsim_fini(void)
{
    return xg_spin_sim_fini("pspinsim_fini");
}

XG_EXPORT int pspinsim_packet_trace_read(const char *pkt_file_path,
                                         const char *data_file_path)
{
    if ((pkt_file_path == NULL) || (data_file_path == NULL)) {
        return null_arg("pspinsim_packet_trace_read", "a file path");
    }
    return xg_spin_sim_trace_read("pspinsim_packet_trace_read", pkt_file_path,
                                  data_file_path);
}

XG_EXPORT int pspinsim_packet_add(spin_ec_t *ec, uint32_t msgid,
                                  uint8_t *pkt_data, size_t pkt_len,
                                  size_t pkt_l1_len, uint8_t eom,
                                  uint32_t wait_cycles, uint64_t user_ptr)
{
    (void)pkt_l1_len;  /* the handler sees the whole packet */
    (void)wait_cycles; /* no timing model */
    if ((ec == NULL) || ((pkt_data == NULL) && (pkt_len != 0))) {
        return null_arg("pspinsim_packet_add", "ec and pkt_data");
    }
    return xg_spin_sim_packet("pspinsim_packet_add", ec, msgid, pkt_data,
                              pkt_len, eom, user_ptr);
}

XG_EXPORT int pspinsim_packet_eos(void)
{
    return xg_spin_sim_eos("pspinsim_packet_eos");
}

/* Sets one callback: read, change, write back. */
#define SIM_SET_CB(field, cb)       \
    do {                            \
        xg_spin_sim_cbs_t cbs_;     \
        xg_spin_sim_get_cbs(&cbs_); \
        cbs_.field = (cb);          \
        xg_spin_sim_set_cbs(&cbs_); \
        return SPIN_SUCCESS;        \
    } while (0)

XG_EXPORT int pspinsim_cb_set_pkt_out(pkt_out_cb_t cb)
{
    SIM_SET_CB(pkt_out, cb);
}

XG_EXPORT int pspinsim_cb_set_pcie_slv_write(pcie_slv_write_cb_t cb)
{
    SIM_SET_CB(host_write, cb);
}

XG_EXPORT int pspinsim_cb_set_pcie_slv_read(pcie_slv_read_cb_t cb)
{
    SIM_SET_CB(host_read, cb);
}

XG_EXPORT int pspinsim_cb_set_pcie_mst_write_completion(pcie_mst_write_cb_t cb)
{
    SIM_SET_CB(nicmem_written, cb);
}

XG_EXPORT int pspinsim_cb_set_pcie_mst_read_completion(pcie_mst_read_cb_t cb)
{
    SIM_SET_CB(nicmem_read, cb);
}

XG_EXPORT int pspinsim_cb_set_pkt_feedback(pkt_feedback_cb_t cb)
{
    SIM_SET_CB(feedback, cb);
}

XG_EXPORT int spin_nicmem_write(spin_nic_addr_t addr, void *data, size_t size,
                                void *user_ptr)
{
    if ((data == NULL) && (size != 0)) {
        return null_arg("spin_nicmem_write", "data");
    }
    return xg_spin_sim_nicmem("spin_nicmem_write", 1, addr, data, size,
                              user_ptr);
}

XG_EXPORT int spin_nicmem_read(spin_nic_addr_t addr, void *data, size_t size,
                               void *user_ptr)
{
    if ((data == NULL) && (size != 0)) {
        return null_arg("spin_nicmem_read", "data");
    }
    return xg_spin_sim_nicmem("spin_nicmem_read", 0, addr, data, size,
                              user_ptr);
}

XG_EXPORT int spin_find_handler_by_name(const char *binfile,
                                        const char *handler_name,
                                        spin_nic_addr_t *handler_addr,
                                        size_t *handler_size)
{
    const char *fn = "spin_find_handler_by_name";

    if ((binfile == NULL) || (handler_name == NULL) || (handler_addr == NULL) ||
        (handler_size == NULL)) {
        return null_arg(fn, "binfile, handler_name, handler_addr and "
                            "handler_size");
    }
    return xg_spin_sim_find_handler(fn, binfile, handler_name, handler_addr,
                                    handler_size);
}
