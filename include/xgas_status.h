/**
 * @file xgas_status.h
 * @brief Status codes returned by every xgas routine.
 *
 * Zero is success, positive values mean "not finished yet", negative values
 * are errors grouped by what they concern.  xg_status_str() gives a short
 * human-readable description.
 */
#ifndef XGAS_STATUS_H
#define XGAS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum xg_status {
    XG_OK         = 0,
    XG_INPROGRESS = 1,

    /* caller errors */
    XG_ERR_INVALID_PARAM   = -1,
    XG_ERR_NOT_INITIALIZED = -2,
    XG_ERR_PE_RANGE        = -3,
    XG_ERR_NOT_SYMMETRIC   = -4,
    XG_ERR_OUT_OF_BOUNDS   = -5,
    XG_ERR_MISALIGNED      = -6,
    XG_ERR_UNSUPPORTED     = -7,

    /* resources */
    XG_ERR_NO_MEMORY      = -20,
    XG_ERR_NO_RESOURCE    = -21,
    XG_ERR_ADDRESS_IN_USE = -22,

    /* job and peers */
    XG_ERR_BOOT        = -40,
    XG_ERR_UNREACHABLE = -41,
    XG_ERR_MISMATCH    = -42,

    /* system */
    XG_ERR_IO       = -60,
    XG_ERR_INTERNAL = -61
} xg_status_t;

/** @return a static, lower-case description of @p status (never NULL). */
const char *xg_status_str(xg_status_t status);

#ifdef __cplusplus
}
#endif

#endif
