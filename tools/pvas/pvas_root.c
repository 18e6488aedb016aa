/*
 * The PVAS root process: reserve, load, start (see pvas_root.h).
 */
#include "pvas/pvas_root.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "pvas/pvas_elf.h"

#define PVAS_MB         (1ull << 20)
#define PVAS_ALIGN      (2 * PVAS_MB)         /* parts of a segment start so */
#define PVAS_STACK_MIN  (8 * PVAS_MB)         /* and without a stack limit */
#define PVAS_TRAMP_SIZE (64u << 10)           /* bottom of the stack: clone's */
#define PVAS_VA_LIMIT   ((1ull << 47) - 4096) /* x86-64 TASK_SIZE */
/* An estimate for vm.max_map_count of a copy's mappings: one per load
 * and one more for its bss, for the program and ld.so; about 5 per
 * shared library it loads (xg_pvas_count_libraries: text, rodata, data,
 * relro, bss); the stack, its threads and the reservation's pieces; and
 * the runtime's own areas (node room, rings, control area) for an xgas
 * program.  Measured on Debian 12: 133 mappings per PE of a dynamic
 * xgas program with libfabric and libpmix (21 libraries), estimated
 * 136; 31 for one without them (2 libraries), estimated 41. */
#define PVAS_MAPS_BASE    8
#define PVAS_MAPS_LIBRARY 5
#define PVAS_MAPS_XGAS    8
#define PVAS_AUXV_MAX     32

typedef struct pvas_root {
    const xg_pvas_spec_t *spec;
    xg_pvas_image_t prog;
    xg_pvas_image_t interp;
    int dynamic;
    uint64_t image_off;
    uint64_t interp_off;
    uint64_t room_lo;
    uint64_t room_hi;
    uint64_t stack_off;
    uint64_t stack_size;  /* the stack limit, as exec gives it */
    char room_env[2][64]; /* XGAS_PVAS_ROOM_LO=, _HI= */
} pvas_root_t;

/* What a new PE's process needs, at the bottom of its own stack (in its
 * segment): the root goes on with the next PE at once. */
typedef struct pvas_start {
    int rank;
    uintptr_t entry;
    uintptr_t sp;
    char name[16];
    xg_pvas_plan_t plan;
} pvas_start_t;

static __attribute__((format(printf, 1, 2))) void pvas_say(const char *fmt, ...)
{
    char line[1024];
    size_t len;
    va_list ap;

    len = (size_t)snprintf(line, sizeof(line), "xgasrun: ");
    va_start(ap, fmt);
    vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
    va_end(ap);
    len         = strlen(line);
    line[len++] = '\n';
    if (write(STDERR_FILENO, line, len) < 0) {
        /* nowhere to report to */
    }
}

static uint64_t pvas_align(uint64_t x, uint64_t a)
{
    return (x + a - 1) & ~(a - 1);
}

static uintptr_t pvas_seg(const pvas_root_t *r, int local)
{
    return (uintptr_t)(r->spec->base + (uint64_t)local * r->spec->seg_size);
}

/* Opens the program and its interpreter. */
static int pvas_open(pvas_root_t *r)
{
    char why[PATH_MAX + 256];

    if (xg_pvas_image_open(&r->prog, r->spec->path, why, sizeof(why)) != 0) {
        pvas_say("--pvas: %s", why);
        return -1;
    }
    if (r->prog.sanitizer[0] != '\0') {
        /* each copy's runtime would map its shadow memory at the same
         * fixed addresses of the one address space */
        pvas_say("--pvas: '%s' is built with a sanitizer (it needs %s), "
                 "whose shadow memory is one per address space: run it "
                 "without --pvas",
                 r->spec->path, r->prog.sanitizer);
        return -1;
    }
    r->dynamic = (r->prog.interp[0] != '\0');
    if (r->dynamic && (xg_pvas_image_open(&r->interp, r->prog.interp, why,
                                          sizeof(why)) != 0)) {
        pvas_say("--pvas: the interpreter of '%s': %s", r->spec->path, why);
        return -1;
    }
    return 0;
}

