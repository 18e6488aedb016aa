/*
 * The engine through PsPIN's driver interface (pspinsim_*), the way
 * PsPIN's example drivers use it, with data checks:
 *   - commands: every one from a handler, results recorded and checked,
 *     host memory served by the driver's callbacks;
 *   - ping_pong: each packet comes back with its addresses swapped;
 *   - copy_from_host: packets filled from host memory and sent back;
 *   - kvstore: SETs then GETs answered by the handlers alone;
 *   - pspinsim_packet_trace_read: PsPIN's trace format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handlers/cmds.h"
#include "spin_test.h"
#include "usecase.h"

static void commands(const char *file)
{
    cmds_result_t res[CMDS_MAX];
    uint8_t pkt[256];
    spin_ec_t ec;
    uint32_t i;

    st_init();
    st_ec(&ec, file, NULL, "cmds_ph", NULL, 0);
    memset(res, 0, sizeof(res));
    XG_CHECK(spin_nicmem_write(ec.handler_mem_addr, res, sizeof(res), NULL) ==
                 SPIN_SUCCESS,
             "nicmem_write");
    for (i = 0; i < CMDS_MAX; i++) {
        st_packet(pkt, sizeof(pkt), i, 99, NULL);
        memcpy(pkt + sizeof(pkt_hdr_t), &i, 4);
        XG_CHECK(pspinsim_packet_add(&ec, i, pkt, sizeof(pkt), sizeof(pkt), 1,
                                     0, i) == SPIN_SUCCESS,
                 "add");
    }
    st_run(CMDS_MAX);
    XG_CHECK(spin_nicmem_read(ec.handler_mem_addr, res, sizeof(res), NULL) ==
                 SPIN_SUCCESS,
             "nicmem_read");
    for (i = 0; i < CMDS_MAX; i++) {
        XG_CHECK(res[i].issued == 6 && res[i].waited == 5 &&
                     res[i].bogus == 2 && res[i].roundtrip && res[i].dma &&
                     res[i].cluster,
                 "commands of packet %u: issued %u, waited %u, bogus %u, "
                 "roundtrip %u, dma %u, cluster %u",
                 i, res[i].issued, res[i].waited, res[i].bogus,
                 res[i].roundtrip, res[i].dma, res[i].cluster);
        XG_CHECK(((uint64_t *)(st_host + CMDS_FLAG_OFF))[i] == i + 1 &&
                     ((uint64_t *)(st_host + CMDS_FLAG2_OFF))[i] == i + 2,
                 "host writes of packet %u", i);
        XG_CHECK(*(const uint32_t *)(st_host + 64 * i) == i,
                 "DMA to the host of packet %u", i);
    }
    XG_CHECK(st_out_packets == 2 * CMDS_MAX, "%llu packets sent, not %u",
             (unsigned long long)st_out_packets, 2 * CMDS_MAX);
    st_fini();
}

/* The out packet whose payload starts like @pkt's, or NULL. */
static const st_out_t *find_out(const uint8_t *pkt, size_t len)
{
    uint64_t i;

    for (i = 0; i < st_out_packets; i++) {
        if ((st_outs[i].len == len) &&
            (memcmp(st_outs[i].data + sizeof(pkt_hdr_t),
                    pkt + sizeof(pkt_hdr_t), len - sizeof(pkt_hdr_t)) == 0)) {
            return &st_outs[i];
        }
    }
    return NULL;
}

static void pingpong(const char *file)
{
    static uint8_t sent[300][600];
    const pkt_hdr_t *in, *out;
    const st_out_t *o;
    spin_ec_t ec;
    uint32_t i, len;

    st_init();
    st_ec(&ec, file, NULL, "pingpong_ph", NULL, 0);
    for (i = 0; i < 300; i++) {
        len = 100 + (i * 37) % 500;
        st_packet(sent[i], len, 1000 + i, 7, NULL);
        memcpy(sent[i] + sizeof(pkt_hdr_t), &i, 4); /* makes it unique */
        ((pkt_hdr_t *)sent[i])->udp_hdr.src_port = (uint16_t)(5000 + i);
        ((pkt_hdr_t *)sent[i])->udp_hdr.dst_port = 80;
        XG_CHECK(pspinsim_packet_add(&ec, i / 10, sent[i], len, len,
                                     i % 10 == 9, 0, i) == SPIN_SUCCESS,
                 "add");
    }
    st_run(300);
    XG_CHECK(st_out_packets == 300, "%llu pongs for 300 pings",
             (unsigned long long)st_out_packets);
    for (i = 0; i < 300; i++) {
        len = 100 + (i * 37) % 500;
        o   = find_out(sent[i], len);
        XG_CHECK(o != NULL, "ping %u has no pong", i);
        in  = (const pkt_hdr_t *)sent[i];
        out = (const pkt_hdr_t *)o->data;
        XG_CHECK(out->ip_hdr.source_id == in->ip_hdr.dest_id &&
                     out->ip_hdr.dest_id == in->ip_hdr.source_id &&
                     out->udp_hdr.src_port == in->udp_hdr.dst_port &&
                     out->udp_hdr.dst_port == in->udp_hdr.src_port,
                 "pong %u: addresses not swapped", i);
    }
    st_fini();
}

