#!/usr/bin/env bash
# Bad build inputs fail early with a message that names the problem and the
# fix: a --with-papi-src that does not exist or is not PAPI 7, and a package
# archive that cannot be reached (simulated with a network namespace that
# has no network: unshare -n, as root).
set -u
. "$(dirname "$0")/lib.sh"
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# configure runs in a scratch copy so the real tree's config.status is untouched.
mkdir -p "$tmp/tree/src/common"
cp "$SRCDIR/configure" "$SRCDIR/Makefile.in" "$tmp/tree/"
cp "$SRCDIR/src/common/uncore_error.c" "$tmp/tree/src/common/"

(cd "$tmp/tree" && ./configure --with-papi-src=/nonexistent) >"$tmp/nonexistent.log" 2>&1
rc=$?
expect "configure --with-papi-src=/nonexistent fails" test $rc -ne 0
expect "... naming the directory and the fix" \
	grep -q 'with-papi-src=/nonexistent: no such directory.*omit --with-papi-src' "$tmp/nonexistent.log"

mkdir -p "$tmp/notpapi/src"
(cd "$tmp/tree" && ./configure --with-papi-src="$tmp/notpapi") >"$tmp/notpapi.log" 2>&1
expect "configure with a tree that is not PAPI fails" test $? -ne 0
expect "... saying src/papi.h is missing" grep -q 'is not a PAPI source tree: src/papi.h' "$tmp/notpapi.log"

mkdir -p "$tmp/papi6/src"
printf '#define PAPI_VERSION  \t\t\tPAPI_VERSION_NUMBER(6,0,0,1)\n' >"$tmp/papi6/src/papi.h"
touch "$tmp/papi6/src/configure"
(cd "$tmp/tree" && ./configure --with-papi-src="$tmp/papi6") >"$tmp/papi6.log" 2>&1
expect "configure with PAPI 6 fails" test $? -ne 0
expect "... naming the version" grep -q "holds PAPI major version '6'; papi-uncore needs PAPI 7" "$tmp/papi6.log"

(cd "$tmp/tree" && ./configure --with-papi-src="$BUILD/papi") >"$tmp/ok.log" 2>&1
expect "configure accepts a PAPI 7 tree" grep -q 'yes, PAPI 7' "$tmp/ok.log"

# No network: the source fetch is the first build step, and it stops with the fix.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	unshare -n "$SRCDIR/scripts/get-papi-source.sh" "$tmp/dl" >"$tmp/nonet.log" 2>&1
	expect "fetching PAPI without network fails" test $? -ne 0
	expect "... saying the archive is unreachable and how to fix it" \
		grep -q -E 'not reachable.*|--with-papi-src' "$tmp/nonet.log"
	expect "... and it downloaded nothing" test ! -e "$tmp/dl/papi/src/papi.h"
else
	fail "no-network check needs root and unshare(1) (util-linux); run make check as root"
fi