/* Places the parts of a segment and checks that they fit: the lower
 * half is the runtime's room, the upper one holds the program, its
 * interpreter and the stack, each 2 MiB aligned after a 2 MiB gap. */
static int pvas_layout(pvas_root_t *r)
{
    uint64_t seg = r->spec->seg_size, end;
    struct rlimit limit;

    /* a conventional PE's stack grows up to RLIMIT_STACK: this one is
     * mapped at that size (sparse), at least 8 MiB, at most an eighth of
     * the segment */
    r->stack_size = PVAS_STACK_MIN;
    if ((getrlimit(RLIMIT_STACK, &limit) == 0) &&
        (limit.rlim_cur != RLIM_INFINITY) && (limit.rlim_cur > r->stack_size)) {
        r->stack_size = pvas_align(limit.rlim_cur, PVAS_ALIGN);
    }
    if (r->stack_size > seg / 8) {
        r->stack_size = (seg / 8 > PVAS_STACK_MIN) ? seg / 8 : PVAS_STACK_MIN;
    }
    r->image_off = seg / 2;
    r->interp_off =
        r->image_off + pvas_align(r->prog.span, PVAS_ALIGN) + PVAS_ALIGN;
    end        = r->dynamic ? r->interp_off + r->interp.span
                            : r->image_off + r->prog.span;
    end        = pvas_align(end, PVAS_ALIGN) + PVAS_ALIGN;
    r->room_lo = 0;
    r->room_hi = r->image_off - PVAS_ALIGN;
    /* the stack right above: the upper parts share page-table pages */
    r->stack_off = end;
    if (end + r->stack_size > seg) {
        pvas_say("--pvas: '%s' needs %llu MiB of its segment for the program"
                 "%s and its stack, more than the upper half of "
                 "XGAS_PVAS_SEGMENT_SIZE=%llu MiB: raise "
                 "XGAS_PVAS_SEGMENT_SIZE (a power of two)",
                 r->spec->path,
                 (unsigned long long)((end - r->image_off + r->stack_size) /
                                      PVAS_MB),
                 r->dynamic ? ", its interpreter" : "",
                 (unsigned long long)(seg / PVAS_MB));
        return -1;
    }
    snprintf(r->room_env[0], sizeof(r->room_env[0]), "XGAS_PVAS_ROOM_LO=%#llx",
             (unsigned long long)r->room_lo);
    snprintf(r->room_env[1], sizeof(r->room_env[1]), "XGAS_PVAS_ROOM_HI=%#llx",
             (unsigned long long)r->room_hi);
    return 0;
}

/* vm.max_map_count is per address space: every copy's mappings count. */
static int pvas_check_map_count(const pvas_root_t *r)
{
    long max = 0, each, need;
    FILE *f  = fopen("/proc/sys/vm/max_map_count", "re");

    if (f != NULL) {
        if (fscanf(f, "%ld", &max) != 1) {
            max = 0;
        }
        fclose(f);
    }
    each = r->prog.nloads + 1 + PVAS_MAPS_BASE +
           (r->dynamic ? r->interp.nloads + 1 +
                             PVAS_MAPS_LIBRARY *
                                 (long)xg_pvas_count_libraries(r->spec->path)
                       : 0) +
           (r->prog.needs_xgas ? PVAS_MAPS_XGAS : 0);
    need = each * r->spec->npes + 256;
    if ((max > 0) && (need > max)) {
        pvas_say("--pvas: %d PEs of '%s' in one address space need about %ld "
                 "memory mappings (%ld per PE), more than vm.max_map_count="
                 "%ld: run at most %ld PEs per node, link the program "
                 "statically (-static-pie) to need fewer, or have the "
                 "administrator raise vm.max_map_count",
                 r->spec->npes, r->spec->path, need, each, max,
                 (max > 256) ? (max - 256) / each : 0);
        return -1;
    }
    return 0;
}

