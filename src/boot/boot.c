/*
 * Joining the job through the first backend that started this process
 * (xg_boot_backend.h), and what boot offers on the control area once
 * joined (see xg_ctl.h for its layout): identity, key/value exchange,
 * fences, life-cycle states, leaving.
 */
#include "boot/xg_boot.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_time.h"
#include "base/xg_wait.h"
#include "boot/xg_boot_backend.h"

xg_boot_t xg_boot = {.rank = -1, .seg_fd = -1, .ctl_fd = -1};

/* Serializes joining and appending: libxgas (shmem_init, PtlInit) and
 * libpmi (PMI_Init, PMI_KVS_Put) may do either from different threads. */
static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int boot_joined;
static const xg_boot_backend_t *boot_backend; /* the one that joined */

/* Preference order: a launcher that set up the job first, the singleton
 * last (it always applies). */
static const xg_boot_backend_t *const boot_backends[] = {
    &xg_boot_backend_xgasrun,
#ifdef XGAS_HAVE_PMIX
    &xg_boot_backend_pmix,
#endif
    &xg_boot_backend_singleton,
};

/* The first backend that started this process (the singleton always
 * does).  Requires xg_config_load. */
static const xg_boot_backend_t *boot_detect(void)
{
    size_t i;

    for (i = 0; !boot_backends[i]->detect(); i++) {
    }
    return boot_backends[i];
}

void xg_boot_describe(const char **name_p, const char **why_p)
{
    const xg_boot_backend_t *backend = boot_detect();

    *name_p = backend->name;
    *why_p  = backend->why;
}

static xg_status_t boot_join(void)
{
    const xg_boot_backend_t *backend;
    char prefix[32];
    xg_status_t status;

    status = xg_config_load();
    if (status != XG_OK) {
        return status;
    }
    xg_wait_configure((unsigned)xg_config.wait_spin,
                      (unsigned)xg_config.wait_pause);
    backend = boot_detect();
    status  = backend->join();
    if (status != XG_OK) {
        return status;
    }
    xg_assert(xg_boot.pe_node != NULL); /* every backend maps the nodes */
    if (xg_boot.ctl_pes == 0) {
        xg_boot.ctl_pes = xg_boot.npes; /* the control area is the job's */
    }
    xg_boot.backend = backend->name;
    boot_backend    = backend;
    xg_boot.kv_used = atomic_load_explicit(
        &xg_boot.ctl->pe[xg_boot.rank].kv_used, memory_order_relaxed);
    snprintf(prefix, sizeof(prefix), "pe %d", xg_boot.rank);
    xg_log_set_prefix(prefix);
    xg_info("boot", "PE %d of %d joined through %s", xg_boot.rank, xg_boot.npes,
            backend->name);
    if (xg_boot.nnodes > 1) {
        xg_info("boot", "PE %d is PE %d of %d on node %d of %d", xg_boot.rank,
                xg_boot.local_rank, xg_boot.local_npes, xg_boot.node,
                xg_boot.nnodes);
    }
    xg_boot_watch_start();
    if (backend->node_watch) {
        xg_boot_node_watch_start();
    }
    return XG_OK;
}

