#!/usr/bin/env bash
# timeout: 1800
# (Under CI's load, 8 busy processes on 2 CPUs, its 16-thread rounds took 288-690 s here;
# a hang is still caught.)
# Many event sets in one process (build/itests/papi_threads): 4, 8 and 16
# threads each with its own event set, started, read and stopped at once for
# hundreds of rounds, every value exactly the simulator's count over that
# set's own interval (shared and distinct encodings, sets starting at
# different times), on both backends.  Then PAPI_shutdown racing the other
# threads' PAPI_start/read/stop, round after round (papi_threads shutdown:
# the contract of papi-patches/README.md, the API gate of patch 30; without
# it PAPI_stop used the thread state PAPI_shutdown had freed, papi.c), on
# both backends, under AddressSanitizer and under ThreadSanitizer (PAPI's
# own sources instrumented too); the race below PAPI, in our library, is
# tests/unit/eventset/test_share.c.
set -u
. "$(dirname "$0")/lib.sh"
plan 12
bin=$BUILD/itests/papi_threads
need "$bin" || exit 0
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
for spec in "4 300" "8 200" "16 100"; do
	set -- $spec
	expect "$1 threads, $2 rounds: exact counts of each set's own interval" "$bin" count "$1" "$2"
done
PAPI_INTEL_UNCORE_SIM_KERNEL=perf expect "perf backend (simulated kernel): 8 threads, 100 rounds, exact" \
	"$bin" count 8 100

for spec in "4 100" "16 30"; do
	set -- $spec
	expect "PAPI_shutdown racing $1 threads' start/read/stop, $2 rounds: no crash, the calls after it fail with PAPI_ENOEVST, then exact counts" \
		"$bin" shutdown "$1" "$2"
done
PAPI_INTEL_UNCORE_SIM_KERNEL=perf expect "perf backend (simulated kernel): PAPI_shutdown racing 8 threads, 30 rounds" \
	"$bin" shutdown 8 30
asan=$BUILD/asan-itests/papi_threads
if [ -x "$asan" ]; then
	ASAN_OPTIONS=detect_leaks=0 expect "AddressSanitizer: PAPI_shutdown racing 8 threads, 30 rounds" "$asan" shutdown 8 30
else
	fail "the sanitizer build of papi_threads is missing ($asan): run make check"
fi
# ThreadSanitizer over PAPI's sources, the component and our library
# (build/papi-tsan: Makefile.in); any report fails the run (exit status 66).
tsan=$BUILD/tsan-itests/papi_threads
if [ -x "$tsan" ]; then
	expect "ThreadSanitizer: 8 threads, 50 rounds, exact counts, no report" "$tsan" count 8 50
	expect "ThreadSanitizer: PAPI_shutdown racing 8 threads, 10 rounds, no report" "$tsan" shutdown 8 10
	PAPI_INTEL_UNCORE_SIM_KERNEL=perf expect "ThreadSanitizer, perf backend: PAPI_shutdown racing 8 threads, 10 rounds" \
		"$tsan" shutdown 8 10
else
	fail "the ThreadSanitizer build of papi_threads is missing ($tsan): run make check"
fi
# Every function the gate renames (papi_api_gate.h) is exported under its
# public name, i.e. has its wrapper (papi_api_gate.c).
lib=$STAGE/lib/libpapi.so
missing=$(comm -23 <(nm -D --defined-only "$lib" | sed -n 's/.* _papi_ungated_\(PAPI_[A-Za-z_0-9]*\)$/\1/p' | sort) \
	<(nm -D --defined-only "$lib" | sed -n 's/.* \(PAPI_[A-Za-z_0-9]*\)$/\1/p' | sort))
gated=$(nm -D --defined-only "$lib" | grep -c ' _papi_ungated_PAPI_')
expect "the API gate: $gated PAPI functions gated, each exported under its public name${missing:+ (missing: $missing)}" \
	test "$gated" -gt 60 -a -z "$missing"
