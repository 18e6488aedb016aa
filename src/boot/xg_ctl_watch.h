/*
 * xgasrun's hang watch: looks at what each PE publishes in its control
 * slot (boot/xg_ctl.h, written by boot/watch.c) every few hundred
 * milliseconds, prints a report of every PE's state on request (SIGUSR1,
 * or when a PE's failure ends the job), and finds a deadlock: every live
 * PE blocked in the same xgas wait, with no progress, for XGAS_HANG_TIMEOUT
 * seconds.  It only reads the control area: it never signals a PE.
 */
#ifndef XGASRUN_WATCH_H
#define XGASRUN_WATCH_H

#include <stdint.h>
#include <sys/types.h>

#include "boot/xg_ctl.h"

typedef struct xg_run_watch_pe {
    pid_t    pid;        /* 0 before the start and after the exit */
    int      exited;
    int      blocked;    /* at the last look: still in the same wait */
    uint64_t gen;        /* the slot's gen and heartbeat at the last look */
    uint64_t heartbeat;
    /* times of the first and of the latest look that saw the heartbeat
     * of wait @gen move: the PE was in that wait all along in between
     * (0: not seen in it yet) */
    uint64_t in_wait_from;
    uint64_t in_wait_until;
} xg_run_watch_pe_t;

typedef struct xg_run_watch {
    xg_ctl_t          *ctl;
    int                npes;
    uint64_t           timeout_ns;  /* 0: never end the job */
    uint64_t           period_ns;   /* between looks */
    uint64_t           next_ns;     /* time of the next look */
    uint64_t           last_exit;   /* time of the look after the last
                                     * PE exit */
    int                exits;       /* PE exits since the last look */
    int                warned;      /* a "cannot prove it" report is out */
    xg_run_watch_pe_t *pe;
} xg_run_watch_t;

/* 0, or -1 after saying why (out of memory). */
int xg_run_watch_init(xg_run_watch_t *w, xg_ctl_t *ctl, int npes,
                      long timeout_s);
void xg_run_watch_fini(xg_run_watch_t *w);

void xg_run_watch_started(xg_run_watch_t *w, int rank, pid_t pid);
void xg_run_watch_exited(xg_run_watch_t *w, int rank);

/* Milliseconds until the next look is due (for poll). */
int xg_run_watch_poll_ms(const xg_run_watch_t *w);

/* Looks at the PEs if a look is due; returns 1 when the job is
 * deadlocked (the report is then printed), else 0. */
int xg_run_watch_tick(xg_run_watch_t *w);

/* Prints, after the line @headline, one line per PE: what it is blocked
 * in, or that it runs user code, or that it exited. */
void xg_run_watch_report(xg_run_watch_t *w, const char *headline);

/* The same, only if some PE is blocked in an xgas wait (after a PE's
 * failure: where the others wait, if they do). */
void xg_run_watch_report_if_blocked(xg_run_watch_t *w, const char *headline);

#endif
