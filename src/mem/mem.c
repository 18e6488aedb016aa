/*
 * Layout of the partition, the move of the program's globals into the data
 * window, and agreement checks between PEs (see xg_mem.h).  In a PVAS node
 * (xgasrun --pvas, docs/pvas.md) the partition is the PE's segment, which
 * already holds the program: its globals stay where they are, at the
 * same offset in every segment, and nothing moves.
 */
#include "mem/xg_mem.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/xg_compiler.h"
#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

xg_mem_t xg_mem = {.region = {.fd = -1}};

static int mem_from_node; /* xg_mem_size_from_node */

/* 1 in a PVAS node: the node region is the PEs' segments. */
static int mem_pvas(void)
{
    return xg_config.pvas_room_hi != 0;
}

/* This PE's segment in a PVAS node. */
static uintptr_t mem_pvas_segment(void)
{
    return (uintptr_t)(xg_config.symmetric_base +
                       (uint64_t)xg_mem.local_me * xg_config.pvas_segment_size);
}

/* Heaps sized from the node are multiples of this. */
#define MEM_NODE_GRAIN (64ULL << 20)

void xg_mem_size_from_node(int on)
{
    mem_from_node = on;
}

typedef struct {
    uintptr_t lo;
    uintptr_t hi;
} mem_range_t;

/* Finds the main program's writable, non-RELRO data pages. */
static int mem_find_data(struct dl_phdr_info *info, size_t size, void *arg)
{
    mem_range_t *range = arg;
    uintptr_t lo = 0, hi = 0, relro_end = 0, page = (uintptr_t)getpagesize();
    int i;

    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start      = info->dlpi_addr + ph->p_vaddr;

        if ((ph->p_type == PT_LOAD) && (ph->p_flags & PF_W) && (lo == 0)) {
            lo = start;
            hi = start + ph->p_memsz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            relro_end = start + ph->p_memsz;
        }
    }
    if ((relro_end > lo) && (relro_end <= hi)) {
        lo = relro_end; /* read-only after relocation: not data */
    }
    range->lo = xg_align_up(lo, page);
    range->hi = xg_align_up(hi, page);
    if (range->hi < range->lo) {
        range->hi = range->lo;
    }
    return 1; /* the first object is the executable: stop */
}

/* Largest power of two that is at most @x (x > 0). */
static uint64_t mem_pow2_floor(uint64_t x)
{
    return (uint64_t)1 << (63 - __builtin_clzll(x));
}

/*
 * The whole SHMEM_SYMMETRIC_SIZE is heap for the program: what xgas keeps
 * in the heap comes out of XG_MEM_HEAP_EXTRA on top of it.  Partitions
 * start at multiples of the largest power of two not above the heap size
 * (at least XG_MEM_PART_ALIGN), so an offset aligned to any power of two
 * up to SHMEM_SYMMETRIC_SIZE is aligned in every PE's partition:
 * shmem_align can honour every alignment an object can have.  This costs
 * address space only (up to twice the partition size), not memory.
 */
static void mem_layout(uint64_t symmetric_size, uint64_t data_size)
{
    xg_mem.symmetric_size = symmetric_size;
    xg_mem.heap_size =
        xg_align_up(symmetric_size, 1u << 16) + XG_MEM_HEAP_EXTRA;
    xg_mem.data_off     = xg_mem.heap_size;
    xg_mem.data_size    = data_size;
    xg_mem.internal_off = xg_align_up(xg_mem.data_off + data_size, 1u << 16);
    xg_mem.part_align   = XG_MEM_PART_ALIGN;
    if ((xg_mem.heap_size != 0) &&
        (mem_pow2_floor(xg_mem.heap_size) > xg_mem.part_align)) {
        xg_mem.part_align = mem_pow2_floor(xg_mem.heap_size);
    }
    xg_mem.part_size = xg_align_up(xg_mem.internal_off + xg_mem.internal_size,
                                   xg_mem.part_align);
    if (mem_pvas()) {
        /* heap | internal area | ... | the program's globals, in place */
        xg_mem.internal_off = xg_align_up(xg_mem.heap_size, 1u << 16);
        xg_mem.data_off     = xg_mem.data_lo - mem_pvas_segment();
        xg_mem.part_size    = xg_config.pvas_segment_size;
    }
}

