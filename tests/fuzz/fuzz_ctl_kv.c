/*
 * Fuzzes the key/value record parser of the job control area: the records
 * are written by other processes, so any byte pattern must be scanned
 * without reading outside the area, without looping forever, and any value
 * found must lie inside the area.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/xg_ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const keys[] = {"a", "mem.layout", "shm.map.0", ""};
    uint32_t used, capacity, len;
    const uint8_t *value;
    uint8_t *area;
    size_t i;

    if (size < 8) {
        return 0;
    }
    /* first 8 bytes: the claimed used/capacity; the rest: the area */
    memcpy(&used, data, 4);
    memcpy(&capacity, data + 4, 4);
    data += 8;
    size -= 8;
    if (capacity > size) {
        capacity = (uint32_t)size;
    }
    area = malloc(size + 1); /* exact size, so ASan sees any overrun */
    memcpy(area, data, size);
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (xg_ctl_kv_find(area, used, capacity, keys[i], &value, &len) == 0) {
            if ((value < area) || (value + len > area + capacity)) {
                abort();
            }
        }
    }
    free(area);
    return 0;
}
