/*
 * The xgasrun backend of boot: the process joins the job through the
 * control area xgasrun created (see xg_ctl.h), named by the variables it
 * sets (XGAS_RANK, XGAS_NPES, XGAS_CTL_FD, XGAS_SEG_FD).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "boot/xg_boot_backend.h"

/* Marks descriptor @fd close-on-exec if it is the job's memfd @name (a
 * descriptor xgasrun made). */
static void xgasrun_cloexec(const char *var, const char *name)
{
    const char *value = getenv(var);
    char path[64], link[128], *end;
    long fd;
    ssize_t len;

    if ((value == NULL) || (*value == '\0')) {
        return;
    }
    fd = strtol(value, &end, 10);
    if ((*end != '\0') || (fd < 0) || (fd > 1000000)) {
        return; /* xg_config names the bad value at shmem_init */
    }
    snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
    len = readlink(path, link, sizeof(link) - 1);
    if (len <= 0) {
        return;
    }
    link[len] = '\0';
    /* "/memfd:xgas-ctl (deleted)" */
    if ((strncmp(link, "/memfd:", 7) == 0) &&
        (strncmp(link + 7, name, strlen(name)) == 0)) {
        fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    }
}

/*
 * At load, before main: the job's memfds, inherited from xgasrun, close
 * on exec from the start, so a program the PE starts before shmem_init
 * (system, popen, fork + exec) does not keep the job's memory alive after
 * xgasrun ends (it is freed when the last descriptor and mapping go).
 * The PE itself keeps them until it joins.
 */
__attribute__((constructor)) static void xgasrun_fds_cloexec(void)
{
    xgasrun_cloexec("XGAS_CTL_FD", "xgas-ctl");
    xgasrun_cloexec("XGAS_SEG_FD", "xgas-seg");
}

/* Takes PE @rank's slot for this process.  A slot already held by another
 * live process means the variables were inherited: from a PE that started
 * this program before it joined (its child then holds the rank), or copied
 * by hand. */
static xg_status_t xgasrun_claim_rank(xg_ctl_t *ctl, int rank)
{
    int32_t holder = 0, me = (int32_t)getpid();

    if (atomic_compare_exchange_strong(&ctl->pe[rank].pid, &holder, me) ||
        (holder == me)) {
        return XG_OK;
    }
    xg_error("boot",
             "PE %d of this job was already joined by process %d, "
             "so this process (%d) cannot be PE %d: XGAS_RANK and the job's "
             "descriptors were inherited from a process that started it -- "
             "programs a PE starts after shmem_init run as jobs of their "
             "own; start this one after shmem_init, or unset the XGAS_* "
             "launcher variables",
             rank, (int)holder, (int)me, rank);
    return XG_ERR_BOOT;
}

/* Removes the launcher's variables from the environment once joined: the
 * values stay in xg_config, which is all a re-initialization after
 * shmem_finalize needs, and programs this PE starts (system, fork + exec)
 * do not see the job. */
static void xgasrun_forget_vars(void)
{
    static const char *const names[] = {
        "XGAS_RANK",   "XGAS_NPES",         "XGAS_CTL_FD",
        "XGAS_SEG_FD", "XGAS_PVAS_ROOM_LO", "XGAS_PVAS_ROOM_HI"};
    size_t i;

    for (i = 0; i < XG_ARRAY_SIZE(names); i++) {
        unsetenv(names[i]);
    }
}

