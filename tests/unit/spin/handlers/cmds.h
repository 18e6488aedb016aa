/* What the commands handler (cmds.c) records per packet. */
#ifndef CMDS_H
#define CMDS_H

#include <stdint.h>

#define CMDS_MAX       256
#define CMDS_FLAG_OFF  (64u * CMDS_MAX)
#define CMDS_FLAG2_OFF (CMDS_FLAG_OFF + 8u * CMDS_MAX)

typedef struct cmds_result {
    uint32_t issued;    /* commands that returned SPIN_OK (6) */
    uint32_t waited;    /* wait/test that said complete (5) */
    uint32_t bogus;     /* wait/test of unissued handles refused (2) */
    uint32_t roundtrip; /* DMA to and from the host gave the bytes */
    uint32_t dma;       /* cluster DMA copied and completed */
    uint32_t cluster;   /* rt_cluster_id is the handler's cluster */
} cmds_result_t;

#endif