/* In a PVAS node: 1 if heap and internal area fit the room xgasrun left
 * below the program in each segment. */
static int mem_pvas_room_fits(void)
{
    return xg_mem.internal_off + xg_mem.internal_size <= xg_config.pvas_room_hi;
}

/* Address space between XGAS_SYMMETRIC_BASE and the top of the user
 * address space: where the node region must fit. */
static uint64_t mem_va_room(void)
{
    uint64_t base = xg_config.symmetric_base;

    return (base < XG_MEM_VA_LIMIT) ? XG_MEM_VA_LIMIT - base : 0;
}

/* 1 if the layout's node region fits @room bytes. */
static int mem_region_fits(uint64_t room)
{
    uint64_t region;

    return !__builtin_mul_overflow(xg_mem.part_size,
                                   (uint64_t)xg_mem.local_npes, &region) &&
           (region <= room) && (!mem_pvas() || mem_pvas_room_fits());
}

/* The node's memory: physical, or the cgroup v2 limit where lower. */
static uint64_t mem_node_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t bytes =
        ((pages > 0) && (page > 0)) ? (uint64_t)pages * (uint64_t)page : 0;
    unsigned long long limit;
    FILE *max = fopen("/sys/fs/cgroup/memory.max", "re");

    if (max != NULL) {
        if ((fscanf(max, "%llu", &limit) == 1) && (limit < bytes)) {
            bytes = limit; /* "max" (no limit) does not parse */
        }
        fclose(max);
    }
    return bytes;
}

/* This node's share per PE (see xg_mem_size_from_node), laid out for
 * @data_size bytes of globals: halved (in grains) until the node region
 * fits its address room and half of `ulimit -v`, never below the
 * default. */
static uint64_t mem_node_share(uint64_t data_size)
{
    uint64_t room = mem_va_room(), share;
    struct rlimit as;

    if ((getrlimit(RLIMIT_AS, &as) == 0) && (as.rlim_cur != RLIM_INFINITY) &&
        (as.rlim_cur / 2 < room)) {
        room = as.rlim_cur / 2; /* the rest for the program's own memory */
    }
    share = mem_node_bytes() / (uint64_t)xg_mem.local_npes;
    share -= share % MEM_NODE_GRAIN;
    for (;;) {
        if (share <= xg_config.symmetric_size) {
            return xg_config.symmetric_size;
        }
        mem_layout(share, data_size);
        if (mem_region_fits(room)) {
            return share;
        }
        share = (share / 2) - (share / 2) % MEM_NODE_GRAIN;
    }
}

/* The heap every PE of the job uses when sized from the node: the
 * smallest node's share.  Each node's first PE publishes its node's,
 * PE 0 takes the least and publishes it, every PE reads PE 0's: O(1)
 * reads per PE, O(nodes) at PE 0. */
