#!/usr/bin/env bash
# Runs the software-NIC benchmarks and writes bench/nic's report.
#   bench/nic/run.sh BUILD_DIR OUT_DIR [--quick]
# Results (key=value lines) go to OUT_DIR/nic-results.txt, the report with
# plots to OUT_DIR/nic-report.md (python3 with matplotlib makes the PNGs;
# without it the report has tables only).  The machine should be idle.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR OUT_DIR [--quick]}
out=${2:?usage: run.sh BUILD_DIR OUT_DIR [--quick]}
quick=${3:-}
mkdir -p "$out"
res="$out/nic-results.txt"
: > "$res"
# a hang ends the run with an error instead of blocking it for ever
run=(timeout 900 "$build/xgasrun")
b="$build/bench/nic"
max=65536
lin_max=65536
if [ "$quick" = "--quick" ]; then
    max=4096
    lin_max=4096
fi
say() { printf '== %s\n' "$*" >&2; }

say "matching: unexpected list, match at the tail (hashing on, off)"
XGAS_NIC_HASH=1 "${run[@]}" -n 1 "$b/nic-match" --max "$max" >> "$res"
XGAS_NIC_HASH=0 "${run[@]}" -n 1 "$b/nic-match" --max "$lin_max" >> "$res"
say "matching: priority list, match at the tail (2 PEs)"
XGAS_NIC_HASH=1 "${run[@]}" -n 2 "$b/nic-match" --list priority \
    --max "$max" >> "$res"
XGAS_NIC_HASH=0 "${run[@]}" -n 2 "$b/nic-match" --list priority \
    --max "$lin_max" >> "$res"

say "put/get/atomic latency, bandwidth, rate (NIC vs direct)"
"${run[@]}" -n 2 "$b/nic-lat-bw" $quick >> "$res"

say "Fig. 15: alltoall of 8 KiB under each protocol"
for np in 4 8; do
    for arrival in "" --late; do
        XGAS_NIC_EAGER_LIMIT=16K \
            "${run[@]}" -n "$np" "$b/nic-alltoall" $arrival $quick >> "$res"
        XGAS_NIC_EAGER_LIMIT=0 XGAS_NIC_RNDV=get \
            "${run[@]}" -n "$np" "$b/nic-alltoall" $arrival $quick >> "$res"
        XGAS_NIC_EAGER_LIMIT=0 XGAS_NIC_RNDV=triggered \
            "${run[@]}" -n "$np" "$b/nic-alltoall" $arrival $quick >> "$res"
        XGAS_NIC_EAGER_LIMIT=0 XGAS_NIC_RNDV=triggered XGAS_NIC_RNDV_EAGER=4K \
            "${run[@]}" -n "$np" "$b/nic-alltoall" $arrival $quick >> "$res"
    done
done

say "triggered operation: threshold to data landing"
"${run[@]}" -n 1 "$b/nic-trig-lat" $quick >> "$res"
"${run[@]}" -n 2 "$b/nic-trig-lat" $quick >> "$res"
"${run[@]}" -n 2 "$b/nic-trig-lat" --ctwait $quick >> "$res"

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" "$(dirname "$0")/report.py" "$res" "$out"
say "report: $out/nic-report.md"
