/*
 * Layout helpers for the job control area, shared by libxgas and xgasrun.
 */
#include "boot/xg_ctl.h"

#include <string.h>

/* the texts of a wait are copied a word at a time (xg_ctl_text_store) */
_Static_assert((offsetof(xg_ctl_wait_t, routine) % 8 == 0) &&
                   (offsetof(xg_ctl_wait_t, detail) % 8 == 0) &&
                   (XG_CTL_WAIT_ROUTINE % 8 == 0) &&
                   (XG_CTL_WAIT_DETAIL % 8 == 0),
               "wait texts must be whole, aligned words");

size_t xg_ctl_head_size(uint32_t npes)
{
    return xg_align_up(sizeof(xg_ctl_t) + (size_t)npes * sizeof(xg_ctl_pe_t),
                       4096);
}

size_t xg_ctl_size(uint32_t npes)
{
    return xg_ctl_kv_offset(npes, npes);
}

void xg_ctl_format(xg_ctl_t *ctl, uint32_t npes)
{
    ctl->magic           = XG_CTL_MAGIC;
    ctl->version         = XG_CTL_VERSION;
    ctl->npes            = npes;
    ctl->kv_bytes_per_pe = XG_CTL_KV_BYTES_PER_PE;
    ctl->nodes           = 1;
    ctl->node_map        = XG_CTL_MAP_BLOCK;
}

int xg_ctl_check(const xg_ctl_t *ctl, size_t area_size, uint32_t npes)
{
    if ((area_size < sizeof(*ctl)) || (ctl->magic != XG_CTL_MAGIC) ||
        (ctl->version != XG_CTL_VERSION) || (ctl->npes != npes) ||
        (ctl->kv_bytes_per_pe != XG_CTL_KV_BYTES_PER_PE) || (ctl->nodes < 1) ||
        (ctl->nodes > npes) || (ctl->node_map > XG_CTL_MAP_CYCLIC) ||
        (area_size < xg_ctl_size(npes))) {
        return -1;
    }
    return 0;
}

int xg_ctl_kv_find(const uint8_t *area, uint32_t used, uint32_t capacity,
                   const char *key, const uint8_t **value_p, uint32_t *len_p)
{
    size_t key_len = strlen(key), pos = 0, record_len;
    xg_ctl_kv_record_t record;
    int found = -1;

    if (used > capacity) {
        used = capacity;
    }
    while (pos + sizeof(record) <= used) {
        memcpy(&record, area + pos, sizeof(record));
        record_len =
            sizeof(record) + (size_t)record.key_len + (size_t)record.value_len;
        if (record_len > used - pos) {
            break; /* damaged record: stop, never read past @used */
        }
        if ((record.key_len == key_len) &&
            (memcmp(area + pos + sizeof(record), key, key_len) == 0)) {
            *value_p = area + pos + sizeof(record) + key_len;
            *len_p   = record.value_len;
            found    = 0; /* keep scanning: the last put wins */
        }
        pos += xg_align_up(record_len, 8);
    }
    return found;
}
