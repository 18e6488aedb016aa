/*
 * The benchmark's handler file.
 *
 * The gated message: its header handler waits until the host opens the
 * gate (a word in handler memory), so that the payload packets pile up
 * behind it and are then processed in one burst with the host idle -- the
 * engine's own rate, without the injector in the way.  The payload
 * handler is empty (gate_empty_ph) or runs a given number of integer
 * instructions (gate_work_ph: PsPIN's Fig. 8 handlers).
 *
 * gate_stamp_ph writes the time it starts into handler memory: the
 * scheduling latency, packet arrival to handler start.
 *
 * timed_hh/ph/th call the handlers the host put in timed_inner[] (a use
 * case's, from its own file) and add up how long each call took: the
 * handlers' execution time on an HPU, in place, commands included.
 */
#include <handler.h>
#include <sched.h>
#include <time.h>

/* handler memory: the gate, then the instruction count of gate_work_ph,
 * then gate_stamp_ph's time */
typedef struct gate_mem {
    uint32_t gate;
    uint32_t instr;
    uint64_t stamp_ns;
} gate_mem_t;

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

/* @n single-cycle integer adds in one dependent chain (PsPIN's handlers
 * of Fig. 8 execute x such instructions); on x86 a loop branch and a
 * counter step come with every four */
static void work(uint32_t n)
{
    uint64_t acc = 0;
    uint32_t i;

    for (i = 0; i + 4 <= n; i += 4) {
#if defined(__x86_64__)
        __asm__ volatile("add $1, %0\n\tadd $3, %0\n\tadd $5, %0\n\t"
                         "add $7, %0"
                         : "+r"(acc));
#else
        __asm__ volatile("" : "+r"(acc));
        acc += 16;
#endif
    }
    __asm__ volatile("" : : "r"(acc));
}

__handler__ void gate_work_ph(handler_args_t *args)
{
    work(((volatile gate_mem_t *)args->task->handler_mem)->instr);
}

__handler__ void gate_stamp_ph(handler_args_t *args)
{
    uint64_t t = now_ns();

    __atomic_store_n(&((gate_mem_t *)args->task->handler_mem)->stamp_ns, t,
                     __ATOMIC_RELEASE);
}

/* set by the benchmark (it opens this file itself, the engine then gets
 * the same instance): the use case's header, payload, completion
 * handlers, and per kind the nanoseconds and calls so far; the first
 * TIMED_SAMPLES payload calls' times one by one (for a median: a call
 * the host's scheduler interrupted would weigh on a mean) */
#define TIMED_SAMPLES 65536
handler_fn timed_inner[3];
uint64_t timed_ns[3], timed_calls[3];
uint32_t timed_ph_ns[TIMED_SAMPLES];

static void timed(handler_args_t *args, unsigned kind)
{
    uint64_t t0 = now_ns(), t1 = now_ns(), t2, ns, at;

    timed_inner[kind](args);
    t2 = now_ns();
    /* t1 - t0 is the cost of reading the clock, which t2 - t1 has once */
    ns = (t2 - t1 > t1 - t0) ? (t2 - t1) - (t1 - t0) : 0;
    __atomic_fetch_add(&timed_ns[kind], ns, __ATOMIC_RELAXED);
    at = __atomic_fetch_add(&timed_calls[kind], 1, __ATOMIC_RELAXED);
    if ((kind == 1) && (at < TIMED_SAMPLES)) {
        timed_ph_ns[at] = (uint32_t)((ns < UINT32_MAX) ? ns : UINT32_MAX);
    }
}

__handler__ void timed_hh(handler_args_t *args)
{
    timed(args, 0);
}

__handler__ void timed_ph(handler_args_t *args)
{
    timed(args, 1);
}

__handler__ void timed_th(handler_args_t *args)
{
    timed(args, 2);
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
