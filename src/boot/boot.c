/*
 * PE side of the launcher protocol (see xg_ctl.h for the shared layout).
 */
#include "boot/xg_boot.h"

#include <errno.h>
#include <pthread.h>
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

/* Serializes joining and appending: libxgas (shmem_init, PtlInit) and
 * libpmi (PMI_Init, PMI_KVS_Put) may do either from different threads. */
static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;
static int boot_joined;

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

static xg_status_t boot_join(void)
{
    char prefix[32];
    xg_status_t status;

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
    return XG_OK;
}

XG_EXPORT xg_status_t xg_boot_init(void)
{
    xg_status_t status = XG_OK;

    /* acquire: pairs with the release below, so a caller that sees the
     * flag also sees the area, rank, npes and the rest of xg_boot */
    if (__atomic_load_n(&boot_joined, __ATOMIC_ACQUIRE)) {
        return XG_OK;
    }
    pthread_mutex_lock(&boot_lock);
    if (!boot_joined) {
        status = boot_join();
        if (status == XG_OK) {
            __atomic_store_n(&boot_joined, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&boot_lock);
    return status;
}

XG_EXPORT void xg_boot_job(int *rank_p, int *npes_p, int *singleton_p)
{
    *rank_p      = xg_boot.rank;
    *npes_p      = xg_boot.npes;
    *singleton_p = xg_boot.singleton;
}

void xg_boot_set_state(xg_pe_state_t state)
{
    /* release: the launcher must not see FINALIZED before our last writes */
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].state,
                          (uint32_t)state, memory_order_release);
}

XG_EXPORT xg_status_t xg_boot_kv_put(const char *key, const void *value,
                                     size_t len)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    xg_ctl_kv_record_t record;
    size_t key_len = strlen(key);
    size_t need = xg_align_up(sizeof(record) + key_len + len, 8);
    uint8_t *area = xg_ctl_kv_area(ctl, (uint32_t)xg_boot.rank);

    pthread_mutex_lock(&boot_lock);
    if ((key_len == 0) || (key_len > UINT16_MAX) || (len > UINT32_MAX) ||
        (need > ctl->kv_bytes_per_pe - xg_boot.kv_used)) {
        xg_error("boot", "key/value record '%s' (%zu bytes) does not fit: "
                 "%u of %u bytes in use", key, len, xg_boot.kv_used,
                 ctl->kv_bytes_per_pe);
        pthread_mutex_unlock(&boot_lock);
        return XG_ERR_NO_RESOURCE;
    }
    record.key_len   = (uint16_t)key_len;
    record.pad       = 0;
    record.value_len = (uint32_t)len;
    memcpy(area + xg_boot.kv_used, &record, sizeof(record));
    memcpy(area + xg_boot.kv_used + sizeof(record), key, key_len);
    memcpy(area + xg_boot.kv_used + sizeof(record) + key_len, value, len);
    xg_boot.kv_used += (uint32_t)need;
    pthread_mutex_unlock(&boot_lock);
    return XG_OK;
}

XG_EXPORT void xg_boot_kv_publish(void)
{
    pthread_mutex_lock(&boot_lock);
    /* release: records written before are complete when readers acquire
     * kv_used */
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].kv_used,
                          xg_boot.kv_used, memory_order_release);
    pthread_mutex_unlock(&boot_lock);
}

XG_EXPORT xg_status_t xg_boot_fence(void)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    uint32_t epoch;
    xg_wait_t wait;

    xg_boot_kv_publish();
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

/* Finds PE @rank's last record for @key: its own records at once, another
 * PE's once published. */
static int boot_kv_find(int rank, const char *key, const uint8_t **value_p,
                        uint32_t *len_p)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    uint32_t used;

    if (rank == xg_boot.rank) {
        pthread_mutex_lock(&boot_lock);
        used = xg_boot.kv_used;
        pthread_mutex_unlock(&boot_lock);
    } else {
        used = atomic_load_explicit(&ctl->pe[rank].kv_used,
                                    memory_order_acquire);
    }
    return xg_ctl_kv_find(xg_ctl_kv_area(ctl, (uint32_t)rank), used,
                          ctl->kv_bytes_per_pe, key, value_p, len_p);
}

XG_EXPORT xg_status_t xg_boot_kv_read(int rank, const char *key, void *value,
                                      size_t capacity, size_t *len_p)
{
    const uint8_t *found;
    uint32_t found_len;

    if ((rank < 0) || (rank >= xg_boot.npes)) {
        return XG_ERR_PE_RANGE;
    }
    if (boot_kv_find(rank, key, &found, &found_len) != 0) {
        return XG_ERR_INVALID_PARAM;
    }
    *len_p = found_len;
    if (found_len > capacity) {
        return XG_ERR_NO_RESOURCE;
    }
    memcpy(value, found, found_len);
    return XG_OK;
}

xg_status_t xg_boot_kv_get(int rank, const char *key, void *value, size_t len)
{
    size_t found_len;
    xg_status_t status = xg_boot_kv_read(rank, key, value, len, &found_len);

    if ((status == XG_ERR_NO_RESOURCE) ||
        ((status == XG_OK) && (found_len != len))) {
        return XG_ERR_MISMATCH;
    }
    return status;
}

XG_EXPORT void xg_boot_abort(int status)
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
