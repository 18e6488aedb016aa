/*
 * xgasrun: starts the N processing elements (PEs) of a job on this host and
 * supervises them until the last one has exited.
 *
 *     xgasrun -n N [--tag-output] [--bind-to core|numa|none]
 *             [--report-bindings] [--pvas] [--] program [args...]
 *
 * Under --pvas (XGAS_PVAS=1) the PEs are not forked and exec'd: a root
 * process forked per (virtual) node loads them into one address space
 * (tools/pvas/pvas_root.h) and starts them as our children
 * (CLONE_PARENT), so everything below supervises them unchanged; the
 * root reports their pids on a pipe and exits, and xgasrun itself never
 * shares their address space.
 *
 * The PEs find the job through XGAS_RANK, XGAS_NPES, XGAS_CTL_FD and
 * XGAS_SEG_FD (read by boot/).  The two descriptors are memfds created here
 * and inherited across fork and exec: the job control area (layout in
 * boot/xg_ctl.h) and the node segment, which the PEs size themselves.  The
 * launcher reads the control area only when a PE exits, to tell a PE that
 * left without shmem_finalize (its slot still says INITIALIZED) from one
 * that finished, and to find a shmem_global_exit request.
 *
 * Invariants:
 *  - Nothing is created in the file system or /dev/shm: the memfds vanish
 *    with the last process that holds them.
 *  - No PE outlives xgasrun.  Each child asks for SIGKILL on its parent's
 *    death (PR_SET_PDEATHSIG) and then checks that its parent is still the
 *    launcher; xgasrun itself returns only after reaping every PE.
 *  - Nor does any process a PE started: xgasrun is their subreaper and
 *    ends those left when the last PE has exited (xg_run_end_orphans).
 *  - Every event (a PE's exit, a signal to xgasrun, PE output under
 *    --tag-output) arrives through one poll() over a signalfd and the output
 *    pipes.  The timeouts are the grace period between the SIGTERM that
 *    ends a job and the SIGKILL that follows it, and the looks of the hang
 *    watch (boot/xg_ctl_watch.h; SIGUSR1 prints its report).
 *  - The first failure, signal or global exit decides the job's status and
 *    prints the only message; PEs that die afterwards are the job being
 *    ended and are reaped quietly.  "First" is the order of death: the PE
 *    whose SIGCHLD arrived first is reaped first; and a PE that ended the
 *    job because a peer stopped answering (its control slot names that
 *    peer as the cause) is blamed only if that peer, reaped later, did not
 *    fail on its own (see xg_run_pe_exited).
 *  - PEs stay in the launcher's process group, so a terminal's SIGINT or
 *    SIGTSTP reaches the whole job.  PEs start with the signal mask and
 *    dispositions xgasrun was started with; a termination signal the caller
 *    ignored (nohup, a background job of a script) stays ignored.
 */
#include "base/xg_compiler.h"
#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_time.h"
#include "boot/xg_ctl.h"
#include "xgas_version.h"
#include "xgasrun_bind.h"
#include "boot/xg_ctl_watch.h"
#include "pvas/pvas_root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define XG_RUN_EXIT_USAGE    2
#define XG_RUN_EXIT_NOEXEC   126 /* the program exists but cannot run */
#define XG_RUN_EXIT_NOTFOUND 127
#define XG_RUN_EXIT_SIGNAL   128   /* plus the signal number */
#define XG_RUN_EXIT_HANG     1     /* the hang watch found a deadlock */
#define XG_RUN_LINE_MAX      16384 /* longer output lines are split */
#define XG_RUN_DEFAULT_PATH  "/bin:/usr/bin" /* execvp's, when PATH is unset */

enum {
    XG_RUN_STDOUT   = 0,
    XG_RUN_STDERR   = 1,
    XG_RUN_NSTREAMS = 2
};

/* Dispositions xgasrun sets for itself; PEs get the caller's back.  SIGCHLD
 * must not be ignored (children would not be waitable), and a closed
 * stdout must not kill the launcher before it has ended the job. */
static const struct {
    int signo;
    void (*handler)(int);
} xg_run_own_actions[] = {{SIGCHLD, SIG_DFL}, {SIGPIPE, SIG_IGN}};

/* Signals that end the job: SIGTERM to every PE, then SIGKILL. */
static const int xg_run_stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* One output stream of a PE under --tag-output. */
typedef struct xg_run_stream {
    int fd;     /* read end of the PE's pipe; -1 when not open */
    int out_fd; /* where its lines go: our stdout or stderr */
    int rank;
    size_t len; /* bytes of an unfinished line at the start of buf */
    char *buf;  /* XG_RUN_LINE_MAX bytes */
} xg_run_stream_t;

typedef struct xg_run_pe {
    pid_t pid; /* 0 before the fork and after the PE is reaped */
    xg_run_stream_t stream[XG_RUN_NSTREAMS];
} xg_run_pe_t;

typedef struct xg_run_job {
    /* from the command line */
    int npes;
    int tag_output;
    int report_bindings;
    int pvas;                              /* --pvas or XGAS_PVAS=1 */
    int (*pvas_pipes)[XG_RUN_NSTREAMS][2]; /* per PE */
    xg_bind_policy_t bind_policy;
    char **argv;         /* program and its arguments */
    char path[PATH_MAX]; /* the program, found like execvp */

    /* shared with the PEs */
    xg_ctl_t *ctl;
    size_t ctl_size;
    int ctl_fd;
    int nodes;         /* virtual nodes (XGAS_VIRTUAL_NODES) */
    uint32_t node_map; /* XG_CTL_MAP_* */
    int *seg_fd;       /* the node region of each node */
    char **envp;       /* environment of every PE */
    char env_rank[32]; /* "XGAS_RANK=<rank>", set per fork */
    char env_npes[32];
    char env_ctl_fd[32];
    char env_seg_fd[32];

    /* the caller's process state, restored in each PE */
    pid_t launcher;
    sigset_t caller_mask;
    struct sigaction caller_action[XG_ARRAY_SIZE(xg_run_own_actions)];
    struct rlimit caller_nofile;
    int nofile_raised;

    /* supervision */
    int sig_fd;
    struct pollfd *pfd;           /* the signalfd, then open streams */
    xg_run_stream_t **pfd_stream; /* stream of pfd[i] for i > 0 */
    xg_run_pe_t *pe;
    int running;         /* PEs forked and not yet reaped */
    int ending;          /* SIGTERM sent to every PE */
    int killed;          /* SIGKILL sent to every PE */
    uint64_t kill_at_ns; /* when ending turns into SIGKILL */
    int status;          /* exit status of the job */
    /* the first failure, held back while the peer it names as its cause
     * (xg_ctl.h) is not reaped: blamed_rank, or -1 */
    int blamed_rank;
    int held_rank;
    int held_status;
    char held_message[192];

    /* processes the PEs started (see xg_run_end_orphans) */
    pid_t *foreign; /* our children from before the job */
    size_t nforeign;
    xg_ctl_watch_t watch; /* hang reports (boot/xg_ctl_watch.h) */
    xg_bind_t bind;       /* the PEs' CPUs (xgasrun_bind.h) */
} xg_run_job_t;

/* Prints "xgasrun: <message>" to stderr in one write, keeping errno for
 * %m. */
static XG_PRINTF(1, 2) void xg_run_say(const char *fmt, ...)
{
    int saved_errno = errno;
    char line[PATH_MAX + 512];
    size_t len;
    va_list ap;

    len = (size_t)snprintf(line, sizeof(line), "xgasrun: ");
    va_start(ap, fmt);
    errno = saved_errno;
    vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
    va_end(ap);
    len         = strlen(line);
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, len) < 0) {
        /* nowhere left to report to */
    }
    errno = saved_errno;
}

