/*
 * The OpenSHMEM type tables, for the files that define typed routines.
 *
 * OpenSHMEM names most routines once per element type: shmem_long_put,
 * shmem_int_atomic_add, shmem_size_wait_until...  Each class of types the
 * specification defines is one X-macro table whose rows are
 * X(TYPE, TYPENAME) (the C type and the name part of the routine):
 *
 *   XG_SHMEM_RMA_TYPES                  24 standard RMA types
 *   XG_SHMEM_RMA_SIZES                  X(SIZE): 8 16 32 64 128 (bits)
 *   XG_SHMEM_AMO_STANDARD_TYPES         12 standard AMO types
 *   XG_SHMEM_AMO_EXTENDED_TYPES         standard AMO types, float, double
 *   XG_SHMEM_AMO_BITWISE_TYPES          7 bitwise AMO types
 *   XG_SHMEM_AMO_DEPRECATED_TYPES       int, long, long long (1.3 names)
 *   XG_SHMEM_AMO_DEPRECATED_EXTENDED_TYPES  the same, float, double
 *   XG_SHMEM_SYNC_TYPES                 12 point-to-point sync types
 *   XG_SHMEM_SYNC_DEPRECATED_TYPES      short, unsigned short (wait_until)
 *
 * The tables are defined in the public shmem.h, whose declarations are
 * generated from them; this header is the one place the library includes
 * them from, so that a definition file reads
 *
 *   #define XG_DEFINE_WAIT_UNTIL(TYPE, TYPENAME)                       \
 *       XG_EXPORT void shmem_##TYPENAME##_wait_until(TYPE *ivar, ...)  \
 *       { ... }
 *   XG_SHMEM_SYNC_TYPES(XG_DEFINE_WAIT_UNTIL)
 *
 * and the compiler checks every definition against its declaration.
 */
#ifndef XG_SHMEM_TYPES_H
#define XG_SHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "shmem.h"

#endif
