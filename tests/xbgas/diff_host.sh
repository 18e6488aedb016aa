#!/bin/sh
# diff_host.sh HOST_PROG XGASRUN MACHINE GUEST_PROG
# Runs the same program built for the host and for the xBGAS machine and
# passes when their outputs are equal (the differential ISA test).
host=$1 run=$2 machine=$3 guest=$4
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
"$host" >"$dir/host.out" || { echo "FAIL: the host build failed"; exit 1; }
"$run" -n 1 "$machine" --stats "$guest" >"$dir/guest.out" ||
    { echo "FAIL: the guest run failed"; exit 1; }
if ! diff "$dir/host.out" "$dir/guest.out"; then
    echo "FAIL: the machine's output differs from the host's"
    exit 1
fi
echo "PASS: $(wc -l <"$dir/host.out") lines equal"
