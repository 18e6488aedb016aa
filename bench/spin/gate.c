/*
 * The benchmark's gated message: its header handler waits until the host
 * opens the gate (a word in handler memory), so that the payload packets
 * pile up behind it and are then processed in one burst with the host
 * idle -- the engine's own rate, without the injector in the way.  The
 * payload handler is empty.
 */
#include <handler.h>
#include <sched.h>

__handler__ void gate_hh(handler_args_t *args)
{
    volatile uint32_t *gate = (volatile uint32_t *)args->task->handler_mem;

    while (__atomic_load_n(gate, __ATOMIC_ACQUIRE) == 0) {
        sched_yield();
    }
}

__handler__ void gate_empty_ph(handler_args_t *args)
{
    (void)args;
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {gate_hh, gate_empty_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
