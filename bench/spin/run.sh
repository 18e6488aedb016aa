#!/usr/bin/env bash
# Runs the sPIN engine's benchmark and writes its report.
#   bench/spin/run.sh BUILD_DIR OUT_DIR [--quick]
#   SPIN_SIZES="64 1024" SPIN_HPUS="1 2" SPIN_CASES="empty" bench/spin/run.sh ...
# Results (key=value lines) go to OUT_DIR/spin-results.txt, the report with
# plots to OUT_DIR/spin-report.md (python3 with matplotlib makes the PNGs).
# The machine should be idle: every figure shares its 2 cores with the
# host thread that feeds the engine (stream) or with nothing (burst).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR OUT_DIR [--quick]}
out=${2:?usage: run.sh BUILD_DIR OUT_DIR [--quick]}
quick=${3:-}
mkdir -p "$out"
res="$out/spin-results.txt"
: > "$res"
b=(timeout 600 "$build/bench/spin/xgas-spin-bench" --dir "$build/examples/spin"
   --gate "$build/bench/spin/spin_bench_gate.so")
# SPIN_SIZES, SPIN_HPUS, SPIN_CASES narrow a run
sizes=${SPIN_SIZES:-"64 128 256 512 1024 2048 4096"}
hpus=${SPIN_HPUS:-"1 2 4 8"}
cases=${SPIN_CASES:-"empty reduce histogram aggregate filtering strided kvstore"}
pk=200000
reps=5
if [ "$quick" = "--quick" ]; then
    sizes=${SPIN_SIZES:-"64 1024 4096"}
    hpus=${SPIN_HPUS:-"1 2"}
    pk=20000
    reps=3
fi
say() { printf '== %s\n' "$*" >&2; }

say "burst: the engine alone (host idle), empty handler, by HPUs and size"
for h in $hpus; do
    for s in $sizes; do
        # a burst must fit the packet buffer (12 MiB of slots)
        n=$(( (12 * 1048576 / ((s + 63) / 64 * 64)) * 3 / 4 ))
        [ "$n" -gt "$pk" ] && n=$pk
        "${b[@]}" --mode burst --size "$s" --hpus "$h" --packets "$n" \
            --reps "$reps" >> "$res"
    done
done

say "stream: fed by the host, every case, by HPUs and size"
for c in $cases; do
    for h in $hpus; do
        for s in $sizes; do
            "${b[@]}" --case "$c" --mode stream --size "$s" --hpus "$h" \
                --packets "$pk" --reps "$reps" >> "$res"
        done
    done
done

say "latency: one packet at a time"
for c in $cases; do
    "${b[@]}" --case "$c" --mode latency --size 64 --hpus 1 \
        --packets 5000 >> "$res"
done

here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 "$here/report.py" "$res" "$out" || \
    python3 "$here/report.py" "$res" "$out"
say "report: $out/spin-report.md"
