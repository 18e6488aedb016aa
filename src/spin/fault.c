/*
 * Isolation and faults (the paper's S7 and its watchdog), in a process
 * without memory keys: handlers run on HPU threads of the host process,
 * so what a handler can do to the process is limited by what faults.
 *
 *   - Memory faults, bus errors, illegal instructions, arithmetic
 *     faults and abort() on an HPU thread while a handler runs are caught
 *     by this file's signal handler, which jumps back to the engine
 *     (sigsetjmp before every handler call, engine.c): the handler is
 *     abandoned, its message fails and its resources are released, the
 *     fault is written to the context's descriptor and queued as an
 *     event, and the HPU takes the next packet.  Each HPU has an
 *     alternate signal stack, so a stack overflow (into the guard page
 *     below its stack) is caught too.  The same signals anywhere else
 *     (not on an HPU thread, or inside the engine's own code) go to the
 *     handler that was installed before the engine started, or to the
 *     default action: they are not the engine's to hide.
 *   - A handler that runs longer than its context's watchdog (CPU time
 *     of its HPU thread, so a descheduled handler is not blamed for the
 *     host's load; or, blocked in a system call, ten times the threshold
 *     and at least WD_WALL_MIN of wall time) gets a signal from the
 *     watchdog thread.  A handler that returns after the watchdog asked
 *     to stop it -- the signal interrupted the system call it was blocked
 *     in -- fails all the same (engine.c).  It is stopped
 *     there if it was executing its own handler file's code; if it was
 *     inside a command of the engine it is stopped when the command
 *     returns; if it was inside another library (the C library may hold a
 *     lock), the watchdog tries again at its next ticks and stops it
 *     wherever it is after 20 more ticks.  It sends one signal at a time
 *     (the next only once the HPU took the last): real-time signals
 *     queue, and a descheduled HPU would take a backlog nested.
 *   - A message whose next packet does not come within its context's
 *     stall threshold is reset by the watchdog thread (see
 *     xg_spin_msg_close): its held packets are dropped, its completion
 *     handler does not run, and it is reported the same way.
 *
 * Not isolated: a handler that writes through a wild pointer into memory
 * that is mapped -- the host program's heap, another context's NIC
 * memory -- corrupts it undetected (docs/spin.md, "Faults and isolation").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "base/xg_time.h"
#include "spin/xg_spin_int.h"

#define WD_FORCE_TICKS 20u           /* polite tries before a forced stop */
#define WD_WALL_MIN    1000000000ULL /* wall-time backstop, at least */
#define EV_MAX         4096u         /* events kept until taken */
#define LOG_FIRST      8u            /* faults logged per context, at first */

static const int fault_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
static struct sigaction old_actions[XG_ARRAY_SIZE(fault_sigs) + 1];
static int wd_signo;

static int sig_index(int sig)
{
    unsigned i;

    for (i = 0; i < XG_ARRAY_SIZE(fault_sigs); i++) {
        if (fault_sigs[i] == sig) {
            return (int)i;
        }
    }
    return (int)XG_ARRAY_SIZE(fault_sigs); /* the watchdog's */
}

/* A signal that is not ours: to whoever had it before. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    struct sigaction *old = &old_actions[sig_index(sig)];

    if (old->sa_flags & SA_SIGINFO) {
        old->sa_sigaction(sig, si, uc);
    } else if (old->sa_handler == SIG_IGN) {
        return;
    } else if (old->sa_handler != SIG_DFL) {
        old->sa_handler(sig);
    } else {
        /* default action: restore it; a fault happens again when the
         * instruction is retried, a raised signal is raised again */
        sigaction(sig, old, NULL);
        if ((si == NULL) || (si->si_code <= 0)) {
            raise(sig);
        }
    }
}

