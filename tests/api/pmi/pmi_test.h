/*
 * Helpers for the PMI tests (on top of xg_test.h).
 */
#ifndef PMI_TEST_H
#define PMI_TEST_H

#include <pmi.h>

#include "xg_test.h"

/* Checks that a PMI call succeeds. */
#define PMI_OK(call)                                                        \
    do {                                                                    \
        int pmi_rc_ = (call);                                               \
        XG_CHECK(pmi_rc_ == PMI_SUCCESS, "%s returned %d", #call, pmi_rc_); \
    } while (0)

#endif
