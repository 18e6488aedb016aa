/*
 * Helpers of the sPIN engine's tests on raw flows (the pspinsim_* driver
 * interface): an execution context in the NIC memory map, packets with an
 * IP/UDP header, the host window as a buffer of the test.
 */
#ifndef SPIN_TEST_H
#define SPIN_TEST_H

#include <stdint.h>
#include <string.h>

#include "spin/packets.h"
#include "spin/pspinsim.h"
#include "xg_test.h"

/* Handler memory and scratchpads the tests give their contexts. */
#define ST_HMEM_ADDR L2_HANDLER_MEM_START
#define ST_HMEM_SIZE (1024 * 1024)
#define ST_SCRATCH   (64 * 1024)

/* The host window: host addresses the driver's callbacks serve from a
 * buffer of the test (st_host). */
#define ST_HOST_ADDR 0x7e57000000000000ULL
#define ST_HOST_SIZE (1024 * 1024)

extern uint8_t st_host[ST_HOST_SIZE];

/* An execution context of handler file @file with the named handlers
 * (NULL: none), context number @k (separate handler memory and
 * scratchpads). */
void st_ec(spin_ec_t *ec, const char *file, const char *hh, const char *ph,
           const char *th, unsigned k);
/* Writes a packet of @len bytes (headers included) into @buf: an IP/UDP
 * header, then @payload_len = len - 28 bytes of @fill (or a pattern). */
void st_packet(uint8_t *buf, uint32_t len, uint32_t src, uint32_t dst,
               const void *payload);
/* Starts the simulation with callbacks that serve st_host and count. */
void st_init(void);
/* Runs until every packet is done; checks the feedback count. */
void st_run(uint64_t packets);
void st_fini(void);

extern uint64_t st_feedbacks;
extern uint64_t st_out_packets;

/* The packets handlers sent (raw flows), in the order they were sent. */
typedef struct st_out {
    uint8_t data[2048];
    size_t len;
} st_out_t;
#define ST_OUT_MAX 4096
extern st_out_t st_outs[ST_OUT_MAX];

/* A host window of the test's own, for native contexts. */
uint8_t *st_window(size_t size);

#endif
