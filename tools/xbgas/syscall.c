/*
 * The Linux system calls a static glibc RV64 program makes, served on the
 * host (riscv64 numbers, asm-generic: the errno values and open flags are
 * x86-64's too).
 *
 * Invariants: every guest buffer is checked against guest memory before
 * the host touches it (-EFAULT otherwise); an unknown system call ends the
 * job with its number, the PE and the pc.  Memory calls stay inside guest
 * memory: brk grows up from the end of the program, anonymous mmap takes
 * pages from the top of the brk area downwards (munmap keeps them).
 * Served beyond the start-up set: nanosleep, clock_nanosleep, unlinkat,
 * ioctl (-ENOTTY: no terminal), sched_yield (guest waits back off through
 * it), getpid/gettid, rt_sigaction and
 * rt_sigprocmask (no signals are delivered), kill/tgkill (the guest's
 * abort: ends the job), uname, riscv_flush_icache (empties the block
 * cache).  read/readv into a page of translated code empty it too.
 */
#include "machine_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define A(i) (h->x[10 + (i)])

/* riscv64 struct stat (asm-generic), 128 bytes. */
typedef struct rv_stat {
    uint64_t dev, ino;
    uint32_t mode, nlink, uid, gid;
    uint64_t rdev, pad1;
    int64_t size;
    int32_t blksize, pad2;
    int64_t blocks;
    int64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
    uint32_t unused[2];
} rv_stat_t;

/* A host pointer to guest [a, a + n), or NULL. */
static void *gbuf(const hart_t *h, uint64_t a, uint64_t n)
{
    if (n > h->span || a - h->lo > h->span - n) {
        return NULL;
    }
    return h->base + a;
}

/* A NUL-terminated guest string, or NULL. */
static const char *gstr(const hart_t *h, uint64_t a)
{
    const char *s = gbuf(h, a, 1);
    if (!s) {
        return NULL;
    }
    uint64_t room = h->lo + h->span - a;
    return memchr(s, 0, room) ? s : NULL;
}

static int64_t ret(int64_t r)
{
    return r < 0 ? -errno : r;
}

static int64_t sys_brk(hart_t *h, uint64_t want)
{
    if (want >= h->brk_lo && want <= h->mmap_lo) {
        if (want > h->brk) {
            memset(h->base + h->brk, 0, want - h->brk);
        }
        h->brk = want;
    }
    return (int64_t)h->brk;
}

static int64_t sys_mmap(hart_t *h)
{
    uint64_t len = (A(1) + 4095) & ~4095ull;
    if (!(A(3) & 0x20) || len == 0) { /* MAP_ANONYMOUS only */
        return -ENODEV;
    }
    if (A(0) != 0 && (A(3) & 0x10)) { /* MAP_FIXED: not here */
        return -EINVAL;
    }
    if (h->mmap_lo < h->brk + len) {
        return -ENOMEM;
    }
    h->mmap_lo -= len;
    memset(h->base + h->mmap_lo, 0, len);
    return (int64_t)h->mmap_lo;
}

static void stat_to_rv(const struct stat *st, rv_stat_t *rv)
{
    memset(rv, 0, sizeof(*rv));
    rv->dev      = st->st_dev;
    rv->ino      = st->st_ino;
    rv->mode     = st->st_mode;
    rv->nlink    = (uint32_t)st->st_nlink;
    rv->uid      = st->st_uid;
    rv->gid      = st->st_gid;
    rv->rdev     = st->st_rdev;
    rv->size     = st->st_size;
    rv->blksize  = (int32_t)st->st_blksize;
    rv->blocks   = st->st_blocks;
    rv->atime    = st->st_atim.tv_sec;
    rv->atime_ns = st->st_atim.tv_nsec;
    rv->mtime    = st->st_mtim.tv_sec;
    rv->mtime_ns = st->st_mtim.tv_nsec;
    rv->ctime    = st->st_ctim.tv_sec;
    rv->ctime_ns = st->st_ctim.tv_nsec;
}