/* Ends xgasrun after an error it cannot recover from; the kernel then kills
 * every PE (PR_SET_PDEATHSIG). */
static XG_NORETURN void xg_run_fatal(const char *what)
{
    xg_run_say("%s (%m); killing the job", what);
    exit(1);
}

static void xg_run_usage(FILE *out)
{
    fprintf(
        out,
        "usage: xgasrun -n N [--tag-output] [--bind-to core|numa|none]\n"
        "               [--report-bindings] [--pvas] [--] program "
        "[args...]\n"
        "\n"
        "Starts N processing elements (PEs) running program on this host\n"
        "and supervises them.  The job ends when every PE has exited, or\n"
        "as soon as one fails: the others get SIGTERM, then SIGKILL after\n"
        "XGAS_RUN_GRACE_MS milliseconds.\n"
        "\n"
        "  -n N, -np N    number of PEs, 1 to %d\n"
        "  --tag-output   prefix each line a PE writes with \"[<pe>] \"\n"
        "  --bind-to core|numa|none\n"
        "                 bind each PE to a core of its own, to a NUMA\n"
        "                 node, or not at all, within the CPUs xgasrun may\n"
        "                 use; default: core when there are at least N\n"
        "                 cores, else none (oversubscribed)\n"
        "  --report-bindings\n"
        "                 print each PE's node and CPUs to stderr\n"
        "  --pvas         run the PEs as copies of program in one address\n"
        "                 space, one segment each (XGAS_PVAS=1 too;\n"
        "                 program must be a PIE; docs/pvas.md)\n"
        "  -h, --help     print this help\n"
        "  --version      print the xgas version\n"
        "\n"
        "Exit status: 0 when every PE exited 0; otherwise that of the first\n"
        "PE to fail (128 + the signal number if a signal killed it), the\n"
        "status given to shmem_global_exit, 128 + the signal number when\n"
        "xgasrun is interrupted, 126 or 127 when program cannot be run,\n"
        "2 for a usage error.  `xgas-info -c` lists the XGAS_* settings.\n"
        "\n"
        "A job whose running PEs all stay blocked in xgas for\n"
        "XGAS_HANG_TIMEOUT seconds is reported and ended (status 1);\n"
        "SIGUSR1 to xgasrun prints where every PE is and goes on.\n",
        XG_CTL_MAX_PES);
}

static XG_PRINTF(1, 2) int xg_run_usage_error(const char *fmt, ...)
{
    char message[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    xg_run_say("%s", message);
    fprintf(stderr, "usage: xgasrun -n N [--tag-output] [--bind-to "
                    "core|numa|none] [--report-bindings] [--] program "
                    "[args...]  (xgasrun --help for more)\n");
    return XG_RUN_EXIT_USAGE;
}

/* Parses the command line into @job.  Returns -1 to go on running the job,
 * or the status xgasrun exits with (help, version, usage error). */
static int xg_run_parse_args(xg_run_job_t *job, int argc, char **argv)
{
    const char *npes = NULL;
    char *end;
    long value;
    int i;

    for (i = 1; (i < argc) && (argv[i][0] == '-'); i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if ((strcmp(argv[i], "-n") == 0) ||
                   (strcmp(argv[i], "-np") == 0)) {
            if (i + 1 >= argc) {
                return xg_run_usage_error("option '%s' needs a number of "
                                          "PEs",
                                          argv[i]);
            }
            npes = argv[++i];
        } else if (strcmp(argv[i], "--tag-output") == 0) {
            job->tag_output = 1;
        } else if (strcmp(argv[i], "--bind-to") == 0) {
            if (i + 1 >= argc) {
                return xg_run_usage_error(
                    "option '--bind-to' needs a value: " XG_BIND_VALUES);
            }
            if (xg_bind_parse(argv[++i], &job->bind_policy) != 0) {
                return xg_run_usage_error(
                    "invalid value '%s' of option "
                    "'--bind-to': expected " XG_BIND_VALUES,
                    argv[i]);
            }
        } else if (strcmp(argv[i], "--report-bindings") == 0) {
            job->report_bindings = 1;
        } else if (strcmp(argv[i], "--pvas") == 0) {
            job->pvas = 1;
        } else if ((strcmp(argv[i], "-h") == 0) ||
                   (strcmp(argv[i], "--help") == 0)) {
            xg_run_usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("xgasrun (xgas) %s\n", XGAS_VERSION_STRING);
            return 0;
        } else {
            return xg_run_usage_error("unknown option '%s'", argv[i]);
        }
    }
    if (npes == NULL) {
        return xg_run_usage_error("the number of PEs is missing: give it "
                                  "with -n N");
    }
    errno = 0;
    value = strtol(npes, &end, 10);
    if ((errno != 0) || (end == npes) || (*end != '\0') || (value < 1) ||
        (value > XG_CTL_MAX_PES)) {
        return xg_run_usage_error("invalid number of PEs '%s': expected an "
                                  "integer from 1 to %d",
                                  npes, XG_CTL_MAX_PES);
    }
    if (i >= argc) {
        return xg_run_usage_error("no program to run");
    }
    job->npes = (int)value;
    job->argv = &argv[i];
    return -1;
}

/* 0 if @path names a file we may execute, else why not (an errno). */
static int xg_run_check_exec(const char *path)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        return errno;
    }
    if (S_ISDIR(st.st_mode)) {
        return EISDIR;
    }
    return (access(path, X_OK) == 0) ? 0 : errno;
}

/* Finds the program like execvp: a name with a slash is used as it is, any
 * other is looked up in PATH (an empty entry is the current directory).
 * Returns 0 with job->path set, or the exit status after saying why the
 * program cannot run. */
static int xg_run_find_program(xg_run_job_t *job)
{
    const char *name = job->argv[0];
    const char *dir, *sep;
    int err, len, denied = 0;

    if (strchr(name, '/') != NULL) {
        err = (strlen(name) < sizeof(job->path)) ? xg_run_check_exec(name)
                                                 : ENAMETOOLONG;
        if (err != 0) {
            xg_run_say("cannot run '%s': %s", name, strerror(err));
            return (err == ENOENT) ? XG_RUN_EXIT_NOTFOUND : XG_RUN_EXIT_NOEXEC;
        }
        strcpy(job->path, name);
        return 0;
    }
    /* PATH belongs to execvp, not to the xgas settings of xg_config */
    dir = getenv("PATH");
    if (dir == NULL) {
        dir = XG_RUN_DEFAULT_PATH;
    }
    for (; name[0] != '\0'; dir = sep + 1) {
        sep = strchrnul(dir, ':');
        len = (sep == dir)
                  ? snprintf(job->path, sizeof(job->path), "./%s", name)
                  : snprintf(job->path, sizeof(job->path), "%.*s/%s",
                             (int)(sep - dir), dir, name);
        if ((size_t)len < sizeof(job->path)) {
            err = xg_run_check_exec(job->path);
            if (err == 0) {
                return 0;
            }
            denied |= (err == EACCES);
        }
        if (*sep == '\0') {
            break;
        }
    }
    if (denied) {
        xg_run_say("cannot run '%s': permission denied", name);
        return XG_RUN_EXIT_NOEXEC;
    }
    xg_run_say("cannot run '%s': not found in PATH", name);
    return XG_RUN_EXIT_NOTFOUND;
}

/* Makes sure descriptors 0 to 2 are open, so that none of the job's lands
 * on them and a PE's stdout is never, say, the control area. */
static void xg_run_open_std_fds(void)
{
    int fd;

    while ((fd = open("/dev/null", O_RDWR)) >= 0) {
        if (fd > STDERR_FILENO) {
            close(fd);
            break;
        }
    }
}

