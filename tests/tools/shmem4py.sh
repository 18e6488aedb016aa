#!/bin/sh
# Builds shmem4py (the OpenSHMEM bindings for Python, from PyPI) against an
# installed xgas and runs shmem4py's own unit tests at 1 and 2 PEs (used by
# .ci/run; needs network access to PyPI, python3 with venv and pip, the
# Python headers and libffi).  Nothing of shmem4py is kept in this
# repository: the source release is downloaded into WORKDIR each time.
#
#   usage: shmem4py.sh PREFIX WORKDIR
#   PYTHON           interpreter that creates the venv (default python3)
#   SHMEM4PY_VERSION release to test (default 1.0.0, the one docs/shmem.md
#                    and docs/conformance.md describe)
#
# Exits non-zero when the build or any test fails.  Every step is bounded.
set -eu
prefix=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
python=${PYTHON:-python3}
version=${SHMEM4PY_VERSION:-1.0.0}
venv=$work/venv
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_DEFAULT_TIMEOUT=60

# shmem4py recognizes the OpenSHMEM libraries it knows by macros of their
# headers; for any other library, such as xgas, each OpenSHMEM 1.5 feature
# it binds is declared present by one PySHMEM_HAVE_ macro.  Without them it
# defines stand-ins that clash with the declarations in xgas's shmem.h.
have=""
for feature in shmem_malloc_with_hints shmem_team_t SHMEM_CTX_INVALID \
    shmem_amo_nbi shmem_put_signal shmem_signal_fetch shmem_signal_wait_until \
    shmem_broadcast shmem_collect shmem_fcollect shmem_alltoall \
    shmem_alltoalls shmem_broadcastmem shmem_collectmem shmem_fcollectmem \
    shmem_alltoallmem shmem_alltoallsmem shmem_reduce shmem_wait_test_many \
    shmem_pcontrol; do
    have="$have -DPySHMEM_HAVE_$feature=1"
done

# run LIMIT WHAT COMMAND...: one step, bounded; a failure says which.
run() {
    limit=$1 what=$2
    shift 2
    status=0
    timeout "$limit" "$@" || status=$?
    if [ "$status" -eq 124 ]; then
        echo "shmem4py.sh: $what took more than $limit s" >&2
        exit 1
    elif [ "$status" -ne 0 ]; then
        echo "shmem4py.sh: $what failed (status $status)" >&2
        exit 1
    fi
}

rm -rf "$venv" "$work/shmem4py-$version" "$work/shmem4py-$version.tar.gz"
echo "+ venv in $venv ($("$python" --version 2>&1))"
run 180 "creating the venv" "$python" -m venv "$venv"
# shmem4py 1.0.0 predates NumPy 2 (its array code fails with NumPy 2's copy
# rules; fixed in its repository after the release).
run 240 "installing cffi and numpy<2 from PyPI" \
    "$venv/bin/pip" install -q cffi 'numpy<2' setuptools wheel
run 120 "downloading shmem4py $version from PyPI" \
    "$venv/bin/pip" download -q --no-deps --no-binary :all: \
    -d "$work" "shmem4py==$version"
tar -xzf "$work/shmem4py-$version.tar.gz" -C "$work"

echo "+ OSHCC=$prefix/bin/xgascc pip install shmem4py==$version"
run 300 "building shmem4py with xgascc" \
    env OSHCC="$prefix/bin/xgascc" CFLAGS="$have" \
    "$venv/bin/pip" install -q --no-deps --no-build-isolation \
    "$work/shmem4py-$version"

# The tests run from the unpacked release, which keeps the package under
# src/: they import the installed one.
cd "$work/shmem4py-$version"
status=0
# one write(2) per PE: the two PEs share the stream, and a line written in
# pieces can interleave with the other PE's
out=$(timeout 60 "$prefix/bin/xgasrun" -n 2 "$venv/bin/python" -c \
      'import os; from shmem4py import shmem; os.write(1, ("pe %d of %d %s\n" % (shmem.my_pe(), shmem.n_pes(), shmem.info_get_name())).encode())' \
      2>&1) || status=$?
echo "$out"
if [ "$status" -ne 0 ] || ! echo "$out" | grep -q '^pe 0 of 2 xgas$' ||
   ! echo "$out" | grep -q '^pe 1 of 2 xgas$'; then
    echo "shmem4py: importing shmem4py on 2 PEs failed (status $status)" >&2
    exit 1
fi
for np in 1 2; do
    echo "+ xgasrun -n $np python -m unittest discover -s test"
    status=0
    timeout 300 "$prefix/bin/xgasrun" -n "$np" "$venv/bin/python" \
        -m unittest discover -s test >"$work/test-np$np.log" 2>&1 || status=$?
    tail -n 4 "$work/test-np$np.log"
    # The PEs' reports share one stream and may interleave: judge by the
    # exit status (the worst PE's) and the absence of any failure report.
    if [ "$status" -ne 0 ] || grep -q 'FAILED' "$work/test-np$np.log" ||
       ! grep -q 'Ran [1-9][0-9]* tests' "$work/test-np$np.log"; then
        cat "$work/test-np$np.log" >&2
        echo "shmem4py: the tests failed on $np PE(s) (status $status)" >&2
        exit 1
    fi
done
echo "shmem4py $version: passed at 1 and 2 PEs"
