/*
 * The hang watch where no xgasrun watches the PEs (a PMIx launcher:
 * mpirun, srun): a thread of each node's first PE runs the watch of
 * ctl_watch.c over the slots of its node's PEs, which every PE of the node
 * shares in the node's control area.  On a job of one node it sees the
 * whole job, so a proven deadlock ends the job through the launcher
 * (PMIx_Abort) after printing the per-PE report, as xgasrun does; on a job
 * of several nodes it reports its node's PEs when they are all blocked but
 * leaves the job running, since a PE of another node might end their wait.
 *
 * SIGUSR1, which mpirun and srun forward to every process of the job,
 * prints the report of each node's PEs and the job goes on: every PE of
 * the job handles it (its default action would kill the PE) unless the
 * program had a handler of its own at start-up; only the watching PE's
 * handler does something, waking the watch thread.
 *
 * The thread only reads shared memory and /proc, sleeps between looks on a
 * semaphore (the one thing the signal handler touches), and counts as a
 * helper thread of its PE, so it does not stand in the way of a proof.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"
#include "boot/xg_ctl_watch.h"

static xg_ctl_watch_t node_watch;
static sem_t node_watch_wake;
static volatile sig_atomic_t node_watch_running;

static void node_watch_on_signal(int sig)
{
    int saved = errno;

    (void)sig;
    if (node_watch_running) {
        sem_post(&node_watch_wake);
    }
    errno = saved;
}

/* Adds the PEs of the node that attached to the control area since the
 * last look (a PE stores its pid there when it joins). */
static void node_watch_find_pes(void)
{
    int32_t pid;
    int i, rank;

    for (i = 0; i < xg_boot.local_npes; i++) {
        rank = xg_boot_rank_at(xg_boot.node, i);
        if ((node_watch.pe[rank].pid == 0) && !node_watch.pe[rank].exited) {
            pid = atomic_load_explicit(&xg_boot.ctl->pe[rank].pid,
                                       memory_order_relaxed);
            xg_ctl_watch_started(&node_watch, rank, pid);
        }
    }
}

static void *node_watch_main(void *arg)
{
    struct timespec until;
    int signalled;
    long ms;

    (void)arg;
    for (;;) {
        ms = xg_ctl_watch_poll_ms(&node_watch);
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += ms / 1000;
        until.tv_nsec += (ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        signalled =
            (sem_clockwait(&node_watch_wake, CLOCK_MONOTONIC, &until) == 0);
        node_watch_find_pes();
        xg_ctl_watch_reap(&node_watch);
        if (signalled) {
            xg_ctl_watch_report(&node_watch, "SIGUSR1: state of the PEs at "
                                             "the last look:");
        } else if (xg_ctl_watch_tick(&node_watch)) {
            xg_boot_abort_why(1, "the xgas hang watch found the job "
                                 "deadlocked (see its report)");
        }
    }
    return NULL;
}

/* SIGUSR1 prints the report instead of killing the PE, unless the program
 * handles or ignores it already. */
static void node_watch_catch_sigusr1(void)
{
    struct sigaction now, ours;

    if ((sigaction(SIGUSR1, NULL, &now) != 0) || (now.sa_handler != SIG_DFL) ||
        (now.sa_flags & SA_SIGINFO)) {
        return;
    }
    memset(&ours, 0, sizeof(ours));
    ours.sa_handler = node_watch_on_signal;
    ours.sa_flags   = SA_RESTART;
    sigemptyset(&ours.sa_mask);
    sigaction(SIGUSR1, &ours, NULL);
}

void xg_boot_node_watch_start(void)
{
    char who[64];
    sigset_t all, saved;
    pthread_t thread;
    int rc;

    node_watch_catch_sigusr1();
    if (xg_boot.local_rank != 0) {
        return;
    }
    if (xg_boot.nnodes > 1) {
        snprintf(who, sizeof(who), "xgas hang watch, node %d", xg_boot.node);
    } else {
        snprintf(who, sizeof(who), "xgas hang watch");
    }
    if ((sem_init(&node_watch_wake, 0, 0) != 0) ||
        (xg_ctl_watch_init(&node_watch, xg_boot.ctl, xg_boot.npes,
                           xg_config.hang_timeout, who,
                           xg_boot.nnodes == 1) != 0)) {
        xg_warn("boot",
                "the hang watch of node %d cannot start: a deadlock "
                "will not be reported",
                xg_boot.node);
        return;
    }
    node_watch_find_pes();
    /* the thread takes no signal of the program's, but its faults stay
     * deliverable: its writes to libxgas's globals while shmem_init moves
     * them fault, and the move's SIGSEGV handler makes them wait (a
     * blocked fault signal would kill the process instead) */
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGFPE);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    rc = pthread_create(&thread, NULL, node_watch_main, NULL);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0) {
        xg_warn("boot",
                "the hang watch of node %d cannot start (%s): a "
                "deadlock will not be reported",
                xg_boot.node, strerror(rc));
        xg_ctl_watch_fini(&node_watch);
        return;
    }
    pthread_detach(thread);
    xg_boot_helper_threads(1);
    node_watch_running = 1;
}
