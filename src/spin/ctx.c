/*
 * Execution contexts (xgas_spin.h): creation from a handler file and the
 * memories it asks for, the descriptor, destruction once quiet.  Setup
 * tier: the engine lock, allocation and system calls are fine here.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "spin/xg_spin_int.h"

/* The handlers @p names, or those init_handlers gives. */
static xg_status_t ctx_handlers(const char *fn, xg_spin_ctx_t *ctx,
                                const xg_spin_ctx_params_t *p)
{
    const char *names[3] = {p->header_handler, p->payload_handler,
                            p->completion_handler};
    handler_fn *slots[3] = {&ctx->hh, &ctx->ph, &ctx->th};
    void (*init)(handler_fn *, handler_fn *, handler_fn *, void **);
    void *mem = NULL;
    unsigned i;

    if (p->field_mask & XG_SPIN_CTX_FIELD_HANDLERS) {
        for (i = 0; i < 3; i++) {
            if (names[i] == NULL) {
                continue;
            }
            *slots[i] = xg_spin_obj_sym(ctx->obj, names[i], NULL);
            if (*slots[i] == NULL) {
                xg_error("spin",
                         "%s: handler file %s defines no %s: check "
                         "the name (and that it is not static)",
                         fn, ctx->obj->path, names[i]);
                return XG_ERR_INVALID_PARAM;
            }
        }
    } else {
        init = (void (*)(handler_fn *, handler_fn *, handler_fn *, void **))(
            uintptr_t)xg_spin_obj_sym(ctx->obj, "init_handlers", NULL);
        if (init == NULL) {
            xg_error("spin",
                     "%s: handler file %s defines no init_handlers: "
                     "name the handlers (XG_SPIN_CTX_FIELD_HANDLERS)",
                     fn, ctx->obj->path);
            return XG_ERR_INVALID_PARAM;
        }
        init(&ctx->hh, &ctx->ph, &ctx->th, &mem);
    }
    if ((ctx->hh == NULL) && (ctx->ph == NULL) && (ctx->th == NULL)) {
        xg_error("spin", "%s: the context of %s has no handler at all", fn,
                 ctx->obj->path);
        return XG_ERR_INVALID_PARAM;
    }
    return XG_OK;
}

/* NIC memory of the context (engine lock held). */
static xg_status_t ctx_memories(const char *fn, xg_spin_ctx_t *ctx,
                                const xg_spin_ctx_params_t *p)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    size_t per_cluster;
    unsigned c;

    if ((p->field_mask & XG_SPIN_CTX_FIELD_HANDLER_MEM) &&
        (p->handler_mem_size != 0)) {
        if (p->handler_mem_image_size > p->handler_mem_size) {
            xg_error("spin",
                     "%s: handler memory image of %zu bytes is "
                     "larger than the handler memory (%zu bytes)",
                     fn, p->handler_mem_image_size, p->handler_mem_size);
            return XG_ERR_INVALID_PARAM;
        }
        ctx->hmem = xg_spin_mem_l2_alloc(p->handler_mem_size);
        if (ctx->hmem == NULL) {
            goto err_full;
        }
        ctx->hmem_size = p->handler_mem_size;
        if (p->handler_mem_image != NULL) {
            memcpy(ctx->hmem, p->handler_mem_image, p->handler_mem_image_size);
        }
    }
    if ((p->field_mask & XG_SPIN_CTX_FIELD_SCRATCHPAD) &&
        (p->scratchpad_size != 0)) {
        for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
            ctx->scratch[c] = xg_spin_mem_l1_alloc(c, p->scratchpad_size);
            if (ctx->scratch[c] == NULL) {
                goto err_full;
            }
            ctx->scratch_size[c] = p->scratchpad_size;
        }
    }
    if ((p->field_mask & XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD) &&
        (p->msg_scratchpad_size != 0)) {
        /* a pad per MPQ in every cluster: any message may have its
         * home anywhere */
        ctx->pad_size = xg_align_up(p->msg_scratchpad_size, 64);
        per_cluster   = e->nmsgs;
        for (c = 0; c < e->nclusters; c++) {
            ctx->pads[c] = xg_spin_mem_l1_alloc(c, per_cluster * ctx->pad_size);
            if (ctx->pads[c] == NULL) {
                goto err_full;
            }
        }
    }
    return XG_OK;

