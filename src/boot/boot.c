/*
 * PE side of the launcher protocol (see xg_ctl.h for the shared layout).
 */
#include "boot/xg_boot.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"

xg_boot_t xg_boot = {.rank = -1, .seg_fd = -1};

static xg_status_t boot_attach_launcher(void)
{
    struct stat st;
    void *map;
    long fd = xg_config.ctl_fd;

    if ((xg_config.npes < 1) || (xg_config.npes > XG_CTL_MAX_PES) ||
        (xg_config.rank < 0) || (xg_config.rank >= xg_config.npes) ||
        (xg_config.seg_fd < 0)) {
        xg_error("boot", "inconsistent launcher variables XGAS_RANK=%ld "
                 "XGAS_NPES=%ld XGAS_SEG_FD=%ld: start the program with "
                 "xgasrun, or unset the XGAS_* launcher variables to run it "
                 "as a single PE", xg_config.rank, xg_config.npes,
                 xg_config.seg_fd);
        return XG_ERR_BOOT;
    }
    if (fstat((int)fd, &st) != 0) {
        xg_error("boot", "XGAS_CTL_FD=%ld is not an open descriptor (%m): "
                 "was the program started by xgasrun?", fd);
        return XG_ERR_BOOT;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
               (int)fd, 0);
    if (map == MAP_FAILED) {
        xg_error("boot", "cannot map the job control area (%m)");
        return XG_ERR_BOOT;
    }
    if (xg_ctl_check(map, (size_t)st.st_size, (uint32_t)xg_config.npes) != 0) {
        munmap(map, (size_t)st.st_size);
        xg_error("boot", "the job control area does not match XGAS_NPES=%ld: "
                 "this libxgas and the xgasrun that started the program must "
                 "come from the same installation", xg_config.npes);
        return XG_ERR_BOOT;
    }
    close((int)fd);
    xg_boot.ctl       = map;
    xg_boot.ctl_size  = (size_t)st.st_size;
    xg_boot.rank      = (int)xg_config.rank;
    xg_boot.npes      = (int)xg_config.npes;
    xg_boot.seg_fd    = (int)xg_config.seg_fd;
    xg_boot.singleton = 0;
    return XG_OK;
}

static xg_status_t boot_setup_singleton(void)
{
    size_t size = xg_ctl_size(1);
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (map == MAP_FAILED) {
        xg_error("boot", "cannot allocate %zu bytes for the job state (%m)",
                 size);
        return XG_ERR_NO_MEMORY;
    }
    xg_ctl_format(map, 1);
    xg_boot.ctl       = map;
    xg_boot.ctl_size  = size;
    xg_boot.rank      = 0;
    xg_boot.npes      = 1;
    xg_boot.seg_fd    = -1;
    xg_boot.singleton = 1;
    return XG_OK;
}

xg_status_t xg_boot_init(void)
{
    char prefix[32];
    xg_status_t status;

    if (xg_boot.ctl != NULL) {
        return XG_OK;
    }
    status = xg_config_load();
    if (status != XG_OK) {
        return status;
    }
    xg_wait_configure((unsigned)xg_config.wait_spin,
                      (unsigned)xg_config.wait_pause);
    status = (xg_config.ctl_fd >= 0) ? boot_attach_launcher()
                                     : boot_setup_singleton();
    if (status != XG_OK) {
        return status;
    }
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].pid, (int32_t)getpid(),
                          memory_order_relaxed);
    xg_boot.kv_used = atomic_load_explicit(
        &xg_boot.ctl->pe[xg_boot.rank].kv_used, memory_order_relaxed);
    snprintf(prefix, sizeof(prefix), "pe %d", xg_boot.rank);
    xg_log_set_prefix(prefix);
    xg_boot_watch_start();
    return XG_OK;
}

void xg_boot_set_state(xg_pe_state_t state)
{
    /* release: the launcher must not see FINALIZED before our last writes */
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].state,
                          (uint32_t)state, memory_order_release);
}

xg_status_t xg_boot_kv_put(const char *key, const void *value, size_t len)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    xg_ctl_kv_record_t record;
    size_t key_len = strlen(key);
    size_t need = xg_align_up(sizeof(record) + key_len + len, 8);
    uint8_t *area = xg_ctl_kv_area(ctl, (uint32_t)xg_boot.rank);

    if ((key_len == 0) || (key_len > UINT16_MAX) ||
        (need > ctl->kv_bytes_per_pe - xg_boot.kv_used)) {
        xg_error("boot", "key/value record '%s' (%zu bytes) does not fit: "
                 "%u of %u bytes in use", key, len, xg_boot.kv_used,
                 ctl->kv_bytes_per_pe);
        return XG_ERR_NO_RESOURCE;
    }
    record.key_len   = (uint16_t)key_len;
    record.pad       = 0;
    record.value_len = (uint32_t)len;
    memcpy(area + xg_boot.kv_used, &record, sizeof(record));
    memcpy(area + xg_boot.kv_used + sizeof(record), key, key_len);
    memcpy(area + xg_boot.kv_used + sizeof(record) + key_len, value, len);
    xg_boot.kv_used += (uint32_t)need;
    return XG_OK;
}

xg_status_t xg_boot_fence(void)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    uint32_t epoch;
    xg_wait_t wait;

    /* release: records written before the fence are complete when readers
     * acquire kv_used after it */
    atomic_store_explicit(&ctl->pe[xg_boot.rank].kv_used, xg_boot.kv_used,
                          memory_order_release);
    epoch = atomic_load_explicit(&ctl->barrier_epoch, memory_order_acquire);
    if (atomic_fetch_add_explicit(&ctl->barrier_arrived, 1,
                                  memory_order_acq_rel) ==
        (uint32_t)xg_boot.npes - 1) {
        atomic_store_explicit(&ctl->barrier_arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&ctl->barrier_epoch, epoch + 1,
                              memory_order_release);
        return XG_OK;
    }
    xg_wait_init(&wait);
    while (atomic_load_explicit(&ctl->barrier_epoch, memory_order_acquire) ==
           epoch) {
        xg_wait_backoff(&wait);
    }
    return XG_OK;
}

xg_status_t xg_boot_kv_get(int rank, const char *key, void *value, size_t len)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    const uint8_t *found;
    uint32_t used, found_len;

    if ((rank < 0) || (rank >= xg_boot.npes)) {
        return XG_ERR_PE_RANGE;
    }
    used = atomic_load_explicit(&ctl->pe[rank].kv_used, memory_order_acquire);
    if (xg_ctl_kv_find(xg_ctl_kv_area(ctl, (uint32_t)rank), used,
                       ctl->kv_bytes_per_pe, key, &found, &found_len) != 0) {
        return XG_ERR_INVALID_PARAM;
    }
    if (found_len != len) {
        return XG_ERR_MISMATCH;
    }
    memcpy(value, found, len);
    return XG_OK;
}

void xg_boot_abort(int status)
{
    if (status == 0) {
        status = 1;
    }
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

void xg_boot_global_exit(int status)
{
    int32_t none = 0;

    /* claim (-1), then the status, then publish the requester with release:
     * whoever sees a positive exit_requested also sees the status */
    if (atomic_compare_exchange_strong(&xg_boot.ctl->exit_requested, &none,
                                       -1)) {
        atomic_store_explicit(&xg_boot.ctl->exit_status, status,
                              memory_order_relaxed);
        atomic_store_explicit(&xg_boot.ctl->exit_requested, 1 + xg_boot.rank,
                              memory_order_release);
    }
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}
