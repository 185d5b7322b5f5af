#!/usr/bin/env bash
# Our event encoder (src/events) against the staged libpfm4 built from the
# same tables: every event with defaults, each unit mask, pairs of unit masks
# and each modifier at its bounds must encode the same in both, apart from
# the documented deviations (events_vs_libpfm4.c).  LIBPFM_ENCODE_INACTIVE=1:
# no uncore hardware needed.
set -u
. "$(dirname "$0")/lib.sh"
plan 22
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

lib=$STAGE/lib/libpfm.a
ours=$BUILD/lib/libintel_uncore.a
if [ ! -f "$STAGE/include/perfmon/pfmlib.h" ] || [ ! -f "$lib" ] || [ ! -f "$ours" ]; then
	fail "libpfm4 or our library not built ($lib, $ours): run make"
	exit 0
fi
bin=$tmp/events_vs_libpfm4
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/src" -I"$SRCDIR/libpfm4-events" \
	-I"$STAGE/include" "$here/events_vs_libpfm4.c" "$ours" "$lib" -lm -o "$bin" >"$tmp/cc.log" 2>&1; then
	fail "events_vs_libpfm4 does not build"
	cat "$tmp/cc.log"
	exit 0
fi
LIBPFM_ENCODE_INACTIVE=1 "$bin"