static void xg_run_close(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* Blocks the signals xgasrun handles and reads them through a signalfd.
 * Termination signals the caller ignored are left ignored. */
static int xg_run_setup_signals(xg_run_job_t *job)
{
    struct sigaction action;
    sigset_t set;
    size_t i;

    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGUSR1); /* print the hang report (xg_run_hang_signal) */
    for (i = 0; i < XG_ARRAY_SIZE(xg_run_stop_signals); i++) {
        sigaction(xg_run_stop_signals[i], NULL, &action);
        if (action.sa_handler != SIG_IGN) {
            sigaddset(&set, xg_run_stop_signals[i]);
        }
    }
    for (i = 0; i < XG_ARRAY_SIZE(xg_run_own_actions); i++) {
        memset(&action, 0, sizeof(action));
        action.sa_handler = xg_run_own_actions[i].handler;
        sigaction(xg_run_own_actions[i].signo, &action, &job->caller_action[i]);
    }
    sigprocmask(SIG_BLOCK, &set, &job->caller_mask);
    job->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (job->sig_fd < 0) {
        xg_run_say("cannot create a signalfd (%m)");
        return -1;
    }
    return 0;
}

/* XGAS_VIRTUAL_NODES and XGAS_VIRTUAL_MAP: how many nodes the job is
 * split into, and how ranks go to them (the table has refused a map that
 * is neither block nor cyclic). */
static int xg_run_virtual_nodes(xg_run_job_t *job)
{
    job->nodes = (int)xg_config.virtual_nodes;
    if (job->nodes > job->npes) {
        xg_run_say("XGAS_VIRTUAL_NODES=%d is more than the %d PEs of the "
                   "job: every virtual node needs a PE -- lower it or start "
                   "more PEs",
                   job->nodes, job->npes);
        return -1;
    }
    /* the row lists its words in the order of XG_CTL_MAP_* */
    job->node_map = (uint32_t)xg_config.virtual_map;
    return 0;
}

/* A random job key (xg_ctl_t.job_key); 0 only if the kernel gives none,
 * which the PEs then derive no secret from. */
static uint64_t xg_run_job_key(void)
{
    uint64_t key = 0;

    if (getrandom(&key, sizeof(key), 0) != (ssize_t)sizeof(key)) {
        xg_run_say("getrandom failed (%m): this job's key is guessable");
        key = xg_time_ns() ^ ((uint64_t)getpid() << 32);
    }
    return key;
}

/* Creates the control area and the node region of each (virtual) node.
 * None of the descriptors is close-on-exec: a PE inherits them and closes
 * the other nodes' regions before it runs the program.  The control area
 * is sealed at its size so that no PE can make the launcher fault on
 * it. */
