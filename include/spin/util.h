/*
 * util.h -- small helpers sPIN handlers use (xgas, source-compatible with
 * PsPIN's header of the same name).
 *
 * Not provided: PsPIN's RISC-V register and CSR macros (read_csr,
 * write_register, ...), which have no meaning on the host.  TERMINATE and
 * a failed ASSERT end the running handler: the engine reports it as a
 * fault of the handler (docs/spin.md, "Faults"), as PsPIN's runtime stops
 * the simulation.
 */
#ifndef XGAS_SPIN_UTIL_H
#define XGAS_SPIN_UTIL_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the calling handler as failed (never returns); @what says why. */
void xg_spin_handler_terminate(const char *what, const char *file, int line)
    __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#define MAX(a, b) (((a) > (b)) ? (a) : (b))

#define DIV_CEIL(a, b)      (((a) + (b)-1) / (b))
#define FAST_DIV(a, log2_b) ((a) >> (log2_b))
#define FAST_MOD(a, b)      ((a) & ((b)-1))
#define AND(a, b)           ((a) & (b))

#define STRINGIFY(x) #x

#define TERMINATE                                                   \
    {                                                               \
        xg_spin_handler_terminate("TERMINATE", __FILE__, __LINE__); \
    }

#ifdef CHECK_ASSERTS
#define ASSERT(condition)                                             \
    if (!(condition)) {                                               \
        printf("Assertion fail: " #condition " at " __FILE__ ":%d\n", \
               __LINE__);                                             \
        xg_spin_handler_terminate("ASSERT(" #condition ")", __FILE__, \
                                  __LINE__);                          \
    }
#else
#define ASSERT(condition)
#endif

#define SPIN_PRINTF(format, ...) \
    printf("%s:%s:%d: " format, __FILE__, __func__, __LINE__, ##__VA_ARGS__)

#ifdef LOG
#define DEBUG_PRINT(format, ...) SPIN_PRINTF(format, ##__VA_ARGS__)
#else
#define DEBUG_PRINT(...)
#endif

#define TRACING_DUMMY_INSTR()

#endif
