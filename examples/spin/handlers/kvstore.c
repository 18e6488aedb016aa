/*
 * kvstore: a key-value cache answered by the NIC (the paper's
 * "key-value cache"): GET and SET requests (one packet each, a
 * uc_kv_msg_t after the IP/UDP header) are served from a 4-way
 * set-associative table in handler memory without the host.  A GET is
 * answered by sending the request packet back with op UC_KV_REPLY, the
 * value and whether the key was there; a SET stores the value, evicting
 * the oldest entry of the set when it is full.  One lock per set.
 */
#include <handler.h>
#include <packets.h>

#include "usecase.h"

static uc_kv_entry_t *kv_find(uc_kv_set_t *set, uint32_t key)
{
    unsigned w;

    for (w = 0; w < UC_KV_WAYS; w++) {
        if (set->way[w].key == key + 1) {
            return &set->way[w];
        }
    }
    return NULL;
}

/* The way a new key takes: an empty one, or the oldest. */
static uc_kv_entry_t *kv_victim(uc_kv_set_t *set)
{
    uc_kv_entry_t *v = &set->way[0];
    unsigned w;

    for (w = 0; w < UC_KV_WAYS; w++) {
        if (set->way[w].key == 0) {
            return &set->way[w];
        }
        if (set->way[w].age < v->age) {
            v = &set->way[w];
        }
    }
    return v;
}

__handler__ void kvstore_ph(handler_args_t *args)
{
    task_t *task     = args->task;
    uc_kv_mem_t *mem = (uc_kv_mem_t *)task->handler_mem;
    pkt_hdr_t *hdr   = (pkt_hdr_t *)task->pkt_mem;
    uint8_t *pld;
    uint32_t len, id;
    uc_kv_msg_t req;
    uc_kv_set_t *set;
    uc_kv_entry_t *e;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    if (len < sizeof(req)) {
        return;
    }
    memcpy(&req, pld, sizeof(req));
    set = &mem->set[req.key % mem->sets];
    spin_lock_lock((spin_lock_t *)&set->lock);
    e = kv_find(set, req.key);
    if (req.op == UC_KV_SET) {
        if (e == NULL) {
            e      = kv_victim(set);
            e->key = req.key + 1;
        }
        e->value = req.value;
        e->age   = ++set->clock;
    } else {
        req.hit   = (e != NULL);
        req.value = (e != NULL) ? e->value : 0;
    }
    spin_lock_unlock((spin_lock_t *)&set->lock);
    if (req.op == UC_KV_SET) {
        amo_add(&mem->sets_done, 1);
        return;
    }
    amo_add(&mem->gets, 1);
    if (req.hit) {
        amo_add(&mem->hits, 1);
    }
    req.op = UC_KV_REPLY;
    memcpy(pld, &req, sizeof(req));
    id                    = hdr->ip_hdr.source_id;
    hdr->ip_hdr.source_id = hdr->ip_hdr.dest_id;
    hdr->ip_hdr.dest_id   = id;
    spin_send_packet(task->pkt_mem, hdr->ip_hdr.length, NULL);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, kvstore_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
