/*
 * The handlers' runtime: the NIC commands a running handler issues
 * (handler.h), and its identity.
 *
 * A command runs on the handler's HPU thread.  It checks what it is asked
 * against what the context may touch -- NIC addresses against the
 * context's memories, the packet, the HPU's stack and task; host
 * addresses against the host window -- and a violation ends the handler
 * as a fault (XG_SPIN_FAULT_DMA), as PsPIN's memory protection would.
 * While a command runs the HPU is marked "in runtime": a watchdog signal
 * then only asks, and the command ends the handler on its way out, so no
 * lock of the engine or the NIC is ever abandoned.
 *
 * Every command completes before it returns (the copy is made, the
 * packet is in the NIC's queue); the handle is the count of commands the
 * HPU issued, so wait and test know every handle issued is done.
 */
#include <string.h>

#include "base/xg_log.h"
#include "spin/xg_spin_int.h"

int xg_spin_rt_hpu(uint32_t *cluster_p, uint32_t *core_p)
{
    const xg_spin_hpu_t *hpu = xg_spin_tls_hpu;

    if ((hpu == NULL) || !hpu->in_handler) {
        *cluster_p = 0;
        *core_p    = 0;
        return 0;
    }
    *cluster_p = hpu->cluster;
    *core_p    = hpu->core;
    return 1;
}

/* The HPU of a handler calling command @fn, marked in runtime; NULL
 * (logged) outside handlers. */
static xg_spin_hpu_t *cmd_enter(const char *fn)
{
    xg_spin_hpu_t *hpu = xg_spin_tls_hpu;

    if ((hpu == NULL) || !hpu->in_handler) {
        xg_error("spin",
                 "%s: called outside a sPIN handler (only handlers "
                 "running on the engine's HPUs may issue NIC commands)",
                 fn);
        return NULL;
    }
    hpu->in_runtime = 1;
    if (xg_spin_kill_asked(hpu)) {
        /* the watchdog asked (a signal may not have come: sanitizers
         * defer them); a command is a safe place to stop */
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_WATCHDOG, 0);
    }
    return hpu;
}

/* Leaves the runtime; a handle for the command. */
static int cmd_leave(xg_spin_hpu_t *hpu, spin_cmd_t *handle)
{
    hpu->in_runtime = 0;
    if (hpu->kill_pending || xg_spin_kill_asked(hpu)) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_WATCHDOG, 0);
    }
    hpu->cmds++;
    if (handle != NULL) {
        *handle = hpu->cmds;
    }
    return SPIN_OK;
}

static int host_ok(const xg_spin_ctx_t *ctx, uint64_t addr, uint64_t len)
{
    return (addr >= ctx->host_base) && (len <= ctx->host_size) &&
           (addr - ctx->host_base <= ctx->host_size - len);
}

int xg_spin_cmd_send(const char *fn, int to_ip_dest, uint32_t dest,
                     const void *data, uint32_t length, spin_cmd_t *handle)
{
    xg_spin_hpu_t *hpu = cmd_enter(fn);
    const xg_spin_ctx_t *ctx;
    pkt_hdr_t hdr;
    int fault;

    if (hpu == NULL) {
        return SPIN_FAIL;
    }
    ctx = hpu->msg->ctx;
    if (!xg_spin_mem_handler_ok(hpu, (uintptr_t)data, length) ||
        (to_ip_dest && (length < sizeof(ip_hdr_t)))) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_DMA, (uintptr_t)data);
    }
    if (to_ip_dest) {
        memcpy(&hdr.ip_hdr, data, sizeof(hdr.ip_hdr));
        dest = hdr.ip_hdr.dest_id;
    }
    fault = ctx->raw ? xg_spin_flow_send(hpu, data, length)
                     : xg_spin_portals_send(hpu, dest, data, length);
    if (fault != 0) {
        xg_spin_fault_raise(hpu, fault, dest);
    }
    return cmd_leave(hpu, handle);
}

int xg_spin_cmd_dma(const char *fn, int to_host, uint64_t host_addr,
                    uint32_t nic_addr, uint32_t length, spin_cmd_t *handle)
{
    xg_spin_hpu_t *hpu = cmd_enter(fn);
    const xg_spin_ctx_t *ctx;
    void *nic = (void *)(uintptr_t)nic_addr;
    int fault = 0;

    if (hpu == NULL) {
        return SPIN_FAIL;
    }
    ctx = hpu->msg->ctx;
    if (!xg_spin_mem_handler_ok(hpu, nic_addr, length)) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_DMA, nic_addr);
    }
    if (!host_ok(ctx, host_addr, length)) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_DMA, host_addr);
    }
    if (ctx->raw) {
        fault = to_host ? xg_spin_flow_to_host(hpu, host_addr, nic, length)
                        : xg_spin_flow_from_host(hpu, host_addr, nic, length);
    } else if (to_host) {
        memcpy((void *)(uintptr_t)host_addr, nic, length);
    } else {
        memcpy(nic, (const void *)(uintptr_t)host_addr, length);
    }
    if (fault != 0) {
        xg_spin_fault_raise(hpu, fault, host_addr);
    }
    return cmd_leave(hpu, handle);
}

int xg_spin_cmd_host_write(const char *fn, uint64_t host_addr, uint64_t value,
                           spin_cmd_t *handle)
{
    xg_spin_hpu_t *hpu = cmd_enter(fn);
    const xg_spin_ctx_t *ctx;
    int fault = 0;

    if (hpu == NULL) {
        return SPIN_FAIL;
    }
    ctx = hpu->msg->ctx;
    if (!host_ok(ctx, host_addr, sizeof(value))) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_DMA, host_addr);
    }
    if (ctx->raw) {
        fault = xg_spin_flow_to_host(hpu, host_addr, &value, sizeof(value));
    } else {
        /* one store when aligned: the host may poll the word */
        if ((host_addr & 7) == 0) {
            __atomic_store_n((uint64_t *)(uintptr_t)host_addr, value,
                             __ATOMIC_RELEASE);
        } else {
            memcpy((void *)(uintptr_t)host_addr, &value, sizeof(value));
        }
    }
    if (fault != 0) {
        xg_spin_fault_raise(hpu, fault, host_addr);
    }
    return cmd_leave(hpu, handle);
}

int xg_spin_cmd_done(const char *fn, spin_cmd_t handle, bool *done_p)
{
    xg_spin_hpu_t *hpu = cmd_enter(fn);
    int ret;

    if (hpu == NULL) {
        return SPIN_FAIL;
    }
    /* every handle this HPU issued is complete; 0 and later ones are not
     * handles of its commands */
    ret = ((handle != 0) && (handle <= hpu->cmds)) ? SPIN_OK : SPIN_FAIL;
    if (done_p != NULL) {
        *done_p = (ret == SPIN_OK);
    }
    hpu->in_runtime = 0;
    if (hpu->kill_pending || xg_spin_kill_asked(hpu)) {
        xg_spin_fault_raise(hpu, XG_SPIN_FAULT_WATCHDOG, 0);
    }
    return ret;
}

void xg_spin_rt_terminate(const char *what, const char *file, int line)
{
    xg_spin_hpu_t *hpu = xg_spin_tls_hpu;

    if ((hpu == NULL) || !hpu->in_handler) {
        xg_error("spin", "%s at %s:%d outside a sPIN handler", what, file,
                 line);
        abort();
    }
    xg_debug("spin", "%s at %s:%d ends the handler", what, file, line);
    xg_spin_fault_raise(hpu, XG_SPIN_FAULT_TERMINATE, (uint64_t)line);
}
