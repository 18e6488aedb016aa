/*
 * A program that is not linked with libxgas and loads OpenSHMEM later,
 * with dlopen(RTLD_NOW | RTLD_LOCAL) of a module linked with it: what a
 * Python interpreter does when it imports shmem4py.  The program's own
 * globals must still be symmetric, and every way of ending works:
 *   finalize  the module finalizes, the program keeps using its globals
 *   atexit    the module finalizes from an exit handler (as shmem4py does)
 *   implicit  nobody finalizes: xgas does it at exit
 *   dlclose   the module finalizes and is unloaded before the exit
 * With FIRST, a library dlopen'ed before MODULE: one with initial-exec TLS
 * that takes most of glibc's static-TLS surplus (dlopen_tls_hog.c), as
 * other extension modules of an interpreter may; libxgas must still load.
 * usage: shmem_dlopen_host MODULE MODE [FIRST]
 */
#include <dlfcn.h>
#include <string.h>

#include "xg_test.h"

long host_counter;
long host_slots[64];
static long host_moved = 5;

typedef int (*mod_init_fn)(void);
typedef void (*mod_void_fn)(void);
typedef void (*mod_run_fn)(long *, long *, int, const long *);

static void *need(void *mod, const char *name)
{
    void *sym = dlsym(mod, name);

    XG_CHECK(sym != NULL, "dlsym %s: %s", name, dlerror());
    return sym;
}

int main(int argc, char **argv)
{
    const char *mode;
    void *first = NULL, *mod;

    XG_CHECK((argc == 3) || (argc == 4),
             "usage: %s MODULE finalize|atexit|implicit|dlclose [FIRST]",
             argv[0]);
    mode = argv[2];
    XG_CHECK(dlsym(RTLD_DEFAULT, "shmem_init") == NULL,
             "the host must not be linked with libxgas");
    if (argc == 4) {
        first = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);
        XG_CHECK(first != NULL, "dlopen %s (before the module): %s", argv[3],
                 dlerror());
    }
    mod = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    XG_CHECK(mod != NULL, "dlopen %s: %s", argv[1], dlerror());

    xg_test_pe = ((mod_init_fn)need(mod, "mod_init"))();
    ((mod_run_fn)need(mod, "mod_run"))(&host_counter, host_slots, 64,
                                       &host_moved);

    if (strcmp(mode, "finalize") == 0) {
        ((mod_void_fn)need(mod, "mod_finalize"))();
        host_counter = 42; /* the globals stay the program's memory */
        host_moved++;
        XG_CHECK(host_counter == 42 && host_moved == 6,
                 "globals after shmem_finalize: %ld %ld", host_counter,
                 host_moved);
    } else if (strcmp(mode, "atexit") == 0) {
        ((mod_void_fn)need(mod, "mod_finalize_at_exit"))();
    } else if (strcmp(mode, "dlclose") == 0) {
        ((mod_void_fn)need(mod, "mod_finalize"))();
        XG_CHECK(dlclose(mod) == 0, "dlclose: %s", dlerror());
    } else {
        XG_CHECK(strcmp(mode, "implicit") == 0, "unknown mode %s", mode);
    }
    if (first != NULL) {
        XG_CHECK(((char *(*)(void))need(first, "tls_hog_touch"))() != NULL,
                 "the first library's TLS");
    }
    return 0;
}
