#!/usr/bin/env bash
# Every tool answers --version with configure.ac's release; every manual page
# (man/) renders without a warning and names every option the tool's --help
# names.  (`man uncore-stat` after `make install`: test_one_papi.sh; the bash
# completion: test_completion.sh.)
set -u
. "$(dirname "$0")/lib.sh"
plan 27
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL

release=$(sed -n 's/^AC_INIT(\[papi-uncore\], \[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
expect "configure.ac names a release ($release)" test -n "$release"
expect "src/common/version.h has the same release" \
	grep -q "PAPI_UNCORE_VERSION \"$release\"" "$SRCDIR/src/common/version.h"
for t in uncore-stat uncore-sim uncore-msr-allowlist; do
	out=$("$STAGE/bin/$t" --version 2>&1)
	expect "$t --version: '$out'" test "$out" = "$t (papi-uncore) $release"
	page=$SRCDIR/man/$t.1
	expect "$t has a manual page" test -f "$page"
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warn"
	expect "man/$t.1 renders without warnings ($(head -c 200 "$tmp/warn"))" test ! -s "$tmp/warn"
	expect "... and says the release" grep -q "papi-uncore $release" "$page"
	# Every long option of --help is in the page.
	missing=
	for opt in $("$STAGE/bin/$t" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "${opt//-/\\\\-}" "$page" || grep -q -- "$opt" "$page" || missing="$missing $opt"
	done
	expect "man/$t.1 documents every option of --help (missing:${missing:- none})" test -z "$missing"
done
# uncored, the node service: in sbin, its page in section 8.
out=$("$STAGE/sbin/uncored" --version 2>&1)
expect "uncored --version: '$out'" test "$out" = "uncored (papi-uncore) $release"
page=$SRCDIR/man/uncored.8
expect "uncored has a manual page (section 8)" test -f "$page"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warn"
expect "man/uncored.8 renders without warnings ($(head -c 200 "$tmp/warn"))" test ! -s "$tmp/warn"
expect "... and says the release" grep -q "papi-uncore $release" "$page"
missing=
for opt in $("$STAGE/sbin/uncored" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "${opt//-/\\\\-}" "$page" || grep -q -- "$opt" "$page" || missing="$missing $opt"
done
expect "man/uncored.8 documents every option of --help (missing:${missing:- none})" test -z "$missing"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$SRCDIR/man/intel_uncore.7" >"$tmp/page" 2>"$tmp/warn"
expect "man/intel_uncore.7 renders without warnings" test ! -s "$tmp/warn"
expect "... and gives the event syntax" grep -q 'EVENT SYNTAX' "$tmp/page"
expect "the staged tree has the pages (MANPATH=stage/share/man)" \
	bash -o pipefail -c "MANPATH='$STAGE/share/man' man -w uncore-stat | grep '$STAGE/share/man/man1/uncore-stat.1' >/dev/null"
for page in uncore-stat "7 intel_uncore"; do
	# shellcheck disable=SC2086 # "7 intel_uncore" is a section and a name
	expect "man $page finds the staged page with stage/bin on PATH, as the README says" \
		bash -o pipefail -c "PATH='$STAGE/bin':\$PATH man -w $page | grep '^$STAGE/share/man/' >/dev/null"
done

