/*
 * The hang watch over the control area (see xg_ctl_watch.h).
 *
 * A PE is "blocked" at a look when its slot shows the same published wait
 * (gen) as at the previous look and the wait's heartbeat moved in between:
 * the PE spent the whole interval polling that one wait.  A PE whose
 * heartbeat stands still is taken to run user code (or not to be
 * scheduled), so a long computation is never mistaken for a hang.
 *
 * The proof of a deadlock does not depend on how often a PE runs: the
 * heartbeat moves only while the PE polls its published wait, and a new
 * wait has a new gen, so two looks that both saw the heartbeat of one gen
 * move prove that the PE was in that wait for the whole time in between
 * (in_wait_from .. in_wait_until), however seldom it was scheduled --
 * looks in between at which it did not run prove nothing either way.  The
 * job is deadlocked when those times of every PE that is alive and not
 * finalized overlap for XGAS_HANG_TIMEOUT seconds and nobody exited
 * meanwhile; a PE running several threads might be woken by one of them,
 * so then the report is printed but the job goes on.
 */
#include "boot/xg_ctl_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xg_compiler.h"
#include "base/xg_time.h"

enum {
    WATCH_PERIOD_MS     = 500, /* between looks, at most */
    WATCH_PERIOD_MIN_MS = 100
};

/* One line "<who>: ..." to stderr in one write. */
static XG_PRINTF(2, 3) void watch_say(const xg_ctl_watch_t *w, const char *fmt,
                                      ...)
{
    char line[1024];
    size_t len;
    va_list ap;

    len = (size_t)snprintf(line, sizeof(line), "%s: ", w->who);
    va_start(ap, fmt);
    vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
    va_end(ap);
    len         = strlen(line);
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, len) < 0) {
        /* nowhere to report to */
    }
}

int xg_ctl_watch_init(xg_ctl_watch_t *w, xg_ctl_t *ctl, int npes,
                      long timeout_s, const char *who, int complete)
{
    uint64_t period_ms = WATCH_PERIOD_MS;

    memset(w, 0, sizeof(*w));
    w->ctl      = ctl;
    w->npes     = npes;
    w->complete = complete;
    snprintf(w->who, sizeof(w->who), "%s", who);
    w->pe = calloc((size_t)npes, sizeof(*w->pe));
    if (w->pe == NULL) {
        watch_say(w, "cannot allocate the hang watch of %d PEs", npes);
        return -1;
    }
    if (timeout_s > 1000000000L) {
        timeout_s = 1000000000L; /* 30 years: no overflow below */
    }
    if (timeout_s > 0) {
        w->timeout_ns = (uint64_t)timeout_s * 1000000000u;
        /* at least four looks per timeout */
        if ((uint64_t)timeout_s * 1000u / 4u < period_ms) {
            period_ms = (uint64_t)timeout_s * 1000u / 4u;
        }
    }
    if (period_ms < WATCH_PERIOD_MIN_MS) {
        period_ms = WATCH_PERIOD_MIN_MS;
    }
    w->period_ns = period_ms * 1000000u;
    w->next_ns   = xg_time_ns() + w->period_ns;
    w->last_exit = xg_time_ns();
    return 0;
}

void xg_ctl_watch_fini(xg_ctl_watch_t *w)
{
    free(w->pe);
    w->pe = NULL;
}

void xg_ctl_watch_started(xg_ctl_watch_t *w, int rank, pid_t pid)
{
    w->pe[rank].pid     = pid;
    w->pe[rank].watched = 1;
}

void xg_ctl_watch_exited(xg_ctl_watch_t *w, int rank)
{
    w->pe[rank].pid    = 0;
    w->pe[rank].exited = 1;
    w->exits++;
}

int xg_ctl_watch_poll_ms(const xg_ctl_watch_t *w)
{
    uint64_t now = xg_time_ns();

    return (now >= w->next_ns) ? 0
                               : (int)((w->next_ns - now + 999999u) / 1000000u);
}

static uint32_t watch_state(const xg_ctl_watch_t *w, int rank)
{
    return atomic_load_explicit(&w->ctl->pe[rank].state, memory_order_acquire);
}

/* Copies the published text of PE @rank's wait (and the object waited
 * for, 0: none); 0 if it was stable. */