static xg_status_t mem_agree_share(uint64_t *share_p)
{
    uint64_t share = *share_p, theirs;
    int node, leader;

    if ((xg_mem.local_me == 0) &&
        (xg_boot_kv_put("mem.share", &share, sizeof(share)) != XG_OK)) {
        return XG_ERR_BOOT;
    }
    if (xg_boot_fence() != XG_OK) {
        return XG_ERR_BOOT;
    }
    if (xg_mem.me == 0) {
        for (node = 0; node < xg_boot.nnodes; node++) {
            leader = xg_boot_rank_at(node, 0);
            if (xg_boot_kv_get(leader, "mem.share", &theirs, sizeof(theirs)) !=
                XG_OK) {
                return XG_ERR_BOOT;
            }
            share = (theirs < share) ? theirs : share;
        }
        if (xg_boot_kv_put("mem.share_min", &share, sizeof(share)) != XG_OK) {
            return XG_ERR_BOOT;
        }
    }
    if ((xg_boot_fence() != XG_OK) ||
        (xg_boot_kv_get(0, "mem.share_min", share_p, sizeof(*share_p)) !=
         XG_OK)) {
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

/* Lays the partition out: with SHMEM_SYMMETRIC_SIZE (or its default), or
 * sized from the node when a library asked and the user did not set it. */
static xg_status_t mem_size(uint64_t data_size)
{
    uint64_t share;
    xg_status_t status;

    xg_mem.node_memory = 0;
    if (!mem_from_node || xg_config_given("SHMEM_SYMMETRIC_SIZE")) {
        mem_layout(xg_config.symmetric_size, data_size);
        return XG_OK;
    }
    share  = mem_node_share(data_size);
    status = mem_agree_share(&share);
    if (status != XG_OK) {
        return status;
    }
    xg_mem.node_memory = mem_node_bytes();
    mem_layout(share, data_size);
    xg_debug("mem",
             "heap sized from the node: %llu bytes per PE of %llu "
             "bytes and %d PEs on this node",
             (unsigned long long)share, (unsigned long long)xg_mem.node_memory,
             xg_mem.local_npes);
    return XG_OK;
}

/* The largest alignment every PE's heap base shares: the partition
 * alignment, unless the region base (XGAS_SYMMETRIC_BASE) is less
 * aligned. */
static uint64_t mem_heap_max_align(void)
{
    uint64_t base_align =
        (uint64_t)xg_mem.region.base & -(uint64_t)xg_mem.region.base;

    if ((base_align != 0) && (base_align < xg_mem.part_align)) {
        return base_align;
    }
    return xg_mem.part_align;
}

/* The node region holds the node's partitions at XGAS_SYMMETRIC_BASE and
 * must fit below the top of the user address space; a size whose product
 * with the node's PE count overflows or does not fit is rejected here,
 * with one message per node (from its first PE: every PE of the node
 * computes the same), before anything is mapped. */
static xg_status_t mem_check_fits(void)
{
    uint64_t base = xg_config.symmetric_base, room = mem_va_room(), fit;
    uint64_t npes     = (uint64_t)xg_mem.local_npes;
    uint64_t overhead = xg_mem.part_size - xg_mem.heap_size;

    if (mem_region_fits(room)) {
        return XG_OK;
    }
    if (mem_pvas() && mem_pvas_room_fits()) {
        /* xgasrun reserved the segments: the range fits */
        return XG_OK;
    }
    if (xg_mem.local_me != 0) {
        /* the node's first PE says why and exits, which ends the job:
         * wait for that instead of repeating the message at every PE */
        xg_boot_fence();
        return XG_ERR_INVALID_PARAM;
    }
    if (mem_pvas()) {
        overhead = xg_mem.internal_off - xg_mem.symmetric_size;
        xg_error(
            "mem",
            "SHMEM_SYMMETRIC_SIZE=%llu does not fit this PE's "
            "PVAS segment: its heap and the internal area need %llu "
            "bytes, the room below the program in a segment of "
            "XGAS_PVAS_SEGMENT_SIZE=%llu is %llu: lower "
            "SHMEM_SYMMETRIC_SIZE to at most %llu bytes or raise "
            "XGAS_PVAS_SEGMENT_SIZE",
            (unsigned long long)xg_mem.symmetric_size,
            (unsigned long long)(xg_mem.internal_off + xg_mem.internal_size),
            (unsigned long long)xg_config.pvas_segment_size,
            (unsigned long long)xg_config.pvas_room_hi,
            (unsigned long long)((xg_config.pvas_room_hi >
                                  overhead + xg_mem.internal_size)
                                     ? xg_config.pvas_room_hi - overhead -
                                           xg_mem.internal_size
                                     : 0));
        return XG_ERR_INVALID_PARAM;
    }
    fit = (room / npes > overhead) ? room / npes - overhead : 0;
    xg_error("mem",
             "SHMEM_SYMMETRIC_SIZE=%llu with %d PEs on this node "
             "needs a node region of %d partitions of %llu bytes, more than "
             "the %llu bytes of address space between XGAS_SYMMETRIC_BASE="
             "%#llx and %#llx: lower SHMEM_SYMMETRIC_SIZE to at most %llu "
             "bytes or run fewer PEs per node",
             (unsigned long long)xg_mem.symmetric_size, xg_mem.local_npes,
             xg_mem.local_npes, (unsigned long long)xg_mem.part_size,
             (unsigned long long)room, (unsigned long long)base,
             (unsigned long long)XG_MEM_VA_LIMIT, (unsigned long long)fit);
    return XG_ERR_INVALID_PARAM;
}

/* Every PE must have computed the same layout as PE 0 (so all agree); a
 * PE that did not names itself, PE 0 and what differs.  Each PE reads PE
 * 0's record only: O(1) per PE. */
static xg_status_t mem_check_agreement(void)
{
    uint64_t mine[3] = {xg_mem.heap_size, xg_mem.data_size, xg_mem.part_size};
    uint64_t theirs[3];

    if ((xg_boot_kv_put("mem.layout", mine, sizeof(mine)) != XG_OK) ||
        (xg_boot_fence() != XG_OK) ||
        (xg_boot_kv_get(0, "mem.layout", theirs, sizeof(theirs)) != XG_OK)) {
        return XG_ERR_BOOT;
    }
    if (memcmp(mine, theirs, sizeof(mine)) != 0) {
        xg_error("mem",
                 "PE 0 has a symmetric heap of %lu bytes and %lu bytes "
                 "of global data, but PE %d has %lu and %lu: every PE must "
                 "run the same executable with the same SHMEM_SYMMETRIC_SIZE",
                 (unsigned long)theirs[0], (unsigned long)theirs[1], xg_mem.me,
                 (unsigned long)mine[0], (unsigned long)mine[1]);
        return XG_ERR_MISMATCH;
    }
    return XG_OK;
}

/* Copies the program's data pages word by word.  Not instrumented: the
 * pages include the sanitizers' red zones between globals, which are
 * poisoned for the program but are plain bytes to move here; the volatile
 * accesses keep the compiler from turning the loop into a memcpy call. */
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address", "thread")))
#endif
static void
mem_copy_pages(uintptr_t dst, uintptr_t src, size_t len)
{
    volatile uint64_t *to         = (volatile uint64_t *)dst;
    const volatile uint64_t *from = (const volatile uint64_t *)src;
    size_t i;

    for (i = 0; i < len / sizeof(uint64_t); i++) {
        to[i] = from[i];
    }
}

/*
 * Moving the globals while other threads run.  A thread started before
 * shmem_init (libpmix's, the NIC's progress thread of a PtlNIInit, the
 * program's own) may write a global while it moves: a write that lands in
 * the original page after the copy has read that word would vanish with
 * the page.  So the pages are made read-only for the move: copy, map the
 * window over them, and in between a thread that writes takes SIGSEGV,
 * which mem_move_fault parks until the window is mapped; returning from
 * the handler repeats the store, now into the window.  Reads go on (the
 * read-only page holds what the window holds), and the move itself writes
 * nothing but the window.  Every other SIGSEGV goes to the action the
 * handler replaced (called, or, if it was the default, put back for the
 * faulting instruction to run again under it).  The handler stays
 * installed after the move: a thread that faulted just before the mmap
 * may have its signal delivered only after it, and must still find this
 * handler then.
 * What write protection cannot park: a system call of another thread that
 * writes a global during the move gets EFAULT, and a thread that blocks
 * SIGSEGV dies of the fault (docs/memory.md).
 */
static struct {
    uintptr_t lo, hi;     /* the pages that move */
    int done;             /* the window is mapped (or the move off) */
    long mover;           /* the thread that moves them */
    struct sigaction old; /* the SIGSEGV action it replaces */
} mem_move;

static void mem_move_fault(int sig, siginfo_t *si, void *uc)
{
    uintptr_t addr = (uintptr_t)si->si_addr;
    /* atomics: the mover set them before the mprotect that led here, an
     * order no thread sanitizer sees */
    uintptr_t lo    = __atomic_load_n(&mem_move.lo, __ATOMIC_ACQUIRE);
    uintptr_t hi    = __atomic_load_n(&mem_move.hi, __ATOMIC_ACQUIRE);
    int saved_errno = errno;

    if ((addr >= lo) && (addr < hi)) {
        if (!__atomic_load_n(&mem_move.done, __ATOMIC_ACQUIRE) &&
            (syscall(SYS_gettid) ==
             __atomic_load_n(&mem_move.mover, __ATOMIC_ACQUIRE))) {
            /* the move itself writes a global (a runtime linked into the
             * executable, such as a static sanitizer runtime, intercepting
             * mmap): it cannot wait for itself, so the pages become
             * writable again and such writes are unprotected */
            mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
            errno = saved_errno;
            return;
        }
        while (!__atomic_load_n(&mem_move.done, __ATOMIC_ACQUIRE)) {
            sched_yield();
        }
        errno = saved_errno;
        return; /* the store runs again, into the window */
    }
    /* not ours: to the action we replaced */
    if (mem_move.old.sa_flags & SA_SIGINFO) {
        mem_move.old.sa_sigaction(sig, si, uc);
    } else if ((mem_move.old.sa_handler != SIG_DFL) &&
               (mem_move.old.sa_handler != SIG_IGN)) {
        mem_move.old.sa_handler(sig);
    } else {
        /* the default (a fault is never ignored): put it back; a fault
         * recurs when the instruction runs again, a sent signal is sent
         * again */
        signal(SIGSEGV, SIG_DFL);
        if (si->si_code <= 0) {
            raise(sig);
        }
    }
    errno = saved_errno;
}

/* Makes the dynamic linker bind, while the globals are still writable,
 * every function mem_move_fault calls: with lazy binding a first call
 * writes its slot of the global offset table, which lies in the pages
 * that move, so a first call from the handler would fault into the
 * handler again, without end (a sanitizer build, whose interceptors are
 * called first there, died of it). */
static void mem_move_bind_calls(void)
{
    int saved_errno = errno;

    sched_yield();
    (void)syscall(SYS_gettid);
    errno = saved_errno;
}

/* Moves the globals into the data window and maps it back in place: the
 * pages are write-protected (see above), copied into the window (through
 * the region mapping), and replaced by the window in one mmap call, so the
 * program never sees a missing page and no thread's write is lost. */
static xg_status_t mem_share_data(void)
{
    uintptr_t window = xg_mem.my_part + xg_mem.data_off;
    struct sigaction sa, old;
    xg_status_t status;

    if ((xg_mem.data_size == 0) || mem_pvas()) {
        return XG_OK; /* in a PVAS node the globals are in place */
    }
    __atomic_store_n(&mem_move.lo, xg_mem.data_lo, __ATOMIC_RELEASE);
    __atomic_store_n(&mem_move.hi, xg_mem.data_lo + xg_mem.data_size,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&mem_move.mover, syscall(SYS_gettid), __ATOMIC_RELEASE);
    __atomic_store_n(&mem_move.done, 0, __ATOMIC_RELEASE);
    mem_move_bind_calls();
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = mem_move_fault;
    /* on the thread's alternate stack if it has one: a handler installed
     * before (Python's faulthandler) may rely on it for stack overflows */
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, NULL, &old) != 0) {
        xg_error("mem", "sigaction(SIGSEGV) for the move of the globals "
                        "failed (%m)");
        return XG_ERR_IO;
    }
    if (old.sa_sigaction != mem_move_fault) {
        /* not still installed by an earlier shmem_init */
        mem_move.old = old;
        sigaction(SIGSEGV, &sa, NULL);
    }
    if (mprotect((void *)xg_mem.data_lo, xg_mem.data_size, PROT_READ) != 0) {
        xg_error("mem",
                 "cannot write-protect the %lu bytes of globals at "
                 "%#lx for their move (%m)",
                 (unsigned long)xg_mem.data_size,
                 (unsigned long)xg_mem.data_lo);
        status = XG_ERR_IO;
    } else {
        mem_copy_pages(window, xg_mem.data_lo, xg_mem.data_size);
        status =
            xg_xport_region_alias(&xg_mem.region, window - xg_mem.region.base,
                                  (void *)xg_mem.data_lo, xg_mem.data_size);
        if (status != XG_OK) {
            /* the original pages stay: writable again */
            mprotect((void *)xg_mem.data_lo, xg_mem.data_size,
                     PROT_READ | PROT_WRITE);
        }
    }
    /* parked writers go on */
    __atomic_store_n(&mem_move.done, 1, __ATOMIC_RELEASE);
    return status;
}

