# Sourced by run_all.sh and callgrind.sh: how to build and run the benchmark
# programs against Open MPI's OSHMEM (Debian: openmpi-bin, libopenmpi-dev).
#
# Debian's Open MPI 4.1 crashes in shmem_finalize (SIGSEGV in the openib
# BTL) unless that BTL is excluded; --mca btl ^openib does it (so does
# OMPI_MCA_btl=^openib, or OMPI_MCA_osc=^rdma).  The SPML is UCX, the
# default.  --allow-run-as-root and --oversubscribe let it run as root and
# with more PEs than cores.  Override with XGAS_OSHRUN_FLAGS; run as
#   oshrun -np N $XGAS_OSHRUN_FLAGS PROG ARGS   (the flags unquoted).

: "${XGAS_OSHRUN_FLAGS:=--allow-run-as-root --oversubscribe --mca btl ^openib}"

# True if oshcc and oshrun are on PATH.
oshmem_found() {
    command -v oshcc >/dev/null 2>&1 && command -v oshrun >/dev/null 2>&1
}

# The benchmark library's sources an OpenSHMEM benchmark is built with
# (bench/lib), under SRC_DIR: oshmem_lib SRC_DIR.
oshmem_lib() {
    echo "-I$1/lib $1/lib/bench_core.c $1/lib/bench_shmem.c" \
         "$1/lib/bench_figure.c $1/lib/bench_raw.c"
}

# oshmem_build SRC_DIR OUT_DIR: xgas-bench and xgas-instr-count from the
# same sources as the xgas build, into OUT_DIR.
oshmem_build() {
    mkdir -p "$2" &&
    # shellcheck disable=SC2046  # the flags and files are a word list
    oshcc -O2 -g -std=c11 -Wall -Wextra -o "$2/xgas-bench" \
        "$1/xgas_bench.c" $(oshmem_lib "$1") &&
    oshcc -O2 -g -std=c11 -Wall -Wextra -o "$2/xgas-instr-count" \
        "$1/instr_count.c"
}