XG_EXPORT xg_status_t xg_boot_init(void)
{
    xg_status_t status = XG_OK;

    /* acquire: pairs with the release below, so a caller that sees the
     * flag also sees the area, rank, npes and the rest of xg_boot */
    if (atomic_load_explicit(&boot_joined, memory_order_acquire)) {
        return XG_OK;
    }
    pthread_mutex_lock(&boot_lock);
    if (!atomic_load_explicit(&boot_joined, memory_order_relaxed)) {
        status = boot_join();
        if (status == XG_OK) {
            atomic_store_explicit(&boot_joined, 1, memory_order_release);
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

void xg_boot_identity(xg_boot_identity_t *id)
{
    id->job_id     = xg_boot.job_id;
    id->job_key    = xg_boot.job_key;
    id->rank       = xg_boot.rank;
    id->npes       = xg_boot.npes;
    id->local_rank = xg_boot.local_rank;
    id->local_npes = xg_boot.local_npes;
    id->host_npes  = xg_boot.host_npes;
    id->node       = xg_boot.node;
    id->nnodes     = xg_boot.nnodes;
    id->singleton  = xg_boot.singleton;
}

uint64_t xg_boot_random64(void)
{
    uint64_t value = 0;
    size_t done    = 0;
    ssize_t n;

    while (done < sizeof(value)) {
        n = getrandom((uint8_t *)&value + done, sizeof(value) - done, 0);
        if ((n < 0) && (errno == EINTR)) {
            continue;
        }
        if (n <= 0) {
            /* no entropy source: still different per job and process */
            xg_warn("boot",
                    "getrandom failed (%m): the job key is derived "
                    "from the time and the process id, which another job "
                    "could guess");
            return xg_time_ns() ^ ((uint64_t)getpid() << 32) ^
                   (uint64_t)(uintptr_t)&value;
        }
        done += (size_t)n;
    }
    return value;
}

/* 1 if the PEs of other nodes do not share this PE's control area: their
 * records and fences go through the backend. */
static int boot_spans_areas(void)
{
    return xg_boot.ctl_pes < xg_boot.npes;
}

/* 1 if @rank's records are in this PE's control area. */
static int boot_in_area(int rank)
{
    return !boot_spans_areas() || xg_boot_same_node(rank);
}

int xg_boot_fence_nodes(int ok)
{
    return boot_spans_areas() ? boot_backend->fence_nodes(ok) : ok;
}

void xg_boot_endpoint_publish(int32_t ep)
{
    /* release: what @ep names is complete before a peer can find it (boot
     * stored our pid before) */
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].pkt_ep, ep,
                          memory_order_release);
}

int32_t xg_boot_endpoint_lookup(int rank, int32_t *pid_p)
{
    xg_ctl_pe_t *slot = &xg_boot.ctl->pe[rank];
    /* acquire: the pid is stored before the endpoint is published */
    int32_t ep = atomic_load_explicit(&slot->pkt_ep, memory_order_acquire);

    *pid_p = atomic_load_explicit(&slot->pid, memory_order_relaxed);
    return ep;
}

void xg_boot_set_state(xg_pe_state_t state)
{
    /* release: the launcher must not see FINALIZED before our last writes */
    atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].state, (uint32_t)state,
                          memory_order_release);
}