/* ------------------------------------------------------------------------
 * NUMA placement of the partition.  A PE bound within one NUMA node (by
 * xgasrun's --bind-to core or numa, by mpirun, by taskset) asks for its
 * partition's memory on that node before anything touches it: the policy
 * belongs to the region's memory object (a shared policy), so a page goes
 * to the owner's node whoever faults it first -- a peer's put, the
 * owner's own store.  A PE free to run on several nodes leaves the kernel's
 * default (the node of the first toucher).
 * --------------------------------------------------------------------- */

#define MEM_NUMA_MAX_NODES 1024

/* Parses a sysfs CPU list ("0-3,8,10-11") into @set; 0, or -1. */
static int mem_parse_cpulist(const char *text, cpu_set_t *set)
{
    const char *p = text;
    char *end;
    long lo, hi, cpu;

    CPU_ZERO(set);
    while ((*p != '\0') && (*p != '\n')) {
        lo = strtol(p, &end, 10);
        if ((end == p) || (lo < 0)) {
            return -1;
        }
        hi = lo;
        p  = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if ((end == p + 1) || (hi < lo)) {
                return -1;
            }
            p = end;
        }
        for (cpu = lo; (cpu <= hi) && (cpu < CPU_SETSIZE); cpu++) {
            CPU_SET((int)cpu, set);
        }
        if (*p == ',') {
            p++;
        }
    }
    return 0;
}

