#!/usr/bin/env bash
# The environment variables are documented in one place (README
# "Environment variables") and read in one place: the library's in
# src/bind/settings.c (read once when the component opens), the MPI
# library's and the utilities' their own.  The table must list exactly
# what the code reads, and no other file of src/ or of the front-end may
# call getenv.  The check itself is checked on planted copies.
set -u
. "$(dirname "$0")/lib.sh"
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

documented() { # documented README: the table's variable names, sorted
	awk '/^## Environment variables/ { on = 1; next } /^## / { on = 0 }
	     on && /^\| `[A-Z_]+` \|/ { sub(/^\| `/, ""); sub(/`.*/, ""); print }' "$1" | sort -u
}

read_by_code() { # read_by_code TREE: names the code reads, sorted
	local tree=$1
	{
		# The library: the rows of settings.c's table.
		grep -o '{"[A-Z_]*", offsetof' "$tree/src/bind/settings.c" | sed 's/{"//; s/".*//'
		# The MPI library and the utilities: getenv("NAME") or getenv(MACRO).
		grep -rhoE 'getenv\(("[A-Z_]+"|[A-Z_]+)\)' "$tree/mpi" "$tree/utils" --include='*.c' |
			sed -E 's/getenv\(//; s/\)$//' | while read -r n; do
				case $n in
				\"*) echo "$n" | tr -d '"' ;;
				*) grep -rhoE "#define[[:space:]]+$n[[:space:]]+\"[A-Z_]+\"" \
					"$tree/mpi" "$tree/utils" "$tree/src" | grep -oE '"[A-Z_]+"' | tr -d '"' ;;
				esac
			done
	} | sort -u
}

stray_getenv() { # stray_getenv TREE: library files other than settings.c calling getenv
	grep -rlE '\bgetenv\(' "$1/src" "$1/components" --include='*.[ch]' --exclude-dir=build |
		grep -v '/src/bind/settings.c$'
}

check_tree() { # check_tree TREE LABEL
	documented "$1/README.md" >"$tmp/doc.txt"
	read_by_code "$1" >"$tmp/code.txt"
	diff "$tmp/doc.txt" "$tmp/code.txt" >"$tmp/diff.txt"
	stray_getenv "$1" >"$tmp/stray.txt"
	test ! -s "$tmp/diff.txt" && test ! -s "$tmp/stray.txt" && test -s "$tmp/doc.txt"
}

check_tree "$SRCDIR" tree
rc=$?
echo "   documented: $(tr '\n' ' ' <"$tmp/doc.txt")"
sed 's/^/   /' "$tmp/diff.txt" "$tmp/stray.txt"
expect "README's environment table lists exactly what the code reads; only settings.c reads the library's" test $rc -eq 0

# Planted: a variable read but not documented, one documented but not
# read, a getenv below bind/.
plant() {
	rm -rf "$tmp/p"
	mkdir -p "$tmp/p"
	cp -r "$SRCDIR/src" "$SRCDIR/components" "$SRCDIR/mpi" "$SRCDIR/utils" "$SRCDIR/README.md" "$tmp/p/"
}
plant
sed -i 's|^\(    {"TMPDIR", offsetof.*\)$|\1\n    {"PAPI_INTEL_UNCORE_PLANTED", offsetof(struct uncore_settings, tmpdir)},|' "$tmp/p/src/bind/settings.c"
check_tree "$tmp/p"
expect "a variable read but not in the table fails the check" test $? -ne 0
expect "... naming it" grep -q '> PAPI_INTEL_UNCORE_PLANTED' "$tmp/diff.txt"
plant
sed -i 's/^| `PAPI_INTEL_UNCORE_POLL` |/| `PAPI_INTEL_UNCORE_POLL` |\n| `PAPI_INTEL_UNCORE_GONE` | planted |/' "$tmp/p/README.md"
check_tree "$tmp/p"
expect "a documented variable nothing reads fails the check" grep -q '< PAPI_INTEL_UNCORE_GONE' "$tmp/diff.txt"
plant
printf 'static const char *planted(void) { return getenv("HOME"); }\n' >>"$tmp/p/src/eventset/clock.c"
check_tree "$tmp/p"
expect "a getenv outside settings.c fails the check, naming the file" grep -q 'src/eventset/clock.c' "$tmp/stray.txt"
