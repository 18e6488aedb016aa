#!/bin/sh
# Builds a C++ test program with xgasc++ (in every C++ dialect from C++11
# on, with warnings as errors; the last build is run) and runs it on 1, 2
# and 4 PEs.  usage: cxx_run.sh XGASCXX XGASRUN SOURCE_CPP
set -eu
xgascxx=$1 xgasrun=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for std in c++11 c++14 c++17; do
    "$xgascxx" -std=$std -Wall -Wextra -Werror -O1 -o "$work/prog" "$source"
done
"$xgascxx" -showme -o x x.cpp | grep -q -- '-lxgas'
for np in 1 2 4; do
    "$xgasrun" -n $np "$work/prog" | grep -q "C++: passed on $np PEs"
done
echo "xgasc++: passed"