/* The NUMA node holding every CPU of @mine, or -1 (several nodes, or no
 * NUMA information: /sys not mounted). */
static int mem_numa_node_of(const cpu_set_t *mine)
{
    char path[64], text[4096];
    struct dirent *entry;
    cpu_set_t node_cpus, both;
    DIR *dir = opendir("/sys/devices/system/node");
    ssize_t len;
    int node, fd, found = -1;

    if (dir == NULL) {
        return -1;
    }
    while ((found < 0) && ((entry = readdir(dir)) != NULL)) {
        if ((sscanf(entry->d_name, "node%d", &node) != 1) || (node < 0) ||
            (node >= MEM_NUMA_MAX_NODES)) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
                 node);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        len = read(fd, text, sizeof(text) - 1);
        close(fd);
        text[(len > 0) ? len : 0] = '\0';
        if (mem_parse_cpulist(text, &node_cpus) != 0) {
            continue;
        }
        CPU_AND(&both, mine, &node_cpus);
        if (CPU_EQUAL(&both, mine)) {
            found = node;
        }
    }
    closedir(dir);
    return found;
}

/* Prefers this PE's NUMA node for its partition (see above). */
static void mem_place_partition(void)
{
    unsigned long nodes[MEM_NUMA_MAX_NODES / (8 * sizeof(unsigned long))];
    cpu_set_t mine;
    int node;

    if ((sched_getaffinity(0, sizeof(mine), &mine) != 0) ||
        ((node = mem_numa_node_of(&mine)) < 0)) {
        return;
    }
    memset(nodes, 0, sizeof(nodes));
    nodes[(size_t)node / (8 * sizeof(unsigned long))] |=
        1ul << ((size_t)node % (8 * sizeof(unsigned long)));
    if (syscall(SYS_mbind, (void *)xg_mem.my_part, xg_mem.part_size,
                MPOL_PREFERRED, nodes, (unsigned long)MEM_NUMA_MAX_NODES,
                0u) != 0) {
        xg_debug("mem",
                 "cannot place the partition on NUMA node %d (%m): "
                 "its pages go where they are first touched",
                 node);
        return;
    }
    xg_debug("mem", "partition placed on NUMA node %d", node);
}

