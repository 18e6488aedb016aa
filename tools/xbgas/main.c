/*
 * xgas-xbgas: the xBGAS machine.  `xgasrun -n N xgas-xbgas [options]
 * prog.rv64 [args...]` runs the static RV64 program prog.rv64 on one hart
 * per PE.
 *
 * Guest memory layout (size = --mem, default 64 MiB; guest address g is
 * host address base + g, base = this PE's symmetric block):
 *   [0, 64 KiB)            not mapped (null-pointer guard)
 *   [64 KiB, brk ...)      the program, then its brk heap growing up
 *   [... mmap_top)         anonymous mmap pages growing down
 *   [shared, +size/4)      the shared region of e12/e13 (xbrtime_malloc)
 *   [size - size/8, size)  the stack
 * Every PE's block sits at the same symmetric place, so a guest address
 * names the same object on every PE.
 * Invariant: this file is the only one that talks to xgas's set-up
 * (xg_init, xg_malloc, xg_barrier, xg_fini), through include/xgas.h only.
 */
#include "machine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GUEST_LO 0x10000ull

typedef struct opts {
    int stats;
    int start_gate;
    uint64_t mem;
    int argi; /* index of the program in argv */
} opts_t;

static void usage(void)
{
    fprintf(stderr, "usage: xgasrun -n N xgas-xbgas [--stats] "
                    "[--start-gate] [--mem SIZE[K|M|G]] prog.rv64 [args...]\n");
    exit(2);
}

static uint64_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    switch (*end) {
    case 'k':
    case 'K':
        v <<= 10;
        end++;
        break;
    case 'm':
    case 'M':
        v <<= 20;
        end++;
        break;
    case 'g':
    case 'G':
        v <<= 30;
        end++;
        break;
    default: break;
    }
    if (*end || v < (4ull << 20) || v > (64ull << 30)) {
        mach_die("--mem %s: expected a size between 4M and 64G", s);
    }
    return (v + 0xffff) & ~0xffffull;
}

static opts_t parse_opts(int argc, char **argv)
{
    opts_t o = {0, 0, 64ull << 20, 0};
    int i    = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--stats") == 0) {
            o.stats = 1;
        } else if (strcmp(argv[i], "--start-gate") == 0) {
            o.start_gate = 1;
        } else if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc) {
            o.mem = parse_size(argv[++i]);
        } else {
            usage();
        }
    }
    if (i >= argc) {
        usage();
    }
    o.argi = i;
    return o;
}

static void layout(hart_t *h, uint64_t size)
{
    h->size        = size;
    h->lo          = GUEST_LO;
    h->span        = size - GUEST_LO;
    h->stack_top   = size;
    h->stack_lo    = size - size / 8;
    h->shared_size = size / 4;
    h->shared_lo   = h->stack_lo - h->shared_size;
    h->mmap_top = h->mmap_lo = h->shared_lo;
    h->resv_addr             = UINT64_MAX;
}

static hart_t *hart_create(uint64_t size)
{
    hart_t *h = calloc(1, sizeof(*h));
    void *mem;
    if (!h) {
        mach_die("out of memory");
    }
    h->pe         = xg_rank();
    h->npes       = xg_size();
    xg_status_t s = xg_malloc(size, &mem);
    if (s != XG_OK) {
        mach_die("PE %d: cannot allocate %llu MiB of guest memory in the "
                 "symmetric heap (%s): raise SHMEM_SYMMETRIC_SIZE or lower "
                 "--mem",
                 h->pe, (unsigned long long)(size >> 20), xg_status_str(s));
    }
    h->base     = mem;
    h->ns_dir   = calloc((size_t)h->npes + 1, sizeof(*h->ns_dir));
    h->ns_ptr   = h->ns_dir ? h->ns_dir + 1 : NULL; /* ns k is PE k - 1 */
    h->ns_known = calloc((size_t)h->npes, 1);
    h->ns_gaddr = calloc((size_t)h->npes, sizeof(*h->ns_gaddr));
    if (!h->ns_ptr || !h->ns_known || !h->ns_gaddr) {
        mach_die("out of memory");
    }
    layout(h, size);
    mach_code_init(h);
    return h;
}

/* Frees what hart_create and main allocated on the host (the guest
 * memory is symmetric heap: it goes with xg_fini). */
static void hart_destroy(hart_t *h)
{
    mach_code_free(h);
    free(h->ns_dir);
    free(h->ns_known);
    free(h->ns_gaddr);
    free((char *)h->prog);
    free(h);
}

static double now_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    opts_t o = parse_opts(argc, argv);
    if (xg_init() != XG_OK) {
        mach_die("xg_init failed");
    }
    hart_t *h = hart_create(o.mem);
    h->prog   = realpath(argv[o.argi], NULL); /* /proc/self/exe */
    if (!h->prog) {
        mach_die("cannot open guest program '%s'", argv[o.argi]);
    }
    mach_load(h, argv[o.argi], argc - o.argi, argv + o.argi);
    mach_xbgas_reset(h);
    h->start_gate = o.start_gate;
    xg_barrier(); /* every PE's memory is loaded before any hart runs */
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    int code = mach_run(h);
    mach_start_gate(h); /* a hart that never went remote still counts */
    double t1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    xg_quiet();
    fflush(stdout);
    if (o.stats) {
        mach_print_stats(h, t1 - t0, c1 - c0);
    }
    hart_destroy(h);
    if (code != 0) {
        exit(code); /* xgasrun ends the other PEs */
    }
    xg_fini();
    return 0;
}
