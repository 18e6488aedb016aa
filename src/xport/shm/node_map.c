/*
 * Mapping the node region at one address in every PE.  Each PE tries the
 * candidate address with MAP_FIXED_NOREPLACE (which never clobbers an
 * existing mapping); the PEs then compare results through the boot
 * key/value exchange and move on to the next candidate together until one
 * is free everywhere.  Address-space layout randomization only has to leave
 * one candidate free; the default (16 TiB) lies far below where Linux puts
 * executables, libraries and the heap on x86-64.
 */
#include "xport/shm/xg_shm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

enum {
    SHM_MAP_ATTEMPTS = 8
};
#define SHM_ATTEMPT_STRIDE (1ULL << 42) /* 4 TiB between candidates */
#define XG_SHM_VA_LIMIT    (1ULL << 47) /* top of the user address space */

/* Maps the region at @addr; NULL on failure with *limit_p set when the
 * cause is a memory limit of this process (RLIMIT_AS, vm.max_map_count)
 * rather than something already mapped there. */
static void *shm_try_map(uintptr_t addr, size_t size, int fd, int *limit_p)
{
    void *map = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);

    if (map == MAP_FAILED) {
        /* ENOMEM below the top of the address space is a limit; EEXIST is
         * a range in use */
        *limit_p = (errno == ENOMEM) && (addr + size <= XG_SHM_VA_LIMIT);
        return NULL;
    }
    if ((uintptr_t)map != addr) { /* kernel without MAP_FIXED_NOREPLACE */
        munmap(map, size);
        return NULL;
    }
    return map;
}

static void shm_limit_text(int resource, char *buf, size_t len)
{
    struct rlimit limit;

    if ((getrlimit(resource, &limit) != 0) ||
        (limit.rlim_cur == RLIM_INFINITY)) {
        snprintf(buf, len, "unlimited");
    } else {
        snprintf(buf, len, "%llu bytes", (unsigned long long)limit.rlim_cur);
    }
}

/* Says that the region does not fit this process's memory limits -- not
 * that an address range is in use, which is what the mmap failure looks
 * like to the loop that tries candidates. */
static void shm_report_limit(size_t size, int npes, size_t part_size)
{
    char as[48];

    shm_limit_text(RLIMIT_AS, as, sizeof(as));
    xg_error("shm",
             "cannot map the node region of %zu bytes (%d PEs x "
             "%zu-byte partitions): this process hit a memory limit, its "
             "address-space limit (RLIMIT_AS, `ulimit -v`) is %s, or the "
             "number of mappings (vm.max_map_count) -- lower "
             "SHMEM_SYMMETRIC_SIZE, run fewer PEs or raise the limit",
             size, npes, part_size, as);
}

/* Rank 0 sizes the region's memory object.  A file-size limit below the
 * size would kill it with SIGXFSZ instead of failing: checked first. */
static xg_status_t shm_size_region(int fd, size_t size)
{
    struct rlimit limit;
    char fsize[48];

    if ((getrlimit(RLIMIT_FSIZE, &limit) == 0) &&
        (limit.rlim_cur != RLIM_INFINITY) && (limit.rlim_cur < size)) {
        shm_limit_text(RLIMIT_FSIZE, fsize, sizeof(fsize));
        xg_error("shm",
                 "cannot size the node region to %zu bytes: the "
                 "file-size limit (RLIMIT_FSIZE, `ulimit -f`) is %s -- "
                 "raise it, lower SHMEM_SYMMETRIC_SIZE or run fewer PEs",
                 size, fsize);
        return XG_ERR_NO_MEMORY;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        xg_error("shm",
                 "cannot size the node region to %zu bytes (%m): "
                 "lower SHMEM_SYMMETRIC_SIZE or run fewer PEs",
                 size);
        return XG_ERR_NO_MEMORY;
    }
    return XG_OK;
}

/* 1 if every PE mapped the candidate: an AND over the job in the boot
 * fence, O(1) per PE. */