static int64_t sys_fstatat(hart_t *h, int dirfd, uint64_t path, uint64_t buf,
                           int flags)
{
    struct stat st;
    rv_stat_t *rv = gbuf(h, buf, sizeof(*rv));
    const char *p = path ? gstr(h, path) : "";
    if (!rv || !p) {
        return -EFAULT;
    }
    if (fstatat(dirfd, p, &st, flags) < 0) {
        return -errno;
    }
    stat_to_rv(&st, rv);
    return 0;
}

static int64_t sys_rw(hart_t *h, int write_it)
{
    void *b = gbuf(h, A(1), A(2));
    if (!b) {
        return -EFAULT;
    }
    if (write_it) {
        return ret(write((int)A(0), b, A(2)));
    }
    mach_code_written(h, A(1), A(2));
    return ret(read((int)A(0), b, A(2)));
}

static int64_t sys_rwv(hart_t *h, int write_it)
{
    int cnt = (int)A(2);
    struct iovec iov[64];
    const uint64_t *g = gbuf(h, A(1), (uint64_t)cnt * 16);
    if (cnt < 0 || cnt > 64) {
        return -EINVAL;
    }
    if (!g) {
        return -EFAULT;
    }
    for (int i = 0; i < cnt; i++) {
        iov[i].iov_base = gbuf(h, g[2 * i], g[2 * i + 1]);
        iov[i].iov_len  = g[2 * i + 1];
        if (!iov[i].iov_base && iov[i].iov_len) {
            return -EFAULT;
        }
        if (!write_it) {
            mach_code_written(h, g[2 * i], g[2 * i + 1]);
        }
    }
    if (write_it) {
        return ret(writev((int)A(0), iov, cnt));
    }
    return ret(readv((int)A(0), iov, cnt));
}

static int64_t sys_openat(hart_t *h)
{
    const char *p = gstr(h, A(1));
    if (!p) {
        return -EFAULT;
    }
    return ret(openat((int)A(0), p, (int)A(2), (mode_t)A(3)));
}

static int64_t sys_unlinkat(hart_t *h)
{
    const char *p = gstr(h, A(1));
    if (!p) {
        return -EFAULT;
    }
    return ret(unlinkat((int)A(0), p, (int)A(2)));
}

static int64_t sys_readlinkat(hart_t *h)
{
    const char *p = gstr(h, A(1));
    char *b       = gbuf(h, A(2), A(3));
    if (!p || !b) {
        return -EFAULT;
    }
    if (strcmp(p, "/proc/self/exe") == 0) {
        size_t n = strlen(h->prog);
        n        = n < A(3) ? n : A(3);
        memcpy(b, h->prog, n);
        return (int64_t)n;
    }
    return ret(readlinkat((int)A(0), p, b, A(3)));
}

static int64_t sys_prlimit(hart_t *h)
{
    struct rlimit rl;
    if (A(3) == 0) {
        return 0;
    }
    uint64_t *old = gbuf(h, A(3), 16);
    if (!old) {
        return -EFAULT;
    }
    if (getrlimit((int)A(1), &rl) < 0) {
        return -errno;
    }
    old[0] = rl.rlim_cur;
    old[1] = rl.rlim_max;
    if (A(1) == RLIMIT_STACK) {
        old[0] = h->stack_top - h->stack_lo;
        old[1] = old[0];
    }
    return 0;
}

static int64_t sys_clock(hart_t *h)
{
    struct timespec ts;
    int64_t *g = gbuf(h, A(1), 16);
    if (!g) {
        return -EFAULT;
    }
    if (clock_gettime((clockid_t)A(0), &ts) < 0) {
        return -errno;
    }
    g[0] = ts.tv_sec;
    g[1] = ts.tv_nsec;
    return 0;
}

