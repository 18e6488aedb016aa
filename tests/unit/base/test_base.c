/*
 * Unit tests of src/base: status strings, size and choice parsing, the
 * environment table (values set by CTest), logging levels and the wait
 * primitive (with its network waits: the mark the NIC's progress thread
 * claims, the restart on activity, the sleep on the network's doorbell).
 */
#include <string.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_wait.h"
#include "xg_test.h"
#include "xgas_status.h"

static void test_status_strings(void)
{
    static const xg_status_t all[] = {XG_OK,
                                      XG_INPROGRESS,
                                      XG_ERR_INVALID_PARAM,
                                      XG_ERR_NOT_INITIALIZED,
                                      XG_ERR_PE_RANGE,
                                      XG_ERR_NOT_SYMMETRIC,
                                      XG_ERR_OUT_OF_BOUNDS,
                                      XG_ERR_MISALIGNED,
                                      XG_ERR_UNSUPPORTED,
                                      XG_ERR_NO_MEMORY,
                                      XG_ERR_NO_RESOURCE,
                                      XG_ERR_ADDRESS_IN_USE,
                                      XG_ERR_BOOT,
                                      XG_ERR_UNREACHABLE,
                                      XG_ERR_MISMATCH,
                                      XG_ERR_IO,
                                      XG_ERR_INTERNAL};
    size_t i, j;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        XG_CHECK(strcmp(xg_status_str(all[i]), "unknown status") != 0,
                 "status %d has no message", all[i]);
        for (j = 0; j < i; j++) {
            XG_CHECK(strcmp(xg_status_str(all[i]), xg_status_str(all[j])) != 0,
                     "statuses %d and %d share a message", all[i], all[j]);
        }
    }
    XG_CHECK(strcmp(xg_status_str((xg_status_t)12345), "unknown status") == 0,
             "unknown code");
}

static void test_parse_size(void)
{
    static const struct {
        const char *text;
        uint64_t value;
    } good[] = {
        {"0", 0},           {"4096", 4096},         {"1K", 1024},
        {"1k", 1024},       {"256M", 256ULL << 20}, {"2G", 2ULL << 30},
        {"1T", 1ULL << 40}, {"3MB", 3ULL << 20},    {"3MiB", 3ULL << 20},
        {"0x1000", 4096},   {" 5M ", 5ULL << 20}};
    static const char *const bad[] = {"",
                                      "M",
                                      "-1",
                                      "12Q",
                                      "1.5G",
                                      "1G2",
                                      "99999999999999999999",
                                      "99999999999T"};
    uint64_t value;
    size_t i;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        XG_CHECK(xg_config_parse_size(good[i].text, &value) == 0,
                 "'%s' rejected", good[i].text);
        XG_CHECK(value == good[i].value, "'%s' gave %llu", good[i].text,
                 (unsigned long long)value);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        XG_CHECK(xg_config_parse_size(bad[i], &value) != 0, "'%s' accepted",
                 bad[i]);
    }
}

/* The words of a choice row: a word's position, any case, whole words. */
static void test_parse_choice(void)
{
    static const struct {
        const char *text;
        int position;
    } cases[] = {{"block", 0}, {"cyclic", 1},  {"CYCLIC", 1},
                 {"Block", 0}, {"ring", 2},    {"", -1},
                 {"bloc", -1}, {"blocks", -1}, {"block|cyclic", -1},
                 {"|", -1},    {"rin", -1}};
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int got = xg_config_parse_choice("block|cyclic|ring", cases[i].text);

        XG_CHECK(got == cases[i].position, "'%s' gave %d, not %d",
                 cases[i].text, got, cases[i].position);
    }
    XG_CHECK(xg_config_parse_choice("one", "one") == 0, "a list of one word");
    XG_CHECK(xg_config_parse_choice("one", "two") == -1,
             "not in a list of one");
}

