/*
 * xgas-ofi-raw: the network's own figures, for bench/internode.sh to set
 * xgas-bench --internode beside -- the same patterns done with raw
 * libfabric calls on the same provider, no xgas in between.  Two
 * processes started by a PMIx launcher (mpirun -n 2), which exchange
 * their endpoint addresses and memory keys through PMIx; rank 0 measures,
 * rank 1 answers or just drives its provider's progress (a provider with
 * manual progress moves RMA bytes only while the target polls).
 *
 *   rma_write pingpong   8-byte fi_inject_write of a turn number into the
 *                        peer's flag, the peer polls its flag and answers
 *                        the same way; half a round trip (xgas: long_p
 *                        pingpong)
 *   rma_write issue      8-byte write with delivery completion, waited
 *                        for (xgas: long_p issue, a put and a quiet)
 *   rma_write_read issue 8-byte injected write, then an 8-byte read of
 *                        the peer, waited for: the read completes after
 *                        the write is visible (FI_ORDER_RAW) -- the other
 *                        way to know a write arrived, the one xgas takes
 *                        where the provider orders reads after writes
 *   rma_read issue       8-byte read, waited for (xgas: long_g issue)
 *   msg pingpong         8-byte send and receive, half a round trip (what
 *                        a fetch-add through the software NIC costs twice)
 *   rma_write bw, rma_read bw
 *                        streams of writes or reads of 8 B .. 4 MiB, 64 in
 *                        flight, GB/s (xgas: putmem bw, getmem bw); the
 *                        message rate is the 8-byte figure over 8 bytes
 *
 * Output (GB/s with 6 decimals: an 8-byte stream is a fraction of a
 * MB/s): one line per figure in xgas-bench's format (bench/README.md),
 * lib=ofi-raw, baseline=none.  Options: --provider NAME (default tcp),
 * --domain NAME, --reps N (default 7), --max-bw-size BYTES (4M; also
 * 64K, 1M), --step N (2: every power of two).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <getopt.h>
#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "bench_core.h"

#define RAW_BUF       (8u << 20)
#define RAW_WINDOW    64
#define RAW_LAT_ITERS 2000
#define RAW_REPS_MAX  63

static struct {
    const char *provider;
    const char *domain;
    int reps;
    size_t max_bw;
    size_t step;
} opt = {"tcp", NULL, 7, 4u << 20, 2};

static pmix_proc_t me;
static struct fi_info *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_cq *cq;
static struct fid_av *av;
static struct fid_ep *ep;
static struct fid_mr *mr;
static uint8_t *buf; /* registered: [0] flag, [64..] data */
static fi_addr_t peer;
static uint64_t peer_base, peer_key;
static uint64_t ctrl_in; /* receive buffer of control messages */
static int inflight;     /* completions rank 0 waits for */

static void die(const char *what, int ret)
{
    fprintf(stderr, "xgas-ofi-raw: rank %u: %s failed (%s)\n", me.rank, what,
            fi_strerror(-ret));
    PMIx_Abort(1, what, NULL, 0);
    exit(1);
}

static volatile uint64_t *flag(void)
{
    return (volatile uint64_t *)buf;
}

/* Reads completions: counts the sends and RMA of ours, and the receives
 * (the control message) into *got_ctrl. */
static void progress(int *got_ctrl)
{
    struct fi_cq_entry entries[16];
    struct fi_cq_err_entry err;
    ssize_t n, i;

    for (;;) {
        n = fi_cq_read(cq, entries, 16);
        if (n == -FI_EAVAIL) {
            memset(&err, 0, sizeof(err));
            fi_cq_readerr(cq, &err, 0);
            die("an operation (completion queue)", -err.err);
        }
        if (n <= 0) {
            return;
        }
        for (i = 0; i < n; i++) {
            if (entries[i].op_context == &ctrl_in) {
                if (got_ctrl != NULL) {
                    *got_ctrl = 1;
                }
            } else {
                inflight--;
            }
        }
    }
}

static void post_ctrl(void)
{
    ssize_t ret;

    while ((ret = fi_recv(ep, &ctrl_in, sizeof(ctrl_in), NULL, FI_ADDR_UNSPEC,
                          &ctrl_in)) == -FI_EAGAIN) {
        progress(NULL);
    }
    if (ret != 0) {
        die("fi_recv", (int)ret);
    }
}

/* A control message to the peer (its end of a figure). */
static void send_ctrl(uint64_t value)
{
    ssize_t ret;

    while ((ret = fi_inject(ep, &value, sizeof(value), peer)) == -FI_EAGAIN) {
        progress(NULL);
    }
    if (ret != 0) {
        die("fi_inject", (int)ret);
    }
}

/* Rank 1 between figures: drives progress until rank 0 says the figure is
 * over (a control message), then re-posts the receive. */