static int xg_run_create_areas(xg_run_job_t *job)
{
    void *map;
    int node;

    job->ctl_size = xg_ctl_size((uint32_t)job->npes);
    job->ctl_fd   = memfd_create("xgas-ctl", MFD_ALLOW_SEALING);
    if ((job->ctl_fd < 0) ||
        (ftruncate(job->ctl_fd, (off_t)job->ctl_size) != 0) ||
        (fcntl(job->ctl_fd, F_ADD_SEALS,
               F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)) {
        xg_run_say("cannot create the job control area of %zu bytes (%m)",
                   job->ctl_size);
        return -1;
    }
    map = mmap(NULL, job->ctl_size, PROT_READ | PROT_WRITE, MAP_SHARED,
               job->ctl_fd, 0);
    if (map == MAP_FAILED) {
        xg_run_say("cannot map the job control area (%m)");
        return -1;
    }
    job->ctl = map;
    xg_ctl_format(job->ctl, (uint32_t)job->npes);
    job->ctl->nodes    = (uint32_t)job->nodes;
    job->ctl->node_map = job->node_map;
    job->ctl->job_key  = xg_run_job_key();
    job->seg_fd        = malloc((size_t)job->nodes * sizeof(*job->seg_fd));
    if (job->seg_fd == NULL) {
        xg_run_say("out of memory for %d node regions", job->nodes);
        return -1;
    }
    for (node = 0; node < job->nodes; node++) {
        job->seg_fd[node] = -1;
    }
    for (node = 0; node < job->nodes; node++) {
        job->seg_fd[node] = memfd_create("xgas-seg", 0);
        if (job->seg_fd[node] < 0) {
            xg_run_say("cannot create the node segment (%m)");
            return -1;
        }
    }
    return 0;
}

/* The node of PE @rank. */
static int xg_run_node_of(const xg_run_job_t *job, int rank)
{
    return (int)xg_ctl_virtual_node((uint32_t)rank, (uint32_t)job->npes,
                                    (uint32_t)job->nodes, job->node_map);
}

static int xg_run_is_launcher_var(const char *entry)
{
    static const char *const names[] = {
        "XGAS_RANK=",   "XGAS_NPES=",         "XGAS_CTL_FD=",
        "XGAS_SEG_FD=", "XGAS_PVAS_ROOM_LO=", "XGAS_PVAS_ROOM_HI="};
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(names); i++) {
        if (strncmp(entry, names[i], strlen(names[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Builds the PEs' environment: ours without any launcher variables, plus
 * the job's, plus IPATH_NO_BACKTRACE=1 unless the caller set it: the
 * libinfinipath that Debian's libfabric pulls in would otherwise install
 * signal handlers that turn every crash into exit(1) (libxgas undoes them
 * too, but this covers the program before libxgas is loaded, and any
 * program; Open MPI does the same).  env_rank and env_seg_fd are rewritten
 * before each fork. */
static int xg_run_make_env(xg_run_job_t *job)
{
    static char no_backtrace[] = "IPATH_NO_BACKTRACE=1";
    size_t count = 0, n = 0, i;

    while (environ[count] != NULL) {
        count++;
    }
    job->envp = calloc(count + 6, sizeof(*job->envp));
    if (job->envp == NULL) {
        xg_run_say("out of memory for the environment of the PEs");
        return -1;
    }
    for (i = 0; i < count; i++) {
        if (!xg_run_is_launcher_var(environ[i])) {
            job->envp[n++] = environ[i];
        }
    }
    snprintf(job->env_npes, sizeof(job->env_npes), "XGAS_NPES=%d", job->npes);
    snprintf(job->env_ctl_fd, sizeof(job->env_ctl_fd), "XGAS_CTL_FD=%d",
             job->ctl_fd);
    if (getenv("IPATH_NO_BACKTRACE") == NULL) {
        job->envp[n++] = no_backtrace;
    }
    job->envp[n++] = job->env_rank;
    job->envp[n++] = job->env_npes;
    job->envp[n++] = job->env_ctl_fd;
    job->envp[n++] = job->env_seg_fd;
    job->envp[n]   = NULL;
    return 0;
}

/* Allocates the PE table and, under --tag-output, the line buffers; raises
 * the descriptor limit when two pipes per PE need it. */
static int xg_run_setup_pes(xg_run_job_t *job)
{
    /* the pipes, plus stdio, the two areas, the signalfd and the write
     * ends of the PE being started */
    rlim_t need = 2 * (rlim_t)job->npes + (rlim_t)job->nodes + 16;
    struct rlimit raised;
    xg_run_stream_t *s;
    int rank, which;

    job->pe = calloc((size_t)job->npes, sizeof(*job->pe));
    job->pfd =
        calloc(1 + XG_RUN_NSTREAMS * (size_t)job->npes, sizeof(*job->pfd));
    job->pfd_stream = calloc(1 + XG_RUN_NSTREAMS * (size_t)job->npes,
                             sizeof(*job->pfd_stream));
    if ((job->pe == NULL) || (job->pfd == NULL) || (job->pfd_stream == NULL)) {
        xg_run_say("out of memory for a job of %d PEs", job->npes);
        return -1;
    }
    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            s     = &job->pe[rank].stream[which];
            s->fd = -1;
            s->out_fd =
                (which == XG_RUN_STDOUT) ? STDOUT_FILENO : STDERR_FILENO;
            s->rank = rank;
            if (job->tag_output) {
                s->buf = malloc(XG_RUN_LINE_MAX);
                if (s->buf == NULL) {
                    xg_run_say("out of memory for the output of %d PEs",
                               job->npes);
                    return -1;
                }
            }
        }
    }
    getrlimit(RLIMIT_NOFILE, &job->caller_nofile);
    if (!job->tag_output || (job->caller_nofile.rlim_cur >= need)) {
        return 0;
    }
    raised          = job->caller_nofile;
    raised.rlim_cur = need;
    if (((raised.rlim_max != RLIM_INFINITY) && (raised.rlim_max < need)) ||
        (setrlimit(RLIMIT_NOFILE, &raised) != 0)) {
        xg_run_say("--tag-output with %d PEs needs %llu open descriptors, "
                   "more than the limit of %llu: raise it (ulimit -n) or "
                   "run without --tag-output",
                   job->npes, (unsigned long long)need,
                   (unsigned long long)job->caller_nofile.rlim_max);
        return -1;
    }
    job->nofile_raised = 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * Processes the PEs leave behind.  xgasrun is a child subreaper
 * (PR_SET_CHILD_SUBREAPER): every process a PE starts and no longer waits
 * for -- an orphan of a PE that ended, a double-forked daemon, one that
 * moved to a session or process group of its own -- becomes our child
 * instead of init's.  When the last PE has exited, whatever children we
 * have beyond those we had before the job are what the PEs left behind:
 * they get SIGTERM, the grace period, then SIGKILL, and are reaped, round
 * after round (killing one reparents its own children to us) until none is
 * left.  So no process of the job outlives xgasrun, holding job memory.
 * --------------------------------------------------------------------- */

#define XG_RUN_ORPHAN_ROUNDS 64 /* a fork bomb outruns us; give up then */

/* Our children, found in /proc (any kernel, unlike /proc/pid/task/tid/
 * children); those in job->foreign are left out.  Returns how many were
 * put in *pids_p (malloc'ed), or 0. */
static size_t xg_run_children(const xg_run_job_t *job, pid_t **pids_p)
{
    char path[64], stat[512], *after;
    struct dirent *entry;
    pid_t *pids  = NULL, *grown, pid, parent;
    size_t count = 0, cap = 0, i;
    ssize_t len;
    DIR *dir = opendir("/proc");
    int fd;

    *pids_p = NULL;
    if (dir == NULL) {
        return 0;
    }
    while ((entry = readdir(dir)) != NULL) {
        pid = (pid_t)atoi(entry->d_name);
        if (pid <= 0) {
            continue;
        }
        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        len = read(fd, stat, sizeof(stat) - 1);
        close(fd);
        stat[(len > 0) ? len : 0] = '\0';
        /* "pid (comm) state ppid ...": comm may hold anything but ')' is
         * last before the state */
        after = strrchr(stat, ')');
        if ((after == NULL) || (sscanf(after + 1, " %*c %d", &parent) != 1) ||
            (parent != job->launcher)) {
            continue;
        }
        for (i = 0; (i < job->nforeign) && (job->foreign[i] != pid); i++) {
        }
        if (i < job->nforeign) {
            continue;
        }
        if (count == cap) {
            cap   = cap ? 2 * cap : 16;
            grown = realloc(pids, cap * sizeof(*pids));
            if (grown == NULL) {
                break;
            }
            pids = grown;
        }
        pids[count++] = pid;
    }
    closedir(dir);
    *pids_p = pids;
    return count;
}

/* Reaps what has exited without waiting; -1 once we have no children. */
static int xg_run_reap_any(void)
{
    pid_t pid;
    int wstatus;

    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
    }
    return ((pid < 0) && (errno == ECHILD)) ? -1 : 0;
}

/* Waits until none of @pids is our child any more, or @deadline_ns, or a
 * signal tells us to hurry. */
static void xg_run_wait_orphans(xg_run_job_t *job, const pid_t *pids,
                                size_t count, uint64_t deadline_ns)
{
    struct pollfd pfd = {.fd = job->sig_fd, .events = POLLIN};
    struct signalfd_siginfo info;
    uint64_t now;
    size_t i;
    int hurry = 0;

    while (!hurry && (xg_run_reap_any() == 0)) {
        for (i = 0; i < count; i++) {
            if ((kill(pids[i], 0) == 0) || (errno != ESRCH)) {
                break; /* alive, or a zombie of ours not reaped yet */
            }
        }
        now = xg_time_ns();
        if ((i == count) || (now >= deadline_ns)) {
            return;
        }
        if (poll(&pfd, 1, (int)((deadline_ns - now) / 1000000u) + 1) > 0) {
            while (read(job->sig_fd, &info, sizeof(info)) ==
                   (ssize_t)sizeof(info)) {
                hurry |= (info.ssi_signo != SIGCHLD);
            }
        }
    }
}

static void xg_run_end_orphans(xg_run_job_t *job)
{
    long grace_ms = (xg_config.run_grace_ms > 0) ? xg_config.run_grace_ms : 0;
    pid_t *pids;
    size_t count, i, total = 0;
    int round, sig;

    for (round = 0; round < XG_RUN_ORPHAN_ROUNDS; round++) {
        xg_run_reap_any();
        count = xg_run_children(job, &pids);
        if (count == 0) {
            break;
        }
        sig = ((round == 0) && !job->killed) ? SIGTERM : SIGKILL;
        for (i = 0; i < count; i++) {
            kill(pids[i], sig);
        }
        total += (round == 0) ? count : 0;
        xg_run_wait_orphans(job, pids, count,
                            xg_time_ns() + ((sig == SIGTERM)
                                                ? (uint64_t)grace_ms * 1000000u
                                                : 1000000000u));
        free(pids);
    }
    if (total > 0) {
        xg_info("run",
                "ended %zu processes the PEs had started and left "
                "running",
                total);
    }
}

/* Becomes the subreaper of everything the PEs start, remembering the
 * children we already have (whoever exec'd xgasrun may have left some):
 * those are not the job's. */
static int xg_run_setup_reaper(xg_run_job_t *job)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        xg_run_say("cannot become the reaper of the PEs' processes (%m)");
        return -1;
    }
    job->nforeign = xg_run_children(job, &job->foreign);
    return 0;
}

static int xg_run_setup(xg_run_job_t *job)
{
    job->launcher = getpid();
    if ((xg_run_virtual_nodes(job) != 0) || (xg_run_setup_signals(job) != 0) ||
        (xg_run_create_areas(job) != 0) || (xg_run_make_env(job) != 0) ||
        (xg_run_setup_pes(job) != 0) || (xg_run_setup_reaper(job) != 0) ||
        (xg_bind_init(&job->bind) != 0) ||
        (xg_bind_plan(&job->bind, job->bind_policy, job->npes) != 0) ||
        (xg_ctl_watch_init(&job->watch, job->ctl, job->npes,
                           xg_config.hang_timeout, "xgasrun", 1) != 0)) {
        return -1;
    }
    return 0;
}

/* In PE @rank's process, before it runs the program: what fork leaves
 * of the launcher is undone.  Its output goes to @pipes under
 * --tag-output.  0, or -1 after saying why. */
static int xg_run_child_setup(xg_run_job_t *job, int rank,
                              int pipes[XG_RUN_NSTREAMS][2])
{
    size_t i;
    int which, node;

    /* Asked before the check: if the launcher died earlier, no SIGKILL
     * would ever come, and the parent is no longer the launcher. */
    if ((prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) ||
        (getppid() != job->launcher)) {
        return -1;
    }
    for (which = 0; job->tag_output && (which < XG_RUN_NSTREAMS); which++) {
        if (dup2(pipes[which][1], STDOUT_FILENO + which) < 0) {
            return -1;
        }
    }
    /* a virtual node reaches no other node's memory */
    for (node = 0; node < job->nodes; node++) {
        if (node != xg_run_node_of(job, rank)) {
            close(job->seg_fd[node]);
        }
    }
    for (i = 0; i < XG_ARRAY_SIZE(xg_run_own_actions); i++) {
        sigaction(xg_run_own_actions[i].signo, &job->caller_action[i], NULL);
    }
    if (job->nofile_raised) {
        setrlimit(RLIMIT_NOFILE, &job->caller_nofile);
    }
    if (xg_bind_apply(&job->bind, rank) != 0) {
        xg_run_say("PE %d: cannot bind it to its CPUs (%m): run with "
                   "--bind-to none",
                   rank);
        return -1;
    }
    /* last: a SIGTERM that is already pending now ends the child */
    sigprocmask(SIG_SETMASK, &job->caller_mask, NULL);
    return 0;
}

/* In the child: becomes PE @rank. */
static XG_NORETURN void xg_run_child(xg_run_job_t *job, int rank,
                                     int pipes[XG_RUN_NSTREAMS][2])
{
    if (xg_run_child_setup(job, rank, pipes) != 0) {
        _exit(1);
    }
    execvpe(job->path, job->argv, job->envp);
    xg_run_say("PE %d: cannot run '%s' (%m)", rank, job->path);
    _exit((errno == ENOENT) ? XG_RUN_EXIT_NOTFOUND : XG_RUN_EXIT_NOEXEC);
}

/* Forks PE @rank; 0 on success, else -1 after saying why. */
static int xg_run_start_pe(xg_run_job_t *job, int rank)
{
    int pipes[XG_RUN_NSTREAMS][2] = {{-1, -1}, {-1, -1}};
    xg_run_stream_t *s;
    pid_t pid;
    int which;

    for (which = 0; job->tag_output && (which < XG_RUN_NSTREAMS); which++) {
        if (pipe2(pipes[which], O_CLOEXEC) != 0) {
            xg_run_say("cannot create the output pipes of PE %d (%m)", rank);
            goto err_close_pipes;
        }
    }
    snprintf(job->env_rank, sizeof(job->env_rank), "XGAS_RANK=%d", rank);
    snprintf(job->env_seg_fd, sizeof(job->env_seg_fd), "XGAS_SEG_FD=%d",
             job->seg_fd[xg_run_node_of(job, rank)]);
    pid = fork();
    if (pid < 0) {
        xg_run_say("cannot start PE %d: fork failed (%m)", rank);
        goto err_close_pipes;
    }
    if (pid == 0) {
        xg_run_child(job, rank, pipes);
    }
    job->pe[rank].pid = pid;
    job->running++;
    xg_ctl_watch_started(&job->watch, rank, pid);
    for (which = 0; job->tag_output && (which < XG_RUN_NSTREAMS); which++) {
        xg_run_close(&pipes[which][1]);
        s     = &job->pe[rank].stream[which];
        s->fd = pipes[which][0];
        fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
    }
    return 0;

err_close_pipes:
    for (which = 0; which < XG_RUN_NSTREAMS; which++) {
        xg_run_close(&pipes[which][0]);
        xg_run_close(&pipes[which][1]);
    }
    return -1;
}

static void xg_run_signal_all(xg_run_job_t *job, int sig)
{
    int rank;

    for (rank = 0; rank < job->npes; rank++) {
        if (job->pe[rank].pid > 0) {
            kill(job->pe[rank].pid, sig);
        }
    }
}

/* Ends the job with exit status @status: SIGTERM now, SIGKILL after the
 * grace period (see xg_run_supervise). */
static void xg_run_end(xg_run_job_t *job, int status)
{
    long grace_ms = (xg_config.run_grace_ms > 0) ? xg_config.run_grace_ms : 0;

    job->ending     = 1;
    job->status     = status;
    job->kill_at_ns = xg_time_ns() + (uint64_t)grace_ms * 1000000u;
    xg_run_signal_all(job, SIGTERM);
}

/* --report-bindings: one line per PE, before any starts. */
static void xg_run_report_bindings(const xg_run_job_t *job)
{
    char line[512];
    int rank;

    for (rank = 0; job->report_bindings && (rank < job->npes); rank++) {
        xg_bind_describe_pe(&job->bind, rank, xg_run_node_of(job, rank), line,
                            sizeof(line));
        xg_run_say("%s", line);
    }
}

/* ---- PVAS mode (tools/pvas/pvas_root.h) --------------------------------- */

/* The root's view of PE @rank's environment (xg_pvas_spec_t.env). */
static char **xg_run_pvas_env(void *arg, int rank)
{
    xg_run_job_t *job = arg;

    snprintf(job->env_rank, sizeof(job->env_rank), "XGAS_RANK=%d", rank);
    snprintf(job->env_seg_fd, sizeof(job->env_seg_fd), "XGAS_SEG_FD=%d",
             job->seg_fd[xg_run_node_of(job, rank)]);
    return job->envp;
}

/* What PE @rank's process does before its program starts
 * (xg_pvas_spec_t.plan): what xg_run_child_setup does for a forked PE,
 * as system calls the PE makes without the root's libc. */
static int xg_run_pvas_plan(void *arg, int rank, xg_pvas_plan_t *plan)
{
    xg_run_job_t *job = arg;
    size_t i;
    int which, bytes;

    plan->parent = (int32_t)job->launcher;
    for (which = 0; job->tag_output && (which < XG_RUN_NSTREAMS); which++) {
        plan->dup_from[plan->ndups] = job->pvas_pipes[rank][which][1];
        plan->dup_to[plan->ndups++] = STDOUT_FILENO + which;
    }
    for (i = 0; i < XG_ARRAY_SIZE(xg_run_own_actions); i++) {
        const struct sigaction *caller = &job->caller_action[i];

        /* xgasrun was exec'd: the caller's action is SIG_DFL or SIG_IGN,
         * which need no restorer */
        plan->signo[plan->nsigs]          = xg_run_own_actions[i].signo;
        plan->action[plan->nsigs].handler = (caller->sa_handler == SIG_IGN)
                                                ? (uint64_t)(uintptr_t)SIG_IGN
                                                : (uint64_t)(uintptr_t)SIG_DFL;
        plan->action[plan->nsigs].flags =
            (uint64_t)caller->sa_flags & ~(uint64_t)0x04000000; /* RESTORER */
        memcpy(&plan->action[plan->nsigs].mask, &caller->sa_mask,
               sizeof(plan->action[plan->nsigs].mask));
        plan->nsigs++;
    }
    if (job->nofile_raised) {
        plan->set_nofile = 1;
        plan->nofile[0]  = (uint64_t)job->caller_nofile.rlim_cur;
        plan->nofile[1]  = (uint64_t)job->caller_nofile.rlim_max;
    }
    bytes = xg_bind_mask(&job->bind, rank, plan->cpus, sizeof(plan->cpus));
    if (bytes < 0) {
        xg_run_say("PE %d: its CPUs do not fit a mask of %d CPUs: run with "
                   "--bind-to none",
                   rank, XG_PVAS_PLAN_CPUS);
        return -1;
    }
    plan->cpu_bytes = (uint32_t)bytes;
    memcpy(&plan->sigmask, &job->caller_mask, sizeof(plan->sigmask));
    return 0;
}

/* The checks of the settings --pvas depends on. */
static int xg_run_pvas_check(const xg_run_job_t *job)
{
    uint64_t seg = xg_config.pvas_segment_size;

    if ((seg & (seg - 1)) != 0) {
        xg_run_say("--pvas: XGAS_PVAS_SEGMENT_SIZE=%llu is not a power of "
                   "two: choose one, such as 64G",
                   (unsigned long long)seg);
        return -1;
    }
    if ((xg_config.symmetric_base % seg) != 0) {
        xg_run_say("--pvas: XGAS_SYMMETRIC_BASE=%#llx is not a multiple of "
                   "XGAS_PVAS_SEGMENT_SIZE=%llu: align it, or choose a "
                   "smaller segment",
                   (unsigned long long)xg_config.symmetric_base,
                   (unsigned long long)seg);
        return -1;
    }
    (void)job;
    return 0;
}

/* Under --tag-output the pipes of every PE exist before the root starts
 * them (it is a fork of ours); all close on exec, which the PEs
 * emulate. */
static int xg_run_pvas_pipes(xg_run_job_t *job)
{
    int rank, which;

    job->pvas_pipes = calloc((size_t)job->npes, sizeof(*job->pvas_pipes));
    if (job->pvas_pipes == NULL) {
        xg_run_say("out of memory for the output pipes of %d PEs", job->npes);
        return -1;
    }
    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            job->pvas_pipes[rank][which][0] = -1;
            job->pvas_pipes[rank][which][1] = -1;
            if (job->tag_output &&
                (pipe2(job->pvas_pipes[rank][which], O_CLOEXEC) != 0)) {
                xg_run_say("cannot create the output pipes of PE %d (%m)",
                           rank);
                return -1;
            }
        }
    }
    return 0;
}

