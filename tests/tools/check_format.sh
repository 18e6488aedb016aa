#!/bin/sh
# check_format.sh SOURCE_DIR [CLANG_FORMAT]
#
# Passes when every C source and header of the tree (src, include, tools,
# tests, bench, examples) is laid out as SOURCE_DIR/.clang-format says;
# otherwise names each file that is not and shows the first lines that
# differ, with the command that fixes it.  Exits 77 (a skip for ctest)
# when clang-format is not installed.
top=$1
tool=${2:-clang-format}
if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (apt-get install -y clang-format)"
    exit 77
fi
cd "$top" || exit 1
bad=0
# (format_fixture: the deliberately misformatted file of the test that
# shows this check fails)
files=$(find src include tools tests bench examples \
             -name format_fixture -prune -o \
             \( -name '*.c' -o -name '*.h' \) -type f -print 2>/dev/null |
        sort)
for f in $files; do
    if ! "$tool" --style=file "$f" | cmp -s - "$f"; then
        echo "not formatted: $f"
        "$tool" --style=file "$f" | diff "$f" - | head -12
        bad=$((bad + 1))
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "FAIL: $bad file(s) differ from .clang-format: run"
    echo "  $tool -i <file>   (in $top)"
    exit 1
fi
echo "check_format: $(echo "$files" | wc -l) files formatted"