static uint64_t serve(void)
{
    int got = 0;

    while (!got) {
        progress(&got);
    }
    post_ctrl();
    return ctrl_in;
}

/* Rank 0: waits until every operation issued is complete. */
static void drain(void)
{
    while (inflight > 0) {
        progress(NULL);
    }
}

static void rma(int write, void *local, size_t len, uint64_t off,
                uint64_t flags)
{
    struct iovec iov       = {.iov_base = local, .iov_len = len};
    struct fi_rma_iov riov = {
        .addr = peer_base + off, .len = len, .key = peer_key};
    void *desc            = fi_mr_desc(mr);
    struct fi_msg_rma msg = {.msg_iov       = &iov,
                             .desc          = &desc,
                             .iov_count     = 1,
                             .addr          = peer,
                             .rma_iov       = &riov,
                             .rma_iov_count = 1,
                             .context       = &inflight};
    ssize_t ret;

    inflight++;
    while ((ret = write ? fi_writemsg(ep, &msg, flags | FI_COMPLETION)
                        : fi_readmsg(ep, &msg, flags | FI_COMPLETION)) ==
           -FI_EAGAIN) {
        progress(NULL);
    }
    if (ret != 0) {
        die(write ? "fi_writemsg" : "fi_readmsg", (int)ret);
    }
}

/* ---- the figures: ns per operation (or GB/s), measured on rank 0 ------ */

static double write_pingpong(long iters)
{
    uint64_t t0 = 0, turn;
    long i;

    for (i = 0; i <= iters; i++) {
        if (i == 1) {
            t0 = bench_now_ns(); /* the first turn warms up */
        }
        turn = (uint64_t)i + 1;
        if (me.rank == 0) {
            while (fi_inject_write(ep, &turn, sizeof(turn), peer, peer_base,
                                   peer_key) == -FI_EAGAIN) {
                progress(NULL);
            }
        }
        while (*flag() != turn) {
            progress(NULL);
        }
        if (me.rank == 1) {
            while (fi_inject_write(ep, &turn, sizeof(turn), peer, peer_base,
                                   peer_key) == -FI_EAGAIN) {
                progress(NULL);
            }
        }
    }
    return (double)(bench_now_ns() - t0) / (2.0 * (double)iters);
}

static double msg_pingpong(long iters)
{
    uint64_t t0 = 0, turn;
    int got;
    long i;

    for (i = 0; i <= iters; i++) {
        if (i == 1) {
            t0 = bench_now_ns();
        }
        turn = (uint64_t)i;
        if (me.rank == 0) {
            send_ctrl(turn);
        }
        for (got = 0; !got;) {
            progress(&got);
        }
        post_ctrl();
        if (me.rank == 1) {
            send_ctrl(turn);
        }
    }
    return (double)(bench_now_ns() - t0) / (2.0 * (double)iters);
}

/* An injected write and a read behind it, waited for. */
static double write_read(long iters)
{
    uint64_t t0 = 0, value = 1;
    long i;

    for (i = 0; i <= iters; i++) {
        if (i == 1) {
            t0 = bench_now_ns();
        }
        while (fi_inject_write(ep, &value, sizeof(value), peer, peer_base + 64,
                               peer_key) == -FI_EAGAIN) {
            progress(NULL);
        }
        rma(0, buf + 128, 8, 0, 0);
        drain();
    }
    return (double)(bench_now_ns() - t0) / (double)iters;
}

static double issue(int write, long iters)
{
    uint64_t t0 = 0, value = 1;
    long i;

    for (i = 0; i <= iters; i++) {
        if (i == 1) {
            t0 = bench_now_ns();
        }
        rma(write, write ? (void *)&value : (void *)(buf + 64), 8, 64,
            write ? (FI_DELIVERY_COMPLETE | FI_INJECT) : 0);
        drain();
    }
    return (double)(bench_now_ns() - t0) / (double)iters;
}

static double bandwidth(int write, size_t size, long iters)
{
    uint64_t t0 = bench_now_ns();
    long i;

    for (i = 0; i < iters; i++) {
        rma(write, buf + 4096, size, 4096, 0);
        while (inflight >= RAW_WINDOW) {
            progress(NULL);
        }
    }
    drain();
    return (double)size * (double)iters / (double)(bench_now_ns() - t0);
}

enum {
    FIG_WRITE_PP,
    FIG_MSG_PP,
    FIG_WRITE_ISSUE,
    FIG_WRITE_READ,
    FIG_READ_ISSUE,
    FIG_WRITE_BW,
    FIG_READ_BW
};

/* Runs figure @fig @reps times (rank 1 takes part or serves) and prints
 * its median and best. */