static int shm_all_mapped(int mapped)
{
    return xg_boot_fence_all(mapped);
}

xg_status_t xg_shm_region_open(xg_xport_region_t *region, int nparts,
                               size_t part_size, uintptr_t base_hint)
{
    xg_boot_identity_t me;
    int fd = xg_boot.seg_fd; /* the launcher's memfd, or -1 */
    size_t size;
    uintptr_t addr;
    void *map;
    int attempt, limit = 0;

    if (xg_shm_pvas()) {
        return xg_shm_pvas_open(region, nparts, part_size, base_hint);
    }
    if (__builtin_mul_overflow((size_t)nparts, part_size, &size)) {
        xg_error("shm",
                 "a node region of %d partitions of %zu bytes "
                 "overflows: lower SHMEM_SYMMETRIC_SIZE",
                 nparts, part_size);
        return XG_ERR_INVALID_PARAM;
    }

    if (fd < 0) {
        fd = memfd_create("xgas-seg", MFD_CLOEXEC);
        if (fd < 0) {
            xg_error("shm", "memfd_create failed (%m)");
            return XG_ERR_IO;
        }
    } else {
        /* a private copy of the launcher's descriptor: closing the region
         * must leave the original open, for a later re-initialization;
         * and neither may leak into programs the PE execs */
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            xg_error("shm", "cannot duplicate the node region descriptor "
                            "(%m)");
            return XG_ERR_IO;
        }
    }
    xg_boot_identity(&me);
    if ((me.local_rank == 0) && (shm_size_region(fd, size) != XG_OK)) {
        close(fd);
        return XG_ERR_NO_MEMORY;
    }

    base_hint = xg_align_up(base_hint, 2u << 20);
    for (attempt = 0; attempt < SHM_MAP_ATTEMPTS; attempt++) {
        addr = base_hint + (uintptr_t)attempt * SHM_ATTEMPT_STRIDE;
        map  = shm_try_map(addr, size, fd, &limit);
        if (shm_all_mapped(map != NULL)) {
            region->base      = addr;
            region->size      = size;
            region->part_size = part_size;
            region->nparts    = nparts;
            region->fd        = fd;
            xg_shm_huge_advise(map, size, 0);
            xg_debug("shm", "node region of %zu bytes at %#lx", size,
                     (unsigned long)addr);
            return XG_OK;
        }
        if (map != NULL) {
            munmap(map, size);
        }
        /* a memory limit is no reason to try other addresses: every PE
         * learns whether one hit it, and that one says so */
        if (!xg_boot_fence_all(!limit)) {
            if (limit) {
                shm_report_limit(size, nparts, part_size);
            }
            close(fd);
            return XG_ERR_NO_MEMORY;
        }
    }
    xg_error("shm",
             "no virtual address range of %zu bytes was free in "
             "every PE at %#lx and the %d candidates after it: set "
             "XGAS_SYMMETRIC_BASE to a free, 2 MiB-aligned address (see "
             "/proc/self/maps) or lower SHMEM_SYMMETRIC_SIZE",
             size, (unsigned long)base_hint, SHM_MAP_ATTEMPTS - 1);
    close(fd);
    return XG_ERR_ADDRESS_IN_USE;
}

void xg_shm_region_close(xg_xport_region_t *region)
{
    if (xg_shm_pvas()) {
        xg_shm_pvas_close(region);
        return;
    }
    if (region->size != 0) {
        munmap((void *)region->base, region->size);
    }
    if (region->fd >= 0) {
        close(region->fd);
    }
    region->size = 0;
    region->fd   = -1;
}

xg_status_t xg_shm_region_alias(const xg_xport_region_t *region,
                                uint64_t offset, void *addr, size_t len)
{
    void *map = mmap(addr, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                     region->fd, (off_t)offset);

    if (map != addr) {
        xg_error("shm",
                 "cannot map %zu bytes of the node region at %p "
                 "(%m)",
                 len, addr);
        return XG_ERR_IO;
    }
    return XG_OK;
}
