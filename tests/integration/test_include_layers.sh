#!/usr/bin/env bash
# The folders of src/ form layers: no #include cycle between them
# (scripts/check-include-layers.py).  The checker must also catch a cycle:
# one is planted in a scratch copy of src/ (the planning layer made to
# include the event sets above it) and must be reported with its file.
set -u
. "$(dirname "$0")/lib.sh"
plan 4
check="$SRCDIR/scripts/check-include-layers.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"${PYTHON3:-python3}" "$check" "$SRCDIR/src" >"$tmp/tree.log" 2>&1
rc=$?
cat "$tmp/tree.log"
expect "no include cycle between the folders of src/" test $rc -eq 0

cp -r "$SRCDIR/src" "$tmp/src"
printf '#include "eventset/eventset.h"\n' >>"$tmp/src/plan/sched.h"
"${PYTHON3:-python3}" "$check" "$tmp/src" >"$tmp/planted.log" 2>&1
rc=$?
expect "a planted cycle plan -> eventset -> plan fails the check" test $rc -eq 1
expect "... naming the folders" grep -q 'include cycle between folders of src/: .*plan.*eventset' "$tmp/planted.log"
expect "... and the file that includes upwards" grep -q 'plan -> eventset  (src/plan/sched.h:' "$tmp/planted.log"