static void test_environment(void)
{
    XG_CHECK(xg_config_load() == XG_OK, "valid environment rejected");
    XG_CHECK(xg_config.nlb_size == 12, "XGAS_NLB_SIZE=12 read as %ld",
             xg_config.nlb_size);
    XG_CHECK(xg_config.symmetric_size == (3ULL << 30),
             "SHMEM_SYMMETRIC_SIZE=3G read as %llu",
             (unsigned long long)xg_config.symmetric_size);
    XG_CHECK(xg_config.log_level == XG_LOG_INFO, "XGAS_LOG=info read as %d",
             xg_config.log_level);
    XG_CHECK(xg_log_level == XG_LOG_INFO, "log level not applied");
    XG_CHECK(xg_config.stats == 0, "default of XGAS_STATS");
    XG_CHECK(xg_config.symmetric_base ==
                 strtoull(XG_DEFAULT_SYMMETRIC_BASE, NULL, 16),
             "default of XGAS_SYMMETRIC_BASE");
}

static void test_wait(void)
{
    xg_wait_t wait;
    unsigned i;

    /* the schedule must reach the yielding phase and keep going */
    xg_wait_configure(4, 3);
    xg_wait_init(&wait);
    for (i = 0; i < 5000; i++) {
        xg_wait_backoff(&wait);
    }
    XG_CHECK(wait.polls >= 4 + 3, "backoff did not advance (%u)", wait.polls);
}

static unsigned net_sleeps;
static int net_sleep_free;

/* stands in for the NIC's doorbell sleep (xg_wait_net_sleep) */
static int fake_net_sleep(unsigned long ns)
{
    XG_CHECK(ns > 0, "a doorbell sleep of 0 ns");
    net_sleeps++;
    return net_sleep_free;
}

/* backs @wait off @n times after polls of the network that found nothing */
static void net_idle_polls(xg_wait_t *wait, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        xg_wait_net_backoff(wait, 0);
    }
}

static void test_wait_net(void)
{
    xg_wait_t wait;

    xg_wait_configure(4, 3);
    xg_wait_net_sleep = fake_net_sleep;
    while (xg_wait_net_claim()) {
    }
    XG_CHECK(!xg_wait_net_claim(), "the mark stays up after a claim");

    /* awake: each poll marks the network as polled, once per claim */
    xg_wait_init(&wait);
    net_idle_polls(&wait, 10);
    XG_CHECK(xg_wait_net_claim(), "an awake waiting thread left no mark");
    XG_CHECK(!xg_wait_net_claim(), "one claim did not take the mark");
    XG_CHECK(net_sleeps == 0, "slept on the doorbell while awake");

    /* something handled: the back-off starts over */
    net_idle_polls(&wait, 50);
    XG_CHECK(wait.polls > 0, "the back-off did not advance");
    xg_wait_net_backoff(&wait, 3);
    XG_CHECK(wait.polls == 0, "handling items left the back-off at %u",
             wait.polls);

    /* backed off to sleeping: the doorbell, and a mark only while this
     * thread is the doorbell's sleeper */
    net_sleep_free = 0;
    net_idle_polls(&wait, 2010); /* 4 + 3 + 2000 polls to the sleeps */
    XG_CHECK(net_sleeps > 0, "the sleeping phase never tried the doorbell");
    while (xg_wait_net_claim()) {
    }
    net_idle_polls(&wait, 5);
    XG_CHECK(!xg_wait_net_claim(),
             "a thread that sleeps without the doorbell marked the network");
    net_sleep_free = 1;
    net_idle_polls(&wait, 1);
    XG_CHECK(xg_wait_net_claim(),
             "the doorbell's sleeper did not mark the network as polled");

    /* the network woke someone: a sleeping wait looks again at once */
    xg_wait_net_event();
    xg_wait_net_backoff(&wait, 0);
    XG_CHECK(wait.polls == 0, "a network event left the back-off at %u",
             wait.polls);

    /* a wait that never polled the network does not use the doorbell */
    net_sleeps = 0;
    xg_wait_init(&wait);
    for (unsigned i = 0; i < 2010; i++) {
        xg_wait_backoff(&wait);
    }
    XG_CHECK(net_sleeps == 0, "a plain wait slept on the doorbell");
    xg_wait_net_sleep = NULL;
}

int main(int argc, char **argv)
{
    if ((argc == 2) && (strcmp(argv[1], "--expect-bad-config") == 0)) {
        /* prints the message CTest matches; must report the failure */
        return (xg_config_load() == XG_ERR_INVALID_PARAM) ? 0 : 1;
    }
    test_status_strings();
    test_parse_size();
    test_parse_choice();
    test_environment();
    test_wait();
    test_wait_net();
    printf("unit_base: passed\n");
    return 0;
}