static void copy_from_host(const char *file)
{
    const st_out_t *o;
    uint8_t pkt[1028];
    spin_ec_t ec;
    uint32_t i;
    uint64_t k;

    st_init();
    for (k = 0; k < 64 * 1000; k++) {
        st_host[k] = (uint8_t)(k * 13 + 5);
    }
    st_ec(&ec, file, NULL, "copy_from_host_ph", NULL, 0);
    for (i = 0; i < 64; i++) { /* one message of 64 packets of 1000 B */
        st_packet(pkt, sizeof(pkt), 3, 4, NULL);
        XG_CHECK(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), sizeof(pkt),
                                     i == 63, 0, i) == SPIN_SUCCESS,
                 "add");
    }
    st_run(64);
    XG_CHECK(st_out_packets == 64, "%llu packets back, not 64",
             (unsigned long long)st_out_packets);
    for (i = 0; i < 64; i++) {
        /* some packet carries the host's bytes at offset 1000 i */
        o = NULL;
        for (k = 0; k < 64; k++) {
            if (memcmp(st_outs[k].data + sizeof(pkt_hdr_t), st_host + 1000 * i,
                       1000) == 0) {
                o = &st_outs[k];
            }
        }
        XG_CHECK(o != NULL, "no packet carries host bytes %u000..", i);
        XG_CHECK(((const pkt_hdr_t *)o->data)->ip_hdr.dest_id == 3,
                 "copied packet %u not sent back", i);
    }
    st_fini();
}

/* One kvstore request as a packet. */
static void kv_send(spin_ec_t *ec, uint32_t id, uint32_t op, uint32_t key,
                    uint64_t value)
{
    uint8_t pkt[sizeof(pkt_hdr_t) + sizeof(uc_kv_msg_t)];
    uc_kv_msg_t req = {op, key, value, 0, id};

    st_packet(pkt, sizeof(pkt), 500 + id % 8, 1, &req);
    XG_CHECK(pspinsim_packet_add(ec, id, pkt, sizeof(pkt), sizeof(pkt), 1, 0,
                                 id) == SPIN_SUCCESS,
             "add");
}

