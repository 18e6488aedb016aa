# Writes pshmem.h, the name-shifted declarations of the OpenSHMEM profiling
# interface: for every routine declared by shmem.h, the same declaration
# with the name pshmem_<name>.  Run as
#   cmake -DCC=<compiler> -DINCLUDES=<dir;dir> -DOUT=<file> -P GenPshmem.cmake
# It preprocesses shmem.h (which expands the type tables into one
# declaration per routine), keeps the function declarations and renames
# them.  Types and constants come from shmem.h, which pshmem.h includes.
set(include_flags "")
foreach(dir ${INCLUDES})
  list(APPEND include_flags "-I${dir}")
endforeach()
execute_process(
  COMMAND ${CC} -E -P -DXGAS_INTERNAL_BUILD ${include_flags} -x c -
  INPUT_FILE ${SHMEM_H}
  OUTPUT_VARIABLE preprocessed
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "GenPshmem: preprocessing ${SHMEM_H} failed")
endif()

# One statement per list element (semicolons are CMake's list separator).
string(REPLACE "\n" " " preprocessed "${preprocessed}")
string(REGEX REPLACE "[ \t]+" " " preprocessed "${preprocessed}")
# shmem_<name>, and the deprecated names without that prefix (their
# profiling names are pstart_pes, p_my_pe, pshmalloc, ...)
set(routine
    "(shmem_[A-Za-z0-9_]+|start_pes|_my_pe|_num_pes|shmalloc|shfree|shrealloc|shmemalign)")
set(declarations "")
set(count 0)
foreach(statement IN LISTS preprocessed)
  string(STRIP "${statement}" statement)
  if(statement MATCHES "^(typedef|struct|extern)" OR
     NOT statement MATCHES "(^|[^A-Za-z0-9_])${routine} ?\\(")
    continue()
  endif()
  string(REGEX REPLACE "(^|[^A-Za-z0-9_])(${routine}) ?\\("
         "\\1p\\2(" statement "${statement}")
  # spellings C++ also accepts: GCC's __complex__ is C's _Complex, and
  # the no-return mark depends on the language
  string(REPLACE " _Complex" " __complex__" statement "${statement}")
  string(REPLACE "_Noreturn " "XG_PSHMEM_H_NORETURN " statement "${statement}")
  string(APPEND declarations "${statement};\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count LESS 100)
  message(FATAL_ERROR "GenPshmem: only ${count} declarations found")
endif()

file(WRITE ${OUT}.tmp
"/* pshmem.h: the OpenSHMEM profiling interface of xgas (generated from
 * shmem.h at build time; do not edit).  Every routine of shmem.h is also
 * available as pshmem_<name>; a tool defines its own shmem_<name> (the
 * library's are weak symbols) and calls pshmem_<name> to reach xgas. */
#ifndef PSHMEM_H
#define PSHMEM_H

#include <shmem.h>

#if defined(__cplusplus) && (__cplusplus >= 201103L)
#define XG_PSHMEM_H_NORETURN [[noreturn]]
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && \\
    (__STDC_VERSION__ >= 201112L)
#define XG_PSHMEM_H_NORETURN _Noreturn
#else
#define XG_PSHMEM_H_NORETURN
#endif

#ifdef __cplusplus
extern \"C\" {
#endif

${declarations}
#ifdef __cplusplus
}
#endif

#endif
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