/* Names what already holds part of [lo, hi), from /proc/self/maps. */
static void pvas_holder(uintptr_t lo, uintptr_t hi, char *out, size_t len)
{
    char line[512], name[256];
    unsigned long a, b;
    FILE *maps = fopen("/proc/self/maps", "re");

    snprintf(out, len, "another mapping");
    while ((maps != NULL) && (fgets(line, sizeof(line), maps) != NULL)) {
        name[0] = '\0';
        if ((sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &a, &b, name) >=
             2) &&
            (a < hi) && (b > lo)) {
            snprintf(out, len, "%s at %#lx-%#lx",
                     (name[0] != '\0') ? name : "an anonymous mapping", a, b);
            break;
        }
    }
    if (maps != NULL) {
        fclose(maps);
    }
}

/* Reserves the whole node range, inaccessible until parts are mapped. */
static int pvas_reserve(const pvas_root_t *r)
{
    uint64_t base = r->spec->base, total, end;
    char holder[320];
    void *got;

    if (__builtin_mul_overflow(r->spec->seg_size, (uint64_t)r->spec->npes,
                               &total) ||
        __builtin_add_overflow(base, total, &end) || (end > PVAS_VA_LIMIT)) {
        pvas_say("--pvas: %d segments of XGAS_PVAS_SEGMENT_SIZE=%llu MiB "
                 "from XGAS_SYMMETRIC_BASE=%#llx do not fit below the top "
                 "of the address space (%#llx): lower XGAS_PVAS_SEGMENT_SIZE "
                 "or XGAS_SYMMETRIC_BASE, or run fewer PEs per node",
                 r->spec->npes,
                 (unsigned long long)(r->spec->seg_size / PVAS_MB),
                 (unsigned long long)base, (unsigned long long)PVAS_VA_LIMIT);
        return -1;
    }
    got =
        mmap((void *)base, total, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
             -1, 0);
    if ((got == MAP_FAILED) && (errno == EEXIST)) {
        pvas_holder((uintptr_t)base, (uintptr_t)end, holder, sizeof(holder));
        pvas_say("--pvas: the node range %#llx-%#llx (%d segments of %llu "
                 "MiB) is already in use, by %s: choose another "
                 "XGAS_SYMMETRIC_BASE",
                 (unsigned long long)base, (unsigned long long)end,
                 r->spec->npes,
                 (unsigned long long)(r->spec->seg_size / PVAS_MB), holder);
        return -1;
    }
    if ((got == MAP_FAILED) || (got != (void *)base)) {
        pvas_say("--pvas: cannot reserve the node range %#llx-%#llx (%s): "
                 "check `ulimit -v`, or choose another XGAS_SYMMETRIC_BASE",
                 (unsigned long long)base, (unsigned long long)end,
                 (got == MAP_FAILED) ? strerror(errno)
                                     : "the kernel placed it elsewhere");
        return -1;
    }
    return 0;
}

/* One page nobody may use, at the program break: every brk() growth of
 * every copy then fails, and glibc's malloc and TLS set-up use mmap. */
