#!/bin/sh
# libxgas loads libfabric and libpmix on first use (dlopen), not at start
# (docs/pvas.md, "Limits"): it must not need them (DT_NEEDED), must leave
# no fi_* or PMIx_* symbol for the loader to bind, and must export none
# (they would interpose on a program that links either library itself).
#   usage: lazy_libraries.sh LIBXGAS_SO
set -eu
lib=$1
status=0
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "libxgas needs: $(echo $needed)"
for dep in $needed; do
    case $dep in
    libfabric*|libpmix*)
        echo "FAIL: $lib is linked with $dep"
        status=1 ;;
    esac
done
bound=$(nm -D --undefined-only "$lib" | awk '{print $2}' |
    grep -E '^(fi_|PMIx_)' || true)
if [ -n "$bound" ]; then
    echo "FAIL: symbols the loader would bind at start:"; echo "$bound"
    status=1
fi
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' |
    grep -E '^(fi_|PMIx_|xg_ofi_dl_|xg_pmix_dl_)' || true)
if [ -n "$exported" ]; then
    echo "FAIL: exported:"; echo "$exported"
    status=1
fi
[ $status -eq 0 ] && echo "PASS: libfabric and libpmix are loaded on first use"
exit $status
