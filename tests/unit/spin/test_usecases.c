/*
 * The use cases (examples/spin/handlers) on contexts fed directly
 * (xg_spin_ctx_inject), each result checked against the same computation
 * done here: reduce, histogram, aggregate, filtering, copy_to_host,
 * host_direct, strided datatype unpack.  (The ones that send packets --
 * ping_pong, copy_from_host, kvstore -- are in test_sim_usecases.c, on
 * raw flows whose sends reach the driver.)
 */
#include <stdlib.h>
#include <string.h>

#include "spin_test.h"
#include "usecase.h"
#include "xgas_spin.h"

/* (arguments evaluated once: they call rnd) */
static uint32_t min32(uint32_t a, uint32_t b)
{
    return (a < b) ? a : b;
}

static uint32_t seed = 4242;

static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 4;
}

/* A context of handler file @file: handler memory @hmem of @hsize bytes
 * (image @img), scratchpads, per-message pads, host window @win. */
static xg_spin_ctx_t *ctx_of(const char *file, size_t hsize, const void *img,
                             size_t img_size, uint8_t *win, size_t wsize)
{
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx;

    memset(&p, 0, sizeof(p));
    p.field_mask =
        XG_SPIN_CTX_FIELD_HANDLER_MEM | XG_SPIN_CTX_FIELD_SCRATCHPAD |
        XG_SPIN_CTX_FIELD_MSG_SCRATCHPAD | XG_SPIN_CTX_FIELD_HOST_MEM;
    p.handler_file           = file;
    p.handler_mem_size       = hsize;
    p.handler_mem_image      = img;
    p.handler_mem_image_size = img_size;
    p.scratchpad_size        = 8 * 4 * 1024; /* NB_CORES partials */
    p.msg_scratchpad_size    = 64;
    p.host_mem               = win;
    p.host_mem_size          = wsize;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context of %s", file);
    return ctx;
}

/* Feeds message @id: @words int32 items in packets of @per items. */
static void feed_words(xg_spin_ctx_t *ctx, uint32_t id, const int32_t *w,
                       uint32_t words, uint32_t per)
{
    uint8_t pkt[sizeof(pkt_hdr_t) + 4096];
    uint32_t at, n;

    for (at = 0; at < words; at += n) {
        n = min32(per, words - at);
        st_packet(pkt, (uint32_t)(sizeof(pkt_hdr_t) + 4 * n), id, 0, w + at);
        XG_CHECK(xg_spin_ctx_inject(ctx, id, pkt, sizeof(pkt_hdr_t) + 4 * n,
                                    at + n == words) == XG_OK,
                 "inject");
    }
}

#define RED_ELEMS 1024
#define RED_MSGS  24

