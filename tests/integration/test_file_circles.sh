#!/usr/bin/env bash
# No circle of names between the files of one folder of src/ (issue 25;
# scripts/check-file-circles.py), read from the build's object files.  The
# check itself is checked on planted objects: two files that use each
# other, a circle of three, and files that use each other one way only.
set -u
. "$(dirname "$0")/lib.sh"
plan 5
check="$SRCDIR/scripts/check-file-circles.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=${PYTHON3:-python3}

"$py" "$check" "$BUILD/obj/src" --src "$SRCDIR" >"$tmp/tree.log" 2>&1
rc=$?
cat "$tmp/tree.log"
expect "no file circle in any folder of src/" test $rc -eq 0

# Planted: src/a (a.c <-> b.c), src/c (c1 -> c2 -> c3 -> c1), src/d (one way).
obj=$tmp/obj
mkdir -p "$obj/a" "$obj/c" "$obj/d"
plant() { # DIR NAME CODE
	printf '%s\n' "$3" >"$tmp/$2.c"
	cc -c -o "$obj/$1/$2.o" "$tmp/$2.c"
}
plant a a 'int b_fn(void); int a_fn(void) { return b_fn(); }'
plant a b 'int a_fn(void); int b_fn(void) { return 1; } int b_other(void) { return a_fn(); }'
plant c c1 'int c2_fn(void); int c1_fn(void) { return c2_fn(); }'
plant c c2 'int c3_fn(void); int c2_fn(void) { return c3_fn(); }'
plant c c3 'int c1_fn(void); int c3_fn(void) { return c1_fn(); }'
plant d d1 'int d2_fn(void); int d1_fn(void) { return d2_fn(); }'
plant d d2 'int d2_fn(void) { return 2; }'
"$py" "$check" "$obj" >"$tmp/planted.log" 2>&1
rc=$?
cat "$tmp/planted.log"
expect "planted circles fail the check" test $rc -eq 1
expect "... a.c <-> b.c reported with the names each way" \
	grep -q 'src/a/a.c uses from src/a/b.c: b_fn' "$tmp/planted.log"
expect "... the circle of three reported whole" \
	grep -q 'file circle in src/c: src/c/c1.c src/c/c2.c src/c/c3.c' "$tmp/planted.log"
expect "... and files that use each other one way are not" sh -c "! grep -q 'src/d' '$tmp/planted.log'"
