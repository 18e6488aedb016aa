/*
 * Every documented error of the sPIN APIs: the call returns the error,
 * the engine goes on, and the message on stderr names the routine and
 * what is wrong (checked here by its words).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spin_test.h"
#include "xgas_spin.h"

static char errpath[] = "/tmp/xgas-spin-errors-XXXXXX";
static long errpos;

/* The stderr written since the last call, as a string (static). */
static const char *new_stderr(void)
{
    static char buf[16384];
    FILE *f;
    size_t n;

    fflush(stderr);
    f = fopen(errpath, "r");
    XG_CHECK(f != NULL, "reopen stderr file");
    fseek(f, errpos, SEEK_SET);
    n      = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    errpos = ftell(f);
    fclose(f);
    return buf;
}

static void expect(long got, long want, const char *call, const char *words)
{
    const char *err = new_stderr();

    XG_CHECK(got == want, "%s returned %ld, not %ld", call, got, want);
    XG_CHECK(strstr(err, words) != NULL,
             "%s: the message does not say \"%s\": %s", call, words, err);
}

#define EXPECT(call, want, words) \
    expect((long)(call), (long)(want), #call, (words))

int main(int argc, char **argv)
{
    xg_spin_ctx_params_t p;
    xg_spin_ctx_t *ctx = NULL, *ok;
    uint8_t big[16384], pkt[128];
    spin_ec_t ec;
    spin_nic_addr_t addr;
    size_t size;
    int fd = mkstemp(errpath);

    XG_CHECK(argc == 2 && fd >= 0, "usage: %s empty.so", argv[0]);
    XG_CHECK(freopen(errpath, "w", stderr) != NULL, "stderr to a file");
    close(fd);

    /* the native API */
    EXPECT(xg_spin_ctx_create(NULL, &ctx), XG_ERR_INVALID_PARAM,
           "xg_spin_ctx_create: params and ctx_p");
    memset(&p, 0, sizeof(p));
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "handler_file must name");
    p.handler_file = "/nonexistent/h.so";
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "cannot load handler file /nonexistent/h.so");
    p.handler_file    = argv[1];
    p.field_mask      = XG_SPIN_CTX_FIELD_HANDLERS;
    p.payload_handler = "no_such_ph";
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "defines no no_such_ph");
    p.payload_handler = NULL;
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "has no handler at all");
    p.payload_handler = "empty_ph";
    p.field_mask |= XG_SPIN_CTX_FIELD_HANDLER_MEM;
    p.handler_mem_size       = 16;
    p.handler_mem_image      = big;
    p.handler_mem_image_size = 32;
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "is larger than the handler memory");
    p.handler_mem_image_size = 0;
    p.handler_mem_size       = 64u << 20;
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_NO_MEMORY,
           "NIC memory is full");
    p.handler_mem_size = 16;
    p.field_mask |= XG_SPIN_CTX_FIELD_FLAGS;
    p.flags = 0x80;
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "flags 0x80 has unknown bits");
    p.flags = 0;
    p.field_mask |= XG_SPIN_CTX_FIELD_HOST_MEM;
    p.host_mem_size = 8;
    EXPECT(xg_spin_ctx_create(&p, &ctx), XG_ERR_INVALID_PARAM,
           "host_mem is NULL but host_mem_size");
    p.field_mask &= ~(uint64_t)XG_SPIN_CTX_FIELD_HOST_MEM;
    EXPECT(xg_spin_ctx_create(&p, &ok), XG_OK, "");
    /* Portals is not up: nothing to attach to */
    EXPECT(xg_spin_ctx_attach(ok, 0x12345678), XG_ERR_INVALID_PARAM,
           "Portals is not initialized");
    EXPECT(xg_spin_ctx_detach(ok, 0x12345678), XG_ERR_INVALID_PARAM,
           "is not attached to this context");
    EXPECT(xg_spin_ctx_inject(ok, 0, big, sizeof(big) + 100000, 1),
           XG_ERR_INVALID_PARAM, "larger than the engine's packets");
    EXPECT(xg_spin_ctx_attach(NULL, 0), XG_ERR_INVALID_PARAM, "ctx is NULL");
    EXPECT(xg_spin_ctx_scratchpad(ok, 4, &size) == NULL, 1,
           "cluster must be below 4");
    EXPECT(xg_spin_event_get(NULL), XG_ERR_INVALID_PARAM, "ev is NULL");
    EXPECT(xg_spin_ctx_destroy(ok), XG_OK, "");

    /* the driver interface */
    memset(&ec, 0, sizeof(ec));
    EXPECT(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), 0, 1, 0, 0), SPIN_ERR,
           "call pspinsim_init first");
    st_init();
    EXPECT(pspinsim_init(0, NULL, NULL), SPIN_ERR, "already initialized");
    EXPECT(spin_find_handler_by_name("/nonexistent/h.so", "x", &addr, &size),
           SPIN_ERR, "cannot load handler file");
    EXPECT(spin_find_handler_by_name(argv[1], "no_such", &addr, &size),
           SPIN_SUCCESS, "defines no handler no_such");
    XG_CHECK(addr == 0 && size == 0, "a missing handler's address");
    ec.ph_addr = 0x1d00fff0;
    EXPECT(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), 0, 1, 0, 0), SPIN_ERR,
           "was not given by spin_find_handler_by_name");
    ec.ph_addr          = 0;
    ec.handler_mem_addr = 0x1c3ff000;
    ec.handler_mem_size = 8192;
    EXPECT(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), 0, 1, 0, 0), SPIN_ERR,
           "is not inside the L2 handler memory");
    ec.handler_mem_size   = 0;
    ec.scratchpad_size[2] = 2u << 20;
    EXPECT(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), 0, 1, 0, 0), SPIN_ERR,
           "scratchpad 2");
    ec.scratchpad_size[2] = 0;
    EXPECT(spin_nicmem_write(0x1e000000, big, 64, NULL), SPIN_ERR,
           "is not inside L1 or the L2 handler memory");
    EXPECT(spin_nicmem_write(0x1c000000, NULL, 64, NULL), SPIN_ERR,
           "data must not be NULL");
    EXPECT(pspinsim_packet_add(NULL, 0, pkt, sizeof(pkt), 0, 1, 0, 0), SPIN_ERR,
           "ec and pkt_data");
    /* the engine goes on: a good packet still runs */
    st_ec(&ec, argv[1], NULL, "empty_ph", NULL, 0);
    EXPECT(pspinsim_packet_add(&ec, 0, pkt, sizeof(pkt), sizeof(pkt), 1, 0, 0),
           SPIN_SUCCESS, "");
    st_run(1);
    st_fini();
    EXPECT(pspinsim_fini(), SPIN_ERR, "call pspinsim_init first");
    unlink(errpath);
    return XG_TEST_PASS;
}
