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
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_compiler.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"

enum { SHM_MAP_ATTEMPTS = 8 };
#define SHM_ATTEMPT_STRIDE (1ULL << 42) /* 4 TiB between candidates */

static void *shm_try_map(uintptr_t addr, size_t size, int fd)
{
    void *map = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);

    if (map == MAP_FAILED) {
        return NULL;
    }
    if ((uintptr_t)map != addr) { /* kernel without MAP_FIXED_NOREPLACE */
        munmap(map, size);
        return NULL;
    }
    return map;
}

/* 1 if every PE mapped candidate @attempt. */
static int shm_all_mapped(int attempt, int mapped)
{
    char key[32];
    int pe, peer_mapped;

    snprintf(key, sizeof(key), "shm.map.%d", attempt);
    if ((xg_boot_kv_put(key, &mapped, sizeof(mapped)) != XG_OK) ||
        (xg_boot_fence() != XG_OK)) {
        return 0;
    }
    for (pe = 0; pe < xg_boot.npes; pe++) {
        if ((xg_boot_kv_get(pe, key, &peer_mapped, sizeof(peer_mapped)) !=
             XG_OK) || !peer_mapped) {
            return 0;
        }
    }
    return 1;
}

xg_status_t xg_shm_region_open(xg_shm_region_t *region, int fd, int npes,
                               size_t part_size, uintptr_t base_hint)
{
    size_t size = (size_t)npes * part_size;
    uintptr_t addr;
    void *map;
    int attempt;

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
    if ((xg_boot.rank == 0) && (ftruncate(fd, (off_t)size) != 0)) {
        xg_error("shm", "cannot size the node region to %zu bytes (%m)", size);
        close(fd);
        return XG_ERR_NO_MEMORY;
    }

    base_hint = xg_align_up(base_hint, 2u << 20);
    for (attempt = 0; attempt < SHM_MAP_ATTEMPTS; attempt++) {
        addr = base_hint + (uintptr_t)attempt * SHM_ATTEMPT_STRIDE;
        map  = shm_try_map(addr, size, fd);
        if (shm_all_mapped(attempt, map != NULL)) {
            region->base      = addr;
            region->size      = size;
            region->part_size = part_size;
            region->npes      = npes;
            region->fd        = fd;
            xg_debug("shm", "node region of %zu bytes at %#lx", size,
                     (unsigned long)addr);
            return XG_OK;
        }
        if (map != NULL) {
            munmap(map, size);
        }
    }
    xg_error("shm", "no virtual address range of %zu bytes was free in "
             "every PE at %#lx and the %d candidates after it: set "
             "XGAS_SYMMETRIC_BASE to a free, 2 MiB-aligned address (see "
             "/proc/self/maps) or lower SHMEM_SYMMETRIC_SIZE",
             size, (unsigned long)base_hint, SHM_MAP_ATTEMPTS - 1);
    close(fd);
    return XG_ERR_ADDRESS_IN_USE;
}

void xg_shm_region_close(xg_shm_region_t *region)
{
    if (region->size != 0) {
        munmap((void *)region->base, region->size);
    }
    if (region->fd >= 0) {
        close(region->fd);
    }
    region->size = 0;
    region->fd   = -1;
}
