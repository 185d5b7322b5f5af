#!/usr/bin/env bash
# Every state an event set reaches has a way out (issue 29), through PAPI
# on the simulator (build/itests/papi_stuck): a set started next to one
# whose metric's filter settings take turns is refused at PAPI_start or
# reads and stops like the other (never a conflict at a read or stop);
# PAPI_shutdown after threads unregistered with their sets running (PAPI
# 7.0 crashed there: papi-patches/70-...); fork while other threads read
# (the child hung on the hub's lock; src/eventset/fork.h, papi-patches/80-...):
# 100 of 100 children count; both backends, and under AddressSanitizer.
set -u
. "$(dirname "$0")/lib.sh"
plan 32
bin=$BUILD/itests/papi_stuck
asan=$BUILD/asan-itests/papi_stuck
need "$bin" "$asan" || exit 0
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
for kernel in "" perf; do
	label=${kernel:+perf backend (simulated kernel): }
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "${label}stop conflict, A needs one of B's filter settings" "$bin" stop-conflict
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "${label}stop conflict, A needs no filter" "$bin" stop-conflict fits
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "${label}a set that does not fit" "$bin" full
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "${label}PAPI_shutdown after unregistered threads" "$bin" unregistered 8
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "${label}fork while reading" "$bin" fork 100
done
ASAN_OPTIONS=detect_leaks=0 run_checks "AddressSanitizer: stop conflict" "$asan" stop-conflict
ASAN_OPTIONS=detect_leaks=0 run_checks "AddressSanitizer: PAPI_shutdown after unregistered threads" "$asan" unregistered 8
ASAN_OPTIONS=detect_leaks=0 run_checks "AddressSanitizer: fork while reading" "$asan" fork 20