static uintptr_t sig_pc(void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

static int fault_kind(int sig, const xg_spin_hpu_t *hpu, uintptr_t addr)
{
    switch (sig) {
    case SIGSEGV:
        /* the guard page below the stack: an overflow */
        if ((addr < (uintptr_t)hpu->stack) &&
            (addr >= (uintptr_t)hpu->stack - 4096)) {
            return XG_SPIN_FAULT_STACK;
        }
        return XG_SPIN_FAULT_MEMORY;
    case SIGBUS: return XG_SPIN_FAULT_BUS;
    case SIGILL: return XG_SPIN_FAULT_ILLEGAL;
    case SIGFPE: return XG_SPIN_FAULT_ARITH;
    case SIGABRT: return XG_SPIN_FAULT_ABORT;
    default: return XG_SPIN_FAULT_WATCHDOG;
    }
}

/* Ends the running handler with a fault: back to run_handler. */
static XG_NORETURN void stop_handler(xg_spin_hpu_t *hpu, int sig, uint64_t addr,
                                     int kind)
{
    hpu->fault_sig  = sig;
    hpu->fault_addr = addr;
    hpu->fault      = kind;
    hpu->in_handler = 0;
    siglongjmp(hpu->jb, 1);
}

/* The watchdog's signal: stops the handler it was sent for, if that one
 * still runs in the handler file's own code (or the watchdog insists). */
static void on_watchdog(xg_spin_hpu_t *hpu, void *uc)
{
    int stop = 0;

    if (hpu->in_handler && xg_spin_kill_asked(hpu)) {
        if (hpu->in_runtime) {
            hpu->kill_pending = 1; /* the command stops it on its way out */
        } else {
            /* in another library: at a later tick, unless forced */
            stop = xg_spin_obj_has_pc(sig_pc(uc)) ||
                   atomic_load_explicit(&hpu->kill_force, memory_order_relaxed);
        }
    }
    /* taken: the watchdog may send the next one */
    atomic_store_explicit(&hpu->wd_queued, 0, memory_order_release);
    if (stop) {
        stop_handler(hpu, wd_signo, sig_pc(uc), XG_SPIN_FAULT_WATCHDOG);
    }
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    xg_spin_hpu_t *hpu = xg_spin_tls_hpu;
    int saved          = errno;

    if (sig == wd_signo) {
        if (hpu != NULL) {
            on_watchdog(hpu, uc);
        }
        errno = saved;
        return; /* not stopped, or a late signal: that handler is over */
    }
    if ((hpu == NULL) || !hpu->in_handler || hpu->in_runtime) {
        /* not a handler's fault; inside the engine's own command code it
         * is a bug of xgas, not the handler's: not hidden */
        chain(sig, si, uc);
        errno = saved;
        return;
    }
    stop_handler(hpu, sig, (uint64_t)(uintptr_t)si->si_addr,
                 fault_kind(sig, hpu, (uintptr_t)si->si_addr));
}

/* ------------------------------------------------------------------------
 * What a handler file calls instead of the routines that end the process
 * or the thread (handlers.c points the file's references here)
 * --------------------------------------------------------------------- */

/* The HPU whose handler is the caller, or NULL (the loading thread, an
 * application thread, the engine's own code). */
static xg_spin_hpu_t *handler_hpu(void)
{
    xg_spin_hpu_t *hpu = xg_spin_tls_hpu;

    return ((hpu != NULL) && hpu->in_handler && !hpu->in_runtime) ? hpu : NULL;
}

static XG_NORETURN void exit_fault(xg_spin_hpu_t *hpu, int sig, uint64_t status)
{
    stop_handler(hpu, sig, status, XG_SPIN_FAULT_EXIT);
}

static XG_NORETURN void rt_exit(int status)
{
    xg_spin_hpu_t *hpu = handler_hpu();

    if (hpu != NULL) {
        exit_fault(hpu, 0, (uint64_t)(uint32_t)status);
    }
    exit(status);
}

static XG_NORETURN void rt__exit(int status)
{
    xg_spin_hpu_t *hpu = handler_hpu();

    if (hpu != NULL) {
        exit_fault(hpu, 0, (uint64_t)(uint32_t)status);
    }
    _exit(status);
}

static XG_NORETURN void rt_quick_exit(int status)
{
    xg_spin_hpu_t *hpu = handler_hpu();

    if (hpu != NULL) {
        exit_fault(hpu, 0, (uint64_t)(uint32_t)status);
    }
    quick_exit(status);
}

static XG_NORETURN void rt_pthread_exit(void *ret)
{
    xg_spin_hpu_t *hpu = handler_hpu();

    if (hpu != NULL) {
        exit_fault(hpu, 0, (uint64_t)(uintptr_t)ret);
    }
    pthread_exit(ret);
}

/* 1 if @sig, raised now, ends (or kills) the process: its default
 * action is to terminate and nobody handles or ignores it.  The signals
 * of faults are the engine's own (on_signal contains them). */
static int sig_ends(int sig)
{
    struct sigaction cur;

    if (sig == SIGKILL) {
        return 1;
    }
    if ((sigaction(sig, NULL, &cur) != 0) || (cur.sa_flags & SA_SIGINFO) ||
        (cur.sa_handler != SIG_DFL)) {
        return 0;
    }
    switch (sig) {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH: /* ignored */
    case SIGSTOP:
    case SIGTSTP:
    case SIGTTIN:
    case SIGTTOU: /* stop */ return 0;
    default: return 1;
    }
}

static int rt_raise(int sig)
{
    xg_spin_hpu_t *hpu = handler_hpu();

    if ((hpu != NULL) && sig_ends(sig)) {
        exit_fault(hpu, sig, 0);
    }
    return raise(sig);
}

void *xg_spin_rt_replacement(const char *name)
{
    static const struct {
        const char *name;
        void *fn;
    } rt[] = {
        {"exit", (void *)(uintptr_t)rt_exit},
        {"_exit", (void *)(uintptr_t)rt__exit},
        {"_Exit", (void *)(uintptr_t)rt__exit},
        {"quick_exit", (void *)(uintptr_t)rt_quick_exit},
        {"pthread_exit", (void *)(uintptr_t)rt_pthread_exit},
        {"raise", (void *)(uintptr_t)rt_raise},
    };
    unsigned i;

    for (i = 0; i < XG_ARRAY_SIZE(rt); i++) {
        if (strcmp(rt[i].name, name) == 0) {
            return rt[i].fn;
        }
    }
    return NULL;
}

int xg_spin_fault_signal(void)
{
    return wd_signo;
}

void xg_spin_fault_raise(xg_spin_hpu_t *hpu, int fault, uint64_t addr)
{
    hpu->fault      = fault;
    hpu->fault_sig  = 0;
    hpu->fault_addr = addr;
    hpu->in_runtime = 0;
    hpu->in_handler = 0;
    siglongjmp(hpu->jb, 1);
}

int xg_spin_hpu_signals_init(xg_spin_hpu_t *hpu)
{
    size_t size = 64 * 1024;
    long min    = sysconf(_SC_SIGSTKSZ);
    stack_t ss;

    if ((min > 0) && ((size_t)min * 4 > size)) {
        size = (size_t)min * 4;
    }
    hpu->altstack = malloc(size);
    if (hpu->altstack == NULL) {
        xg_error("spin", "no memory for the signal stack of HPU %u", hpu->gid);
        return -1;
    }
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp   = hpu->altstack;
    ss.ss_size = size;
    if (sigaltstack(&ss, NULL) != 0) {
        xg_error("spin", "sigaltstack for HPU %u: %m", hpu->gid);
        free(hpu->altstack);
        hpu->altstack = NULL;
        return -1;
    }
    return 0;
}

void xg_spin_hpu_signals_fini(xg_spin_hpu_t *hpu)
{
    stack_t ss;

    memset(&ss, 0, sizeof(ss));
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, NULL);
    free(hpu->altstack);
    hpu->altstack = NULL;
}