static int watch_read_text(const xg_ctl_watch_t *w, int rank, char *routine,
                           char *detail, int *peer, uint64_t *object)
{
    xg_ctl_wait_t *slot = &w->ctl->pe[rank].wait;
    uint64_t before, after;
    int tries;

    for (tries = 0; tries < 8; tries++) {
        before = atomic_load_explicit(&slot->gen, memory_order_acquire);
        xg_ctl_text_load(routine, slot->routine, XG_CTL_WAIT_ROUTINE);
        xg_ctl_text_load(detail, slot->detail, XG_CTL_WAIT_DETAIL);
        *peer   = atomic_load_explicit(&slot->peer, memory_order_relaxed);
        *object = atomic_load_explicit(&slot->object, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        after = atomic_load_explicit(&slot->gen, memory_order_relaxed);
        if (!(before & 1) && (before == after)) {
            return 0;
        }
    }
    return -1;
}

int xg_ctl_proc_threads(pid_t pid)
{
    char path[64], line[128];
    int threads = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "Threads: %d", &threads) == 1) {
            break;
        }
    }
    fclose(f);
    return threads;
}

/* The scheduler state of process @pid (the letter of /proc/<pid>/stat:
 * R, S, D, T for stopped by a signal, t for stopped by a tracer, ...), or
 * 0 if unknown. */
static char watch_proc_state(pid_t pid)
{
    char path[64], buf[512], *paren;
    ssize_t n;
    int fd;

    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) {
        return 0;
    }
    buf[n] = '\0';
    /* "pid (comm) S ...": comm may hold spaces and parentheses */
    paren = strrchr(buf, ')');
    return ((paren != NULL) && (paren[1] == ' ')) ? paren[2] : 0;
}

static int watch_stopped(pid_t pid)
{
    char state = watch_proc_state(pid);

    return (state == 'T') || (state == 't');
}

void xg_ctl_watch_reap(xg_ctl_watch_t *w)
{
    char state;
    int rank;

    for (rank = 0; rank < w->npes; rank++) {
        if (w->pe[rank].pid <= 0) {
            continue;
        }
        /* a zombie has exited; its parent (the launcher) reaps it */
        state = watch_proc_state(w->pe[rank].pid);
        if ((state == 'Z') || (state == 'X') ||
            ((kill(w->pe[rank].pid, 0) != 0) && (errno == ESRCH))) {
            xg_ctl_watch_exited(w, rank);
        }
    }
}

/* Takes a look at every PE at time @now; returns how long every live,
 * unfinalized PE has provably been in one wait each, all at once, since
 * the last exit (0 if some PE has not). */
static uint64_t watch_look(xg_ctl_watch_t *w, uint64_t now)
{
    xg_ctl_watch_pe_t *p;
    uint64_t gen, heartbeat, from = w->last_exit, until = UINT64_MAX;
    int rank, live = 0, proven = 1;

    if (w->exits > 0) {
        w->last_exit = now;
        from         = now;
    }
    for (rank = 0; rank < w->npes; rank++) {
        p = &w->pe[rank];
        if (p->pid <= 0) {
            p->blocked = 0;
            continue;
        }
        gen        = atomic_load_explicit(&w->ctl->pe[rank].wait.gen,
                                          memory_order_acquire);
        heartbeat  = atomic_load_explicit(&w->ctl->pe[rank].wait.heartbeat,
                                          memory_order_relaxed);
        p->blocked = (gen != 0) && !(gen & 1) && (gen == p->gen) &&
                     (heartbeat != p->heartbeat);
        if (gen != p->gen) {
            p->in_wait_from = p->in_wait_until = 0; /* a new wait */
        } else if (p->blocked) {
            if (p->in_wait_from == 0) {
                p->in_wait_from = now;
            }
            p->in_wait_until = now;
        }
        p->gen       = gen;
        p->heartbeat = heartbeat;
        if (watch_state(w, rank) == XG_PE_FINALIZED) {
            continue; /* leaving: neither blocked nor progressing */
        }
        live++;
        if (p->in_wait_from == 0) {
            proven = 0; /* not seen in a wait (yet): look at the others */
            continue;
        }
        from  = (p->in_wait_from > from) ? p->in_wait_from : from;
        until = (p->in_wait_until < until) ? p->in_wait_until : until;
    }
    return (proven && (live > 0) && (until > from)) ? until - from : 0;
}

/* 1 if every blocked PE runs a single thread besides its helper threads
 * (nothing else can wake it); otherwise names one that does not. */
static int watch_single_threaded(const xg_ctl_watch_t *w, int *rank_p,
                                 int *threads_p)
{
    int rank, threads;

    for (rank = 0; rank < w->npes; rank++) {
        if ((w->pe[rank].pid > 0) && (w->pe[rank].in_wait_from != 0)) {
            threads = xg_ctl_proc_threads(w->pe[rank].pid);
            if (threads > 0) { /* 0: unknown */
                threads -= atomic_load_explicit(&w->ctl->pe[rank].helpers,
                                                memory_order_relaxed);
            }
            if (threads != 1) {
                *rank_p    = rank;
                *threads_p = threads;
                return 0;
            }
        }
    }
    return 1;
}

