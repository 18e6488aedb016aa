/*
 * pspinsim.h -- PsPIN's simulation-driver interface, served by the xgas
 * sPIN engine (xgas, source-compatible with PsPIN's header of the same
 * name; implemented in libxgas).
 *
 * A driver injects packets of raw flows (pspinsim_packet_add), runs the
 * engine until they are processed (pspinsim_run) and receives what the
 * handlers produce through callbacks: outgoing packets, writes and reads
 * of host memory, and one feedback per packet when the engine is done
 * with it.  Callbacks are never called concurrently; they run on the
 * engine's threads.  Times are nanoseconds since pspinsim_init.  The
 * timing parameters of PsPIN's cycle-accurate model (buffer depths,
 * network and PCIe rates, wait_cycles) are accepted and not modelled:
 * the engine runs as fast as the host does (docs/spin.md).
 */
#ifndef XGAS_SPIN_PSPINSIM_H
#define XGAS_SPIN_PSPINSIM_H

#include <stddef.h>
#include <stdint.h>

#include "spin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ni_conf {
    uint32_t axi_aw_buffer;
    uint32_t axi_w_buffer;
    uint32_t axi_b_buffer;
} ni_conf_t;

typedef struct no_conf {
    uint32_t axi_ar_buffer;
    uint32_t axi_r_buffer;
    double network_G;
    uint32_t max_pkt_size;
    uint32_t max_network_queue_len;
} no_conf_t;

typedef struct pcie_slv_conf {
    uint32_t axi_aw_buffer;
    uint32_t axi_w_buffer;
    uint32_t axi_ar_buffer;
    uint32_t axi_b_buffer;
    uint32_t axi_r_buffer;
    uint32_t pcie_L;
    double pcie_G;
} pcie_slv_conf_t;

typedef struct pspin_conf {
    const char *slm_files_path;
    ni_conf_t ni_conf;
    no_conf_t no_conf;
    pcie_slv_conf_t pcie_slv_conf;
} pspin_conf_t;

/* (data, length) of a packet a handler sent */
typedef void (*pkt_out_cb_t)(uint8_t *, size_t);
/* (user_ptr, NIC arrival, engine arrival, feedback time) per packet */
typedef void (*pkt_feedback_cb_t)(uint64_t, uint64_t, uint64_t, uint64_t);
/* (host address, data, length): a handler wrote host memory */
typedef void (*pcie_slv_write_cb_t)(uint64_t, uint8_t *, size_t);
/* (host address, buffer, length): a handler reads host memory; fill it */
typedef void (*pcie_slv_read_cb_t)(uint64_t, uint8_t *, size_t);
/* (user_ptr) of a finished spin_nicmem_write / spin_nicmem_read */
typedef void (*pcie_mst_write_cb_t)(void *);
typedef void (*pcie_mst_read_cb_t)(void *);

int pspinsim_default_conf(pspin_conf_t *conf);
int pspinsim_init(int argc, char **argv, pspin_conf_t *conf);
/* Returns when every packet added is processed (and the end of stream,
 * if announced, reached). */
int pspinsim_run(void);
/* One step: *done_flag is 1 once the end of stream is announced and
 * every packet processed. */
int pspinsim_run_tick(uint8_t *done_flag);
/* Waits for the packets in flight, prints statistics, stops the engine. */
int pspinsim_fini(void);

/* Injects the packets of a PsPIN packet trace: @pkt_file_path has one
 * line "msgid,hh_addr,hh_size,ph_addr,ph_size,th_addr,th_size,
 * hmem_addr,hmem_size,pkt_size,pkt_xfer_size,eom,wait_cycles" per
 * packet, @data_file_path their bytes one after the other.  Each packet
 * gets a host window of 1 GiB at PCIE_START_ADDR and the whole scratchpad
 * area of every cluster, as in PsPIN.  SPIN_ERR (logged) on a missing
 * file or a malformed line (packets before it are injected). */
int pspinsim_packet_trace_read(const char *pkt_file_path,
                               const char *data_file_path);
/* Injects packet @pkt_data of @pkt_len bytes of message @msgid of the
 * flow that @ec describes; @eom ends the message.  Waits while the
 * packet buffer is full.  @pkt_l1_len (bytes the handler needs) and
 * @wait_cycles are accepted for compatibility. */
int pspinsim_packet_add(spin_ec_t *ec, uint32_t msgid, uint8_t *pkt_data,
                        size_t pkt_len, size_t pkt_l1_len, uint8_t eom,
                        uint32_t wait_cycles, uint64_t user_ptr);
int pspinsim_packet_eos(void);

int pspinsim_cb_set_pkt_out(pkt_out_cb_t cb);
int pspinsim_cb_set_pcie_slv_write(pcie_slv_write_cb_t cb);
int pspinsim_cb_set_pcie_slv_read(pcie_slv_read_cb_t cb);
int pspinsim_cb_set_pcie_mst_write_completion(pcie_mst_write_cb_t cb);
int pspinsim_cb_set_pcie_mst_read_completion(pcie_mst_read_cb_t cb);
int pspinsim_cb_set_pkt_feedback(pkt_feedback_cb_t cb);

#ifdef __cplusplus
}
#endif

#endif
