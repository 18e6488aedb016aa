#!/bin/sh
# XGAS_HUGE_PAGES=1 (src/xport/shm/huge.c), in one mode:
#
#     huge_pages_test.sh XGASRUN PROG conventional|pvas
#
# Runs PROG (an OpenSHMEM program) on 4 PEs with huge pages asked for and
# checks, against the system's transparent huge page setting for that
# memory (read, never changed): where the setting takes MADV_HUGEPAGE
# advice, the job runs and says nothing; where it does not, the job runs
# on 4 KiB pages and the node's first PE says so in exactly one line.
# Whether the kernel then finds free huge pages is not asserted.
set -u
XGASRUN=$1
PROG=$2
MODE=$3
sysfs=/sys/kernel/mm/transparent_hugepage
if [ "$MODE" = pvas ]; then
    file=$sysfs/enabled takes="madvise always" flag=--pvas
else
    file=$sysfs/shmem_enabled takes="advise always within_size force" flag=
fi
word=$(sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' "$file" 2>/dev/null)
word=${word:-unknown}
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
XGAS_HUGE_PAGES=1 "$XGASRUN" $flag -n 4 "$PROG" 2>"$err"
status=$?
cat "$err" >&2
[ "$status" -eq 0 ] || { echo "FAIL: exit status $status"; exit 1; }
notices=$(grep -c "XGAS_HUGE_PAGES=1: $file is '$word'.*uses 4 KiB pages" \
          "$err")
expected=1
for w in $takes; do
    [ "$w" = "$word" ] && expected=0
done
if [ "$notices" -ne "$expected" ]; then
    echo "FAIL: $file is '$word': $notices notices, expected $expected"
    exit 1
fi
echo "PASS: $MODE, $file is '$word', $notices notice(s)"