xg_status_t xg_boot_ctl_attach(int fd, uint32_t npes, uint32_t rank,
                               const char *origin)
{
    struct stat st;
    void *map = MAP_FAILED, *kv = MAP_FAILED;
    size_t head = xg_ctl_head_size(npes);

    if (fstat(fd, &st) != 0) {
        xg_error("boot",
                 "descriptor %d of the job control area is not open "
                 "(%m): was the program started by %s?",
                 fd, origin);
        return XG_ERR_BOOT;
    }
    if ((size_t)st.st_size < xg_ctl_size(npes)) {
        xg_error("boot",
                 "the job control area (%lld bytes) is too small for "
                 "%u PEs: this libxgas and the %s that started the program "
                 "must come from the same installation",
                 (long long)st.st_size, npes, origin);
        return XG_ERR_BOOT;
    }
    /* the head and our own key/value area only: peers' records are read
     * with pread (xg_boot_kv_get), so no page tables cover their areas */
    map = mmap(NULL, head, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    kv  = mmap(NULL, XG_CTL_KV_BYTES_PER_PE, PROT_READ | PROT_WRITE, MAP_SHARED,
               fd, (off_t)xg_ctl_kv_offset(npes, rank));
    if ((map == MAP_FAILED) || (kv == MAP_FAILED)) {
        xg_error("boot", "cannot map the job control area (%m)");
        goto err_unmap;
    }
    if (xg_ctl_check(map, (size_t)st.st_size, npes) != 0) {
        xg_error("boot",
                 "the job control area does not match a job of %u "
                 "PEs: this libxgas and the %s that started the program "
                 "must come from the same installation",
                 npes, origin);
        goto err_unmap;
    }
    if (xgasrun_claim_rank(map, (int)rank) != XG_OK) {
        goto err_unmap;
    }
    /* a program this PE starts must not inherit the job */
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    xg_boot.ctl       = map;
    xg_boot.ctl_size  = head;
    xg_boot.ctl_fd    = fd;
    xg_boot.kv_own    = kv;
    xg_boot.rank      = (int)rank;
    xg_boot.npes      = (int)npes;
    xg_boot.singleton = 0;
    return XG_OK;

err_unmap:
    if (map != MAP_FAILED) {
        munmap(map, head);
    }
    if (kv != MAP_FAILED) {
        munmap(kv, XG_CTL_KV_BYTES_PER_PE);
    }
    return XG_ERR_BOOT;
}

/* xgasrun starts every PE on this host, on one node or split into the
 * virtual nodes its control area names (each with its own node region:
 * XGAS_SEG_FD is this PE's node's). */
static xg_status_t xgasrun_nodes(void)
{
    const xg_ctl_t *ctl = xg_boot.ctl;
    uint32_t *node      = malloc((size_t)xg_boot.npes * sizeof(*node));
    xg_status_t status;
    int rank;

    if (node == NULL) {
        return XG_ERR_NO_MEMORY;
    }
    for (rank = 0; rank < xg_boot.npes; rank++) {
        node[rank] = xg_ctl_virtual_node((uint32_t)rank, (uint32_t)xg_boot.npes,
                                         ctl->nodes, ctl->node_map);
    }
    status = xg_boot_topology_set(node);
    /* xgasrun starts every PE on this host, whatever virtual node */
    xg_boot.host_npes = xg_boot.npes;
    free(node);
    return status;
}

static xg_status_t xgasrun_join(void)
{
    if ((xg_config.npes < 1) || (xg_config.npes > XG_CTL_MAX_PES) ||
        (xg_config.rank < 0) || (xg_config.rank >= xg_config.npes) ||
        (xg_config.seg_fd < 0)) {
        xg_error("boot",
                 "inconsistent launcher variables XGAS_RANK=%ld "
                 "XGAS_NPES=%ld XGAS_SEG_FD=%ld: start the program with "
                 "xgasrun, or unset the XGAS_* launcher variables to run it "
                 "as a single PE",
                 xg_config.rank, xg_config.npes, xg_config.seg_fd);
        return XG_ERR_BOOT;
    }
    if (xg_boot_ctl_attach((int)xg_config.ctl_fd, (uint32_t)xg_config.npes,
                           (uint32_t)xg_config.rank, "xgasrun") != XG_OK) {
        return XG_ERR_BOOT;
    }
    /* the node region's descriptor closes on exec too (the library keeps
     * its number), and the variables that name the job go */
    fcntl((int)xg_config.seg_fd, F_SETFD, FD_CLOEXEC);
    xgasrun_forget_vars();
    xg_boot.seg_fd = (int)xg_config.seg_fd;
    /* the job is named after its launcher, the parent of every PE (rank
     * 0's pid would need rank 0 to have joined first) */
    xg_boot.job_id  = (uint64_t)getppid();
    xg_boot.job_key = xg_boot.ctl->job_key;
    return xgasrun_nodes();
}

static int xgasrun_detect(void)
{
    return xg_config.ctl_fd >= 0;
}

const xg_boot_backend_t xg_boot_backend_xgasrun = {
    .name   = "xgasrun",
    .detect = xgasrun_detect,
    .join   = xgasrun_join,
    .why    = "XGAS_CTL_FD is set: started by xgasrun",
};
