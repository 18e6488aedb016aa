/*
 * A library with initial-exec TLS, dlopen'ed before libxgas: its block has
 * to come out of glibc's static-TLS surplus, which is fixed when the
 * program starts (measured with glibc 2.36: 1712 bytes by default for
 * libraries loaded later, 304 with
 * GLIBC_TUNABLES=glibc.rtld.nns=1:glibc.rtld.optional_static_tls=0).
 * TLS_HOG_BYTES (1408) leaves less than the 1 KiB NLB libxgas used to keep in
 * initial-exec TLS, and more than what it keeps there now.
 */
#include <string.h>

__thread char tls_hog[TLS_HOG_BYTES] __attribute__((tls_model("initial-exec")));

/* This thread's block, written: the library works. */
char *tls_hog_touch(void)
{
    memset(tls_hog, 1, sizeof(tls_hog));
    return tls_hog;
}