static void figure(int fig, size_t size)
{
    static const char *const names[][2] = {
        {"rma_write", "pingpong"}, {"msg", "pingpong"},
        {"rma_write", "issue"},    {"rma_write_read", "issue"},
        {"rma_read", "issue"},     {"rma_write", "bw"},
        {"rma_read", "bw"}};
    double v[RAW_REPS_MAX], med;
    bench_line_t l;
    long iters = RAW_LAT_ITERS;
    int r, bw = (fig == FIG_WRITE_BW) || (fig == FIG_READ_BW);

    if (bw) {
        iters = (long)((256u << 20) / size);
        iters = (iters < 64) ? 64 : (iters > 20000) ? 20000 : iters;
    }
    for (r = 0; r < opt.reps; r++) {
        *flag() = 0;
        PMIx_Fence(NULL, 0, NULL, 0);
        switch (fig) {
        case FIG_WRITE_PP: v[r] = write_pingpong(iters); break;
        case FIG_MSG_PP: v[r] = msg_pingpong(iters); break;
        default:
            if (me.rank == 1) {
                (void)serve();
                continue;
            }
            v[r] = (fig == FIG_WRITE_ISSUE)  ? issue(1, iters)
                   : (fig == FIG_WRITE_READ) ? write_read(iters)
                   : (fig == FIG_READ_ISSUE)
                       ? issue(0, iters)
                       : bandwidth(fig == FIG_WRITE_BW, size, iters);
            send_ctrl(0); /* rank 1 may stop serving */
        }
    }
    if (me.rank != 0) {
        return;
    }
    med = bench_median(v, opt.reps); /* sorts v */
    bench_line_start(&l, "xgas-bench");
    bench_line_add(&l, "lib", "%s", "ofi-raw");
    bench_line_add(&l, "npes", "%d", 2);
    bench_line_add(&l, "op", "%s", names[fig][0]);
    bench_line_add(&l, "kind", "%s", names[fig][1]);
    bench_line_add(&l, "size", "%zu", size);
    bench_line_add(&l, "value", "%.*f", bw ? 6 : 1, med);
    bench_line_add(&l, "best", "%.*f", bw ? 6 : 1, bw ? v[opt.reps - 1] : v[0]);
    bench_line_add(&l, "unit", "%s", bw ? "GB/s" : "ns");
    bench_line_raw(&l, " baseline=none baseline_value=0 ratio=0");
    bench_line_add(&l, "iters", "%ld", iters);
    bench_line_add(&l, "baseline_iters", "%d", 0);
    bench_line_add(&l, "reps", "%d", opt.reps);
    bench_line_add(&l, "provider", "%s", info->fabric_attr->prov_name);
    bench_line_print(&l);
}

/* The size after @size: the sizes of xgas-bench (8 bytes, the powers of
 * two every --step-th one counted from 1 MiB, and --max-bw-size), so that
 * the two set side by side. */
static size_t next_size(size_t size)
{
    int step_log = 0, k;

    while (((size_t)1 << step_log) < opt.step) {
        step_log++;
    }
    for (k = 4; k < 63; k++) {
        size_t s = (size_t)1 << k;

        if ((s > size) && (s < opt.max_bw) && ((20 - k) % step_log == 0)) {
            return s;
        }
    }
    return (size < opt.max_bw) ? opt.max_bw : opt.max_bw + 1;
}

/* ---- set-up ------------------------------------------------------------ */

static void open_fabric(void)
{
    struct fi_info *hints     = fi_allocinfo();
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT};
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE};
    int ret;

    hints->ep_attr->type = FI_EP_RDM;
    hints->caps =
        FI_MSG | FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    hints->fabric_attr->prov_name = strdup(opt.provider);
    if (opt.domain != NULL) {
        hints->domain_attr->name = strdup(opt.domain);
    }
    ret = fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, hints, &info);
    if (ret != 0) {
        die("fi_getinfo", ret);
    }
    fi_freeinfo(hints);
    if ((ret = fi_fabric(info->fabric_attr, &fabric, NULL)) != 0 ||
        (ret = fi_domain(fabric, info, &domain, NULL)) != 0 ||
        (ret = fi_cq_open(domain, &cq_attr, &cq, NULL)) != 0 ||
        (ret = fi_av_open(domain, &av_attr, &av, NULL)) != 0 ||
        (ret = fi_endpoint(domain, info, &ep, NULL)) != 0 ||
        (ret = fi_ep_bind(ep, &av->fid, 0)) != 0 ||
        (ret = fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV)) != 0 ||
        (ret = fi_enable(ep)) != 0) {
        die("opening the endpoint", ret);
    }
    buf = aligned_alloc(4096, RAW_BUF);
    memset(buf, 0, RAW_BUF);
    ret = fi_mr_reg(domain, buf, RAW_BUF,
                    FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE |
                        FI_SEND | FI_RECV,
                    0, 0x2545, 0, &mr, NULL); /* the provider's key if
                                               * it picks one */
    if (ret != 0) {
        die("fi_mr_reg", ret);
    }
}

