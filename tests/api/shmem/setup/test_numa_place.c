/*
 * NUMA placement of the partition (docs/memory.md, "NUMA placement"): a PE
 * whose CPUs all lie in one NUMA node -- xgasrun binds a PE to a core when
 * there are enough -- has its partition's memory preferred on that node,
 * heap and globals alike; a PE free to run on several nodes keeps the
 * default policy.  Read back with get_mempolicy on addresses of the
 * partition.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "xg_test.h"

static long global_word = 1; /* in the partition's globals window */

/* The NUMA node of @cpu from sysfs (a nodeN entry in its directory), or
 * -1. */
static int node_of_cpu(int cpu)
{
    char path[64];
    struct dirent *entry;
    DIR *dir;
    int node = -1;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
    dir = opendir(path);
    if (dir == NULL) {
        return -1;
    }
    while ((entry = readdir(dir)) != NULL) {
        if (sscanf(entry->d_name, "node%d", &node) == 1) {
            break;
        }
        node = -1;
    }
    closedir(dir);
    return node;
}

/* The one node of every CPU this PE may use, or -1 for several. */
static int my_node(void)
{
    cpu_set_t mine;
    int cpu, node = -2, n;

    XG_CHECK(sched_getaffinity(0, sizeof(mine), &mine) == 0,
             "sched_getaffinity: %s", strerror(errno));
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &mine)) {
            continue;
        }
        n = node_of_cpu(cpu);
        if ((n < 0) || ((node != -2) && (n != node))) {
            return -1;
        }
        node = n;
    }
    return (node >= 0) ? node : -1;
}

static void check_policy(const char *what, void *addr, int node)
{
    unsigned long mask[16];
    int mode = -1;
    unsigned i;

    memset(mask, 0, sizeof(mask));
    XG_CHECK(syscall(SYS_get_mempolicy, &mode, mask,
                     (unsigned long)(8 * sizeof(mask)), addr,
                     (unsigned long)MPOL_F_ADDR) == 0,
             "get_mempolicy(%s): %s", what, strerror(errno));
    if (node < 0) {
        XG_CHECK(mode == MPOL_DEFAULT,
                 "%s: mode %d on a PE free to run on "
                 "several NUMA nodes, expected the default",
                 what, mode);
        return;
    }
    XG_CHECK(mode == MPOL_PREFERRED,
             "%s: mode %d, expected MPOL_PREFERRED "
             "(%d) for NUMA node %d",
             what, mode, MPOL_PREFERRED, node);
    for (i = 0; i < 8 * sizeof(mask); i++) {
        XG_CHECK(((mask[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long)))) &
                  1ul) == (i == (unsigned)node),
                 "%s: node %u in the preferred mask, expected only %d", what, i,
                 node);
    }
}

int main(void)
{
    int mode, node;
    long *heap;

    /* a container that forbids the NUMA calls (Docker's default seccomp
     * without CAP_SYS_NICE) cannot be asked */
    if ((syscall(SYS_get_mempolicy, &mode, NULL, 0ul, NULL, 0ul) != 0) &&
        ((errno == EPERM) || (errno == ENOSYS))) {
        printf("SKIPPED: get_mempolicy is not allowed here (%s)\n",
               strerror(errno));
        return XG_TEST_SKIP;
    }
    node = my_node();
    shmem_init();
    xg_test_pe = shmem_my_pe();
    heap       = shmem_malloc(1 << 20);
    XG_CHECK(heap != NULL, "shmem_malloc");
    check_policy("the symmetric heap", heap, node);
    check_policy("the last heap page", (char *)heap + (1 << 20) - 1, node);
    check_policy("a global", &global_word, node);
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