err_full:
    xg_error(
        "spin",
        "%s: NIC memory is full: handler memory %zu bytes (of "
        "%u in all), scratchpad %zu bytes per cluster and %zu per "
        "message (%u messages at a time, XGAS_SPIN_MPQS) do not fit "
        "next to the contexts that exist (%zu bytes of L1 per cluster)",
        fn,
        (p->field_mask & XG_SPIN_CTX_FIELD_HANDLER_MEM) ? p->handler_mem_size
                                                        : 0,
        L2_HANDLER_MEM_SIZE,
        (p->field_mask & XG_SPIN_CTX_FIELD_SCRATCHPAD) ? p->scratchpad_size : 0,
        (p->field_mask & XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD)
            ? p->msg_scratchpad_size
            : 0,
        e->nmsgs, (size_t)L1_SCRATCHPAD_SIZE);
    return XG_ERR_NO_MEMORY;
}

/* The thresholds the watchdog thread ticks for (engine lock held). */
void xg_spin_ctx_thresholds(xg_spin_ctx_t *ctx)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    uint64_t min = atomic_load_explicit(&e->wd_min_ns, memory_order_relaxed);

    if (ctx->watchdog_ns == 0) {
        ctx->watchdog_ns = e->wd_default_ns;
    }
    if (ctx->stall_ns == 0) {
        ctx->stall_ns = e->stall_default_ns;
    }
    if (ctx->watchdog_ns < min) {
        min = ctx->watchdog_ns;
    }
    if (ctx->stall_ns < min) {
        min = ctx->stall_ns;
    }
    atomic_store_explicit(&e->wd_min_ns, min, memory_order_relaxed);
}

xg_status_t xg_spin_ctx_new(const char *fn, const xg_spin_ctx_params_t *p,
                            xg_spin_ctx_t **ctx_p)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_ctx_t *ctx;
    xg_status_t status;

    status = xg_spin_engine_get();
    if (status != XG_OK) {
        return status;
    }
    ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL) {
        xg_spin_engine_put();
        return XG_ERR_NO_MEMORY;
    }
    xg_spinlock_init(&ctx->desc_lock);
    ctx->send_ni = -1;
    pthread_mutex_lock(&e->lock);
    ctx->obj = xg_spin_obj_load(fn, p->handler_file);
    status =
        (ctx->obj == NULL) ? XG_ERR_INVALID_PARAM : ctx_handlers(fn, ctx, p);
    if (status == XG_OK) {
        status = ctx_memories(fn, ctx, p);
    }
    if (status != XG_OK) {
        pthread_mutex_unlock(&e->lock);
        free(ctx);
        xg_spin_engine_put();
        return status;
    }
    if (p->field_mask & XG_SPIN_CTX_FIELD_HOST_MEM) {
        ctx->host_base = (uint64_t)(uintptr_t)p->host_mem;
        ctx->host_size = p->host_mem_size;
    }
    if (p->field_mask & XG_SPIN_CTX_FIELD_WATCHDOG) {
        ctx->watchdog_ns = p->watchdog_ns;
    }
    if (p->field_mask & XG_SPIN_CTX_FIELD_STALL) {
        ctx->stall_ns = p->stall_ns;
    }
    if (p->field_mask & XG_SPIN_CTX_FIELD_FLAGS) {
        ctx->flags = p->flags;
    }
    if (p->field_mask & XG_SPIN_CTX_FIELD_SEND) {
        ctx->can_send  = 1;
        ctx->send_pt   = p->send_pt_index;
        ctx->send_bits = p->send_match_bits;
    }
    ctx->desc = ((p->field_mask & XG_SPIN_CTX_FIELD_DESC) && (p->desc != NULL))
                    ? p->desc
                    : &ctx->own_desc;
    memset((void *)ctx->desc, 0, sizeof(*ctx->desc));
    xg_spin_ctx_thresholds(ctx);
    xg_spin_portals_hooks(ctx);
    ctx->next = e->ctxs;
    e->ctxs   = ctx;
    pthread_mutex_unlock(&e->lock);
    *ctx_p = ctx;
    return XG_OK;
}