/* The root process of (virtual) node @node: loads and starts its PEs,
 * then exits. */
static XG_NORETURN void xg_run_pvas_root(xg_run_job_t *job, int node,
                                         int report_fd)
{
    xg_pvas_spec_t spec = {
        .ranks     = malloc((size_t)job->npes * sizeof(int)),
        .base      = xg_config.symmetric_base,
        .seg_size  = xg_config.pvas_segment_size,
        .path      = job->path,
        .argv      = job->argv,
        .report_fd = report_fd,
        .env       = xg_run_pvas_env,
        .plan      = xg_run_pvas_plan,
        .arg       = job,
    };
    int *ranks = (int *)spec.ranks;
    int rank;

    if ((prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) ||
        (getppid() != job->launcher)) {
        _exit(1);
    }
    prctl(PR_SET_NAME, "xgasrun-root");
    if (ranks == NULL) {
        xg_run_say("--pvas: out of memory for the ranks of node %d", node);
        _exit(1);
    }
    /* node-local rank order: the segments' (boot/topo.c numbers alike) */
    for (rank = 0; rank < job->npes; rank++) {
        if (xg_run_node_of(job, rank) == node) {
            ranks[spec.npes++] = rank;
        }
    }
    /* a virtual node reaches no other node's memory: the PEs drop those
     * descriptors with the close-on-exec ones */
    for (rank = 0; rank < job->nodes; rank++) {
        if ((rank != node) && (job->seg_fd[rank] >= 0)) {
            fcntl(job->seg_fd[rank], F_SETFD, FD_CLOEXEC);
        }
    }
    _exit(xg_pvas_root(&spec));
}

