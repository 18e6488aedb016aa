/*
 * PE binding for xgasrun and its description for xgas-info
 * (xgasrun_bind.h).
 */
#include "xgasrun_bind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xg_bind_parse(const char *text, xg_bind_policy_t *policy)
{
    if (strcmp(text, "core") == 0) {
        *policy = XG_BIND_CORE;
    } else if (strcmp(text, "numa") == 0) {
        *policy = XG_BIND_NUMA;
    } else if (strcmp(text, "none") == 0) {
        *policy = XG_BIND_NONE;
    } else {
        return -1;
    }
    return 0;
}

/* The topology of this host and the CPUs this process may use: its own
 * binding (taskset, an outer launcher) within what the system allows
 * (cgroups). */
static int bind_load(hwloc_topology_t *topo, hwloc_bitmap_t *allowed)
{
    *allowed = NULL;
    if (hwloc_topology_init(topo) != 0) {
        return -1;
    }
    if (hwloc_topology_load(*topo) != 0) {
        hwloc_topology_destroy(*topo);
        return -1;
    }
    *allowed = hwloc_bitmap_alloc();
    if ((*allowed == NULL) ||
        (hwloc_get_cpubind(*topo, *allowed, HWLOC_CPUBIND_PROCESS) != 0)) {
        hwloc_bitmap_free(*allowed);
        hwloc_topology_destroy(*topo);
        *allowed = NULL;
        return -1;
    }
    hwloc_bitmap_and(*allowed, *allowed,
                     hwloc_topology_get_allowed_cpuset(*topo));
    return 0;
}

int xg_bind_init(xg_bind_t *b)
{
    memset(b, 0, sizeof(*b));
    b->applied = XG_BIND_NONE;
    if (bind_load(&b->topo, &b->allowed) != 0) {
        fprintf(stderr,
                "xgasrun: hwloc cannot read this host's topology or "
                "this process's CPU binding (%s); run with "
                "--bind-to none\n",
                strerror(errno));
        return -1;
    }
    return 0;
}

void xg_bind_fini(xg_bind_t *b)
{
    int rank;

    for (rank = 0; (b->pe_set != NULL) && (rank < b->npes); rank++) {
        hwloc_bitmap_free(b->pe_set[rank]);
    }
    free(b->pe_set);
    free(b->pe_numa);
    hwloc_bitmap_free(b->allowed);
    if (b->topo != NULL) {
        hwloc_topology_destroy(b->topo);
    }
    memset(b, 0, sizeof(*b));
}

/* The objects of @type holding allowed CPUs, in the topology's order (a
 * host without cores, as some virtual machines show, counts its hardware
 * threads instead); their count, with *objs_p malloc'ed. */
static int bind_objects(const xg_bind_t *b, hwloc_obj_type_t type,
                        hwloc_obj_t **objs_p)
{
    int total, i, count = 0;
    hwloc_obj_t obj, *objs;

    if ((type == HWLOC_OBJ_CORE) &&
        (hwloc_get_nbobjs_by_type(b->topo, HWLOC_OBJ_CORE) <= 0)) {
        type = HWLOC_OBJ_PU;
    }
    total   = hwloc_get_nbobjs_by_type(b->topo, type);
    objs    = malloc(((total > 0) ? (size_t)total : 1) * sizeof(*objs));
    *objs_p = objs;
    if (objs == NULL) {
        return 0;
    }
    for (i = 0; i < total; i++) {
        obj = hwloc_get_obj_by_type(b->topo, type, (unsigned)i);
        if ((obj != NULL) && (obj->cpuset != NULL) &&
            hwloc_bitmap_intersects(obj->cpuset, b->allowed)) {
            objs[count++] = obj;
        }
    }
    return count;
}

