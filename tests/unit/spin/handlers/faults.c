/*
 * Handlers that misbehave, one way each (test_faults.c runs every one
 * and checks that the engine stops it, reports it and goes on), and a
 * well-behaved one that counts packets in handler memory.
 */
#define CHECK_ASSERTS
#include <handler.h>
#include <packets.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* An address in the NIC memory window that nothing maps: the gap after
 * cluster 0's L1 (spin_hw_conf.h). */
#define UNMAPPED         ((volatile uint32_t *)(uintptr_t)(L1_CLUSTER_BASE_ + 0x200000))
#define L1_CLUSTER_BASE_ 0x10000000u

volatile uint32_t sink;
volatile uint32_t depth_limit = UINT32_MAX; /* never reached */

__handler__ void good_ph(handler_args_t *args)
{
    amo_add((volatile int32_t *)args->task->handler_mem, 1);
}

__handler__ void segv_ph(handler_args_t *args)
{
    (void)args;
    *UNMAPPED = 1;
}

__handler__ void null_ph(handler_args_t *args)
{
    volatile uint32_t *volatile p = NULL;

    (void)args;
    sink = *p;
}

/* Recurses with a large frame until the guard page below the stack. */
__handler__ void deep(handler_args_t *args, uint32_t depth)
{
    volatile uint8_t frame[4096];

    if (depth == depth_limit) {
        return;
    }
    frame[0]    = (uint8_t)depth;
    frame[4095] = (uint8_t)depth;
    deep(args, depth + 1);
    sink += frame[0] + frame[4095];
}

__handler__ void stack_ph(handler_args_t *args)
{
    deep(args, 0);
}

__handler__ void loop_ph(handler_args_t *args)
{
    volatile uint32_t x = 0;

    (void)args;
    for (;;) {
        x++;
    }
}

/* Spins inside a library call (the C library's nanosleep): stopped by
 * the watchdog's forced stop. */
__handler__ void libc_loop_ph(handler_args_t *args)
{
    struct timespec ts = {0, 1000};

    (void)args;
    for (;;) {
        nanosleep(&ts, NULL);
    }
}

/* Holds every signal back while it burns 0.6 s of CPU time (a hundred
 * watchdog ticks past its threshold), then lets them in and loops.  The
 * watchdog must not have queued a signal per tick meanwhile: taken all at
 * once, nested, they overflowed the HPU's signal stack. */
__handler__ void masked_ph(handler_args_t *args)
{
    struct timespec start, now;
    sigset_t all;

    (void)args;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    do {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L +
                 (now.tv_nsec - start.tv_nsec) <
             600000000L);
    pthread_sigmask(SIG_UNBLOCK, &all, NULL);
    for (;;) {
        sink++;
    }
}

/* Blocked in one system call that never returns by itself: the
 * watchdog's signal interrupts it (wall time) and the handler returns;
 * it ran too long all the same. */
__handler__ void pause_ph(handler_args_t *args)
{
    (void)args;
    pause();
}

/* Try to end the process or the HPU thread: contained as faults. */
__handler__ void exit_ph(handler_args_t *args)
{
    (void)args;
    exit(3);
}

__handler__ void _exit_ph(handler_args_t *args)
{
    (void)args;
    _exit(4);
}

__handler__ void pthread_exit_ph(handler_args_t *args)
{
    (void)args;
    pthread_exit(NULL);
}

__handler__ void raise_hup_ph(handler_args_t *args)
{
    (void)args;
    raise(SIGHUP); /* default action: terminate */
}

__handler__ void raise_kill_ph(handler_args_t *args)
{
    (void)args;
    raise(SIGKILL);
}

/* Polls a command forever: stopped when a command returns. */
__handler__ void cmd_loop_ph(handler_args_t *args)
{
    spin_cmd_t h;
    bool done;

    spin_write_to_host(((uint64_t)args->task->host_mem_high << 32) |
                           args->task->host_mem_low,
                       1, &h);
    for (;;) {
        spin_cmd_test(h, &done);
    }
}

__handler__ void ill_ph(handler_args_t *args)
{
    (void)args;
    __builtin_trap();
}

__handler__ void fpe_ph(handler_args_t *args)
{
    volatile int zero = 0;

    sink = (uint32_t)(args->hpu_gid / zero);
}

__handler__ void abort_ph(handler_args_t *args)
{
    (void)args;
    abort();
}

/* Touches a file mapping past the file's end (SIGBUS). */
__handler__ void bus_ph(handler_args_t *args)
{
    char name[] = "/tmp/xgas-spin-bus-XXXXXX";
    int fd      = mkstemp(name);
    volatile uint8_t *p;

    (void)args;
    if (fd < 0) {
        return;
    }
    unlink(name);
    p = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        return;
    }
    sink = p[4096];
}

__handler__ void dma_out_ph(handler_args_t *args)
{
    task_t *t     = args->task;
    uint64_t host = ((uint64_t)t->host_mem_high << 32) | t->host_mem_low;

    /* one byte past the window */
    spin_dma_to_host(host + t->host_mem_size - 4,
                     (uint32_t)(uintptr_t)t->pkt_mem, 8, false, NULL);
}

__handler__ void nic_out_ph(handler_args_t *args)
{
    task_t *t     = args->task;
    uint64_t host = ((uint64_t)t->host_mem_high << 32) | t->host_mem_low;

    /* NIC memory of nobody: the start of the L2 handler memory is
     * the context's, 3 MiB further is not (the test gives 64 KiB) */
    spin_dma_from_host(host,
                       (uint32_t)(uintptr_t)t->handler_mem + 3 * 1024 * 1024, 8,
                       false, NULL);
}

__handler__ void write_out_ph(handler_args_t *args)
{
    (void)args;
    spin_write_to_host(0xdeadbeef, 0xcafebebe, NULL);
}

__handler__ void send_ph(handler_args_t *args)
{
    spin_send_packet(args->task->pkt_mem, 64, NULL);
}

__handler__ void terminate_ph(handler_args_t *args)
{
    (void)args;
    TERMINATE;
}

__handler__ void assert_ph(handler_args_t *args)
{
    ASSERT(args->hpu_gid == 12345678);
}

/* A fault in a header handler: the message's packets are dropped. */
__handler__ void segv_hh(handler_args_t *args)
{
    segv_ph(args);
}

void init_handlers(handler_fn *hh, handler_fn *ph, handler_fn *th,
                   void **handler_mem_ptr)
{
    volatile handler_fn handlers[] = {NULL, good_ph, NULL};

    *hh = handlers[0];
    *ph = handlers[1];
    *th = handlers[2];
    (void)handler_mem_ptr;
}