/* ------------------------------------------------------------------------
 * Reports
 * --------------------------------------------------------------------- */

const char *xg_spin_fault_name(int fault)
{
    static const char *const names[] = {
        [XG_SPIN_FAULT_NONE]      = "no fault",
        [XG_SPIN_FAULT_MEMORY]    = "memory access fault",
        [XG_SPIN_FAULT_BUS]       = "bus error",
        [XG_SPIN_FAULT_ILLEGAL]   = "illegal instruction",
        [XG_SPIN_FAULT_ARITH]     = "arithmetic fault",
        [XG_SPIN_FAULT_ABORT]     = "abort",
        [XG_SPIN_FAULT_STACK]     = "stack overflow",
        [XG_SPIN_FAULT_WATCHDOG]  = "watchdog: ran too long",
        [XG_SPIN_FAULT_DMA]       = "command outside the context's memory",
        [XG_SPIN_FAULT_COMMAND]   = "command the context cannot serve",
        [XG_SPIN_FAULT_TERMINATE] = "TERMINATE or a failed ASSERT",
        [XG_SPIN_FAULT_STALL]     = "message stalled: no packet in time",
        [XG_SPIN_FAULT_EXIT]      = "tried to end the process or its HPU "
                                    "thread (exit, _exit, pthread_exit, "
                                    "raise; address: the status)",
    };

    if ((fault < 0) || ((unsigned)fault >= XG_ARRAY_SIZE(names))) {
        return "unknown fault";
    }
    return names[fault];
}

