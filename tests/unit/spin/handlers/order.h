/* What the order handlers (order.c) record per message. */
#ifndef ORDER_H
#define ORDER_H

#include <stdint.h>

#define ORDER_MSGS 1024

typedef struct order_stats {
    volatile int32_t headers, payloads, completions, bad, bytes;
    volatile uint32_t header_done;
    uint32_t pad_[2];
} order_stats_t;

#endif
