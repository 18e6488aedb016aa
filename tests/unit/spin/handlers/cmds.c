/*
 * Every command, from a payload handler, with its result recorded in
 * handler memory (cmds_result_t per packet, by the packet's first payload
 * word): spin_rdma_put and spin_send_packet (to the driver's network),
 * spin_dma_to_host / spin_dma_from_host with wait and test, host writes
 * with and without a handle, cluster DMA (spin_dma), and wait/test of a
 * handle never issued.
 */
#include <handler.h>
#include <packets.h>

#include "cmds.h"

static uint64_t host_of(const task_t *task)
{
    return ((uint64_t)task->host_mem_high << 32) | task->host_mem_low;
}

__handler__ void cmds_ph(handler_args_t *args)
{
    task_t *task       = args->task;
    cmds_result_t *all = (cmds_result_t *)task->handler_mem, *r;
    uint8_t *pld, local[64];
    uint32_t len, idx;
    spin_cmd_t put, send, to, from, wr;
    spin_dma_t dma;
    uint32_t dma_done = 0;
    bool done;

    GET_IP_UDP_PLD(task->pkt_mem, pld, len);
    (void)len;
    memcpy(&idx, pld, 4);
    r = &all[idx % CMDS_MAX];
    r->issued += spin_rdma_put(idx, task->pkt_mem, (uint32_t)task->pkt_mem_size,
                               &put) == SPIN_OK;
    r->issued += spin_send_packet(task->pkt_mem, (uint32_t)task->pkt_mem_size,
                                  &send) == SPIN_OK;
    /* 64 bytes of payload to host slot idx, and back into a local buffer */
    r->issued +=
        spin_dma_to_host(host_of(task) + 64 * (uint64_t)idx,
                         (uint32_t)(uintptr_t)pld, 64, true, &to) == SPIN_OK;
    r->issued += spin_dma_from_host(host_of(task) + 64 * (uint64_t)idx,
                                    (uint32_t)(uintptr_t)local, 64, false,
                                    &from) == SPIN_OK;
    r->issued +=
        spin_write_to_host(host_of(task) + CMDS_FLAG_OFF + 8 * (uint64_t)idx,
                           idx + 1, &wr) == SPIN_OK;
    r->issued +=
        spin_host_write(host_of(task) + CMDS_FLAG2_OFF + 8 * (uint64_t)idx,
                        idx + 2, NULL) == SPIN_OK;
    r->waited += spin_cmd_wait(put) == SPIN_OK;
    r->waited += spin_cmd_wait(send) == SPIN_OK;
    r->waited += spin_cmd_wait(to) == SPIN_OK;
    done = false;
    r->waited += (spin_cmd_test(from, &done) == SPIN_OK) && done;
    done = false;
    r->waited += (spin_cmd_test(wr, &done) == SPIN_OK) && done;
    /* a handle never issued: not complete */
    done = true;
    r->bogus += (spin_cmd_test(wr + 1000, &done) == SPIN_FAIL) && !done;
    r->bogus += spin_cmd_wait(0) == SPIN_FAIL;
    r->roundtrip = (memcmp(local, pld, 64) == 0);
    /* cluster DMA: the packet's first 32 bytes into the scratchpad */
    spin_dma(pld, (uint8_t *)task->scratchpad[args->cluster_id] + 64 * idx, 32,
             SPIN_DMA_EXT2LOC, 0, &dma);
    spin_dma_wait(dma);
    spin_dma_test(dma, &dma_done);
    r->dma =
        dma_done &&
        (memcmp(pld, (uint8_t *)task->scratchpad[args->cluster_id] + 64 * idx,
                32) == 0);
    r->cluster = rt_cluster_id() == args->cluster_id;
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, cmds_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
