/*
 * The PMIx backend of boot: the process was started by a PMIx launcher
 * (Open MPI's mpirun, prterun, srun --mpi=pmix), which set PMIX_NAMESPACE.
 * Rank, job size and the host of every process (PMIX_HOSTNAME) come from
 * PMIx_Get; a job may span any number of nodes.
 *
 * The PEs of each node share what xgasrun would have created: the node's
 * first PE (its lowest rank) creates the node's control area and node
 * region as POSIX shared memory objects named after the namespace and its
 * pid, publishes the names with PMIx_Put/Commit and a PMIx_Fence, the
 * others open them, and after a second fence, when every PE holds both
 * descriptors, the first PE unlinks the names: from then on they exist
 * only as descriptors, as under xgasrun, and nothing is left in /dev/shm
 * however the job ends.  Everything boot offers on the control area
 * (key/value records, fences, life-cycle states, endpoints) then works
 * unchanged among the PEs of a node; with more than one node, each record
 * is also put into PMIx and each fence ends with a collecting PMIx_Fence
 * over the job (pmix_fence_nodes), so records of every PE are readable
 * everywhere.  Rank 0 draws the job key and publishes it with the names.
 *
 * Leaving: an abort or shmem_global_exit goes through PMIx_Abort, so the
 * launcher ends every PE; an event handler ends this PE with a message
 * when the launcher reports another process aborted or ended without
 * finalizing, or the connection to the launcher is lost; a process that
 * exits with status 0 finalizes PMIx (any other status is a failure the
 * launcher reports itself).
 */
/* first: renames the PMIx_* functions (libpmix is loaded on first use) */
#include "boot/xg_pmix_dl.h"

#include <fcntl.h>
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"
#include "boot/xg_ctl_watch.h"

#define PMIX_KEY_SHM "xgas.node.shm"
#define PMIX_KEY_JOB "xgas.job.key"
#define PMIX_KEY_KV  "xgas.kv."    /* + the key of a boot record */
#define PMIX_KEY_OK  "xgas.fence." /* + the number of the fence */

static pmix_proc_t pmix_me;

/* The value of @key for @rank of our namespace (PMIX_RANK_WILDCARD: a job
 * attribute); NULL if PMIx does not know it.  Release with
 * PMIX_VALUE_RELEASE. */
static pmix_value_t *pmix_get(pmix_rank_t rank, const char *key)
{
    pmix_proc_t proc;
    pmix_value_t *value = NULL;

    PMIX_LOAD_PROCID(&proc, pmix_me.nspace, rank);
    if (PMIx_Get(&proc, key, NULL, 0, &value) != PMIX_SUCCESS) {
        return NULL;
    }
    return value;
}

