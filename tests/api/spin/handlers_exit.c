/*
 * Handler of test_exit.c: hold_ph counts itself in, waits until the host
 * lets it go (after the host closed its NIC), then sends its packet
 * through the NIC -- the engine's hardest call at shutdown -- and counts
 * the send done.
 */
#include <handler.h>
#include <packets.h>
#include <sched.h>

typedef struct hold {
    volatile int32_t started, sent, go;
} hold_t;

__handler__ void hold_ph(handler_args_t *args)
{
    task_t *task   = args->task;
    hold_t *h      = (hold_t *)task->handler_mem;
    pkt_hdr_t *hdr = (pkt_hdr_t *)task->pkt_mem;
    spin_cmd_t cmd;

    amo_add(&h->started, 1);
    while (__atomic_load_n(&h->go, __ATOMIC_ACQUIRE) == 0) {
        sched_yield(); /* the host runs on the same cores */
    }
    spin_send_packet(task->pkt_mem, hdr->ip_hdr.length, &cmd);
    spin_cmd_wait(cmd);
    amo_add(&h->sent, 1);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, hold_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