/* PE @rank was started with @pid: supervise it as a forked one. */
static void xg_run_pvas_started(xg_run_job_t *job, int rank, pid_t pid)
{
    xg_run_stream_t *s;
    int which;

    job->pe[rank].pid = pid;
    job->running++;
    xg_ctl_watch_started(&job->watch, rank, pid);
    for (which = 0; job->tag_output && (which < XG_RUN_NSTREAMS); which++) {
        s                               = &job->pe[rank].stream[which];
        s->fd                           = job->pvas_pipes[rank][which][0];
        job->pvas_pipes[rank][which][0] = -1;
        fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
    }
}

/* Collects the PEs the roots report, then their exit statuses. */
static int xg_run_pvas_collect(xg_run_job_t *job, const pid_t *root,
                               int report_fd)
{
    xg_pvas_started_t rec;
    ssize_t n;
    int wstatus, rank, which, node, failed = 0;

    while (((n = read(report_fd, &rec, sizeof(rec))) == (ssize_t)sizeof(rec)) ||
           ((n < 0) && (errno == EINTR))) {
        if ((n > 0) && (rec.rank >= 0) && (rec.rank < job->npes)) {
            xg_run_pvas_started(job, rec.rank, (pid_t)rec.pid);
        }
    }
    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            xg_run_close(&job->pvas_pipes[rank][which][0]);
            xg_run_close(&job->pvas_pipes[rank][which][1]);
        }
    }
    for (node = 0; node < job->nodes; node++) {
        if (root[node] <= 0) {
            failed = 1;
            continue;
        }
        while ((waitpid(root[node], &wstatus, 0) < 0) && (errno == EINTR)) {
        }
        if (WIFSIGNALED(wstatus)) {
            xg_run_say("--pvas: the root process of node %d (pid %d) was "
                       "killed by signal %d (%s) while starting the PEs",
                       node, (int)root[node], WTERMSIG(wstatus),
                       strsignal(WTERMSIG(wstatus)));
        }
        failed |= !WIFEXITED(wstatus) || (WEXITSTATUS(wstatus) != 0);
    }
    return failed ? -1 : 0;
}

/* Starts the PEs through one root process per (virtual) node, each
 * with an address space of its own; they report on one pipe. */
static int xg_run_start_pvas(xg_run_job_t *job)
{
    int report[2], node, status;
    pid_t *root;

    if ((xg_run_pvas_check(job) != 0) || (xg_run_pvas_pipes(job) != 0)) {
        return -1;
    }
    root = calloc((size_t)job->nodes, sizeof(*root));
    if ((root == NULL) || (pipe2(report, O_CLOEXEC) != 0)) {
        xg_run_say("--pvas: cannot create a pipe (%m)");
        free(root);
        return -1;
    }
    for (node = 0; node < job->nodes; node++) {
        root[node] = fork();
        if (root[node] < 0) {
            xg_run_say("--pvas: cannot start the root process of node %d: "
                       "fork failed (%m)",
                       node);
            break;
        }
        if (root[node] == 0) {
            close(report[0]);
            xg_run_pvas_root(job, node, report[1]);
        }
    }
    xg_run_close(&report[1]);
    status = xg_run_pvas_collect(job, root, report[0]);
    xg_run_close(&report[0]);
    free(root);
    return status;
}

static void xg_run_start(xg_run_job_t *job)
{
    int rank;

    xg_run_report_bindings(job);
    if (job->pvas) {
        if (xg_run_start_pvas(job) != 0) {
            xg_run_end(job, 1);
        }
        return;
    }
    for (rank = 0; rank < job->npes; rank++) {
        if (xg_run_start_pe(job, rank) != 0) {
            xg_run_end(job, 1);
            return;
        }
    }
}

/* ---- hang watch (boot/ctl_watch.c) --------------------------------------- */

/* A PE's failure ends the job: say where the others wait, if they do. */
static void xg_run_hang_exit_report(xg_run_job_t *job)
{
    if (job->running > 0) {
        xg_ctl_watch_report_if_blocked(&job->watch, "where the other PEs "
                                                    "are:");
    }
}