xg_status_t xg_mem_init(uint64_t internal_size)
{
    mem_range_t data = {0, 0};
    xg_boot_identity_t job;
    xg_status_t status;

    xg_mem.internal_size = internal_size;
    xg_boot_identity(&job);
    xg_mem.me         = job.rank;
    xg_mem.npes       = job.npes;
    xg_mem.local_me   = job.local_rank;
    xg_mem.local_npes = job.local_npes;
    dl_iterate_phdr(mem_find_data, &data);
    xg_mem.data_lo = data.lo;
    if (mem_pvas() &&
        ((data.lo < mem_pvas_segment()) ||
         (data.hi - mem_pvas_segment() > xg_config.pvas_segment_size))) {
        /* the PE of a PVAS node exec'd this program: exec leaves the
         * node's address space, the variables stay */
        xg_error("mem",
                 "this PE's globals (%#lx-%#lx) are not in its PVAS "
                 "segment at %#lx: the program was started by exec from a "
                 "PE of a PVAS node (a wrapper script's exec, say), which "
                 "leaves the node's address space -- start the program "
                 "itself with xgasrun --pvas, or run without --pvas",
                 (unsigned long)data.lo, (unsigned long)data.hi,
                 (unsigned long)mem_pvas_segment());
        return XG_ERR_INVALID_PARAM;
    }
    status = mem_size(data.hi - data.lo);
    if (status != XG_OK) {
        return status;
    }
    status = mem_check_fits();
    if (status != XG_OK) {
        return status;
    }
    status = mem_check_agreement();
    if (status != XG_OK) {
        return status;
    }
    status = xg_xport_region_open(&xg_mem.region, xg_mem.local_npes,
                                  xg_mem.part_size, xg_config.symmetric_base);
    if (status != XG_OK) {
        return status;
    }
    xg_mem.my_part = xg_mem_part(xg_mem.local_me);
    mem_place_partition();
    status = mem_share_data();
    if (status == XG_OK) {
        status = xg_heap_init(&xg_mem.heap, xg_mem.my_part, xg_mem.heap_size,
                              mem_heap_max_align());
    }
    if (status == XG_OK) {
        /* the PEs of other nodes reach the whole partition by RMA (where
         * the network offers it): heap, globals and internal area */
        status = xg_xport_rma_expose((void *)xg_mem.my_part, xg_mem.part_size);
        if (status != XG_OK) {
            xg_heap_fini(&xg_mem.heap);
        }
    }
    if (status != XG_OK) {
        xg_xport_region_close(&xg_mem.region);
        return status;
    }
    xg_debug("mem", "partition %lu bytes: heap %lu, globals %lu at %#lx",
             (unsigned long)xg_mem.part_size, (unsigned long)xg_mem.heap_size,
             (unsigned long)xg_mem.data_size, (unsigned long)xg_mem.data_lo);
    return XG_OK;
}

void xg_mem_fini(void)
{
    xg_xport_rma_unexpose();
    xg_heap_fini(&xg_mem.heap);
    /* The globals stay mapped from the region's memory object: the program
     * keeps running after finalize.  Only the view of the partitions goes. */
    xg_xport_region_close(&xg_mem.region);
}