/* The OS index of the one NUMA node holding all of @set, or -1. */
static int bind_numa_of(const xg_bind_t *b, hwloc_const_bitmap_t set)
{
    int total = hwloc_get_nbobjs_by_type(b->topo, HWLOC_OBJ_NUMANODE), i;
    hwloc_obj_t node;

    for (i = 0; i < total; i++) {
        node = hwloc_get_obj_by_type(b->topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if ((node != NULL) && (node->cpuset != NULL) &&
            hwloc_bitmap_isincluded(set, node->cpuset)) {
            return (int)node->os_index;
        }
    }
    return -1;
}

int xg_bind_plan(xg_bind_t *b, xg_bind_policy_t policy, int npes)
{
    hwloc_obj_type_t type =
        (policy == XG_BIND_NUMA) ? HWLOC_OBJ_NUMANODE : HWLOC_OBJ_CORE;
    hwloc_obj_t *objs = NULL;
    int count = 0, rank, which, cpus = hwloc_bitmap_weight(b->allowed);

    b->npes    = npes;
    b->pe_numa = malloc((size_t)npes * sizeof(*b->pe_numa));
    if (b->pe_numa == NULL) {
        fprintf(stderr, "xgasrun: out of memory for the binding of %d PEs\n",
                npes);
        return -1;
    }
    for (rank = 0; rank < npes; rank++) {
        b->pe_numa[rank] = -1;
    }
    if (policy != XG_BIND_NONE) {
        count = bind_objects(b, type, &objs);
        if (objs == NULL) {
            fprintf(stderr, "xgasrun: out of memory for the topology\n");
            return -1;
        }
    }
    if (policy == XG_BIND_NONE) {
        snprintf(b->why, sizeof(b->why), "unbound: --bind-to none");
        return 0;
    }
    if ((policy == XG_BIND_DEFAULT) && (count < npes)) {
        snprintf(b->why, sizeof(b->why),
                 "unbound: %d PEs on %d core%s of "
                 "the %d CPU%s xgasrun may use -- oversubscribed",
                 npes, count, (count == 1) ? "" : "s", cpus,
                 (cpus == 1) ? "" : "s");
        free(objs);
        return 0;
    }
    if ((policy == XG_BIND_CORE) && (count < npes)) {
        fprintf(stderr,
                "xgasrun: --bind-to core needs a core per PE, but "
                "%d PEs and only %d core%s among the CPUs xgasrun may "
                "use: run fewer PEs, or bind with --bind-to numa or "
                "none\n",
                npes, count, (count == 1) ? "" : "s");
        free(objs);
        return -1;
    }
    b->pe_set = calloc((size_t)npes, sizeof(*b->pe_set));
    if (b->pe_set == NULL) {
        fprintf(stderr, "xgasrun: out of memory for the binding of %d PEs\n",
                npes);
        free(objs);
        return -1;
    }
    for (rank = 0; rank < npes; rank++) {
        /* core: one each, in order; numa: consecutive ranks together */
        which = (policy == XG_BIND_NUMA) ? (int)(((long)rank * count) / npes)
                                         : rank;
        b->pe_set[rank] = hwloc_bitmap_dup(objs[which]->cpuset);
        if (b->pe_set[rank] == NULL) {
            fprintf(stderr,
                    "xgasrun: out of memory for the binding of %d "
                    "PEs\n",
                    npes);
            free(objs);
            return -1;
        }
        hwloc_bitmap_and(b->pe_set[rank], b->pe_set[rank], b->allowed);
        b->pe_numa[rank] = bind_numa_of(b, b->pe_set[rank]);
    }
    b->applied = (policy == XG_BIND_NUMA) ? XG_BIND_NUMA : XG_BIND_CORE;
    free(objs);
    return 0;
}

int xg_bind_apply(const xg_bind_t *b, int rank)
{
    if (b->pe_set == NULL) {
        return 0;
    }
    return hwloc_set_cpubind(b->topo, b->pe_set[rank], HWLOC_CPUBIND_PROCESS);
}

int xg_bind_mask(const xg_bind_t *b, int rank, void *mask, size_t len)
{
    unsigned char *bytes = mask;
    int cpu;

    memset(mask, 0, len);
    if (b->pe_set == NULL) {
        return 0;
    }
    hwloc_bitmap_foreach_begin(cpu, b->pe_set[rank])
    {
        if ((size_t)cpu >= len * 8) {
            return -1;
        }
        bytes[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
    }
    hwloc_bitmap_foreach_end();
    return (int)len;
}

void xg_bind_describe_pe(const xg_bind_t *b, int rank, int node, char *buf,
                         size_t len)
{
    char cpus[256], numa[32] = "";

    if (b->pe_set == NULL) {
        hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), b->allowed);
        snprintf(buf, len, "PE %d on node %d: cpus %s (%s)", rank, node, cpus,
                 b->why);
        return;
    }
    hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), b->pe_set[rank]);
    if (b->pe_numa[rank] >= 0) {
        snprintf(numa, sizeof(numa), "NUMA node %d", b->pe_numa[rank]);
    }
    snprintf(buf, len, "PE %d on node %d: cpus %s (bound to %s%s%s)", rank,
             node, cpus, (b->applied == XG_BIND_NUMA) ? "" : "a core",
             ((b->applied != XG_BIND_NUMA) && (numa[0] != '\0')) ? ", " : "",
             (numa[0] != '\0')
                 ? numa
                 : ((b->applied == XG_BIND_NUMA) ? "a NUMA node" : ""));
}

void xg_bind_describe_self(char *buf, size_t len)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t allowed;
    hwloc_const_bitmap_t all;
    hwloc_obj_t obj;
    char cpus[256];
    int ncores, cores = 0, numa, i;

    if (bind_load(&topo, &allowed) != 0) {
        snprintf(buf, len, "unknown (hwloc cannot read the topology: %s)",
                 strerror(errno));
        return;
    }
    hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), allowed);
    all    = hwloc_topology_get_topology_cpuset(topo);
    ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (i = 0; i < ncores; i++) {
        obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        cores += (obj != NULL) && hwloc_bitmap_intersects(obj->cpuset, allowed);
    }
    numa = -1;
    for (i = 0; i < hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE); i++) {
        obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if ((obj != NULL) && hwloc_bitmap_isincluded(allowed, obj->cpuset)) {
            numa = (int)obj->os_index;
        }
    }
    if (hwloc_bitmap_isequal(allowed, all)) {
        snprintf(buf, len,
                 "cpus %s: unbound (every CPU of this host, %d "
                 "core%s)",
                 cpus, ncores, (ncores == 1) ? "" : "s");
    } else if (numa >= 0) {
        snprintf(buf, len,
                 "cpus %s: bound to %d of the %d cores, NUMA "
                 "node %d",
                 cpus, cores, ncores, numa);
    } else {
        snprintf(buf, len,
                 "cpus %s: bound to %d of the %d cores, across "
                 "NUMA nodes",
                 cpus, cores, ncores);
    }
    hwloc_bitmap_free(allowed);
    hwloc_topology_destroy(topo);
}
