/*
 * xgas-info: what this xgas build is and how it is configured.
 *   xgas-info        version, OpenSHMEM version, transports
 *   xgas-info -c     every environment variable: value, default, help
 *   xgas-info -a     both, including the variables xgasrun sets for PEs
 */
#include <stdio.h>
#include <string.h>

#include "base/xg_config.h"
#include "boot/xg_boot.h"
#include "xgas_version.h"
#include "xport/xg_xport.h"
#include "xgasrun_bind.h"

/* Transports compiled into this build, in the order gas/ tries them. */
static const char *const built_transports[] = {
    "self (loopback within a PE)",
    "shm (same-node PEs: PVAS-partitioned shared region, direct load/store)",
    "shm packet rings (software NIC: Portals 4, one inbound ring per PE)",
#ifdef XGAS_HAVE_OFI
    "ofi (other nodes' PEs: libfabric packets for the NIC, RMA put/get)",
#endif
};

/* Boot backends compiled into this build, in the order boot tries them. */
static const char *const built_backends[] = {
    "xgasrun (started by xgasrun)",
#ifdef XGAS_HAVE_PMIX
    "pmix (started by a PMIx launcher: mpirun, prterun, srun --mpi=pmix)",
#endif
    "singleton (no launcher: a job of one PE)",
};

static void print_build(void)
{
    size_t i;

    printf("xgas %s\n", XGAS_VERSION_STRING);
    printf("OpenSHMEM API: 1.6\n");
    printf("Portals API: 4.1 (software NIC)\n");
    printf("transports:\n");
    for (i = 0; i < sizeof(built_transports) / sizeof(built_transports[0]);
         i++) {
        printf("    %s\n", built_transports[i]);
    }
    printf("boot backends (tried in this order):\n");
    for (i = 0; i < sizeof(built_backends) / sizeof(built_backends[0]); i++) {
        printf("    %s\n", built_backends[i]);
    }
}

/* The backend a program started like this process would join through,
 * the network its PEs would reach other nodes through, and the CPUs this
 * process may run on (what a launcher or taskset bound it to). */
static void print_boot(void)
{
    const char *name, *why;
    char net[192], net_why[512], binding[512];

    xg_boot_describe(&name, &why);
    printf("boot backend here: %s (%s)\n", name, why);
    xg_xport_describe_net(net, sizeof(net), net_why, sizeof(net_why));
    printf("network here: %s (%s)\n", net, net_why);
    xg_bind_describe_self(binding, sizeof(binding));
    printf("binding here: %s\n", binding);
}

static int usage(FILE *out, int status)
{
    fprintf(out,
            "usage: xgas-info [-c | -a | -h]\n"
            "  (none)  print the version and the transports of this build\n"
            "  -c      print every environment variable with its value,\n"
            "          default and help\n"
            "  -a      print both, including launcher-set variables\n");
    return status;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        print_build();
        xg_config_load();
        print_boot();
        return 0;
    }
    if ((argc != 2) || (strcmp(argv[1], "-h") == 0) ||
        (strcmp(argv[1], "--help") == 0)) {
        return usage((argc == 2) ? stdout : stderr, (argc == 2) ? 0 : 2);
    }
    if (xg_config_load() != 0) {
        fprintf(stderr, "xgas-info: some variables have invalid values "
                        "(see above); their defaults are shown\n");
    }
    if (strcmp(argv[1], "-c") == 0) {
        xg_config_print(stdout, 0);
    } else if (strcmp(argv[1], "-a") == 0) {
        print_build();
        print_boot();
        printf("\nenvironment variables:\n");
        xg_config_print(stdout, 1);
    } else {
        return usage(stderr, 2);
    }
    return 0;
}