static const char *handler_name(uint32_t kind)
{
    switch (kind) {
    case XG_SPIN_HANDLER_HEADER: return "header handler";
    case XG_SPIN_HANDLER_PAYLOAD: return "payload handler";
    case XG_SPIN_HANDLER_COMPLETION: return "completion handler";
    default: return "message";
    }
}

void xg_spin_fault_report(xg_spin_ctx_t *ctx, const xg_spin_event_t *ev)
{
    xg_spin_engine_t *e  = &xg_spin_engine;
    xg_spin_ec_desc_t *d = ctx->desc;
    uint64_t n;
    uint32_t at;

    xg_spinlock_lock(&ctx->desc_lock);
    d->last_fault   = (uint32_t)ev->fault;
    d->last_handler = ev->handler;
    d->last_msg     = ev->msg;
    d->last_addr    = ev->addr;
    d->last_signal  = ev->signal;
    d->last_hpu     = ev->hpu;
    /* release: the fields before a reader that sees the count */
    n = __atomic_add_fetch(&d->errors, 1, __ATOMIC_RELEASE);
    xg_spinlock_unlock(&ctx->desc_lock);

    pthread_mutex_lock(&e->ev_lock);
    if (e->ev_n == e->ev_cap) {
        if (e->ev_cap < EV_MAX) {
            xg_spin_event_t *v;
            uint32_t cap = (e->ev_cap == 0) ? 16 : e->ev_cap * 2, i;

            v = malloc(cap * sizeof(*v));
            if (v != NULL) {
                for (i = 0; i < e->ev_n; i++) {
                    v[i] = e->ev[(e->ev_head + i) % e->ev_cap];
                }
                free(e->ev);
                e->ev      = v;
                e->ev_cap  = cap;
                e->ev_head = 0;
            }
        }
        if (e->ev_n == e->ev_cap) {
            /* full: the oldest goes (the descriptor still counts it) */
            e->ev_head = (e->ev_head + 1) % e->ev_cap;
            e->ev_n--;
            if (!e->ev_dropping) {
                e->ev_dropping = 1;
                xg_warn("spin",
                        "%u fault events are waiting to be taken "
                        "(xg_spin_event_get): the oldest are dropped; the "
                        "contexts' descriptors still count them",
                        EV_MAX);
            }
        }
    }
    if (e->ev_cap != 0) {
        at        = (e->ev_head + e->ev_n) % e->ev_cap;
        e->ev[at] = *ev;
        e->ev_n++;
    }
    pthread_mutex_unlock(&e->ev_lock);

    if (ctx->raw) {
        xg_spin_flow_fault(ev);
    }
    if ((n <= LOG_FIRST) || xg_is_pow2(n)) {
        xg_warn("spin",
                "%s of %s: %s (address %#llx, signal %d, "
                "message %llu, HPU %u); the message failed%s",
                handler_name(ev->handler),
                (ctx->obj != NULL) ? ctx->obj->path : "a context",
                xg_spin_fault_name(ev->fault), (unsigned long long)ev->addr,
                ev->signal, (unsigned long long)ev->msg, ev->hpu,
                (n == LOG_FIRST) ? " (further faults of this context are "
                                   "logged at powers of two)"
                                 : "");
    }
}