static void reduce_case(const char *file)
{
    static int32_t vec[RED_MSGS][RED_ELEMS];
    int32_t expect[RED_ELEMS] = {0}, *res;
    uc_reduce_mem_t img       = {RED_ELEMS, RED_MSGS, 0, 0};
    uint8_t *win              = st_window(UC_RESULT_OFF + 4 * RED_ELEMS);
    xg_spin_ctx_t *ctx;
    uint32_t m, i;

    ctx = ctx_of(file, sizeof(img) + 4 * RED_ELEMS, &img, sizeof(img), win,
                 UC_RESULT_OFF + 4 * RED_ELEMS);
    for (m = 0; m < RED_MSGS; m++) {
        for (i = 0; i < RED_ELEMS; i++) {
            vec[m][i] = (int32_t)(rnd() % 2001) - 1000;
            expect[i] += vec[m][i];
        }
        /* packets of 100 items: positions cross packets */
        feed_words(ctx, m, vec[m], RED_ELEMS, 100);
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    XG_CHECK(*(uint64_t *)win == RED_MSGS, "reduce: flag %llu",
             (unsigned long long)*(uint64_t *)win);
    res = (int32_t *)(win + UC_RESULT_OFF);
    for (i = 0; i < RED_ELEMS; i++) {
        XG_CHECK(res[i] == expect[i], "reduce: element %u is %d, not %d", i,
                 res[i], expect[i]);
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
}

static void histogram_case(const char *file)
{
    static int32_t items[8][2000];
    int32_t expect[UC_HIST_BINS] = {0}, *res;
    uc_reduce_mem_t img          = {UC_HIST_BINS, 8, 0, 0};
    uint8_t *win                 = st_window(UC_RESULT_OFF + 4 * UC_HIST_BINS);
    xg_spin_ctx_t *ctx;
    uint32_t m, i;

    ctx = ctx_of(file, sizeof(img) + 4 * UC_HIST_BINS, &img, sizeof(img), win,
                 UC_RESULT_OFF + 4 * UC_HIST_BINS);
    for (m = 0; m < 8; m++) {
        for (i = 0; i < 2000; i++) {
            items[m][i] = (int32_t)(rnd() % 3000);
            expect[items[m][i] % UC_HIST_BINS]++;
        }
        feed_words(ctx, m, items[m], 2000, 256);
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    res = (int32_t *)(win + UC_RESULT_OFF);
    XG_CHECK(*(uint64_t *)win == 8, "histogram: flag");
    for (i = 0; i < UC_HIST_BINS; i++) {
        XG_CHECK(res[i] == expect[i], "histogram: bin %u has %d, not %d", i,
                 res[i], expect[i]);
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
}

static void aggregate_case(const char *file)
{
    static int32_t items[40][3000];
    uint64_t expect[40] = {0};
    uint8_t *win        = st_window(40 * 8);
    xg_spin_ctx_t *ctx;
    uint32_t m, i, n;

    ctx = ctx_of(file, 0, NULL, 0, win, 40 * 8);
    for (m = 0; m < 40; m++) {
        n = 1 + rnd() % 3000;
        for (i = 0; i < n; i++) {
            items[m][i] = (int32_t)rnd();
            expect[m] += (uint32_t)items[m][i];
        }
        feed_words(ctx, m, items[m], n, 1 + rnd() % 500);
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    for (m = 0; m < 40; m++) {
        XG_CHECK(((uint64_t *)win)[m] == expect[m],
                 "aggregate: message %u summed %llu, not %llu", m,
                 (unsigned long long)((uint64_t *)win)[m],
                 (unsigned long long)expect[m]);
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
}

#define FLT_SLOTS 1024
#define FLT_KEYS  300
#define FLT_PKTS  500

static void filtering_case(const char *file)
{
    size_t hsize =
        sizeof(uc_filter_mem_t) + FLT_SLOTS * sizeof(uc_filter_entry_t);
    uc_filter_mem_t *img = calloc(1, hsize);
    uint8_t *win         = st_window((size_t)FLT_PKTS * UC_FILTER_SLOT);
    uint32_t i, j, src, match = 0, seen[FLT_KEYS * 2] = {0};
    uint8_t pkt[200];
    const uc_filter_mem_t *mem;
    const pkt_hdr_t *h;
    xg_spin_ctx_t *ctx;

    img->slots = FLT_SLOTS;
    for (i = 0; i < FLT_KEYS; i++) { /* keys 0, 2, 4, ...: even sources */
        j = uc_filter_hash(2 * i + 1) & (FLT_SLOTS - 1);
        while (img->table[j].key != 0) {
            j = (j + 1) & (FLT_SLOTS - 1);
        }
        img->table[j].key   = 2 * i + 1;
        img->table[j].value = 7000 + i;
    }
    ctx =
        ctx_of(file, hsize, img, hsize, win, (size_t)FLT_PKTS * UC_FILTER_SLOT);
    for (i = 0; i < FLT_PKTS; i++) {
        src = rnd() % (2 * FLT_KEYS);
        match += (src % 2 == 0);
        seen[src] += (src % 2 == 0);
        st_packet(pkt, sizeof(pkt), src, 0, NULL);
        XG_CHECK(xg_spin_ctx_inject(ctx, i, pkt, sizeof(pkt), 1) == XG_OK,
                 "inject");
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    mem = xg_spin_ctx_handler_mem(ctx, NULL);
    XG_CHECK(mem->matched == (int32_t)match &&
                 mem->dropped == (int32_t)(FLT_PKTS - match),
             "filtering: %d matched, %d dropped (expected %u, %u)",
             mem->matched, mem->dropped, match, FLT_PKTS - match);
    for (i = 0; i < match; i++) {
        h   = (const pkt_hdr_t *)(win + (size_t)i * UC_FILTER_SLOT);
        src = h->ip_hdr.source_id;
        XG_CHECK(src % 2 == 0 && seen[src] > 0 &&
                     h->udp_hdr.dst_port == 7000 + src / 2,
                 "filtering: host slot %u has source %u, port %u", i, src,
                 h->udp_hdr.dst_port);
        seen[src]--;
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(img);
    free(win);
}

static void copy_case(const char *file)
{
    enum {
        LEN = 100000
    };
    uint8_t *win = st_window(LEN), *src = malloc(LEN);
    uint8_t pkt[sizeof(pkt_hdr_t) + 1500];
    xg_spin_ctx_t *ctx;
    uint32_t at, n;

    for (at = 0; at < LEN; at++) {
        src[at] = (uint8_t)rnd();
    }
    ctx = ctx_of(file, 0, NULL, 0, win, LEN);
    for (at = 0; at < LEN; at += n) {
        n = min32(1 + rnd() % 1500, LEN - at);
        st_packet(pkt, (uint32_t)sizeof(pkt_hdr_t) + n, 0, 0, src + at);
        XG_CHECK(xg_spin_ctx_inject(ctx, 1, pkt, sizeof(pkt_hdr_t) + n,
                                    at + n == LEN) == XG_OK,
                 "inject");
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    XG_CHECK(memcmp(win, src, LEN) == 0, "copy_to_host: the host window "
                                         "differs from the message");
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
    free(src);
}

static void host_direct_case(const char *file)
{
    xg_spin_ctx_params_t p;
    uint8_t *win = st_window(64 * 8);
    uint8_t pkt[64];
    xg_spin_ctx_t *ctx;
    uint32_t m, w;

    memset(&p, 0, sizeof(p));
    p.field_mask      = XG_SPIN_CTX_FIELD_HANDLERS | XG_SPIN_CTX_FIELD_HOST_MEM;
    p.handler_file    = file;
    p.payload_handler = "host_direct_ph";
    p.host_mem        = win;
    p.host_mem_size   = 64 * 8;
    XG_CHECK(xg_spin_ctx_create(&p, &ctx) == XG_OK, "context");
    for (m = 0; m < 64; m++) {
        w = m * 1000 + 7;
        st_packet(pkt, sizeof(pkt), 0, 0, NULL);
        memcpy(pkt + sizeof(pkt_hdr_t), &w, 4);
        XG_CHECK(xg_spin_ctx_inject(ctx, m, pkt, sizeof(pkt), 1) == XG_OK,
                 "inject");
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    for (m = 0; m < 64; m++) {
        XG_CHECK(((uint64_t *)win)[m] == m * 1000 + 7,
                 "host_direct: slot %u holds %llu", m,
                 (unsigned long long)((uint64_t *)win)[m]);
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
}

static void strided_case(const char *file)
{
    enum {
        BLOCK  = 256,
        STRIDE = 512,
        LEN    = 64 * 1024
    };
    size_t wsize         = (size_t)(LEN / BLOCK) * STRIDE + 8;
    uc_strided_mem_t img = {BLOCK, STRIDE, wsize - 8};
    uint8_t *win = st_window(wsize), *src = malloc(LEN);
    uint8_t pkt[sizeof(pkt_hdr_t) + 1000];
    xg_spin_ctx_t *ctx;
    uint32_t at, n, b;

    for (at = 0; at < LEN; at++) {
        src[at] = (uint8_t)(rnd() | 1); /* never 0: gaps stay 0 */
    }
    ctx = ctx_of(file, sizeof(img), &img, sizeof(img), win, wsize);
    for (at = 0; at < LEN; at += n) {
        n = min32(1 + rnd() % 1000, LEN - at);
        st_packet(pkt, (uint32_t)sizeof(pkt_hdr_t) + n, 0, 0, src + at);
        XG_CHECK(xg_spin_ctx_inject(ctx, 3, pkt, sizeof(pkt_hdr_t) + n,
                                    at + n == LEN) == XG_OK,
                 "inject");
    }
    XG_CHECK(xg_spin_ctx_quiet(ctx) == XG_OK, "quiet");
    XG_CHECK(*(uint64_t *)(win + wsize - 8) == 1, "strided: no flag");
    for (b = 0; b < LEN / BLOCK; b++) {
        XG_CHECK(memcmp(win + (size_t)b * STRIDE, src + (size_t)b * BLOCK,
                        BLOCK) == 0,
                 "strided: block %u misplaced", b);
        for (at = BLOCK; at < STRIDE && (size_t)b * STRIDE + at < wsize - 8;
             at++) {
            XG_CHECK(win[(size_t)b * STRIDE + at] == 0,
                     "strided: gap byte %u after block %u written", at, b);
        }
    }
    XG_CHECK(xg_spin_ctx_destroy(ctx) == XG_OK, "destroy");
    free(win);
    free(src);
}

int main(int argc, char **argv)
{
    XG_CHECK(argc == 8,
             "usage: %s reduce.so histogram.so aggregate.so "
             "filtering.so copy.so copy.so strided.so",
             argv[0]);
    reduce_case(argv[1]);
    histogram_case(argv[2]);
    aggregate_case(argv[3]);
    filtering_case(argv[4]);
    copy_case(argv[5]);
    host_direct_case(argv[6]);
    strided_case(argv[7]);
    printf("use cases: reduce, histogram, aggregate, filtering, "
           "copy_to_host, host_direct, strided: results match\n");
    return XG_TEST_PASS;
}
