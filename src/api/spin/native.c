/*
 * The native sPIN API (include/xgas_spin.h): argument checks, then one
 * call into the engine (src/spin).
 */
#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "spin/xg_spin.h"

static xg_status_t bad(const char *fn, const char *what)
{
    xg_error("spin", "%s: %s", fn, what);
    return XG_ERR_INVALID_PARAM;
}

XG_EXPORT xg_status_t xg_spin_ctx_create(const xg_spin_ctx_params_t *params,
                                         xg_spin_ctx_t **ctx_p)
{
    const char *fn = "xg_spin_ctx_create";

    if ((params == NULL) || (ctx_p == NULL)) {
        return bad(fn, "params and ctx_p must not be NULL");
    }
    if ((params->handler_file == NULL) || (params->handler_file[0] == '\0')) {
        return bad(fn, "params->handler_file must name the shared object "
                       "built from the handler code");
    }
    if ((params->field_mask & XG_SPIN_CTX_FIELD_HANDLER_MEM) &&
        (params->handler_mem_image_size != 0) &&
        (params->handler_mem_image == NULL)) {
        return bad(fn, "params->handler_mem_image is NULL but "
                       "handler_mem_image_size is not 0");
    }
    if ((params->field_mask & XG_SPIN_CTX_FIELD_HOST_MEM) &&
        (params->host_mem == NULL) && (params->host_mem_size != 0)) {
        return bad(fn, "params->host_mem is NULL but host_mem_size is not "
                       "0");
    }
    if ((params->field_mask & XG_SPIN_CTX_FIELD_FLAGS) &&
        (params->flags & ~(unsigned)XG_SPIN_CTX_DELIVER)) {
        xg_error("spin",
                 "%s: params->flags %#x has unknown bits (only "
                 "XG_SPIN_CTX_DELIVER exists)",
                 fn, params->flags);
        return XG_ERR_INVALID_PARAM;
    }
    return xg_spin_ctx_new(fn, params, ctx_p);
}

XG_EXPORT xg_status_t xg_spin_ctx_destroy(xg_spin_ctx_t *ctx)
{
    if (ctx == NULL) {
        return bad("xg_spin_ctx_destroy", "ctx is NULL");
    }
    return xg_spin_ctx_delete("xg_spin_ctx_destroy", ctx);
}

XG_EXPORT xg_status_t xg_spin_ctx_attach(xg_spin_ctx_t *ctx,
                                         ptl_handle_me_t entry)
{
    if (ctx == NULL) {
        return bad("xg_spin_ctx_attach", "ctx is NULL");
    }
    return xg_spin_ctx_attach_entry("xg_spin_ctx_attach", ctx, entry);
}

XG_EXPORT xg_status_t xg_spin_ctx_detach(xg_spin_ctx_t *ctx,
                                         ptl_handle_me_t entry)
{
    if (ctx == NULL) {
        return bad("xg_spin_ctx_detach", "ctx is NULL");
    }
    return xg_spin_ctx_detach_entry("xg_spin_ctx_detach", ctx, entry);
}

XG_EXPORT xg_status_t xg_spin_ctx_inject(xg_spin_ctx_t *ctx, uint32_t msgid,
                                         const void *pkt, size_t len, int eom)
{
    if ((ctx == NULL) || ((pkt == NULL) && (len != 0))) {
        return bad("xg_spin_ctx_inject", "ctx and pkt must not be NULL");
    }
    return xg_spin_ctx_flow_packet("xg_spin_ctx_inject", ctx, msgid, pkt, len,
                                   eom);
}

XG_EXPORT xg_status_t xg_spin_ctx_quiet(xg_spin_ctx_t *ctx)
{
    if (ctx == NULL) {
        return bad("xg_spin_ctx_quiet", "ctx is NULL");
    }
    return xg_spin_ctx_wait_quiet(ctx);
}

XG_EXPORT void *xg_spin_ctx_handler_mem(xg_spin_ctx_t *ctx, size_t *size_p)
{
    if (ctx == NULL) {
        bad("xg_spin_ctx_handler_mem", "ctx is NULL");
        return NULL;
    }
    return xg_spin_ctx_mem(ctx, 0, 0, size_p);
}

XG_EXPORT void *xg_spin_ctx_scratchpad(xg_spin_ctx_t *ctx, unsigned cluster,
                                       size_t *size_p)
{
    if ((ctx == NULL) || (cluster >= NB_CLUSTERS)) {
        xg_error("spin", "xg_spin_ctx_scratchpad: %s",
                 (ctx == NULL) ? "ctx is NULL" : "cluster must be below 4");
        return NULL;
    }
    return xg_spin_ctx_mem(ctx, 1, cluster, size_p);
}

XG_EXPORT const xg_spin_ec_desc_t *xg_spin_ctx_desc(const xg_spin_ctx_t *ctx)
{
    if (ctx == NULL) {
        bad("xg_spin_ctx_desc", "ctx is NULL");
        return NULL;
    }
    return xg_spin_ctx_descriptor(ctx);
}

XG_EXPORT xg_status_t xg_spin_event_get(xg_spin_event_t *ev)
{
    if (ev == NULL) {
        return bad("xg_spin_event_get", "ev is NULL");
    }
    return xg_spin_event_take(ev);
}

XG_EXPORT const char *xg_spin_fault_str(xg_spin_fault_t fault)
{
    return xg_spin_fault_name((int)fault);
}
