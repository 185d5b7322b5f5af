#!/usr/bin/env bash
# `make soak` (issue 29): papi_soak for SOAK_SECONDS (default 600) with
# SOAK_THREADS (default 16) threads on each backend, under AddressSanitizer
# and under ThreadSanitizer (PAPI's own sources instrumented too): 0
# crashes, 0 sanitizer reports, 0 count mismatches.  Not part of make check
# (40 minutes); make check runs the short one (test_papi_soak.sh).
set -u
. "$(dirname "$0")/lib.sh"
plan 4
secs=${SOAK_SECONDS:-600}
threads=${SOAK_THREADS:-16}
seed=${SOAK_SEED:-$RANDOM}
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
for san in asan tsan; do
	bin=$BUILD/$san-itests/papi_soak
	if [ ! -x "$bin" ]; then
		fail "$bin is not built: run make soak"
		continue
	fi
	for kernel in "" perf; do
		label="$san, ${kernel:-direct} backend, $threads threads, $secs s"
		ASAN_OPTIONS=detect_leaks=0 PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel \
			run_checks "$label" "$bin" "$threads" "$secs" "$seed"
	done
done