static int pvas_block_brk(void)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t at   = ((uintptr_t)sbrk(0) + page - 1) & ~(page - 1);
    void *got      = mmap((void *)at, page, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

    if ((got == MAP_FAILED) && (errno != EEXIST)) {
        pvas_say("--pvas: cannot block the program break at %#lx (%s)",
                 (unsigned long)at, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the initial stack ------------------------------------------------ */

typedef struct pvas_stack {
    uintptr_t lo;  /* lowest byte the vectors may use */
    uintptr_t top; /* strings grow down from here */
} pvas_stack_t;

static uintptr_t pvas_push(pvas_stack_t *s, const void *data, size_t len)
{
    if (s->top - s->lo < len + 4096) {
        return 0;
    }
    s->top -= len;
    memcpy((void *)s->top, data, len);
    return s->top;
}

static uintptr_t pvas_push_str(pvas_stack_t *s, const char *str)
{
    return pvas_push(s, str, strlen(str) + 1);
}

static size_t pvas_count(char *const *v)
{
    size_t n = 0;

    while (v[n] != NULL) {
        n++;
    }
    return n;
}

static void pvas_aux(Elf64_auxv_t *aux, size_t *n, uint64_t type,
                     uint64_t value)
{
    aux[*n].a_type     = type;
    aux[*n].a_un.a_val = value;
    (*n)++;
}

/* The auxiliary vector of a copy at @seg, whose AT_RANDOM bytes and
 * strings are at @random, @platform and @execfn. */
static size_t pvas_auxv(const pvas_root_t *r, uintptr_t seg, uintptr_t random,
                        uintptr_t platform, uintptr_t execfn, Elf64_auxv_t *aux)
{
    static const unsigned long copied[] = {AT_HWCAP, AT_HWCAP2, AT_CLKTCK,
                                           AT_SYSINFO_EHDR, 51 /* MINSIG */};
    size_t n                            = 0, i;
    unsigned long value;

    pvas_aux(aux, &n, AT_PHDR, seg + r->image_off + r->prog.phdr_vaddr);
    pvas_aux(aux, &n, AT_PHENT, sizeof(Elf64_Phdr));
    pvas_aux(aux, &n, AT_PHNUM, r->prog.ehdr.e_phnum);
    pvas_aux(aux, &n, AT_PAGESZ, (uint64_t)sysconf(_SC_PAGESIZE));
    pvas_aux(aux, &n, AT_BASE, r->dynamic ? seg + r->interp_off : 0);
    pvas_aux(aux, &n, AT_FLAGS, 0);
    pvas_aux(aux, &n, AT_ENTRY, seg + r->image_off + r->prog.ehdr.e_entry);
    pvas_aux(aux, &n, AT_UID, getuid());
    pvas_aux(aux, &n, AT_EUID, geteuid());
    pvas_aux(aux, &n, AT_GID, getgid());
    pvas_aux(aux, &n, AT_EGID, getegid());
    pvas_aux(aux, &n, AT_SECURE, 0);
    pvas_aux(aux, &n, AT_RANDOM, random);
    pvas_aux(aux, &n, AT_EXECFN, execfn);
    if (platform != 0) {
        pvas_aux(aux, &n, AT_PLATFORM, platform);
    }
    for (i = 0; i < sizeof(copied) / sizeof(copied[0]); i++) {
        value = getauxval(copied[i]);
        if (value != 0) {
            pvas_aux(aux, &n, copied[i], value);
        }
    }
    pvas_aux(aux, &n, AT_NULL, 0);
    return n;
}

/* Copies @v's strings onto @s; their addresses go to @out (n + 1). */
static int pvas_push_vec(pvas_stack_t *s, char *const *v, size_t n,
                         uintptr_t *out)
{
    size_t i;

    for (i = 0; i < n; i++) {
        out[i] = pvas_push_str(s, v[i]);
        if (out[i] == 0) {
            return -1;
        }
    }
    out[n] = 0;
    return 0;
}

/* Builds the stack of the copy at @seg as the kernel would for exec:
 * argc, argv, envp (with the room variables), auxv, then the strings.
 * Returns the stack pointer, or 0 if it does not fit. */
static uintptr_t pvas_build_stack(const pvas_root_t *r, uintptr_t seg,
                                  char *const *envp)
{
    pvas_stack_t s = {.lo  = seg + r->stack_off + PVAS_TRAMP_SIZE,
                      .top = seg + r->stack_off + r->stack_size};
    size_t argc = pvas_count(r->spec->argv), envc = pvas_count(envp), naux;
    const char *plat = (const char *)getauxval(AT_PLATFORM);
    uintptr_t random, platform = 0, execfn, *vec, *p;
    unsigned char bytes[16];
    Elf64_auxv_t aux[PVAS_AUXV_MAX];
    size_t words;

    if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes)) {
        return 0;
    }
    vec = malloc((argc + envc + 4) * sizeof(*vec));
    if (vec == NULL) {
        return 0;
    }
    /* as the kernel, a null pointer's bytes above the strings: readers
     * that run one past the last string's end (ld.so's glibc.cpu.hwcaps
     * parser in Debian 12's glibc does) find a zero, not the end of the
     * stack mapping */
    if (pvas_push(&s, &(uint64_t){0}, sizeof(uint64_t)) == 0) {
        free(vec);
        return 0;
    }
    execfn   = pvas_push_str(&s, r->spec->path);
    random   = pvas_push(&s, bytes, sizeof(bytes));
    platform = (plat != NULL) ? pvas_push_str(&s, plat) : 1;
    if ((execfn == 0) || (random == 0) || (platform == 0) ||
        (pvas_push_vec(&s, r->spec->argv, argc, vec) != 0) ||
        (pvas_push_vec(&s, envp, envc, vec + argc + 1) != 0) ||
        ((vec[argc + 1 + envc] = pvas_push_str(&s, r->room_env[0])) == 0) ||
        ((vec[argc + 2 + envc] = pvas_push_str(&s, r->room_env[1])) == 0)) {
        free(vec);
        return 0;
    }
    vec[argc + 3 + envc] = 0;
    naux =
        pvas_auxv(r, seg, random, (plat != NULL) ? platform : 0, execfn, aux);
    words = 1 + (argc + 1) + (envc + 3) + 2 * naux;
    s.top = (s.top - words * sizeof(uint64_t)) & ~(uintptr_t)15;
    if (s.top < s.lo) {
        free(vec);
        return 0;
    }
    p    = (uintptr_t *)s.top;
    *p++ = argc;
    memcpy(p, vec, (argc + envc + 4) * sizeof(*vec));
    p += argc + envc + 4;
    memcpy(p, aux, naux * sizeof(aux[0]));
    free(vec);
    return s.top;
}

/* ---- starting a copy -------------------------------------------------- */

/* A system call that touches neither errno nor anything else of the
 * root's libc state: what a new PE's process runs before its program. */
static long pvas_sys(long nr, long a, long b, long c, long d)
{
    long ret;
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;

    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = nr;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;

    __asm__ volatile("svc 0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3)
                     : "memory");
    ret = x0;
#endif
    return ret;
}

static __attribute__((noreturn)) void pvas_sys_exit(int status)
{
    for (;;) {
        pvas_sys(SYS_exit_group, status, 0, 0, 0);
    }
}

/* "xgasrun: PE <rank>: <what>\n" on stderr, without libc. */
static void pvas_sys_say(int rank, const char *what)
{
    char line[256], digits[12];
    size_t len = 0, n = 0, i;
    const char *head = "xgasrun: PE ";
    unsigned value   = (unsigned)rank;

    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while ((value != 0) && (n < sizeof(digits)));
    for (i = 0; head[i] != '\0'; i++) {
        line[len++] = head[i];
    }
    while (n > 0) {
        line[len++] = digits[--n];
    }
    line[len++] = ':';
    line[len++] = ' ';
    for (i = 0; (what[i] != '\0') && (len < sizeof(line) - 1); i++) {
        line[len++] = what[i];
    }
    line[len++] = '\n';
    pvas_sys(SYS_write, STDERR_FILENO, (long)line, (long)len, 0);
}

/* Closes every descriptor marked close-on-exec, as the exec a PE does not
 * do would: the root's, xgasrun's and the other PEs'.  System calls
 * only, into the stack. */
static void pvas_close_on_exec(void)
{
    char buf[2048];
    long n, off, dir, flags;
    int fd, i;

    dir = pvas_sys(SYS_openat, AT_FDCWD, (long)"/proc/self/fd",
                   O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dir < 0) {
        return;
    }
    while ((n = pvas_sys(SYS_getdents64, dir, (long)buf, sizeof(buf), 0)) > 0) {
        for (off = 0; off < n;) {
            struct {
                uint64_t ino;
                int64_t off;
                uint16_t reclen;
                uint8_t type;
                char name[];
            } *d = (void *)(buf + off);

            fd = 0;
            for (i = 0; (d->name[i] >= '0') && (d->name[i] <= '9'); i++) {
                fd = fd * 10 + (d->name[i] - '0');
            }
            flags = (i > 0) ? pvas_sys(SYS_fcntl, fd, F_GETFD, 0, 0) : -1;
            if ((fd != dir) && (flags >= 0) && (flags & FD_CLOEXEC)) {
                pvas_sys(SYS_close, fd, 0, 0, 0);
            }
            off += d->reclen;
        }
    }
    pvas_sys(SYS_close, dir, 0, 0, 0);
}

/* Carries out @plan in the new PE's process: 0, or -1 after saying why. */
static int pvas_enter(int rank, const xg_pvas_plan_t *plan)
{
    int i;

    /* asked before the check: if xgasrun died earlier, no SIGKILL would
     * ever come, and the parent is no longer xgasrun */
    if ((pvas_sys(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0) != 0) ||
        (pvas_sys(SYS_getppid, 0, 0, 0, 0) != plan->parent)) {
        return -1;
    }
    for (i = 0; i < plan->ndups; i++) {
        if (pvas_sys(SYS_dup2, plan->dup_from[i], plan->dup_to[i], 0, 0) < 0) {
            return -1;
        }
    }
    for (i = 0; i < plan->nsigs; i++) {
        pvas_sys(SYS_rt_sigaction, plan->signo[i], (long)&plan->action[i], 0,
                 sizeof(plan->action[i].mask));
    }
    if (plan->set_nofile) {
        pvas_sys(SYS_prlimit64, 0, RLIMIT_NOFILE, (long)plan->nofile, 0);
    }
    if ((plan->cpu_bytes > 0) &&
        (pvas_sys(SYS_sched_setaffinity, 0, plan->cpu_bytes, (long)plan->cpus,
                  0) != 0)) {
        pvas_sys_say(rank, "cannot bind it to its CPUs: run with --bind-to "
                           "none");
        return -1;
    }
    pvas_close_on_exec();
    /* last: a SIGTERM that is already pending now ends the PE */
    pvas_sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&plan->sigmask, 0,
             sizeof(plan->sigmask));
    return 0;
}