int xg_ctl_watch_tick(xg_ctl_watch_t *w)
{
    uint64_t now = xg_time_ns();
    char headline[256];
    int rank = -1, threads = 0;
    uint64_t stuck;

    if (now < w->next_ns) {
        return 0;
    }
    w->next_ns = now + w->period_ns;
    stuck      = watch_look(w, now);
    w->exits   = 0;
    if (stuck == 0) {
        w->warned = 0;
    }
    if ((w->timeout_ns == 0) || (stuck < w->timeout_ns)) {
        return 0;
    }
    /* proven: the report shows every PE in the wait it was proven in,
     * even one the load kept from running since the last look */
    for (rank = 0; rank < w->npes; rank++) {
        if ((w->pe[rank].pid > 0) && (w->pe[rank].in_wait_from != 0)) {
            w->pe[rank].blocked = 1;
        }
    }
    rank = -1;
    if (!w->complete) {
        /* the PEs of other nodes may still be computing */
        if (!w->warned) {
            snprintf(headline, sizeof(headline),
                     "every PE of this node has been blocked in xgas for "
                     "%llu s (XGAS_HANG_TIMEOUT); the PEs of the other nodes "
                     "cannot be seen from here, so the job goes on (each "
                     "node's watch reports its own PEs)",
                     (unsigned long long)(w->timeout_ns / 1000000000u));
            xg_ctl_watch_report(w, headline);
            w->warned = 1;
        }
        return 0;
    }
    if (watch_single_threaded(w, &rank, &threads)) {
        snprintf(headline, sizeof(headline),
                 "every PE still running has been blocked in xgas for %llu s "
                 "without progress (XGAS_HANG_TIMEOUT): the job is "
                 "deadlocked; ending it",
                 (unsigned long long)(w->timeout_ns / 1000000000u));
        xg_ctl_watch_report(w, headline);
        return 1;
    }
    if (!w->warned) {
        snprintf(headline, sizeof(headline),
                 "every PE still running has been blocked in xgas for %llu s "
                 "(XGAS_HANG_TIMEOUT), but PE %d runs %d threads, one of "
                 "which may still end the wait: not ending the job",
                 (unsigned long long)(w->timeout_ns / 1000000000u), rank,
                 threads);
        xg_ctl_watch_report(w, headline);
        w->warned = 1;
    }
    return 0;
}

/* The object PE @rank was blocked waiting for at the last look, or 0;
 * sets *peer_p to the PE it waits for. */
static uint64_t watch_waits_for(const xg_ctl_watch_t *w, int rank, int *peer_p)
{
    char routine[XG_CTL_WAIT_ROUTINE], detail[XG_CTL_WAIT_DETAIL];
    uint64_t object;

    if ((w->pe[rank].pid <= 0) || !w->pe[rank].blocked ||
        (watch_read_text(w, rank, routine, detail, peer_p, &object) != 0)) {
        return 0;
    }
    return object;
}

/*
 * The PE that holds @object (a lock) which PE @rank waits for, handed on
 * by @peer: the waiters for one lock form a chain, each waiting for the
 * PE before it in the queue, and the first PE of the chain that is not
 * blocked waiting for that object holds it.  -1 if the chain is broken
 * (a PE out of range, or a loop while the records change).
 */
static int watch_holder(const xg_ctl_watch_t *w, uint64_t object, int peer)
{
    int steps, next;

    for (steps = 0; steps < w->npes; steps++) {
        if ((peer < 0) || (peer >= w->npes)) {
            return -1;
        }
        if (watch_waits_for(w, peer, &next) != object) {
            return peer;
        }
        peer = next;
    }
    return -1;
}

/* Appends to @line what PE @rank holds that blocked PEs wait for. */
static void watch_held_by(const xg_ctl_watch_t *w, int rank, char *line,
                          size_t size)
{
    uint64_t object, seen = 0;
    size_t len = strlen(line);
    int r, peer, waiters = 0;

    for (r = 0; r < w->npes; r++) {
        object = watch_waits_for(w, r, &peer);
        if ((object == 0) || (watch_holder(w, object, peer) != rank)) {
            continue;
        }
        if (waiters == 0) {
            seen = object;
            snprintf(line + len, size - len, "; holds the lock that PE %d", r);
        } else if (object == seen) {
            snprintf(line + len, size - len, ", PE %d", r);
        } else {
            continue; /* another lock of the same PE: one is enough */
        }
        len = strlen(line);
        waiters++;
    }
    if (waiters > 0) {
        snprintf(line + len, size - len, " wait%s for",
                 (waiters == 1) ? "s" : "");
    }
}

static const char *watch_state_name(uint32_t state)
{
    switch (state) {
    case XG_PE_STARTED: return "before shmem_init";
    case XG_PE_INITIALIZED: return "initialized";
    case XG_PE_FINALIZING: return "in shmem_finalize";
    case XG_PE_FINALIZED: return "finalized";
    case XG_PE_EXITING: return "finalizing in exit()";
    default: return "in an unknown state";
    }
}