/* SIGUSR1: print the report; the job goes on. */
static void xg_run_hang_signal(xg_run_job_t *job)
{
    if (!job->ending) {
        xg_ctl_watch_report(&job->watch, "SIGUSR1: state of the PEs at the "
                                         "last look:");
    }
}

/* Looks at the PEs when a look is due; a deadlock ends the job. */
static void xg_run_hang_tick(xg_run_job_t *job)
{
    if (!job->ending && xg_ctl_watch_tick(&job->watch)) {
        xg_run_end(job, XG_RUN_EXIT_HANG);
    }
}

/* Why a PE with wait status @wstatus failed, in @why, and the job's exit
 * status for it; 0 if it did not fail. */
static int xg_run_failure(const xg_run_job_t *job, int rank, int wstatus,
                          char *why, size_t why_len)
{
    int sig;

    if (WIFSIGNALED(wstatus)) {
        sig = WTERMSIG(wstatus);
        snprintf(why, why_len, "was killed by signal %d (%s%s)", sig,
                 strsignal(sig), WCOREDUMP(wstatus) ? ", core dumped" : "");
        return XG_RUN_EXIT_SIGNAL + sig;
    }
    if (WEXITSTATUS(wstatus) != 0) {
        snprintf(why, why_len, "exited with status %d", WEXITSTATUS(wstatus));
        return WEXITSTATUS(wstatus);
    }
    if (atomic_load_explicit(&job->ctl->pe[rank].state, memory_order_acquire) ==
        XG_PE_INITIALIZED) {
        snprintf(why, why_len, "exited without calling shmem_finalize");
        return 1;
    }
    return 0;
}

/* Prints the held-back failure, if any. */
static void xg_run_say_held(xg_run_job_t *job)
{
    if (job->blamed_rank >= 0) {
        xg_run_say("%s", job->held_message);
        job->blamed_rank = -1;
    }
}

/* The peer a held-back failure blamed (@rank) is reaped: if it failed on
 * its own -- not of the SIGTERM or SIGKILL that ends the job -- it is the
 * first failure; else the held one is. */
static void xg_run_blamed_exited(xg_run_job_t *job, int rank, pid_t pid,
                                 int wstatus)
{
    char why[128];
    int status, sig;

    status = xg_run_failure(job, rank, wstatus, why, sizeof(why));
    sig    = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    if ((status == 0) || (sig == SIGTERM) || (sig == SIGKILL && job->killed)) {
        xg_run_say_held(job);
        return;
    }
    job->blamed_rank = -1;
    job->status      = status;
    xg_run_say("PE %d (pid %d) %s; ending the job", rank, (int)pid, why);
}

/* Judges the exit of PE @rank (already reaped, with wait status @wstatus):
 * the first failure ends the job with one message. */
static void xg_run_pe_exited(xg_run_job_t *job, int rank, pid_t pid,
                             int wstatus)
{
    char why[128];
    int requester, status, cause;

    if (job->ending) {
        if (rank == job->blamed_rank) {
            xg_run_blamed_exited(job, rank, pid, wstatus);
        }
        return;
    }
    /* acquire: pairs with the requester's store, which precedes its exit */
    requester =
        atomic_load_explicit(&job->ctl->exit_requested, memory_order_acquire) -
        1;
    if ((requester >= 0) && (requester < job->npes)) {
        /* shmem_global_exit: the requester's own exit, not a peer's, ends
         * the job (peers may be dying of the same cause meanwhile); the
         * status was published before the request (see xg_ctl.h). */
        if (requester == rank) {
            status = xg_ctl_exit_code(atomic_load_explicit(
                &job->ctl->exit_status, memory_order_acquire));
            xg_debug("run",
                     "PE %d called shmem_global_exit(%d): ending the "
                     "job",
                     rank, status);
            xg_run_end(job, status);
        }
        return;
    }
    status = xg_run_failure(job, rank, wstatus, why, sizeof(why));
    if (status == 0) {
        return;
    }
    /* acquire: the PE wrote its cause before it exited */
    cause =
        atomic_load_explicit(&job->ctl->pe[rank].cause, memory_order_acquire) -
        1;
    if ((cause >= 0) && (cause < job->npes) && (cause != rank) &&
        (job->pe[cause].pid > 0)) {
        /* it noticed that @cause stopped answering, and @cause is not
         * reaped yet: most likely dying -- judge it first */
        snprintf(job->held_message, sizeof(job->held_message),
                 "PE %d (pid %d) %s%s", rank, (int)pid, why,
                 (job->running > 0) ? "; ending the job" : "");
        job->blamed_rank = cause;
        xg_run_end(job, status);
        return;
    }
    xg_run_say("PE %d (pid %d) %s%s", rank, (int)pid, why,
               (job->running > 0) ? "; ending the job" : "");
    xg_run_hang_exit_report(job);
    xg_run_end(job, status);
}

/* Reaps every PE that has exited -- @first (the sender of the SIGCHLD
 * that woke us: the first to die since the last round) before the others,
 * which waitpid(-1) would return in the order they were started. */
static void xg_run_reap(xg_run_job_t *job, pid_t first)
{
    pid_t pid;
    int wstatus, rank;

    pid = (first > 0) ? waitpid(first, &wstatus, WNOHANG) : 0;
    if (pid <= 0) {
        pid = waitpid(-1, &wstatus, WNOHANG);
    }
    for (; pid > 0; pid = waitpid(-1, &wstatus, WNOHANG)) {
        for (rank = 0; rank < job->npes; rank++) {
            if (job->pe[rank].pid == pid) {
                break;
            }
        }
        if (rank == job->npes) {
            continue; /* inherited from whoever exec'd xgasrun, or an
                       * orphan of a PE (we are the subreaper) */
        }
        job->pe[rank].pid = 0;
        job->running--;
        xg_ctl_watch_exited(&job->watch, rank);
        xg_run_pe_exited(job, rank, pid, wstatus);
    }
    if ((pid < 0) && (errno != ECHILD)) {
        xg_run_fatal("cannot wait for the PEs");
    }
}

/* Handles every pending signal, lowest number first (the kernel's order):
 * a terminal's SIGINT is thus seen before the SIGCHLD of the PEs it
 * killed, which then do not count as failures. */
static void xg_run_read_signals(xg_run_job_t *job)
{
    struct signalfd_siginfo info;
    ssize_t n;
    int sig;

    while ((n = read(job->sig_fd, &info, sizeof(info))) ==
           (ssize_t)sizeof(info)) {
        sig = (int)info.ssi_signo;
        if (sig == SIGCHLD) {
            xg_run_reap(job, (pid_t)info.ssi_pid);
        } else if (sig == SIGUSR1) {
            xg_run_hang_signal(job);
        } else if (!job->ending) {
            xg_run_say("received signal %d (%s); ending the job", sig,
                       strsignal(sig));
            xg_run_end(job, XG_RUN_EXIT_SIGNAL + sig);
        } else if (!job->killed) {
            /* asked again while ending: no more grace */
            xg_run_signal_all(job, SIGKILL);
            job->killed = 1;
        }
    }
    if ((n < 0) && (errno != EAGAIN)) {
        xg_run_fatal("cannot read signals");
    }
}

