#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/, built by make check when clang and
# libFuzzer are installed), each run briefly: FUZZ_CHECK_SECONDS (default
# 8) from its seed corpus.  `make fuzz` runs them longer.  Without clang
# the run is reported as not done (scripts/install-deps.sh installs it);
# CI must run it.
set -u
. "$(dirname "$0")/lib.sh"
bins=$(ls "$BUILD"/fuzz/bin/fuzz_* 2>/dev/null)
if [ -z "$bins" ]; then
	plan 1
	if [ "${CI:-}" = true ]; then
		fail "fuzz targets not built: CI must have clang and libFuzzer (scripts/install-deps.sh)"
	else
		skip "fuzz targets did not run: clang with libFuzzer is not installed (apt-get install clang libclang-rt-14-dev)"
	fi
	exit 0
fi
plan "$(echo "$bins" | wc -w)"
FUZZ_SECONDS=${FUZZ_CHECK_SECONDS:-8} BUILD=$BUILD SRCDIR=$SRCDIR "$SRCDIR/tests/fuzz/run.sh" $bins