/* Writes the report line of PE @rank into @line; returns 1 if the PE is
 * blocked in an xgas wait. */
static int watch_pe_line(const xg_ctl_watch_t *w, int rank, char *line,
                         size_t size)
{
    char routine[XG_CTL_WAIT_ROUTINE], detail[XG_CTL_WAIT_DETAIL];
    const xg_ctl_watch_pe_t *p = &w->pe[rank];
    uint32_t state             = watch_state(w, rank);
    uint64_t gen, heartbeat, object = 0;
    int peer, stable, blocked, holder;
    size_t len;

    if (p->pid <= 0) {
        snprintf(line, size, "  PE %d: %s", rank,
                 !p->exited                   ? "not started"
                 : (state == XG_PE_FINALIZED) ? "exited after shmem_finalize"
                                              : "exited");
        return 0;
    }
    /* fresh evidence first: a wait published since the last look, or the
     * heartbeat of the same wait moving since then */
    gen =
        atomic_load_explicit(&w->ctl->pe[rank].wait.gen, memory_order_acquire);
    heartbeat = atomic_load_explicit(&w->ctl->pe[rank].wait.heartbeat,
                                     memory_order_relaxed);
    stable    = (gen != 0) &&
             (watch_read_text(w, rank, routine, detail, &peer, &object) == 0);
    if (watch_stopped(p->pid)) {
        /* its heartbeat stands still, but it runs no user code either */
        if (stable) {
            snprintf(line, size,
                     "  PE %d (pid %d): stopped (SIGSTOP or a "
                     "debugger), %s (its last xgas wait, %llu, was in %s)",
                     rank, (int)p->pid, watch_state_name(state),
                     (unsigned long long)(gen / 2), routine);
        } else {
            snprintf(line, size,
                     "  PE %d (pid %d): stopped (SIGSTOP or a "
                     "debugger), %s",
                     rank, (int)p->pid, watch_state_name(state));
        }
        watch_held_by(w, rank, line, size);
        return 0;
    }
    blocked = p->blocked || (gen != p->gen) ||
              ((gen != 0) && (heartbeat != p->heartbeat));
    if (blocked && stable) {
        snprintf(line, size,
                 "  PE %d (pid %d): blocked in %s: %s [wait %llu, "
                 "%s]",
                 rank, (int)p->pid, routine, detail,
                 (unsigned long long)(gen / 2), watch_state_name(state));
        holder = (object != 0) ? watch_holder(w, object, peer) : -1;
        if (holder >= 0) {
            len = strlen(line);
            snprintf(line + len, size - len, "; the lock is held by PE %d",
                     holder);
        }
        watch_held_by(w, rank, line, size);
        return 1;
    }
    if (state == XG_PE_FINALIZED) {
        snprintf(line, size, "  PE %d (pid %d): finalized, exiting", rank,
                 (int)p->pid);
    } else if (stable) {
        snprintf(line, size,
                 "  PE %d (pid %d): running user code, %s (its "
                 "last xgas wait, %llu, was in %s)",
                 rank, (int)p->pid, watch_state_name(state),
                 (unsigned long long)(gen / 2), routine);
    } else {
        snprintf(line, size, "  PE %d (pid %d): running user code, %s", rank,
                 (int)p->pid, watch_state_name(state));
    }
    watch_held_by(w, rank, line, size);
    return 0;
}

/* 1 if the reports list PE @rank: every PE of the job when the watch
 * sees them all, else only those it watches. */
static int watch_lists(const xg_ctl_watch_t *w, int rank)
{
    return w->complete || w->pe[rank].watched;
}

void xg_ctl_watch_report(xg_ctl_watch_t *w, const char *headline)
{
    char line[XG_CTL_WAIT_ROUTINE + XG_CTL_WAIT_DETAIL + 384];
    int rank;

    watch_say(w, "%s", headline);
    for (rank = 0; rank < w->npes; rank++) {
        if (!watch_lists(w, rank)) {
            continue;
        }
        watch_pe_line(w, rank, line, sizeof(line));
        watch_say(w, "%s", line);
    }
}

void xg_ctl_watch_report_if_blocked(xg_ctl_watch_t *w, const char *headline)
{
    char line[XG_CTL_WAIT_ROUTINE + XG_CTL_WAIT_DETAIL + 384];
    int rank;

    for (rank = 0; rank < w->npes; rank++) {
        if (watch_lists(w, rank) &&
            watch_pe_line(w, rank, line, sizeof(line))) {
            xg_ctl_watch_report(w, headline);
            return;
        }
    }
}
