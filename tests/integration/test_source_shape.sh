#!/usr/bin/env bash
# Small files with one job each (../shared/STYLE.md, issue 10): no source
# file of the library, the front-end or the utilities over 1,000 lines, and
# no section-banner comments ("/* ---- lexer ---- */") standing in for a
# split.  The check itself is checked on a planted tree.
set -u
. "$(dirname "$0")/lib.sh"
plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
max_lines=1000

shape() { # shape DIR...: print offending files, one per line
	find "$@" -name '*.[ch]' -print0 | xargs -0 -r awk -v max="$max_lines" '
		FNR == 1 && NR > 1 && n > max { print prev ": " n " lines" }
		FNR == 1 { n = 0 }
		{ n++; prev = FILENAME }
		/^[ \t]*\/\*[ \t]*(---|===).*(---|===)[ \t]*\*\/[ \t]*$/ { print FILENAME ":" FNR ": banner comment" }
		END { if (n > max) print prev ": " n " lines" }'
}

shape "$SRCDIR/src" "$SRCDIR/components" "$SRCDIR/utils" >"$tmp/tree.txt"
cat "$tmp/tree.txt"
expect "no source file over $max_lines lines, no banner comment (src/, components/, utils/)" \
	test ! -s "$tmp/tree.txt"

mkdir -p "$tmp/planted"
seq 1 1001 | sed 's|^|/* line |; s|$| */|' >"$tmp/planted/long.c"
printf 'int a;\n/* ---- parser ---------- */\nint b;\n' >"$tmp/planted/banner.c"
printf 'int c;\n' >"$tmp/planted/fine.c"
shape "$tmp/planted" >"$tmp/planted.txt"
expect "a 1001-line file is caught" grep -q 'long.c: 1001 lines' "$tmp/planted.txt"
expect "a banner comment is caught, with its line" grep -q 'banner.c:2: banner comment' "$tmp/planted.txt"
expect "nothing else is reported" test "$(wc -l <"$tmp/planted.txt")" -eq 2
