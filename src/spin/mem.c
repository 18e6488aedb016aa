/*
 * NIC memory: one window of the process's address space below 4 GiB, at
 * the addresses of PsPIN's memory map (spin/spin_hw_conf.h), so that NIC
 * addresses -- 32-bit in the handler and driver APIs -- are also the
 * pointers handlers and the engine use.
 *
 * The window [XG_SPIN_MAP_START, XG_SPIN_MAP_END) is reserved with no
 * access (MAP_FIXED_NOREPLACE: a window already taken in this process is
 * reported, never overwritten); only the parts in use become readable
 * and writable: the L1 of each cluster (XGAS_SPIN_CLUSTERS of them are
 * run, but all four exist: handlers index scratchpad[cluster]), the L2
 * handler memory, the packet buffer and the HPU stacks, each stack with
 * an inaccessible page below it.  Everything else faults when touched,
 * which is how stray pointers of handlers are caught (fault.c).
 *
 * Contexts get their memories from bump allocators (setup tier, engine
 * lock held); the space is reused once every context is gone.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/xg_log.h"
#include "spin/xg_spin_int.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static int mem_rw(uintptr_t start, size_t len)
{
    if (mprotect((void *)start, len, PROT_READ | PROT_WRITE) != 0) {
        xg_error("spin", "cannot make NIC memory %#lx+%zu accessible: %m",
                 (unsigned long)start, len);
        return -1;
    }
    return 0;
}

xg_status_t xg_spin_mem_map(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    size_t len          = XG_SPIN_MAP_END - XG_SPIN_MAP_START;
    void *p;
    unsigned c;

    p = mmap((void *)(uintptr_t)XG_SPIN_MAP_START, len, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
             -1, 0);
    if (p == MAP_FAILED || p != (void *)(uintptr_t)XG_SPIN_MAP_START) {
        if (p != MAP_FAILED) {
            munmap(p, len); /* an old kernel ignored the fixed address */
        }
        xg_error("spin",
                 "the NIC memory window [%#x, %#x) is taken in this "
                 "process (%s): the sPIN engine needs it for 32-bit NIC "
                 "addresses; see docs/spin.md, \"NIC memory\"",
                 XG_SPIN_MAP_START, XG_SPIN_MAP_END,
                 (p == MAP_FAILED) ? strerror(errno) : "mapped elsewhere");
        return XG_ERR_ADDRESS_IN_USE;
    }
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if (mem_rw(L1_CLUSTER_BASE + c * L1_CLUSTER_MEM_SIZE,
                   L1_CLUSTER_ACTUAL_MEM_SIZE) != 0) {
            goto err_unmap;
        }
        e->l1_used[c] = 0;
    }
    if ((mem_rw(L2_HANDLER_MEM_START, L2_HANDLER_MEM_SIZE) != 0) ||
        (mem_rw(L2_PKT_BUFF_START, (size_t)e->slot_size * e->nslots) != 0)) {
        goto err_unmap;
    }
    e->l2_used = 0;
    e->pktbuf  = (uint8_t *)(uintptr_t)L2_PKT_BUFF_START;
    return XG_OK;

err_unmap:
    munmap(p, len);
    return XG_ERR_NO_MEMORY;
}

void xg_spin_mem_unmap(void)
{
    munmap((void *)(uintptr_t)XG_SPIN_MAP_START,
           XG_SPIN_MAP_END - XG_SPIN_MAP_START);
}

void xg_spin_mem_reset(void)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    unsigned c;

    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        memset((void *)(uintptr_t)(L1_CLUSTER_BASE + c * L1_CLUSTER_MEM_SIZE +
                                   L1_SCRATCHPAD_OFFSET),
               0, e->l1_used[c]);
        e->l1_used[c] = 0;
    }
    memset((void *)(uintptr_t)L2_HANDLER_MEM_START, 0, e->l2_used);
    e->l2_used = 0;
}

uint8_t *xg_spin_mem_l1_alloc(unsigned cluster, size_t size)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    size_t off          = xg_align_up(e->l1_used[cluster], 64);

    if (size > L1_SCRATCHPAD_SIZE - off) {
        return NULL;
    }
    e->l1_used[cluster] = (uint32_t)(off + size);
    return (uint8_t *)(uintptr_t)(L1_CLUSTER_BASE +
                                  cluster * L1_CLUSTER_MEM_SIZE +
                                  L1_SCRATCHPAD_OFFSET + off);
}

uint8_t *xg_spin_mem_l2_alloc(size_t size)
{
    xg_spin_engine_t *e = &xg_spin_engine;
    size_t off          = xg_align_up(e->l2_used, 64);

    if (size > L2_HANDLER_MEM_SIZE - off) {
        return NULL;
    }
    e->l2_used = (uint32_t)(off + size);
    return (uint8_t *)(uintptr_t)(L2_HANDLER_MEM_START + off);
}

static int mem_in(uint64_t addr, uint64_t len, uint64_t start, uint64_t size)
{
    return (addr >= start) && (len <= size) && (addr - start <= size - len);
}

int xg_spin_mem_host_ok(uint64_t addr, uint64_t len)
{
    unsigned c;

    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if (mem_in(addr, len, L1_CLUSTER_BASE + c * L1_CLUSTER_MEM_SIZE,
                   L1_CLUSTER_ACTUAL_MEM_SIZE)) {
            return 1;
        }
    }
    return mem_in(addr, len, L2_HANDLER_MEM_START, L2_HANDLER_MEM_SIZE);
}

int xg_spin_mem_handler_ok(const xg_spin_hpu_t *hpu, uint64_t addr,
                           uint64_t len)
{
    const xg_spin_engine_t *e = &xg_spin_engine;
    const xg_spin_ctx_t *ctx  = hpu->msg->ctx;
    const xg_spin_msg_t *msg  = hpu->msg;
    unsigned c;

    if (mem_in(addr, len, (uintptr_t)hpu->pkt->data, e->slot_size) ||
        mem_in(addr, len, (uintptr_t)hpu->stack, hpu->stack_size) ||
        mem_in(addr, len, (uintptr_t)hpu->task, XG_SPIN_TASK_STRIDE) ||
        mem_in(addr, len, (uintptr_t)ctx->hmem, ctx->hmem_size) ||
        ((msg->pad != NULL) &&
         mem_in(addr, len, (uintptr_t)msg->pad, ctx->pad_size))) {
        return 1;
    }
    for (c = 0; c < XG_SPIN_NCLUSTERS; c++) {
        if ((ctx->scratch[c] != NULL) &&
            mem_in(addr, len, (uintptr_t)ctx->scratch[c],
                   ctx->scratch_size[c])) {
            return 1;
        }
    }
    return 0;
}

uint8_t *xg_spin_mem_stack(unsigned gid, size_t size)
{
    uintptr_t top = XG_SPIN_STACKS_START + (gid + 1) * XG_SPIN_STACK_STRIDE;
    uintptr_t lo  = top - size;

    /* the page below lo stays inaccessible: an overflow faults there */
    if (mem_rw(lo, size) != 0) {
        return NULL;
    }
    return (uint8_t *)lo;
}

task_t *xg_spin_mem_task(unsigned cluster, unsigned core)
{
    return (
        task_t *)(uintptr_t)(L1_CLUSTER_BASE + cluster * L1_CLUSTER_MEM_SIZE +
                             L1_RUNTIME_OFFSET + core * XG_SPIN_TASK_STRIDE);
}