/* nanosleep (101) and clock_nanosleep (115); timespec layouts agree. */
static int64_t sys_sleep(hart_t *h, int clock)
{
    const struct timespec *req = gbuf(h, A(clock ? 2 : 0), 16);
    uint64_t rem_a             = A(clock ? 3 : 1);
    struct timespec *rem       = rem_a ? gbuf(h, rem_a, 16) : NULL;
    if (!req || (rem_a && !rem)) {
        return -EFAULT;
    }
    if (!clock) {
        return ret(nanosleep(req, rem));
    }
    return -clock_nanosleep((clockid_t)A(0), (int)A(1), req, rem);
}

static int64_t sys_uname(hart_t *h)
{
    static const char *f[6] = {"Linux", "xgas-xbgas", "6.1.0",
                               "#1",    "riscv64",    "(none)"};
    char *b                 = gbuf(h, A(0), 6 * 65);
    if (!b) {
        return -EFAULT;
    }
    memset(b, 0, 6 * 65);
    for (int i = 0; i < 6; i++) {
        memcpy(b + 65 * i, f[i], strlen(f[i]));
    }
    return 0;
}

static int64_t sys_random(hart_t *h)
{
    void *b = gbuf(h, A(0), A(1));
    if (!b) {
        return -EFAULT;
    }
    return ret(getrandom(b, A(1), (unsigned)A(2)));
}

static void guest_exit(hart_t *h, int code)
{
    h->exited    = 1;
    h->exit_code = code & 0xff;
}

static int64_t sys_files(hart_t *h, uint64_t nr)
{
    switch (nr) {
    case 35: return sys_unlinkat(h);
    case 56: return sys_openat(h);
    case 57: return (int)A(0) <= 2 ? 0 : ret(close((int)A(0)));
    case 62: return ret(lseek((int)A(0), (off_t)A(1), (int)A(2)));
    case 63: return sys_rw(h, 0);
    case 64: return sys_rw(h, 1);
    case 65: return sys_rwv(h, 0);
    case 66: return sys_rwv(h, 1);
    case 78: return sys_readlinkat(h);
    case 79: return sys_fstatat(h, (int)A(0), A(1), A(2), (int)A(3));
    case 80: return sys_fstatat(h, (int)A(0), 0, A(1), AT_EMPTY_PATH);
    default: return -ENOSYS - 1000;
    }
}

static int64_t sys_process(hart_t *h, const insn_t *d, uint64_t nr)
{
    switch (nr) {
    case 29: return -ENOTTY;
    case 93:
    case 94: guest_exit(h, (int)A(0)); return 0;
    case 96: return getpid();
    case 99: return 0;
    case 101: return sys_sleep(h, 0);
    case 115: return sys_sleep(h, 1);
    case 113: return sys_clock(h);
    case 124: sched_yield(); return 0;
    case 129:
    case 131:
        mach_fault(h, d, d->pc,
                   "the guest sent itself signal %d "
                   "(%s)",
                   (int)A(nr == 131 ? 2 : 1),
                   A(nr == 131 ? 2 : 1) == 6 ? "abort" : "kill");
    case 134:
    case 135: return 0;
    case 160: return sys_uname(h);
    case 172:
    case 178: return getpid();
    case 214: return sys_brk(h, A(0));
    case 215:
    case 226: return 0;
    case 222: return sys_mmap(h);
    case 259: mach_code_flush(h); return 0; /* riscv_flush_icache */
    case 261: return sys_prlimit(h);
    case 278: return sys_random(h);
    default: return sys_files(h, nr);
    }
}

void mach_syscall(hart_t *h, const insn_t *d)
{
    uint64_t nr = h->x[17];
    int64_t r   = sys_process(h, d, nr);
    if (r == -ENOSYS - 1000) {
        mach_fault(h, d, d->pc,
                   "unknown system call %llu (a7): the "
                   "machine serves the calls of docs/xbgas.md",
                   (unsigned long long)nr);
    }
    if (!h->exited) {
        h->x[10] = (uint64_t)r;
    }
}
