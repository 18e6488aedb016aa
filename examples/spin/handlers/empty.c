/* empty: a payload handler that does nothing (the engine's own cost). */
#include <handler.h>

__handler__ void empty_ph(handler_args_t *args)
{
    (void)args;
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, empty_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
