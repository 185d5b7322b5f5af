#!/usr/bin/env bash
# stage/ always holds the libpapi the build made (Makefile.in, "Staging"):
# * a libpapi.so relinked under build/papi after staging (newer than the
#   .staged marker) is staged again by `make stage`;
# * a staged libpapi.so that differs from the build's (a stale copy whose
#   marker is newer, as once after `make install` during make check) is
#   found by content and staged again;
# * a stage/ that matches the build is left alone.
set -u
. "$(dirname "$0")/lib.sh"
plan 3
built=$BUILD/papi/src/libpapi.so
staged=$STAGE/lib/libpapi.so
marker=$BUILD/papi/.staged
if [ ! -e "$built" ] || [ ! -e "$staged" ] || [ ! -f "$marker" ]; then
	fail "stage: $built, $staged or $marker is missing: run make check"
	exit 0
fi
real=$(readlink -f "$staged")
tmp=$(mktemp -d)
cp -p "$real" "$tmp/libpapi.so"
# Whatever happens, stage/ ends as it was: the other tests use it.
trap 'cmp -s "$tmp/libpapi.so" "$real" || cp -p "$tmp/libpapi.so" "$real"; rm -rf "$tmp"' EXIT

touch "$(readlink -f "$built")"
make -s -C "$SRCDIR" stage >"$tmp/out1" 2>&1
if grep -q "staging PAPI in" "$tmp/out1" && [ "$marker" -nt "$(readlink -f "$built")" ] && cmp -s "$built" "$staged"; then
	pass "stage: a libpapi.so newer than the .staged marker is staged again"
else
	fail "stage: a libpapi.so newer than the .staged marker was not staged again (make stage said: $(tr '\n' ' ' <"$tmp/out1"))"
fi

printf 'stale' >>"$real"
touch "$marker"
make -s -C "$SRCDIR" stage >"$tmp/out2" 2>&1
if grep -q "differ from the build's" "$tmp/out2" && cmp -s "$built" "$staged"; then
	pass "stage: a staged libpapi.so that differs from the build's is staged again, though its marker is newer"
else
	fail "stage: a stale staged libpapi.so survived make stage (make stage said: $(tr '\n' ' ' <"$tmp/out2"))"
fi

make -s -C "$SRCDIR" stage >"$tmp/out3" 2>&1
if grep -q -i "staging" "$tmp/out3"; then
	fail "stage: make stage staged PAPI again though stage/ matches the build ($(tr '\n' ' ' <"$tmp/out3"))"
else
	pass "stage: a stage/ that matches the build is left alone"
fi