/* Starts the program: stack pointer @sp, no exit function (rdx/x0 = 0),
 * an empty frame pointer. */
static __attribute__((noreturn)) void pvas_jump(uintptr_t entry, uintptr_t sp)
{
#if defined(__x86_64__)
    __asm__ volatile("mov %1, %%rsp\n\t"
                     "xor %%edx, %%edx\n\t"
                     "xor %%ebp, %%ebp\n\t"
                     "jmp *%0\n\t"
                     :
                     : "a"(entry), "S"(sp)
                     : "memory");
#elif defined(__aarch64__)
    __asm__ volatile("mov sp, %1\n\t"
                     "mov x0, #0\n\t"
                     "mov x29, #0\n\t"
                     "mov x30, #0\n\t"
                     "br %0\n\t"
                     :
                     : "r"(entry), "r"(sp)
                     : "memory", "x0", "x29", "x30");
#endif
    __builtin_unreachable();
}

/* The new PE's process, on its trampoline stack, while the root goes on:
 * raw system calls on its own memory only (pvas_root.h). */
static int pvas_child(void *arg)
{
    const pvas_start_t *st = arg;

    pvas_sys(SYS_prctl, PR_SET_NAME, (long)st->name, 0, 0);
    if (pvas_enter(st->rank, &st->plan) != 0) {
        pvas_sys_exit(1);
    }
    pvas_jump(st->entry, st->sp);
}