/* A job attribute that is a count (PMIx stores them as uint32). */
static xg_status_t pmix_get_count(const char *key, uint32_t *count_p)
{
    pmix_value_t *value = pmix_get(PMIX_RANK_WILDCARD, key);
    pmix_status_t rc    = PMIX_ERR_NOT_FOUND;

    if (value != NULL) {
        PMIX_VALUE_GET_NUMBER(rc, value, *count_p, uint32_t);
        PMIX_VALUE_RELEASE(value);
    }
    if (rc != PMIX_SUCCESS) {
        xg_error("boot",
                 "the PMIx launcher did not give %s (%s): xgas "
                 "needs the job size and this node's PEs from it",
                 key, PMIx_Error_string(rc));
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

/* The node of every rank, as the launcher places them: processes with
 * the same PMIX_HOSTNAME share a node (Open MPI 4's launcher gives the
 * host name of every process, but PMIX_NODEID of local ones only).
 * O(npes x nodes) comparisons, once. */
static xg_status_t pmix_nodes(uint32_t npes)
{
    uint32_t *node = malloc((size_t)npes * sizeof(*node));
    char **names   = calloc(npes, sizeof(*names));
    pmix_value_t *value;
    xg_status_t status = XG_OK;
    uint32_t rank, n, count = 0;

    if ((node == NULL) || (names == NULL)) {
        free(node);
        free(names);
        return XG_ERR_NO_MEMORY;
    }
    for (rank = 0; (status == XG_OK) && (rank < npes); rank++) {
        value = pmix_get(rank, PMIX_HOSTNAME);
        if ((value == NULL) || (value->type != PMIX_STRING)) {
            xg_error("boot",
                     "the PMIx launcher did not say on which host "
                     "process %u runs (%s): xgas needs it to share memory "
                     "with the PEs of its node",
                     (unsigned)rank, PMIX_HOSTNAME);
            status = XG_ERR_BOOT;
        } else {
            for (n = 0;
                 (n < count) && (strcmp(names[n], value->data.string) != 0);
                 n++) {
            }
            if (n == count) {
                names[count++] = strdup(value->data.string);
                status         = (names[n] != NULL) ? XG_OK : XG_ERR_NO_MEMORY;
            }
            node[rank] = n;
        }
        if (value != NULL) {
            PMIX_VALUE_RELEASE(value);
        }
    }
    if (status == XG_OK) {
        status = xg_boot_topology_set(node);
    }
    for (n = 0; n < count; n++) {
        free(names[n]);
    }
    free(names);
    free(node);
    return status;
}

/* Commits what this process put and waits until every process of the
 * job has, with the data collected: afterwards every PE reads every PE's
 * values locally. */
static pmix_status_t pmix_exchange(void)
{
    pmix_info_t info;
    pmix_proc_t all;
    bool collect     = true;
    pmix_status_t rc = PMIx_Commit();

    if (rc == PMIX_SUCCESS) {
        PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
        PMIX_LOAD_PROCID(&all, pmix_me.nspace, PMIX_RANK_WILDCARD);
        rc = PMIx_Fence(&all, 1, &info, 1);
        PMIX_INFO_DESTRUCT(&info);
    }
    return rc;
}

/* Puts @len bytes under @key for every process of the job (committed by
 * the next exchange). */
static pmix_status_t pmix_put_bytes(const char *key, const void *bytes,
                                    size_t len)
{
    pmix_value_t value;
    pmix_byte_object_t obj;
    pmix_status_t rc;

    obj.bytes = (char *)bytes;
    obj.size  = len;
    PMIX_VALUE_LOAD(&value, &obj, PMIX_BYTE_OBJECT);
    rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    PMIX_VALUE_DESTRUCT(&value);
    return rc;
}

/* Reads @rank's bytes under @key as pmix_put_bytes stored them, without
 * waiting for them to appear: *len_p gets their length, @buf the bytes if
 * they fit in @capacity.  A missing key: XG_ERR_INVALID_PARAM. */
static xg_status_t pmix_get_bytes(pmix_rank_t rank, const char *key, void *buf,
                                  size_t capacity, size_t *len_p)
{
    pmix_proc_t proc;
    pmix_value_t *value = NULL;
    pmix_info_t info;
    bool optional = true;
    pmix_status_t rc;
    xg_status_t status = XG_OK;

    PMIX_LOAD_PROCID(&proc, pmix_me.nspace, rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    rc = PMIx_Get(&proc, key, &info, 1, &value);
    PMIX_INFO_DESTRUCT(&info);
    if ((rc != PMIX_SUCCESS) || (value == NULL) ||
        (value->type != PMIX_BYTE_OBJECT)) {
        status = XG_ERR_INVALID_PARAM;
    } else {
        *len_p = value->data.bo.size;
        if (value->data.bo.size > capacity) {
            status = XG_ERR_NO_RESOURCE;
        } else if (value->data.bo.size > 0) {
            memcpy(buf, value->data.bo.bytes, value->data.bo.size);
        }
    }
    if (value != NULL) {
        PMIX_VALUE_RELEASE(value);
    }
    return status;
}

/* Publishes @text under PMIX_KEY_SHM (and, at rank 0, the job key) and
 * waits until every PE has. */
static xg_status_t pmix_publish(const char *text, uint64_t job_key)
{
    pmix_value_t value;
    pmix_status_t rc;

    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    rc = PMIx_Put(PMIX_GLOBAL, PMIX_KEY_SHM, &value);
    PMIX_VALUE_DESTRUCT(&value);
    if ((rc == PMIX_SUCCESS) && (pmix_me.rank == 0)) {
        rc = pmix_put_bytes(PMIX_KEY_JOB, &job_key, sizeof(job_key));
    }
    if (rc == PMIX_SUCCESS) {
        rc = pmix_exchange();
    }
    if (rc != PMIX_SUCCESS) {
        xg_error("boot",
                 "PMIx exchange of the node's shared memory names "
                 "failed (%s)",
                 PMIx_Error_string(rc));
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

static xg_status_t pmix_fence(void)
{
    pmix_proc_t all;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&all, pmix_me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Fence(&all, 1, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        xg_error("boot", "PMIx_Fence failed (%s)", PMIx_Error_string(rc));
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

/* Names of the two objects: "/xgas-<namespace>-<pid>-ctl" and "...-seg",
 * the namespace reduced to characters a name may hold. */
static void pmix_shm_names(pid_t pid, char *ctl, char *seg, size_t size)
{
    char ns[65];
    size_t i;

    for (i = 0; (i < sizeof(ns) - 1) && (pmix_me.nspace[i] != '\0'); i++) {
        ns[i] = ((pmix_me.nspace[i] == '/') || (pmix_me.nspace[i] == ' '))
                    ? '_'
                    : pmix_me.nspace[i];
    }
    ns[i] = '\0';
    snprintf(ctl, size, "/xgas-%s-%ld-ctl", ns, (long)pid);
    snprintf(seg, size, "/xgas-%s-%ld-seg", ns, (long)pid);
}

/* The node's first PE: creates and formats both objects; their names go
 * to *names_p ("<ctl> <seg>").  On failure nothing is left behind. */
static xg_status_t pmix_create(uint32_t npes, int *ctl_fd_p, int *seg_fd_p,
                               char *names, size_t size)
{
    char ctl[128], seg[128];
    size_t ctl_size = xg_ctl_size(npes);
    void *map;
    int ctl_fd, seg_fd;

    pmix_shm_names(getpid(), ctl, seg, sizeof(ctl));
    ctl_fd = shm_open(ctl, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    seg_fd = shm_open(seg, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if ((ctl_fd < 0) || (seg_fd < 0)) {
        xg_error("boot",
                 "cannot create the node's shared memory objects "
                 "%s and %s (%m): is /dev/shm mounted and writable?",
                 ctl, seg);
        goto err;
    }
    if (ftruncate(ctl_fd, (off_t)ctl_size) != 0) {
        xg_error("boot",
                 "cannot size the job control area %s to %zu bytes "
                 "(%m)",
                 ctl, ctl_size);
        goto err;
    }
    map = mmap(NULL, sizeof(xg_ctl_t), PROT_READ | PROT_WRITE, MAP_SHARED,
               ctl_fd, 0);
    if (map == MAP_FAILED) {
        xg_error("boot", "cannot map the job control area %s (%m)", ctl);
        goto err;
    }
    xg_ctl_format(map, npes);
    munmap(map, sizeof(xg_ctl_t));
    snprintf(names, size, "%s %s", ctl, seg);
    *ctl_fd_p = ctl_fd;
    *seg_fd_p = seg_fd;
    return XG_OK;

err:
    if (ctl_fd >= 0) {
        close(ctl_fd);
        shm_unlink(ctl);
    }
    if (seg_fd >= 0) {
        close(seg_fd);
        shm_unlink(seg);
    }
    return XG_ERR_BOOT;
}

/* Another PE of the node: opens the objects the first PE published. */
static xg_status_t pmix_open(pmix_rank_t first, int *ctl_fd_p, int *seg_fd_p)
{
    pmix_value_t *value = pmix_get(first, PMIX_KEY_SHM);
    char ctl[128], seg[128];
    xg_status_t status = XG_ERR_BOOT;

    if ((value == NULL) || (value->type != PMIX_STRING) ||
        (sscanf(value->data.string, "%127s %127s", ctl, seg) != 2)) {
        /* the first PE said why */
        xg_error("boot",
                 "PE %u, the first of this node, did not publish "
                 "its shared memory objects",
                 (unsigned)first);
    } else {
        *ctl_fd_p = shm_open(ctl, O_RDWR | O_CLOEXEC, 0);
        *seg_fd_p = shm_open(seg, O_RDWR | O_CLOEXEC, 0);
        if ((*ctl_fd_p >= 0) && (*seg_fd_p >= 0)) {
            status = XG_OK;
        } else {
            xg_error("boot",
                     "cannot open the node's shared memory objects "
                     "%s and %s that PE %u created (%m)",
                     ctl, seg, (unsigned)first);
            if (*ctl_fd_p >= 0) {
                close(*ctl_fd_p);
            }
            if (*seg_fd_p >= 0) {
                close(*seg_fd_p);
            }
        }
    }
    if (value != NULL) {
        PMIX_VALUE_RELEASE(value);
    }
    return status;
}

/* Another process of the job aborted, or the launcher went away: this PE
 * cannot complete anything the job started, so it ends now, saying why. */
static void pmix_on_event(size_t id, pmix_status_t event,
                          const pmix_proc_t *source, pmix_info_t info[],
                          size_t ninfo, pmix_info_t results[], size_t nresults,
                          pmix_event_notification_cbfunc_fn_t done,
                          void *done_arg)
{
    const pmix_proc_t *who = source;
    size_t i;

    (void)id;
    (void)results;
    (void)nresults;
    (void)done;
    (void)done_arg;
    for (i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) &&
            (info[i].value.type == PMIX_PROC)) {
            who = info[i].value.data.proc;
        }
    }
    if (event == PMIX_ERR_LOST_CONNECTION) {
        xg_error("boot", "lost the connection to the PMIx launcher: it "
                         "ended or died; ending this PE");
    } else {
        xg_error("boot",
                 "PMIx reports %s for process %s:%u (PE %u of this "
                 "job); ending this PE",
                 PMIx_Error_string(event), (who != NULL) ? who->nspace : "?",
                 (who != NULL) ? (unsigned)who->rank : 0u,
                 (who != NULL) ? (unsigned)who->rank : 0u);
    }
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

static void pmix_watch(void)
{
    pmix_status_t codes[] = {PMIX_ERR_PROC_ABORTED, PMIX_ERR_PROC_ABORTING,
                             PMIX_ERR_PROC_TERM_WO_SYNC,
                             PMIX_ERR_JOB_TERMINATED, PMIX_ERR_LOST_CONNECTION};

    /* NULL callback: registration completes before PMIx calls back (a
     * launcher without events leaves the launcher's own clean-up) */
    PMIx_Register_event_handler(codes, XG_ARRAY_SIZE(codes), NULL, 0,
                                pmix_on_event, NULL, NULL);
}

static void pmix_at_exit(int status, void *arg)
{
    (void)arg;
    /* a failure stays unfinalized: the launcher then reports the process
     * and ends the job */
    if (status == 0) {
        PMIx_Finalize(NULL, 0);
    }
}

static xg_status_t pmix_join(void)
{
    char ctl[128], seg[128], names[2 * sizeof(ctl)] = "";
    int ctl_fd = -1, seg_fd = -1;
    pmix_rank_t first;
    pmix_status_t rc;
    uint32_t npes;
    xg_status_t status, created;
    uint64_t hash = 0xcbf29ce484222325ULL; /* FNV-1a of the namespace */
    size_t i, len = 0;
    int threads = xg_ctl_proc_threads(getpid());

    char why[512];

    if (xg_pmix_dl_load(why, sizeof(why)) != XG_OK) {
        xg_error("boot", "PMIX_NAMESPACE=%s is set, but %s",
                 xg_config.pmix_namespace, why);
        return XG_ERR_BOOT;
    }
    rc = PMIx_Init(&pmix_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        xg_error("boot",
                 "PMIX_NAMESPACE=%s is set but PMIx_Init failed "
                 "(%s): start the program with a working PMIx launcher "
                 "(mpirun) or unset PMIX_NAMESPACE to run it as a single PE",
                 xg_config.pmix_namespace, PMIx_Error_string(rc));
        return XG_ERR_BOOT;
    }
    on_exit(pmix_at_exit, NULL);
    pmix_watch();
    /* PMIx's own threads only serve the launcher: the hang watch does not
     * count them as threads that could end a wait of the program */
    threads = xg_ctl_proc_threads(getpid()) - threads;
    status  = pmix_get_count(PMIX_JOB_SIZE, &npes);
    if ((status == XG_OK) && (npes > XG_CTL_MAX_PES)) {
        xg_error("boot",
                 "the PMIx job has %u processes; xgas supports at "
                 "most %d PEs",
                 npes, XG_CTL_MAX_PES);
        status = XG_ERR_BOOT;
    }
    if (status == XG_OK) {
        xg_boot.rank = (int)pmix_me.rank;
        xg_boot.npes = (int)npes;
        status       = pmix_nodes(npes);
    }
    if (status != XG_OK) {
        return status;
    }
    /* the node's first PE creates what its PEs share */
    first = (pmix_rank_t)xg_boot_rank_at(xg_boot.node, 0);
    /* every PE reaches both fences, even after a failure, so no PE waits
     * for one that gave up */
    created = XG_OK;
    if (pmix_me.rank == first) {
        created = pmix_create(npes, &ctl_fd, &seg_fd, names, sizeof(names));
    }
    status = pmix_publish(names, xg_boot_random64());
    if ((status == XG_OK) && (created == XG_OK) && (pmix_me.rank != first)) {
        created = pmix_open(first, &ctl_fd, &seg_fd);
    }
    if (status == XG_OK) {
        status = pmix_fence();
    }
    if ((pmix_me.rank == first) && (created == XG_OK)) {
        /* every PE holds its descriptors now (or gave up) */
        pmix_shm_names(getpid(), ctl, seg, sizeof(ctl));
        shm_unlink(ctl);
        shm_unlink(seg);
    }
    if (created != XG_OK) {
        status = created;
    }
    if (status == XG_OK) {
        status =
            xg_boot_ctl_attach(ctl_fd, npes, pmix_me.rank, "PMIx launcher");
    }
    if (status != XG_OK) {
        if (ctl_fd >= 0) {
            close(ctl_fd);
        }
        if (seg_fd >= 0) {
            close(seg_fd);
        }
        return status;
    }
    xg_boot.seg_fd  = seg_fd;
    xg_boot.ctl_pes = xg_boot.local_npes; /* each node has its own area */
    if (threads > 0) {
        xg_boot_helper_threads(threads);
    }
    for (i = 0; pmix_me.nspace[i] != '\0'; i++) {
        hash = (hash ^ (uint8_t)pmix_me.nspace[i]) * 0x100000001b3ULL;
    }
    xg_boot.job_id = hash;
    if ((pmix_get_bytes(0, PMIX_KEY_JOB, &xg_boot.job_key,
                        sizeof(xg_boot.job_key), &len) != XG_OK) ||
        (len != sizeof(xg_boot.job_key))) {
        xg_error("boot", "PE 0 did not publish the job key through PMIx");
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

/* ---- the job-wide exchange (a job over several nodes) ------------------ */

static xg_status_t pmix_kv_put(const char *key, const void *value, size_t len)
{
    char name[PMIX_MAX_KEYLEN + 1];
    pmix_status_t rc;

    if (snprintf(name, sizeof(name), PMIX_KEY_KV "%s", key) >=
        (int)sizeof(name)) {
        xg_error("boot",
                 "key/value record '%s' has a key too long for "
                 "PMIx (at most %zu characters)",
                 key, (size_t)PMIX_MAX_KEYLEN - strlen(PMIX_KEY_KV));
        return XG_ERR_INVALID_PARAM;
    }
    rc = pmix_put_bytes(name, value, len);
    if (rc != PMIX_SUCCESS) {
        xg_error("boot", "PMIx_Put of record '%s' failed (%s)", key,
                 PMIx_Error_string(rc));
        return XG_ERR_BOOT;
    }
    return XG_OK;
}

static xg_status_t pmix_kv_read(int rank, const char *key, void *value,
                                size_t capacity, size_t *len_p)
{
    char name[PMIX_MAX_KEYLEN + 1];

    if (snprintf(name, sizeof(name), PMIX_KEY_KV "%s", key) >=
        (int)sizeof(name)) {
        return XG_ERR_INVALID_PARAM;
    }
    return pmix_get_bytes((pmix_rank_t)rank, name, value, capacity, len_p);
}

/* Each node's first PE puts its node's AND under a key of this fence's
 * number (every PE counts the same fences), every PE commits its records
 * and meets the others in a collecting PMIx_Fence, then reads the nodes'
 * answers: O(nodes) per PE. */
static int pmix_fence_nodes(int ok)
{
    static unsigned number;
    char key[PMIX_MAX_KEYLEN + 1];
    uint8_t node_ok = (uint8_t)(ok != 0), got = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    size_t len       = 0;
    int node;

    snprintf(key, sizeof(key), PMIX_KEY_OK "%u", number++);
    if (xg_boot.local_rank == 0) {
        rc = pmix_put_bytes(key, &node_ok, sizeof(node_ok));
    }
    if (rc == PMIX_SUCCESS) {
        rc = pmix_exchange();
    }
    if (rc != PMIX_SUCCESS) {
        xg_error("boot",
                 "the PMIx fence over the %d nodes of the job failed "
                 "(%s): ending this PE",
                 xg_boot.nnodes, PMIx_Error_string(rc));
        xg_boot_abort(1);
    }
    for (node = 0; node < xg_boot.nnodes; node++) {
        if ((pmix_get_bytes((pmix_rank_t)xg_boot_rank_at(node, 0), key, &got,
                            sizeof(got), &len) != XG_OK) ||
            (len != sizeof(got))) {
            xg_error("boot",
                     "node %d's first PE (PE %d) published no answer "
                     "to fence %s",
                     node, xg_boot_rank_at(node, 0), key);
            xg_boot_abort(1);
        }
        ok = ok && got;
    }
    return ok;
}

static void pmix_abort(int status, const char *why)
{
    fflush(stdout);
    fflush(stderr);
    /* returns once the launcher has the request; it then ends every
     * process of the namespace (this one included) */
    PMIx_Abort(status, why, NULL, 0);
    _exit(status);
}

static int pmix_detect(void)
{
    return xg_config.pmix_namespace[0] != '\0';
}

const xg_boot_backend_t xg_boot_backend_pmix = {
    .name        = "pmix",
    .detect      = pmix_detect,
    .join        = pmix_join,
    .abort       = pmix_abort,
    .why         = "PMIX_NAMESPACE is set: started by a PMIx launcher (mpirun, "
                   "prterun, srun --mpi=pmix)",
    .node_watch  = 1,
    .fence_nodes = pmix_fence_nodes,
    .kv_put      = pmix_kv_put,
    .kv_read     = pmix_kv_read,
};
