#!/usr/bin/env bash
# Copy the PAPI front-end (components/intel_uncore), the library object and
# the library headers into PAPI's src/components/intel_uncore.  Only changed
# files are copied, so PAPI's make rebuilds only what changed.
#
# Usage: sync-component.sh SRCDIR LIB_OBJECT DEST
set -euo pipefail
srcdir=${1:?}; libobj=${2:?}; dest=${3:?}
# Absolute: the copies below run from inside the source tree.
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
libobj=$(cd "$(dirname "$libobj")" && pwd)/$(basename "$libobj")
copy_changed() { mkdir -p "$(dirname "$2")"; cmp -s "$1" "$2" || cp "$1" "$2"; }
cd "$srcdir/components/intel_uncore"
while IFS= read -r f; do copy_changed "$f" "$dest/$f"; done < <(find . -type f)
copy_changed "$libobj" "$dest/lib/intel_uncore_lib.o"
cd "$srcdir/src"
while IFS= read -r f; do copy_changed "$f" "$dest/lib/include/$f"; done < <(find . -name '*.h')