/* Waits until no message of @ctx is in the engine and, if @nic_too, none
 * is held by the NIC (its release still to come, even after its
 * shutdown: before @ctx may be freed). */
static void ctx_wait(xg_spin_ctx_t *ctx, int nic_too)
{
    xg_wait_t wait;

    /* a stalled message is reset within its threshold: this ends */
    xg_wait_init(&wait);
    while ((atomic_load_explicit(&ctx->active, memory_order_acquire) != 0) ||
           ((atomic_load_explicit(&ctx->hooks.inflight, memory_order_acquire) !=
             0) &&
            (nic_too || !atomic_load_explicit(&xg_spin_engine.nic_closed,
                                              memory_order_acquire)))) {
        xg_wait_backoff(&wait);
    }
}

xg_status_t xg_spin_ctx_wait_quiet(xg_spin_ctx_t *ctx)
{
    /* once the NIC shut down, the messages it still counts are its own
     * to release: the engine resumes none of them */
    ctx_wait(ctx, 0);
    return XG_OK;
}

/* Unlinks @ctx from the engine and frees it (engine lock held). */
void xg_spin_ctx_free(xg_spin_ctx_t *ctx)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_spin_ctx_t **link;
    unsigned k;

    for (k = 0; k < XG_SPIN_MPQ_CHUNKS; k++) {
        free(atomic_load_explicit(&ctx->xpads[k], memory_order_relaxed));
    }
    for (link = &e->ctxs; *link != NULL; link = &(*link)->next) {
        if (*link == ctx) {
            *link = ctx->next;
            break;
        }
    }
    if (e->ctxs == NULL) {
        xg_spin_mem_reset(); /* the last context: its NIC memory is free */
    }
    free(ctx->entries);
    free(ctx);
}

xg_status_t xg_spin_ctx_delete(const char *fn, xg_spin_ctx_t *ctx)
{
    xg_spin_engine_t *e = &xg_spin_engine;

    while (ctx->nentries != 0) {
        xg_spin_ctx_detach_entry(fn, ctx, ctx->entries[ctx->nentries - 1]);
    }
    xg_spin_flow_close_all(&ctx->flows);
    ctx_wait(ctx, 1);
    pthread_mutex_lock(&e->lock);
    xg_spin_ctx_free(ctx);
    pthread_mutex_unlock(&e->lock);
    xg_spin_engine_put();
    return XG_OK;
}

xg_status_t xg_spin_ctx_flow_packet(const char *fn, xg_spin_ctx_t *ctx,
                                    uint32_t msgid, const void *pkt, size_t len,
                                    int eom)
{
    return (xg_spin_flow_inject(fn, &ctx->flows, ctx, msgid, pkt, len, eom,
                                0) == SPIN_SUCCESS)
               ? XG_OK
               : XG_ERR_INVALID_PARAM;
}

void *xg_spin_ctx_mem(xg_spin_ctx_t *ctx, int scratch, unsigned cluster,
                      size_t *size_p)
{
    void *p     = NULL;
    size_t size = 0;

    if (!scratch) {
        p    = ctx->hmem;
        size = ctx->hmem_size;
    } else if (cluster < XG_SPIN_NCLUSTERS) {
        p    = ctx->scratch[cluster];
        size = ctx->scratch_size[cluster];
    }
    if (size_p != NULL) {
        *size_p = size;
    }
    return p;
}

const xg_spin_ec_desc_t *xg_spin_ctx_descriptor(const xg_spin_ctx_t *ctx)
{
    return ctx->desc;
}