/* Addresses and keys through PMIx. */
static void exchange(void)
{
    struct {
        uint8_t addr[128];
        uint64_t len, base, key;
    } mine, theirs;
    pmix_value_t value, *got = NULL;
    pmix_proc_t proc;
    size_t len = sizeof(mine.addr);
    int ret    = fi_getname(&ep->fid, mine.addr, &len);

    if (ret != 0) {
        die("fi_getname", ret);
    }
    mine.len            = len;
    mine.base           = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR)
                              ? (uint64_t)(uintptr_t)buf
                              : 0;
    mine.key            = fi_mr_key(mr);
    value.type          = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)&mine;
    value.data.bo.size  = sizeof(mine);
    PMIx_Put(PMIX_GLOBAL, "raw.ep", &value);
    PMIx_Commit();
    PMIx_Fence(NULL, 0, NULL, 0);
    PMIX_LOAD_PROCID(&proc, me.nspace, 1 - me.rank);
    if ((PMIx_Get(&proc, "raw.ep", NULL, 0, &got) != PMIX_SUCCESS) ||
        (got->data.bo.size != sizeof(theirs))) {
        die("PMIx_Get of the peer's endpoint", -FI_EOTHER);
    }
    memcpy(&theirs, got->data.bo.bytes, sizeof(theirs));
    PMIX_VALUE_RELEASE(got);
    if (fi_av_insert(av, theirs.addr, 1, &peer, 0, NULL) != 1) {
        die("fi_av_insert", -FI_EOTHER);
    }
    peer_base = theirs.base;
    peer_key  = theirs.key;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"provider", required_argument, NULL, 'p'},
        {"domain", required_argument, NULL, 'd'},
        {"reps", required_argument, NULL, 'r'},
        {"max-bw-size", required_argument, NULL, 'm'},
        {"step", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0}};
    pmix_value_t *size_v = NULL;
    pmix_proc_t wild;
    size_t size;
    int c, fig;

    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'p': opt.provider = optarg; break;
        case 'd': opt.domain = optarg; break;
        case 'r': opt.reps = atoi(optarg); break;
        case 'm': /* bytes, or with a suffix: 64K, 1M */
            opt.max_bw = bench_parse_size(optarg);
            if (opt.max_bw == 0) {
                fprintf(stderr,
                        "xgas-ofi-raw: --max-bw-size %s: expected a "
                        "size such as 4096, 64K or 1M\n",
                        optarg);
                exit(2);
            }
            break;
        case 's': opt.step = strtoull(optarg, NULL, 0); break;
        default:
            fprintf(stderr,
                    "usage: mpirun -n 2 xgas-ofi-raw [--provider P] "
                    "[--domain D] [--reps N] [--max-bw-size B] [--step N]\n");
            return 2;
        }
    }
    opt.reps   = (opt.reps < 1)              ? 1
                 : (opt.reps > RAW_REPS_MAX) ? RAW_REPS_MAX
                                             : opt.reps;
    opt.step   = (opt.step < 2) ? 2 : opt.step;
    opt.max_bw = (opt.max_bw > RAW_BUF - 4096) ? RAW_BUF - 4096 : opt.max_bw;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "xgas-ofi-raw: start it with a PMIx launcher "
                        "(mpirun -n 2)\n");
        return 2;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &size_v) != PMIX_SUCCESS) ||
        (size_v->data.uint32 != 2)) {
        fprintf(stderr, "xgas-ofi-raw: run it with exactly 2 processes\n");
        PMIx_Finalize(NULL, 0);
        return 2;
    }
    open_fabric();
    exchange();
    post_ctrl();
    if (me.rank == 0) {
        printf("# xgas-ofi-raw provider=%s domain=%s reps=%d\n",
               info->fabric_attr->prov_name, info->domain_attr->name, opt.reps);
    }
    figure(FIG_WRITE_PP, 8);
    figure(FIG_MSG_PP, 8);
    figure(FIG_WRITE_ISSUE, 8);
    figure(FIG_WRITE_READ, 8);
    figure(FIG_READ_ISSUE, 8);
    for (fig = FIG_WRITE_BW; fig <= FIG_READ_BW; fig++) {
        for (size = 8; size <= opt.max_bw; size = next_size(size)) {
            figure(fig, size);
        }
    }
    PMIx_Fence(NULL, 0, NULL, 0);
    fi_close(&ep->fid);
    fi_close(&mr->fid);
    fi_close(&av->fid);
    fi_close(&cq->fid);
    fi_close(&domain->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(info);
    PMIx_Finalize(NULL, 0);
    return 0;
}