XG_EXPORT xg_status_t xg_boot_kv_put(const char *key, const void *value,
                                     size_t len)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    xg_ctl_kv_record_t record;
    size_t key_len = strlen(key);
    size_t need    = xg_align_up(sizeof(record) + key_len + len, 8);
    uint8_t *area  = xg_boot.kv_own;

    pthread_mutex_lock(&boot_lock);
    if ((key_len == 0) || (key_len > UINT16_MAX) || (len > UINT32_MAX) ||
        (need > ctl->kv_bytes_per_pe - xg_boot.kv_used)) {
        xg_error("boot",
                 "key/value record '%s' (%zu bytes) does not fit: "
                 "%u of %u bytes in use",
                 key, len, xg_boot.kv_used, ctl->kv_bytes_per_pe);
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
    if (boot_spans_areas()) {
        return boot_backend->kv_put(key, value, len);
    }
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

static void boot_describe_fence(const xg_wait_what_t *what, char *buf,
                                size_t len)
{
    const xg_ctl_t *ctl = what->arg;

    snprintf(buf, len,
             "the job's fence #%u: waiting for the other PEs to "
             "arrive (%u of %u have)",
             (unsigned)atomic_load_explicit(&ctl->barrier_epoch,
                                            memory_order_relaxed),
             (unsigned)atomic_load_explicit(&ctl->barrier_arrived,
                                            memory_order_relaxed),
             (unsigned)xg_boot.ctl_pes);
}

/* A fence waiter that has backed off to yielding sleeps in the kernel
 * until the epoch moves: with hundreds of PEs on a few cores, yielding
 * waiters would take the CPUs from the PEs still on their way to the
 * fence.  It wakes up now and then for the hang watch (xg_wait_hook),
 * after 1 ms, then twice as long each time up to a quarter of a second:
 * a thousand waiters waking every 10 ms would keep two cores busy. */
#define BOOT_FENCE_NAP_MIN_NS 1000000L
#define BOOT_FENCE_NAP_MAX_NS 250000000L

/* not FUTEX_PRIVATE: the control area is shared between processes */
static void boot_futex(_Atomic uint32_t *word, int op, uint32_t value,
                       const struct timespec *timeout)
{
    syscall(SYS_futex, (uint32_t *)word, op, value, timeout, NULL, 0);
}

static int boot_fence(int ok, const char *routine)
{
    struct timespec nap = {0, BOOT_FENCE_NAP_MIN_NS};
    xg_ctl_t *ctl       = xg_boot.ctl;
    xg_wait_what_t what = {.routine  = routine,
                           .peer     = -1,
                           .describe = boot_describe_fence,
                           .arg      = ctl};
    uint32_t epoch;
    xg_wait_t wait;

    xg_boot_kv_publish();
    epoch = atomic_load_explicit(&ctl->barrier_epoch, memory_order_acquire);
    if (!ok) {
        /* ordered before our arrival by the acq_rel add below */
        atomic_fetch_add_explicit(&ctl->barrier_failed[epoch & 1], 1,
                                  memory_order_relaxed);
    }
    if (atomic_fetch_add_explicit(&ctl->barrier_arrived, 1,
                                  memory_order_acq_rel) ==
        (uint32_t)xg_boot.ctl_pes - 1) {
        /* every PE has read the count of the previous fence (it reads it
         * before arriving here): its slot is free for the next one */
        atomic_store_explicit(&ctl->barrier_failed[(epoch + 1) & 1], 0,
                              memory_order_relaxed);
        atomic_store_explicit(&ctl->barrier_arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&ctl->barrier_epoch, epoch + 1,
                              memory_order_release);
        boot_futex(&ctl->barrier_epoch, FUTEX_WAKE, INT_MAX, NULL);
    } else {
        xg_wait_init(&wait);
        xg_wait_watch(&wait, &what);
        while (atomic_load_explicit(&ctl->barrier_epoch,
                                    memory_order_acquire) == epoch) {
            if (xg_wait_sleepy(&wait)) {
                /* returns at once if the epoch has moved already */
                boot_futex(&ctl->barrier_epoch, FUTEX_WAIT, epoch, &nap);
                nap.tv_nsec = (nap.tv_nsec * 2 < BOOT_FENCE_NAP_MAX_NS)
                                  ? nap.tv_nsec * 2
                                  : BOOT_FENCE_NAP_MAX_NS;
            }
            xg_wait_backoff(&wait);
        }
    }
    ok = atomic_load_explicit(&ctl->barrier_failed[epoch & 1],
                              memory_order_relaxed) == 0;
    return xg_boot_fence_nodes(ok);
}

int xg_boot_fence_all(int ok)
{
    return boot_fence(ok, "xgas start-up exchange");
}

XG_EXPORT xg_status_t xg_boot_fence(void)
{
    boot_fence(1, "xgas start-up exchange");
    return XG_OK;
}

XG_EXPORT xg_status_t xg_boot_fence_named(const char *routine)
{
    boot_fence(1, routine);
    return XG_OK;
}

void xg_boot_helper_threads(int delta)
{
    if (xg_boot.ctl != NULL) {
        atomic_fetch_add_explicit(&xg_boot.ctl->pe[xg_boot.rank].helpers, delta,
                                  memory_order_relaxed);
    }
}

/* Reads PE @rank's first @used bytes of records into a buffer the caller
 * frees; NULL on failure. */
static uint8_t *boot_kv_read_peer(int rank, uint32_t used)
{
    uint8_t *buf = malloc(used ? used : 1);
    off_t offset =
        (off_t)xg_ctl_kv_offset((uint32_t)xg_boot.npes, (uint32_t)rank);
    size_t done = 0;
    ssize_t n;

    while ((buf != NULL) && (done < used)) {
        n = pread(xg_boot.ctl_fd, buf + done, used - done,
                  offset + (off_t)done);
        if ((n < 0) && (errno == EINTR)) {
            continue;
        }
        if (n <= 0) {
            xg_error("boot",
                     "cannot read PE %d's start-up records from the "
                     "job control area (%s)",
                     rank, (n < 0) ? strerror(errno) : "end of file");
            free(buf);
            return NULL;
        }
        done += (size_t)n;
    }
    return buf;
}

/* Looks up PE @rank's last record for @key: this PE's own records at once,
 * another PE's once published (read from the control area, which this PE
 * does not map).  Sets *len_p to the stored length and copies the value if
 * it fits in @capacity bytes (else XG_ERR_NO_RESOURCE); a missing key is
 * XG_ERR_INVALID_PARAM. */
XG_EXPORT xg_status_t xg_boot_kv_read(int rank, const char *key, void *value,
                                      size_t capacity, size_t *len_p)
{
    xg_ctl_t *ctl = xg_boot.ctl;
    const uint8_t *found, *area;
    uint8_t *copy = NULL;
    uint32_t used, found_len;
    xg_status_t status = XG_OK;

    if ((rank < 0) || (rank >= xg_boot.npes)) {
        return XG_ERR_PE_RANGE;
    }
    if (!boot_in_area(rank)) {
        return boot_backend->kv_read(rank, key, value, capacity, len_p);
    }
    if (rank == xg_boot.rank) {
        pthread_mutex_lock(&boot_lock);
        used = xg_boot.kv_used;
        pthread_mutex_unlock(&boot_lock);
        area = xg_boot.kv_own;
    } else {
        used =
            atomic_load_explicit(&ctl->pe[rank].kv_used, memory_order_acquire);
        if (used > ctl->kv_bytes_per_pe) {
            used = ctl->kv_bytes_per_pe;
        }
        area = copy = boot_kv_read_peer(rank, used);
        if (copy == NULL) {
            return XG_ERR_IO;
        }
    }
    if (xg_ctl_kv_find(area, used, ctl->kv_bytes_per_pe, key, &found,
                       &found_len) != 0) {
        status = XG_ERR_INVALID_PARAM;
    } else {
        *len_p = found_len;
        if (found_len > capacity) {
            status = XG_ERR_NO_RESOURCE;
        } else {
            memcpy(value, found, found_len);
        }
    }
    free(copy);
    return status;
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

void xg_boot_abort_why(int status, const char *why)
{
    status = xg_ctl_exit_code(status);
    if (status == 0) {
        status = 1;
    }
    if ((boot_backend != NULL) && (boot_backend->abort != NULL)) {
        boot_backend->abort(status, why);
    }
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

XG_EXPORT void xg_boot_abort(int status)
{
    xg_boot_abort_why(status, "an xgas PE ended the job after an error (see "
                              "its message)");
}

void xg_boot_abort_after(int peer, int status)
{
    if ((xg_boot.ctl != NULL) && (peer >= 0) && (peer < xg_boot.npes)) {
        atomic_store_explicit(&xg_boot.ctl->pe[xg_boot.rank].cause, 1 + peer,
                              memory_order_release);
    }
    xg_boot_abort(status);
}

void xg_boot_follow_exit(void)
{
    /* acquire: the status is valid once the requester is published */
    if ((xg_boot.ctl == NULL) ||
        (atomic_load_explicit(&xg_boot.ctl->exit_requested,
                              memory_order_acquire) <= 0)) {
        return;
    }
    fflush(stdout);
    fflush(stderr);
    _exit(xg_ctl_exit_code(
        atomic_load_explicit(&xg_boot.ctl->exit_status, memory_order_relaxed)));
}

void xg_boot_global_exit(int status)
{
    int32_t none = 0;

    status = xg_ctl_exit_code(status);
    /* claim (-1), then the status, then publish the requester with release:
     * whoever sees a positive exit_requested also sees the status */
    if (atomic_compare_exchange_strong(&xg_boot.ctl->exit_requested, &none,
                                       -1)) {
        atomic_store_explicit(&xg_boot.ctl->exit_status, status,
                              memory_order_relaxed);
        atomic_store_explicit(&xg_boot.ctl->exit_requested, 1 + xg_boot.rank,
                              memory_order_release);
    }
    if (boot_backend->abort != NULL) {
        boot_backend->abort(status, "shmem_global_exit");
    }
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}
