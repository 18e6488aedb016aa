/* Helpers of the sPIN engine's raw-flow tests (spin_test.h). */
#include "spin_test.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t st_host[ST_HOST_SIZE];
uint64_t st_feedbacks;
uint64_t st_out_packets;
st_out_t st_outs[ST_OUT_MAX];

static void on_feedback(uint64_t user_ptr, uint64_t a, uint64_t b, uint64_t c)
{
    (void)user_ptr;
    XG_CHECK(a <= c && b <= c, "feedback times out of order");
    st_feedbacks++;
}

static void on_host_write(uint64_t addr, uint8_t *data, size_t len)
{
    XG_CHECK(addr >= ST_HOST_ADDR && addr - ST_HOST_ADDR + len <= ST_HOST_SIZE,
             "host write at %#llx+%zu outside the window",
             (unsigned long long)addr, len);
    memcpy(st_host + (addr - ST_HOST_ADDR), data, len);
}

static void on_host_read(uint64_t addr, uint8_t *data, size_t len)
{
    XG_CHECK(addr >= ST_HOST_ADDR && addr - ST_HOST_ADDR + len <= ST_HOST_SIZE,
             "host read at %#llx+%zu outside the window",
             (unsigned long long)addr, len);
    memcpy(data, st_host + (addr - ST_HOST_ADDR), len);
}

static void on_out(uint8_t *data, size_t len)
{
    XG_CHECK(st_out_packets < ST_OUT_MAX && len <= sizeof(st_outs[0].data),
             "too many packets out, or too long (%zu)", len);
    memcpy(st_outs[st_out_packets].data, data, len);
    st_outs[st_out_packets].len = len;
    st_out_packets++;
}

uint8_t *st_window(size_t size)
{
    uint8_t *p = calloc(1, size);

    XG_CHECK(p != NULL, "no memory for a host window of %zu bytes", size);
    return p;
}

/* The program-memory name of handler @name of @file (0: none). */
static uint32_t st_handler(const char *file, const char *name, uint32_t *size_p)
{
    spin_nic_addr_t addr = 0;
    size_t size          = 0;

    if (name != NULL) {
        XG_CHECK(spin_find_handler_by_name(file, name, &addr, &size) ==
                     SPIN_SUCCESS,
                 "%s in %s", name, file);
        XG_CHECK(addr != 0, "%s not found in %s", name, file);
    }
    *size_p = (uint32_t)size;
    return addr;
}

void st_ec(spin_ec_t *ec, const char *file, const char *hh, const char *ph,
           const char *th, unsigned k)
{
    uint32_t size;
    unsigned c;

    memset(ec, 0, sizeof(*ec));
    ec->hh_addr          = st_handler(file, hh, &size);
    ec->hh_size          = size;
    ec->ph_addr          = st_handler(file, ph, &size);
    ec->ph_size          = size;
    ec->th_addr          = st_handler(file, th, &size);
    ec->th_size          = size;
    ec->handler_mem_addr = ST_HMEM_ADDR + k * ST_HMEM_SIZE;
    ec->handler_mem_size = ST_HMEM_SIZE;
    ec->host_mem_addr    = ST_HOST_ADDR;
    ec->host_mem_size    = ST_HOST_SIZE;
    for (c = 0; c < NUM_CLUSTERS; c++) {
        ec->scratchpad_addr[c] = k * ST_SCRATCH;
        ec->scratchpad_size[c] = ST_SCRATCH;
    }
}

void st_packet(uint8_t *buf, uint32_t len, uint32_t src, uint32_t dst,
               const void *payload)
{
    pkt_hdr_t *h = (pkt_hdr_t *)buf;
    uint32_t i;

    memset(h, 0, sizeof(*h));
    h->ip_hdr.ihl       = 5;
    h->ip_hdr.length    = (uint16_t)len;
    h->ip_hdr.source_id = src;
    h->ip_hdr.dest_id   = dst;
    h->udp_hdr.length   = (uint16_t)(len - sizeof(ip_hdr_t));
    if (payload != NULL) {
        memcpy(buf + sizeof(*h), payload, len - sizeof(*h));
    } else {
        for (i = sizeof(*h); i < len; i++) {
            buf[i] = (uint8_t)(i * 7 + src);
        }
    }
}

void st_init(void)
{
    pspin_conf_t conf;

    XG_CHECK(pspinsim_default_conf(&conf) == SPIN_SUCCESS, "default conf");
    XG_CHECK(pspinsim_init(0, NULL, &conf) == SPIN_SUCCESS, "pspinsim_init");
    pspinsim_cb_set_pkt_feedback(on_feedback);
    pspinsim_cb_set_pcie_slv_write(on_host_write);
    pspinsim_cb_set_pcie_slv_read(on_host_read);
    pspinsim_cb_set_pkt_out(on_out);
    st_feedbacks   = 0;
    st_out_packets = 0;
    memset(st_host, 0, sizeof(st_host));
}

void st_run(uint64_t packets)
{
    XG_CHECK(pspinsim_packet_eos() == SPIN_SUCCESS, "eos");
    XG_CHECK(pspinsim_run() == SPIN_SUCCESS, "pspinsim_run");
    XG_CHECK(st_feedbacks == packets, "%llu feedbacks for %llu packets",
             (unsigned long long)st_feedbacks, (unsigned long long)packets);
}

void st_fini(void)
{
    XG_CHECK(pspinsim_fini() == SPIN_SUCCESS, "pspinsim_fini");
}
