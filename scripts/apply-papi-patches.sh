#!/usr/bin/env bash
# Apply papi-patches/*.patch, in name order, to the working copy of PAPI's
# source (patch -p1 from the directory that holds src/).  The files a patch
# touches are first restored from the pristine copy, so re-applying after a
# change is always clean.  What each patch does and why: papi-patches/README.
#
# Usage: apply-papi-patches.sh PATCH_DIR PRISTINE_PAPI WORK_PAPI
set -euo pipefail
patches=${1:?}; pristine=${2:?}; work=${3:?}
die() { echo "papi-uncore: error: $*" >&2; exit 1; }
[ -f "$work/src/papi.h" ] || die "$work is not a PAPI tree (no src/papi.h)"

shopt -s nullglob
for p in "$patches"/*.patch; do
	while read -r f; do
		if [ -f "$pristine/$f" ]; then cp -p "$pristine/$f" "$work/$f"; else rm -f "$work/$f"; fi
	done < <(sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$p")
done
for p in "$patches"/*.patch; do
	patch -d "$work" -p1 --batch --forward --quiet < "$p" || die "patch $(basename "$p") does not apply to $work"
	# PAPI's make must rebuild what the patch changed.
	sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$p" | while read -r f; do touch "$work/$f"; done
done
echo "== papi-uncore: PAPI patches applied to $work"
