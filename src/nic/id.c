/*
 * Addressing: the ids of processes on an NI and the logical map.
 *
 * The processes of the job are its ranks.  A physical id names the node
 * and the process on it: nid = the node's index in the job, pid = the
 * process's rank among the PEs of its node (boot's node map) -- on one
 * node, pid = rank.  The logical map of a logical NI starts as the job's
 * ranks (rank r -> the physical id of rank r), so programs started by a
 * launcher need no PtlSetMap.  A map set by the program must name
 * processes of the job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"
#include "boot/xg_boot.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ni_int.h"

int xg_nic_phys_rank(ptl_process_t phys)
{
    if ((phys.phys.nid > (ptl_nid_t)INT32_MAX) ||
        (phys.phys.pid > (ptl_pid_t)INT32_MAX)) {
        return -1;
    }
    return xg_boot_rank_at((int)phys.phys.nid, (int)phys.phys.pid);
}

ptl_process_t xg_nic_phys_id(int rank)
{
    ptl_process_t id;

    memset(&id, 0, sizeof(id));
    if ((rank < 0) || (rank >= xg_boot.npes)) {
        /* no process: the NIC refuses an operation to it */
        id.phys.nid = PTL_NID_ANY;
        id.phys.pid = PTL_PID_ANY;
        return id;
    }
    id.phys.nid = (ptl_nid_t)xg_boot_node_of(rank);
    id.phys.pid = (ptl_pid_t)xg_boot_local_of(rank);
    return id;
}

int xg_nic_target_peer(const xg_nic_ni_t *ni, ptl_process_t target)
{
    if (ni->logical) {
        if (target.rank >= ni->map_size) {
            return -1;
        }
        target = ni->map[target.rank];
    }
    return xg_nic_phys_rank(target);
}

ptl_process_t xg_nic_peer_id(const xg_nic_ni_t *ni, uint32_t rank)
{
    ptl_process_t id;

    if (ni->logical) {
        id.rank = ((ni->pid_rank != NULL) && (rank < (uint32_t)ni->nic->npes) &&
                   (ni->pid_rank[rank] != UINT32_MAX))
                      ? ni->pid_rank[rank]
                      : rank;
    } else {
        id = xg_nic_phys_id((int)rank);
    }
    return id;
}

void xg_nic_source_id(const xg_nic_ni_t *ni, uint32_t src_rank,
                      ptl_process_t *id, uint64_t *key)
{
    *id  = xg_nic_peer_id(ni, src_rank);
    *key = ni->logical ? (uint64_t)id->rank
                       : (((uint64_t)id->phys.nid << 32) | id->phys.pid);
}

const char *xg_nic_phys_range(void)
{
    static char text[96];

    if (xg_boot.nnodes == 1) {
        snprintf(text, sizeof(text), "nid 0, pids 0..%d", xg_boot.npes - 1);
    } else {
        snprintf(text, sizeof(text),
                 "nids 0..%d, pids 0 up to the PEs of "
                 "each node",
                 xg_boot.nnodes - 1);
    }
    return text;
}

int xg_nic_set_map(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t size,
                   const ptl_process_t *map)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    ptl_process_t *copy;
    ptl_size_t i;
    int npes;

    if ((ni == NULL) || !ni->logical) {
        xg_warn("ptl", "%s: %#x is not an open logical NI", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    npes = ni->nic->npes;
    if ((size == 0) || (size > (1u << 24))) {
        xg_warn("ptl", "%s: map_size %llu is not in 1..2^24", fn,
                (unsigned long long)size);
        return PTL_ARG_INVALID;
    }
    for (i = 0; i < size; i++) {
        if (xg_nic_phys_rank(map[i]) < 0) {
            xg_warn("ptl",
                    "%s: entry %llu (nid %u, pid %u) is not a process "
                    "of this job (%s)",
                    fn, (unsigned long long)i, map[i].phys.nid, map[i].phys.pid,
                    xg_nic_phys_range());
            return PTL_ARG_INVALID;
        }
    }
    copy = malloc((size_t)size * sizeof(*copy));
    if (copy == NULL) {
        return PTL_NO_SPACE;
    }
    memcpy(copy, map, (size_t)size * sizeof(*copy));
    pthread_mutex_lock(&ni->lock);
    free(ni->map);
    ni->map      = copy;
    ni->map_size = (uint32_t)size;
    for (i = 0; i < (ptl_size_t)npes; i++) {
        ni->pid_rank[i] = UINT32_MAX;
    }
    /* reverse map: the first rank naming each process */
    for (i = size; i-- > 0;) {
        ni->pid_rank[xg_nic_phys_rank(map[i])] = (uint32_t)i;
    }
    ni->my_rank = (ni->pid_rank[ni->nic->rank] != UINT32_MAX)
                      ? ni->pid_rank[ni->nic->rank]
                      : PTL_RANK_ANY;
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

int xg_nic_get_map(const char *fn, ptl_handle_ni_t ni_handle, ptl_size_t size,
                   ptl_process_t *map, ptl_size_t *actual)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);
    ptl_size_t n;

    if ((ni == NULL) || !ni->logical) {
        xg_warn("ptl", "%s: %#x is not an open logical NI", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    pthread_mutex_lock(&ni->lock);
    n = (size < ni->map_size) ? size : ni->map_size;
    if ((map != NULL) && (n > 0)) {
        memcpy(map, ni->map, (size_t)n * sizeof(*map));
    }
    *actual = ni->map_size;
    pthread_mutex_unlock(&ni->lock);
    return PTL_OK;
}

int xg_nic_get_id(const char *fn, ptl_handle_ni_t ni_handle, int physical,
                  ptl_process_t *id)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    memset(id, 0, sizeof(*id));
    if (ni->logical && !physical) {
        id->rank = ni->my_rank;
    } else {
        *id = xg_nic_phys_id(ni->nic->rank);
    }
    return PTL_OK;
}

int xg_nic_get_uid(const char *fn, ptl_handle_ni_t ni_handle, ptl_uid_t *uid,
                   ptl_jid_t *jid)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    if (uid != NULL) {
        *uid = ni->nic->uid;
    }
    if (jid != NULL) {
        *jid = ni->nic->jid;
    }
    return PTL_OK;
}