/* The process name of PE @rank: "<program>.<rank>", cut to fit. */
static void pvas_name(const char *path, int rank, char name[16])
{
    const char *base = strrchr(path, '/');
    char num[16];
    size_t room, len;

    base = (base != NULL) ? base + 1 : path;
    len  = (size_t)snprintf(num, sizeof(num), ".%d", rank);
    room = 15 - len;
    len  = strnlen(base, room);
    memcpy(name, base, len);
    memcpy(name + len, num, strlen(num) + 1);
}

/* Maps the program, its interpreter and the stack into segment @seg of
 * PE @rank. */
static int pvas_map_copy(const pvas_root_t *r, int rank, uintptr_t seg)
{
    if ((xg_pvas_image_map(&r->prog, seg + r->image_off) != 0) ||
        (r->dynamic &&
         (xg_pvas_image_map(&r->interp, seg + r->interp_off) != 0)) ||
        (mmap((void *)(seg + r->stack_off), r->stack_size,
              PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE |
                  MAP_STACK,
              -1, 0) == MAP_FAILED)) {
        pvas_say("--pvas: cannot map PE %d into its segment at %#lx (%s)%s",
                 rank, (unsigned long)seg, strerror(errno),
                 (errno == ENOMEM) ? ": the address space has reached "
                                     "vm.max_map_count mappings or `ulimit "
                                     "-v`; run fewer PEs per node"
                                   : "");
        return -1;
    }
    return 0;
}

