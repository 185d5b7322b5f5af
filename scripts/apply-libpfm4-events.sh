#!/usr/bin/env bash
# Apply our libpfm4 event tables to a working copy of PAPI's bundled libpfm4.
#   libpfm4-events/events/*.h   -> lib/events/     (event tables, libpfm4 format)
#   libpfm4-events/lib/*.[ch]   -> lib/            (PMU glue that registers them)
#   libpfm4-events/patches/*.patch, in name order, applied with patch -p1 to
#   the libpfm4 tree after the files they touch are restored from the
#   pristine copy, so re-applying after a change is always clean.
# Then the stale libpfm objects are removed so PAPI's build rebuilds them.
#
# Usage: apply-libpfm4-events.sh EVENTS_DIR PRISTINE_LIBPFM4 WORK_LIBPFM4
set -euo pipefail
events=${1:?}; pristine=${2:?}; work=${3:?}
die() { echo "papi-uncore: error: $*" >&2; exit 1; }
[ -d "$work/lib" ] || die "$work is not a libpfm4 tree (no lib/)"

copy_changed() { cmp -s "$1" "$2" || cp "$1" "$2"; }

shopt -s nullglob
for p in "$events"/patches/*.patch; do
	# Restore every file the patch touches ("+++ b/path").
	while read -r f; do
		if [ -f "$pristine/$f" ]; then cp "$pristine/$f" "$work/$f"; else rm -f "$work/$f"; fi
	done < <(sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$p")
done
for f in "$events"/events/*.h; do copy_changed "$f" "$work/lib/events/$(basename "$f")"; done
for f in "$events"/lib/*.c "$events"/lib/*.h; do copy_changed "$f" "$work/lib/$(basename "$f")"; done
for p in "$events"/patches/*.patch; do
	patch -d "$work" -p1 --batch --forward --quiet < "$p" || die "patch $(basename "$p") does not apply to $work"
done
rm -f "$work"/lib/*.o "$work"/lib/*.lo "$work"/lib/libpfm.a "$work"/lib/libpfm.so*
echo "== papi-uncore: libpfm4 tables applied to $work"