/* Writes all of @iov to @fd; 0 on success, -1 if @fd is unusable. */
static int xg_run_write(int fd, struct iovec *iov, int count)
{
    struct pollfd writable = {.fd = fd, .events = POLLOUT};
    ssize_t n;

    while (count > 0) {
        n = writev(fd, iov, count);
        if ((n < 0) && (errno == EAGAIN)) {
            poll(&writable, 1, -1); /* someone made our output nonblocking */
            continue;
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        while ((count > 0) && ((size_t)n >= iov->iov_len)) {
            n -= (ssize_t)iov->iov_len;
            iov++;
            count--;
        }
        if (count > 0) {
            iov->iov_base = (char *)iov->iov_base + n;
            iov->iov_len -= (size_t)n;
        }
    }
    return 0;
}

/* Our stdout or stderr is gone (say, a pipe whose reader quit): stop
 * reading that stream of every PE, so that a PE writing to it gets EPIPE,
 * as it would without --tag-output. */
static void xg_run_output_lost(xg_run_job_t *job, int out_fd)
{
    xg_run_stream_t *s;
    int rank, which;

    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            s = &job->pe[rank].stream[which];
            if (s->out_fd == out_fd) {
                xg_run_close(&s->fd);
                s->len = 0;
            }
        }
    }
}

/* Writes "[<pe>] " and the @len bytes of @line (plus a newline if
 * @add_newline) as one write; 0 on success, -1 if the output is gone. */
static int xg_run_emit(xg_run_job_t *job, xg_run_stream_t *s, char *line,
                       size_t len, int add_newline)
{
    static char newline[] = "\n";
    char tag[24];
    struct iovec iov[3];

    iov[0].iov_base = tag;
    iov[0].iov_len  = (size_t)snprintf(tag, sizeof(tag), "[%d] ", s->rank);
    iov[1].iov_base = line;
    iov[1].iov_len  = len;
    iov[2].iov_base = newline;
    iov[2].iov_len  = 1;
    if (xg_run_write(s->out_fd, iov, add_newline ? 3 : 2) == 0) {
        return 0;
    }
    xg_run_output_lost(job, s->out_fd);
    return -1;
}

/* Reads what a PE wrote to stream @s and passes on its complete lines,
 * tagged; a line longer than XG_RUN_LINE_MAX is split.  At the end of the
 * stream (for @draining: of what it holds now) a last unterminated line is
 * passed on with a newline, and the stream is closed. */
static void xg_run_forward(xg_run_job_t *job, xg_run_stream_t *s, int draining)
{
    ssize_t n  = read(s->fd, s->buf + s->len, XG_RUN_LINE_MAX - s->len);
    char *line = s->buf, *end, *newline;
    int at_end;

    if ((n < 0) && ((errno == EINTR) || ((errno == EAGAIN) && !draining))) {
        return;
    }
    at_end = (n <= 0);
    s->len += at_end ? 0 : (size_t)n;
    end = s->buf + s->len;
    while ((newline = memchr(line, '\n', (size_t)(end - line))) != NULL) {
        if (xg_run_emit(job, s, line, (size_t)(newline + 1 - line), 0) != 0) {
            return;
        }
        line = newline + 1;
    }
    if ((line < end) && (at_end || (end - line == XG_RUN_LINE_MAX))) {
        if (xg_run_emit(job, s, line, (size_t)(end - line), 1) != 0) {
            return;
        }
        line = end;
    }
    s->len = (size_t)(end - line);
    memmove(s->buf, line, s->len);
    if (at_end) {
        xg_run_close(&s->fd);
    }
}

/* Fills job->pfd with the signalfd and every open stream; returns the
 * count. */
static int xg_run_poll_fill(xg_run_job_t *job)
{
    xg_run_stream_t *s;
    int rank, which, count = 1;

    job->pfd[0] = (struct pollfd){.fd = job->sig_fd, .events = POLLIN};
    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            s = &job->pe[rank].stream[which];
            if (s->fd >= 0) {
                job->pfd[count] =
                    (struct pollfd){.fd = s->fd, .events = POLLIN};
                job->pfd_stream[count++] = s;
            }
        }
    }
    return count;
}

/* Milliseconds poll() may sleep: forever, unless the grace period of an
 * ending job is running. */
static int xg_run_poll_timeout(const xg_run_job_t *job)
{
    uint64_t now, ms;

    if (!job->ending) {
        return xg_ctl_watch_poll_ms(&job->watch);
    }
    if (job->killed) {
        return -1;
    }
    now = xg_time_ns();
    if (now >= job->kill_at_ns) {
        return 0;
    }
    ms = (job->kill_at_ns - now + 999999u) / 1000000u;
    return (ms > INT_MAX) ? INT_MAX : (int)ms;
}

/* Runs until every PE is reaped, then passes on the output left in the
 * pipes.  Output is handled before signals, so that a PE's last words come
 * before the launcher's message about its exit. */
static void xg_run_supervise(xg_run_job_t *job)
{
    xg_run_stream_t *s;
    int count, ready, i, rank, which;

    while (job->running > 0) {
        count = xg_run_poll_fill(job);
        ready = poll(job->pfd, (nfds_t)count, xg_run_poll_timeout(job));
        if ((ready < 0) && (errno != EINTR)) {
            xg_run_fatal("cannot poll the PEs");
        }
        for (i = 1; (ready > 0) && (i < count); i++) {
            s = job->pfd_stream[i];
            if ((job->pfd[i].revents != 0) && (s->fd >= 0)) {
                xg_run_forward(job, s, 0);
            }
        }
        if ((ready > 0) && (job->pfd[0].revents != 0)) {
            xg_run_read_signals(job);
        }
        xg_run_hang_tick(job);
        if (job->ending && !job->killed && (xg_time_ns() >= job->kill_at_ns)) {
            xg_run_signal_all(job, SIGKILL);
            job->killed = 1;
        }
    }
    /* a pipe still open now is held by something a PE left behind: pass on
     * what it holds, without waiting for it */
    for (rank = 0; rank < job->npes; rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            s = &job->pe[rank].stream[which];
            while (s->fd >= 0) {
                xg_run_forward(job, s, 1);
            }
        }
    }
}

static void xg_run_cleanup(xg_run_job_t *job)
{
    int rank, which;

    for (rank = 0; (job->pe != NULL) && (rank < job->npes); rank++) {
        for (which = 0; which < XG_RUN_NSTREAMS; which++) {
            xg_run_close(&job->pe[rank].stream[which].fd);
            free(job->pe[rank].stream[which].buf);
        }
    }
    free(job->pe);
    free(job->pfd);
    free(job->pfd_stream);
    free(job->envp);
    free(job->pvas_pipes);
    free(job->foreign);
    xg_ctl_watch_fini(&job->watch);
    xg_bind_fini(&job->bind);
    if (job->ctl != NULL) {
        munmap(job->ctl, job->ctl_size);
    }
    xg_run_close(&job->ctl_fd);
    for (rank = 0; (job->seg_fd != NULL) && (rank < job->nodes); rank++) {
        xg_run_close(&job->seg_fd[rank]);
    }
    free(job->seg_fd);
    xg_run_close(&job->sig_fd);
}

int main(int argc, char **argv)
{
    xg_run_job_t job = {.ctl_fd = -1, .sig_fd = -1, .blamed_rank = -1};
    int status;

    status = xg_run_parse_args(&job, argc, argv);
    if (status >= 0) {
        return status;
    }
    xg_run_open_std_fds();
    if (xg_config_load() != XG_OK) {
        xg_run_say("fix the settings named above and run again");
        return 1;
    }
    xg_log_set_prefix("xgasrun");
    job.pvas |= xg_config.pvas;
    status = xg_run_find_program(&job);
    if (status != 0) {
        return status;
    }
    if (xg_run_setup(&job) != 0) {
        xg_run_cleanup(&job);
        return 1;
    }
    xg_run_start(&job);
    xg_run_supervise(&job);
    xg_run_end_orphans(&job);
    xg_run_cleanup(&job);
    return job.status;
}
