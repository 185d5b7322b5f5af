#!/usr/bin/env bash
# No layer outside src/platform/ (nor scripts/first-machine.sh) asks which processor it is on: every one
# reads the generation's platform object (scripts/check-platform-tests.py,
# issue 25).  The checker must also catch each kind of platform test: one
# of each is planted in a scratch copy of the tree and must be reported
# with its file and line.
set -u
. "$(dirname "$0")/lib.sh"
plan 14
check="$SRCDIR/scripts/check-platform-tests.py"
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$check" "$SRCDIR" >"$tmp/tree.log" 2>&1
rc=$?
sed 's/^/  /' "$tmp/tree.log"
expect "no platform test outside src/platform/ (scripts/check-platform-tests.py)" test $rc -eq 0

mkdir -p "$tmp/tree/components" "$tmp/tree/scripts"
cp -r "$SRCDIR/src" "$SRCDIR/utils" "$SRCDIR/mpi" "$tmp/tree/"
cp "$SRCDIR/scripts/first-machine.sh" "$tmp/tree/scripts/"
cp -r "$SRCDIR/components/intel_uncore" "$tmp/tree/components/"
while IFS='|' read -r kind file line; do
	cp "$SRCDIR/$file" "$tmp/planted.c"
	printf '%s\n' "$line" >>"$tmp/tree/$file"
	"$py" "$check" "$tmp/tree" >"$tmp/planted.log" 2>&1
	rc=$?
	n=$(wc -l <"$SRCDIR/$file")
	expect "a planted $kind test in $file fails the check, named with its line" \
		grep -q "^$file:$((n + 1)): $kind: " "$tmp/planted.log"
	expect "... with exit status 1 ($rc)" test $rc -eq 1
	cp "$tmp/planted.c" "$tmp/tree/$file"
done <<'PLANT'
id|src/bind/component.c|static int planted(int id) { return id == UNCORE_PLATFORM_SKL; }
name|utils/uncore-stat/stat_groups.c|static int planted(const char *p) { return strcmp(p, "hswep") == 0; }
object|src/presets/presets.c|static int planted(const struct uncore_platform *p) { return p == &uncore_platform_nhm; }
flag|mpi/mpi_events.c|static int planted(int skl) { if (skl) return 1; return 0; }
shell|scripts/first-machine.sh|[ "$name" = bdx ] && echo planted
shell|scripts/first-machine.sh|case $name in nhm | wsm) echo planted ;; esac
PLANT
# A comment or a string that merely names a generation is no test.
printf '/* hswep: UNCORE_PLATFORM_HSWEP, if (skl) */\nstatic const char *planted = "x7400";\n' \
	>>"$tmp/tree/src/bind/component.c"
"$py" "$check" "$tmp/tree" >"$tmp/quiet.log" 2>&1
expect "a comment and a data string naming a generation pass" test $? -eq 0
