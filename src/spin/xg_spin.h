/*
 * The sPIN engine (docs/spin.md) as the API layer (src/api/spin) calls
 * it: handlers' commands, execution contexts on Portals entries, raw
 * flows for PsPIN's simulation drivers.  The engine plugs into the NIC
 * through nic/xg_nic_hooks.h only.
 *
 * Errors are logged here, where they are found, naming the API routine
 * @fn the caller passes.
 */
#ifndef XG_SPIN_H
#define XG_SPIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/xg_compiler.h"
#include "spin/handler.h"
#include "spin/pspinsim.h"
#include "xgas_spin.h"

/* ---- the handlers' runtime (calls made by a running handler) ---- */

/* The HPU of the calling thread: 1 and its ids, or 0 outside handlers. */
int xg_spin_rt_hpu(uint32_t *cluster_p, uint32_t *core_p);
/* Commands: SPIN_OK or SPIN_FAIL (not in a handler); a command outside
 * what the context may touch ends the handler (a fault). */
int xg_spin_cmd_send(const char *fn, int to_ip_dest, uint32_t dest,
                     const void *data, uint32_t length, spin_cmd_t *handle);
int xg_spin_cmd_dma(const char *fn, int to_host, uint64_t host_addr,
                    uint32_t nic_addr, uint32_t length, spin_cmd_t *handle);
int xg_spin_cmd_host_write(const char *fn, uint64_t host_addr, uint64_t value,
                           spin_cmd_t *handle);
int xg_spin_cmd_done(const char *fn, spin_cmd_t handle, bool *done_p);
XG_NORETURN void xg_spin_rt_terminate(const char *what, const char *file,
                                      int line);

/* The description of fault @fault (xg_spin_fault_t). */
const char *xg_spin_fault_name(int fault);

/* ---- execution contexts (xgas_spin.h) ---- */
xg_status_t xg_spin_ctx_new(const char *fn, const xg_spin_ctx_params_t *p,
                            xg_spin_ctx_t **ctx_p);
xg_status_t xg_spin_ctx_delete(const char *fn, xg_spin_ctx_t *ctx);
xg_status_t xg_spin_ctx_attach_entry(const char *fn, xg_spin_ctx_t *ctx,
                                     ptl_handle_me_t entry);
xg_status_t xg_spin_ctx_detach_entry(const char *fn, xg_spin_ctx_t *ctx,
                                     ptl_handle_me_t entry);
xg_status_t xg_spin_ctx_wait_quiet(xg_spin_ctx_t *ctx);
xg_status_t xg_spin_ctx_flow_packet(const char *fn, xg_spin_ctx_t *ctx,
                                    uint32_t msgid, const void *pkt, size_t len,
                                    int eom);
void *xg_spin_ctx_mem(xg_spin_ctx_t *ctx, int scratch, unsigned cluster,
                      size_t *size_p);
const xg_spin_ec_desc_t *xg_spin_ctx_descriptor(const xg_spin_ctx_t *ctx);
/* XG_OK with @ev, or XG_INPROGRESS when there is none. */
xg_status_t xg_spin_event_take(xg_spin_event_t *ev);

/* ---- raw flows: PsPIN's simulation-driver interface ---- */
int xg_spin_sim_init(const char *fn);
int xg_spin_sim_run(const char *fn, uint8_t *done_p, int once);
int xg_spin_sim_fini(const char *fn);
int xg_spin_sim_packet(const char *fn, const spin_ec_t *ec, uint32_t msgid,
                       const uint8_t *data, size_t len, uint8_t eom,
                       uint64_t user_ptr);
int xg_spin_sim_eos(const char *fn);
int xg_spin_sim_trace_read(const char *fn, const char *pkt_path,
                           const char *data_path);
int xg_spin_sim_nicmem(const char *fn, int write, uint32_t addr, void *data,
                       size_t size, void *user_ptr);
int xg_spin_sim_find_handler(const char *fn, const char *binfile,
                             const char *name, uint32_t *addr_p,
                             size_t *size_p);

/* The driver's callbacks (NULL: none). */
typedef struct xg_spin_sim_cbs {
    pkt_out_cb_t pkt_out;
    pkt_feedback_cb_t feedback;
    pcie_slv_write_cb_t host_write;
    pcie_slv_read_cb_t host_read;
    pcie_mst_write_cb_t nicmem_written;
    pcie_mst_read_cb_t nicmem_read;
} xg_spin_sim_cbs_t;

/* Reads and replaces the callbacks (never while one runs). */
void xg_spin_sim_get_cbs(xg_spin_sim_cbs_t *cbs);
void xg_spin_sim_set_cbs(const xg_spin_sim_cbs_t *cbs);

#endif