static void kvstore(const char *file)
{
    enum {
        SETS = 64
    };
    size_t size      = sizeof(uc_kv_mem_t) + SETS * sizeof(uc_kv_set_t);
    uc_kv_mem_t *mem = calloc(1, size);
    uc_kv_msg_t rep;
    uint32_t id = 0, key, hits = 0, seen[SETS * 5] = {0};
    uint64_t p, sent = 0;
    spin_ec_t ec;

    st_init();
    st_ec(&ec, file, NULL, "kvstore_ph", NULL, 0);
    mem->sets = SETS;
    XG_CHECK(spin_nicmem_write(ec.handler_mem_addr, mem, size, NULL) ==
                 SPIN_SUCCESS,
             "nicmem_write");
    /* four keys per set: all stay */
    for (key = 0; key < SETS * 4; key++) {
        kv_send(&ec, id++, UC_KV_SET, key, 1000000ULL + key);
    }
    sent += SETS * 4;
    st_run(sent);
    /* a fifth key in set 0 evicts the oldest of set 0 */
    kv_send(&ec, id++, UC_KV_SET, SETS * 4, 42);
    sent++;
    st_run(sent);
    /* GETs of every key set, and of ones never set */
    for (key = 0; key < SETS * 5; key++) {
        kv_send(&ec, id++, UC_KV_GET, key, 0);
    }
    sent += SETS * 5;
    st_run(sent);
    XG_CHECK(st_out_packets == SETS * 5, "%llu replies to %u GETs",
             (unsigned long long)st_out_packets, SETS * 5);
    for (p = 0; p < st_out_packets; p++) {
        memcpy(&rep, st_outs[p].data + sizeof(pkt_hdr_t), sizeof(rep));
        XG_CHECK(rep.op == UC_KV_REPLY && rep.key < SETS * 5,
                 "reply %llu: op %u key %u", (unsigned long long)p, rep.op,
                 rep.key);
        seen[rep.key]++;
        hits += rep.hit;
        if (rep.key == SETS * 4) {
            XG_CHECK(rep.hit && rep.value == 42,
                     "the fifth key: hit %u, "
                     "value %llu",
                     rep.hit, (unsigned long long)rep.value);
        } else if (rep.key < SETS * 4 && rep.hit) {
            XG_CHECK(rep.value == 1000000ULL + rep.key, "key %u: value %llu",
                     rep.key, (unsigned long long)rep.value);
        } else if (rep.key < SETS * 4) {
            /* the one evicted: in set 0 (key % SETS == 0) */
            XG_CHECK(rep.key % SETS == 0, "key %u of set %u missing", rep.key,
                     rep.key % SETS);
        } else {
            XG_CHECK(!rep.hit, "key %u was never set, yet hit", rep.key);
        }
        XG_CHECK(((const pkt_hdr_t *)st_outs[p].data)->ip_hdr.dest_id ==
                     500 + rep.client % 8,
                 "reply %llu to the wrong client", (unsigned long long)p);
    }
    for (key = 0; key < SETS * 5; key++) {
        XG_CHECK(seen[key] == 1, "key %u answered %u times", key, seen[key]);
    }
    /* every key of the first round but the evicted one, plus the fifth */
    XG_CHECK(hits == SETS * 4, "%u hits, %u expected", hits, SETS * 4);
    st_fini();
    free(mem);
}

/* pspinsim_packet_trace_read: PsPIN's packet-trace files. */
static void trace_read(const char *file)
{
    char pkts[] = "/tmp/xgas-spin-trace-XXXXXX";
    char data[] = "/tmp/xgas-spin-data-XXXXXX";
    spin_nic_addr_t ph;
    uint8_t pkt[300];
    size_t size;
    FILE *pf, *df;
    int pfd = mkstemp(pkts), dfd = mkstemp(data);
    uint32_t i;

    XG_CHECK(pfd >= 0 && dfd >= 0, "temporary files");
    pf = fdopen(pfd, "w");
    df = fdopen(dfd, "wb");
    st_init();
    XG_CHECK(spin_find_handler_by_name(file, "pingpong_ph", &ph, &size) ==
                 SPIN_SUCCESS,
             "pingpong_ph");
    for (i = 0; i < 20; i++) {
        st_packet(pkt, sizeof(pkt), i, 9, NULL);
        fwrite(pkt, 1, sizeof(pkt), df);
        fprintf(pf, "%u,0,0,%u,%zu,0,0,%u,%u,%zu,%zu,%u,0\n", i / 5, ph, size,
                L2_HANDLER_MEM_START, 4096, sizeof(pkt), sizeof(pkt),
                i % 5 == 4);
    }
    fclose(pf);
    fclose(df);
    XG_CHECK(pspinsim_packet_trace_read(pkts, data) == SPIN_SUCCESS,
             "trace_read");
    st_run(20);
    XG_CHECK(st_out_packets == 20, "%llu pongs from the trace",
             (unsigned long long)st_out_packets);
    XG_CHECK(pspinsim_packet_trace_read("/nonexistent", data) == SPIN_ERR,
             "a missing trace file");
    st_fini();
    unlink(pkts);
    unlink(data);
}

int main(int argc, char **argv)
{
    XG_CHECK(argc == 5, "usage: %s cmds.so pingpong.so copy.so kvstore.so",
             argv[0]);
    commands(argv[1]);
    pingpong(argv[2]);
    copy_from_host(argv[3]);
    kvstore(argv[4]);
    trace_read(argv[2]);
    printf("driver interface: commands, ping_pong, copy_from_host, kvstore, "
           "trace files: results match\n");
    return XG_TEST_PASS;
}