xg_status_t xg_spin_event_take(xg_spin_event_t *ev)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    xg_status_t status  = XG_INPROGRESS;

    pthread_mutex_lock(&e->ev_lock);
    if (e->ev_n != 0) {
        *ev        = e->ev[e->ev_head];
        e->ev_head = (e->ev_head + 1) % e->ev_cap;
        e->ev_n--;
        status = XG_OK;
    }
    pthread_mutex_unlock(&e->ev_lock);
    return status;
}

/* ------------------------------------------------------------------------
 * The watchdog thread
 * --------------------------------------------------------------------- */

static uint64_t cpu_ns(clockid_t clock)
{
    struct timespec ts;

    if (clock_gettime(clock, &ts) != 0) {
        return 0;
    }
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* HPUs in one handler for longer than its context allows. */
static void wd_hpus(xg_spin_engine_t *e)
{
    xg_spin_hpu_t *hpu;
    uint64_t cpu, limit, wall, now = xg_time_ns();
    uint32_t seq;
    unsigned i;

    for (i = 0; i < e->nhpus; i++) {
        hpu = &e->hpus[i];
        seq = atomic_load_explicit(&hpu->seq, memory_order_acquire);
        if (!(seq & 1)) {
            continue;
        }
        cpu = cpu_ns(hpu->cpu_clock);
        if (seq != hpu->wd_seq) {
            hpu->wd_seq     = seq; /* a new handler since the last tick */
            hpu->wd_cpu     = cpu;
            hpu->wd_wall    = now;
            hpu->wd_signals = 0;
            continue;
        }
        limit = atomic_load_explicit(&hpu->wd_limit, memory_order_relaxed);
        wall  = (limit > WD_WALL_MIN / 10) ? limit * 10 : WD_WALL_MIN;
        if ((cpu - hpu->wd_cpu < limit) && (now - hpu->wd_wall < wall)) {
            continue;
        }
        hpu->wd_signals++;
        atomic_store_explicit(&hpu->kill_force,
                              hpu->wd_signals > WD_FORCE_TICKS,
                              memory_order_relaxed);
        /* for this handler only: the HPU may have gone on meanwhile */
        atomic_store_explicit(&hpu->kill_seq, seq, memory_order_relaxed);
        /* one signal at a time: a descheduled HPU would otherwise find
         * one per tick queued and take them nested until its signal
         * stack overflowed */
        if (!atomic_exchange_explicit(&hpu->wd_queued, 1,
                                      memory_order_acq_rel)) {
            pthread_kill(hpu->self, wd_signo);
        }
    }
}

/* Messages with no packet for longer than their context allows; their
 * stamps are the coarse clock, up to @period old. */
static void wd_stalls(xg_spin_engine_t *e, uint64_t period)
{
    uint64_t now = xg_spin_now();
    xg_spin_event_t ev;
    xg_spin_msg_t *msg;
    uint32_t i, n, life, flags;

    n = atomic_load_explicit(&e->nmsgs_all, memory_order_acquire);
    for (i = 0; i < n; i++) {
        msg  = xg_spin_msg_at(e, i);
        life = atomic_load_explicit(&msg->life, memory_order_acquire);
        do {
            if (life == 0) {
                break;
            }
        } while (!atomic_compare_exchange_weak_explicit(
            &msg->life, &life, life + 1, memory_order_acq_rel,
            memory_order_acquire));
        if (life == 0) {
            continue; /* a free MPQ */
        }
        flags = atomic_load_explicit(&msg->flags, memory_order_acquire);
        /* signed: a packet may have come after @now was read; a message
         * that failed is closed too, but reported once */
        if (!(flags & XG_SPIN_MSG_OPEN_GONE) &&
            ((int64_t)(now - atomic_load_explicit(&msg->last_ns,
                                                  memory_order_relaxed)) >
             (int64_t)(msg->ctx->stall_ns + period))) {
            if (xg_spin_msg_fail(msg)) {
                memset(&ev, 0, sizeof(ev));
                ev.ctx     = msg->ctx;
                ev.fault   = XG_SPIN_FAULT_STALL;
                ev.handler = XG_SPIN_HANDLER_NONE;
                ev.msg     = msg->id;
                ev.hpu     = UINT32_MAX;
                xg_spin_fault_report(msg->ctx, &ev);
            }
            xg_spin_msg_close(msg);
        }
        xg_spin_msg_unref(msg);
    }
}

static void *wd_main(void *arg)
{
    xg_spin_engine_t *e = arg;
    struct timespec ts;
    uint64_t period, min;

    pthread_mutex_lock(&e->wd_lock);
    while (!atomic_load_explicit(&e->stop, memory_order_acquire)) {
        /* a quarter of the shortest threshold, between 1 and 100 ms */
        min    = atomic_load_explicit(&e->wd_min_ns, memory_order_relaxed);
        period = min / 4;
        if (period < 1000000) {
            period = 1000000;
        } else if (period > 100000000) {
            period = 100000000;
        }
        pthread_mutex_unlock(&e->wd_lock);
        /* the clock injectors stamp messages with */
        atomic_store_explicit(&e->coarse_ns, xg_spin_now(),
                              memory_order_relaxed);
        wd_hpus(e);
        wd_stalls(e, period);
        pthread_mutex_lock(&e->wd_lock);
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)(period % 1000000000);
        ts.tv_sec += (time_t)(period / 1000000000) + ts.tv_nsec / 1000000000;
        ts.tv_nsec %= 1000000000;
        pthread_cond_timedwait(&e->wd_cond, &e->wd_lock, &ts);
    }
    pthread_mutex_unlock(&e->wd_lock);
    return NULL;
}