/* What the new PE of segment @seg needs, at the bottom of its stack (in
 * its own segment): NULL if its stack cannot hold its arguments. */
static pvas_start_t *pvas_prepare(const pvas_root_t *r, int rank, uintptr_t seg)
{
    pvas_start_t *st = (pvas_start_t *)(seg + r->stack_off);

    memset(st, 0, sizeof(*st));
    st->rank  = rank;
    st->entry = r->dynamic ? seg + r->interp_off + r->interp.ehdr.e_entry
                           : seg + r->image_off + r->prog.ehdr.e_entry;
    st->sp    = pvas_build_stack(r, seg, r->spec->env(r->spec->arg, rank));
    pvas_name(r->spec->path, rank, st->name);
    if (st->sp == 0) {
        pvas_say("--pvas: the arguments and environment of PE %d do not "
                 "fit its %llu MiB stack",
                 rank, (unsigned long long)(r->stack_size / PVAS_MB));
        return NULL;
    }
    if (r->spec->plan(r->spec->arg, rank, &st->plan) != 0) {
        return NULL;
    }
    return st;
}

/* Starts the PE @st describes as a child of xgasrun (CLONE_PARENT: the
 * supervisor) and reports its pid.  The new process needs nothing more
 * of the root (pvas_child): no waiting for it.  Returns 0 or -1. */
static int pvas_clone(const pvas_root_t *r, pvas_start_t *st)
{
    xg_pvas_started_t rec = {.rank = st->rank};

    rec.pid = clone(pvas_child, (char *)st + PVAS_TRAMP_SIZE,
                    CLONE_VM | CLONE_PARENT | SIGCHLD, st);
    if (rec.pid < 0) {
        pvas_say("--pvas: cannot start PE %d: clone (%s)", st->rank,
                 strerror(errno));
        return -1;
    }
    if (write(r->spec->report_fd, &rec, sizeof(rec)) != (ssize_t)sizeof(rec)) {
        pvas_say("--pvas: cannot tell xgasrun about PE %d (%s)", st->rank,
                 strerror(errno));
        return -1;
    }
    return 0;
}

static int pvas_rank(const pvas_root_t *r, int local)
{
    return (r->spec->ranks != NULL) ? r->spec->ranks[local] : local;
}

/* Maps the copy of segment @local and builds its stack. */
static int pvas_load(const pvas_root_t *r, int local)
{
    int rank      = pvas_rank(r, local);
    uintptr_t seg = pvas_seg(r, local);

    if ((pvas_map_copy(r, rank, seg) != 0) ||
        (pvas_prepare(r, rank, seg) == NULL)) {
        return -1;
    }
    xg_debug("run",
             "PE %d: segment %#lx, program at %#lx (gdb: "
             "add-symbol-file %s -o %#lx)",
             rank, (unsigned long)seg, (unsigned long)(seg + r->image_off),
             r->spec->path, (unsigned long)(seg + r->image_off));
    return 0;
}

int xg_pvas_root(const xg_pvas_spec_t *spec)
{
    pvas_root_t r = {.spec = spec, .prog = {.fd = -1}, .interp = {.fd = -1}};
    int local, status = 1;

    if ((pvas_open(&r) != 0) || (pvas_layout(&r) != 0) ||
        (pvas_check_map_count(&r) != 0) || (pvas_reserve(&r) != 0) ||
        (pvas_block_brk() != 0)) {
        goto out;
    }
    /* every copy first, while no PE runs: the root has the CPU and the
     * address space's lock to itself, then the PEs start back to back */
    for (local = 0; local < spec->npes; local++) {
        if (pvas_load(&r, local) != 0) {
            goto out;
        }
    }
    for (local = 0; local < spec->npes; local++) {
        if (pvas_clone(
                &r, (pvas_start_t *)(pvas_seg(&r, local) + r.stack_off)) != 0) {
            goto out;
        }
    }
    status = 0;
out:
    xg_pvas_image_close(&r.prog);
    xg_pvas_image_close(&r.interp);
    return status;
}
