/*
 * The hang watch: looks at what each PE publishes in its control slot
 * (boot/xg_ctl.h, written by boot/watch.c) every few hundred milliseconds,
 * prints a report of every PE's state on request (SIGUSR1, or when a PE's
 * failure ends the job), and finds a deadlock: every live PE blocked in an
 * xgas wait, with no progress, for XGAS_HANG_TIMEOUT seconds.  It only
 * reads the control area and /proc: it never signals a PE.
 *
 * Two watchers use it: xgasrun, which started every PE of the job, and
 * under a PMIx launcher the node watcher of boot/node_watch.c, a thread of
 * each node's first PE that sees the PEs of its node only.  A watch that
 * does not see the whole job (complete = 0) reports, but never ends a job:
 * a PE it cannot see might still end the wait of those it sees.
 */
#ifndef XG_CTL_WATCH_H
#define XG_CTL_WATCH_H

#include <stdint.h>
#include <sys/types.h>

#include "boot/xg_ctl.h"

typedef struct xg_ctl_watch_pe {
    pid_t pid;   /* 0 before the start and after the exit */
    int watched; /* started on the watch's side (its node) */
    int exited;
    int blocked;  /* at the last look: still in the same wait */
    uint64_t gen; /* the slot's gen and heartbeat at the last look */
    uint64_t heartbeat;
    /* times of the first and of the latest look that saw the heartbeat
     * of wait @gen move: the PE was in that wait all along in between
     * (0: not seen in it yet) */
    uint64_t in_wait_from;
    uint64_t in_wait_until;
} xg_ctl_watch_pe_t;

typedef struct xg_ctl_watch {
    xg_ctl_t *ctl;
    int npes;
    uint64_t timeout_ns; /* 0: never end the job */
    uint64_t period_ns;  /* between looks */
    uint64_t next_ns;    /* time of the next look */
    uint64_t last_exit;  /* time of the look after the last
                                     * PE exit */
    int exits;           /* PE exits since the last look */
    int warned;          /* a "cannot prove it" report is out */
    int complete;        /* the watched PEs are the whole job */
    char who[64];        /* prefix of its lines: "xgasrun" */
    xg_ctl_watch_pe_t *pe;
} xg_ctl_watch_t;

/* A watch of the PEs of a job of @npes whose slots are in @ctl, each
 * PE added by xg_ctl_watch_started; its lines start "<who>: ".  0, or -1
 * after saying why (out of memory). */
int xg_ctl_watch_init(xg_ctl_watch_t *w, xg_ctl_t *ctl, int npes,
                      long timeout_s, const char *who, int complete);
void xg_ctl_watch_fini(xg_ctl_watch_t *w);

void xg_ctl_watch_started(xg_ctl_watch_t *w, int rank, pid_t pid);
void xg_ctl_watch_exited(xg_ctl_watch_t *w, int rank);

/* For a watcher that is not the PEs' parent: marks the watched PEs whose
 * process has ended as exited. */
void xg_ctl_watch_reap(xg_ctl_watch_t *w);

/* Threads of process @pid (from /proc), or 0 if unknown. */
int xg_ctl_proc_threads(pid_t pid);

/* Milliseconds until the next look is due (for poll). */
int xg_ctl_watch_poll_ms(const xg_ctl_watch_t *w);

/* Looks at the PEs if a look is due; returns 1 when the job is
 * deadlocked (the report is then printed), else 0 (always 0 for a watch
 * that does not see the whole job). */
int xg_ctl_watch_tick(xg_ctl_watch_t *w);

/* Prints, after the line @headline, one line per PE: what it is blocked
 * in, or that it runs user code, or that it exited. */
void xg_ctl_watch_report(xg_ctl_watch_t *w, const char *headline);

/* The same, only if some PE is blocked in an xgas wait (after a PE's
 * failure: where the others wait, if they do). */
void xg_ctl_watch_report_if_blocked(xg_ctl_watch_t *w, const char *headline);

#endif