xg_status_t xg_spin_fault_start(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    struct sigaction sa;
    unsigned i;

    wd_signo = SIGRTMAX - 3;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_signal;
    sa.sa_flags     = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < XG_ARRAY_SIZE(fault_sigs); i++) {
        sigaction(fault_sigs[i], &sa, &old_actions[i]);
    }
    sigaction(wd_signo, &sa, &old_actions[XG_ARRAY_SIZE(fault_sigs)]);
    atomic_store_explicit(&e->wd_min_ns, e->wd_default_ns,
                          memory_order_relaxed);
    if (pthread_create(&e->wd_thread, NULL, wd_main, e) != 0) {
        xg_error("spin", "cannot start the watchdog thread: %m");
        for (i = 0; i <= XG_ARRAY_SIZE(fault_sigs); i++) {
            sigaction(i < XG_ARRAY_SIZE(fault_sigs) ? fault_sigs[i] : wd_signo,
                      &old_actions[i], NULL);
        }
        return XG_ERR_NO_RESOURCE;
    }
    return XG_OK;
}

void xg_spin_fault_stop(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    unsigned i;

    /* e->stop is set (the HPUs are stopped) */
    pthread_mutex_lock(&e->wd_lock);
    pthread_cond_broadcast(&e->wd_cond);
    pthread_mutex_unlock(&e->wd_lock);
    pthread_join(e->wd_thread, NULL);
    for (i = 0; i < XG_ARRAY_SIZE(fault_sigs); i++) {
        sigaction(fault_sigs[i], &old_actions[i], NULL);
    }
    sigaction(wd_signo, &old_actions[XG_ARRAY_SIZE(fault_sigs)], NULL);
}
