/* A payload handler that takes a while (a few microseconds), so that
 * packets pile up in the engine. */
#include <handler.h>

__handler__ void slow_ph(handler_args_t *args)
{
    volatile uint32_t x = args->hpu_gid;
    uint32_t i;

    for (i = 0; i < 2000; i++) {
        x = x * 1103515245u + 12345u;
    }
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, slow_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
