/*
 * The PVAS root process (docs/pvas.md): in a process xgasrun forks for
 * the purpose, reserves the node's range, loads the program once per PE
 * into its segment and starts each copy as a process of its own in this
 * one address space.  xgasrun keeps its own address space and supervises
 * the copies, which are its children (CLONE_PARENT), as it supervises
 * ordinary PEs.
 *
 * Segment i (base + i * seg_size), by offset:
 *
 *   0            room_hi: the runtime's room, the partition of PE i
 *                (symmetric heap, internal area; XGAS_PVAS_ROOM_LO/HI tell
 *                the runtime where), left inaccessible here
 *   seg_size/2   the program (text, data, bss: its globals)
 *   interp_off   its interpreter (ld.so), for a dynamic PIE
 *   stack_off    the initial stack (RLIMIT_STACK, 8 MiB at least), 2 MiB
 *                above the interpreter; the rest is unused
 *
 * Invariants:
 *  - The root writes nothing outside the range it reserved but its own
 *    memory; a copy starts only after the root has built its stack.
 *  - The program break is blocked (a PROT_NONE page at it) before any copy
 *    runs: the break is one per address space, and copies growing it
 *    would share and corrupt their heaps and TLS.
 *  - A new copy's process uses nothing of the root's libc state: between
 *    clone and the jump to its ld.so it runs on its own stack (in its
 *    segment) and makes raw system calls only, carrying out the plan the
 *    root wrote there (xg_pvas_plan_t) and dropping its descriptors the
 *    way exec would (FD_CLOEXEC ones).  So the root does not wait for it
 *    and starts the next copy at once: copies start in parallel.
 *  - Every copy is mapped and its stack built before the first one
 *    starts: the root's mmap calls then do not compete with the PEs'
 *    faults for the address space's lock, nor the root with the PEs for
 *    the CPUs.
 */
#ifndef XG_PVAS_ROOT_H
#define XG_PVAS_ROOT_H

#include <stdint.h>
#include <sys/types.h>

/* What the root reports to xgasrun on @report_fd for each started PE. */
typedef struct xg_pvas_started {
    int32_t rank;
    int32_t pid;
} xg_pvas_started_t;

/* The kernel's struct sigaction (rt_sigaction), not glibc's. */
typedef struct xg_pvas_ksigaction {
    uint64_t handler; /* SIG_DFL or SIG_IGN: no restorer is set */
    uint64_t flags;
    uint64_t restorer;
    uint64_t mask;
} xg_pvas_ksigaction_t;

enum {
    XG_PVAS_PLAN_DUPS = 4,
    XG_PVAS_PLAN_SIGS = 4,
    XG_PVAS_PLAN_CPUS = 1024 /* CPUs a binding can name */
};

/* What PE @rank's process does before the program starts, as between
 * fork and exec, in this order (the caller fills it, the root carries it
 * out in the new process with system calls alone). */
typedef struct xg_pvas_plan {
    int32_t parent; /* the PE's parent must be this process (else exit) */
    int ndups;      /* dup2(dup_from[i], dup_to[i]) */
    int dup_from[XG_PVAS_PLAN_DUPS], dup_to[XG_PVAS_PLAN_DUPS];
    int nsigs; /* rt_sigaction(signo[i], &action[i]) */
    int signo[XG_PVAS_PLAN_SIGS];
    xg_pvas_ksigaction_t action[XG_PVAS_PLAN_SIGS];
    int set_nofile;     /* prlimit(RLIMIT_NOFILE, nofile) */
    uint64_t nofile[2]; /* rlim_cur, rlim_max */
    uint32_t cpu_bytes; /* 0: unbound, else sched_setaffinity(cpus) */
    uint64_t cpus[XG_PVAS_PLAN_CPUS / 64];
    uint64_t sigmask; /* last: rt_sigprocmask(SIG_SETMASK) */
} xg_pvas_plan_t;

typedef struct xg_pvas_spec {
    int npes; /* PEs of this node: segments */
    /* the job rank of segment i's PE, in rank order (the node-local
     * rank is the segment's index); NULL: rank i */
    const int *ranks;
    uint64_t base;     /* start of segment 0 */
    uint64_t seg_size; /* a power of two */
    const char *path;  /* the program, as found by xgasrun */
    char *const *argv;
    int report_fd; /* xg_pvas_started_t records, then EOF */
    /* PE @rank's environment, valid until the next call */
    char **(*env)(void *arg, int rank);
    /* fills the plan of PE @rank (in the root, before it starts the
     * PE): 0, or -1 after saying why */
    int (*plan)(void *arg, int rank, xg_pvas_plan_t *plan);
    void *arg;
} xg_pvas_spec_t;

/* Runs the root: returns its exit status, 0 once every PE is started,
 * else 1 after one message naming the cause and the fix (the PEs started
 * so far are running and reported). */
int xg_pvas_root(const xg_pvas_spec_t *spec);

#endif
