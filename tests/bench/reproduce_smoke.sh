#!/bin/sh
# Smoke test of `xgas-bench reproduce SEED --quick` (docs/reproduce.md):
# the command must write DIR/SEED/report.md whose every figure has a
# filled table (check_reproduce.py).  Nothing is compared with a time or
# with the paper's numbers.
#   reproduce_smoke.sh SOURCE_DIR BUILD_DIR SEED
set -eu
src=$1
build=$2
seed=$3
out=$build/tests/bench/reproduce-quick
rm -rf "${out:?}/$seed"
"$build/bench/xgas-bench" reproduce "$seed" --quick --out "$out"
python3 "$src/tests/bench/check_reproduce.py" "$out/$seed"
