#!/usr/bin/env bash
# PAPI-level programs under AddressSanitizer + UndefinedBehaviorSanitizer:
# the component's test program, the exact-count and audit programs, the
# metrics check and the lock test's two processes, each built with the
# sanitizers against build/papi-asan (a libpapi.so whose intel_uncore
# library is the sanitizer build of src/; PAPI's own sources are not
# instrumented).  Any sanitizer report fails the program (the runner reads
# "ERROR: AddressSanitizer" and "runtime error:" in the log).  Leak
# detection is off here: PAPI keeps allocations until exit that are not
# ours; our library's leaks are found by the unit programs' sanitizer run.
set -u
. "$(dirname "$0")/lib.sh"
plan 90
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
papi=$BUILD/papi-asan/src
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export SRCDIR
scn=$SRCDIR/src/sim/scenarios

if [ ! -e "$papi/libpapi.so" ]; then
	fail "the sanitizer build of libpapi is missing ($papi/libpapi.so): run make check"
	exit 0
fi

t=$BUILD/asan-ctests/intel_uncore_basic
if [ -x "$t" ]; then
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_SCENARIO="$scn/demo-stream.scn" \
		run_checks "asan component test, sim" "$t"
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=perf \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$scn/demo-stream.scn" \
		run_checks "asan component test, sim+perf" "$t"
else
	fail "the sanitizer build of intel_uncore_basic is missing ($t)"
fi

bin=$BUILD/asan-itests
for p in papi_counts papi_audit; do
	[ -x "$bin/$p" ] || fail "the sanitizer build of $p is missing ($bin/$p)"
done
run_checks "asan papi_counts e5-2699v3-2s" "$bin/papi_counts" e5-2699v3-2s
run_checks "asan papi_counts e5-2620v3-2s" "$bin/papi_counts" e5-2620v3-2s
run_checks "asan papi_audit" "$bin/papi_audit" 500 7 e7-8890v3-4s

# The metrics through PAPI, both backends (the program of test_metrics_papi.sh),
# with the sanitizer build's libpapi as DT_RPATH, which an LD_LIBRARY_PATH
# of the run (make coverage's) does not override (Makefile.in, SAN_RPATH).
m=$tmp/metrics_papi_check
if ${CC:-cc} -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wall -Wextra -Werror -I"$SRCDIR/src" -I"$SRCDIR/libpfm4-events" \
	-I"$STAGE/include" "$here/metrics_papi_check.c" "$BUILD/lib/libintel_uncore_asan.a" \
	-L"$papi" -lpapi -Wl,--disable-new-dtags -Wl,-rpath,"$papi" -lpthread -lm -ldl -o "$m" >"$tmp/cc.log" 2>&1; then
	run_checks "asan metrics, direct backend" "$m" "$scn"
	PAPI_INTEL_UNCORE_SIM_KERNEL=perf run_checks "asan metrics, perf backend" "$m" "$scn"
else
	fail "metrics_papi_check does not build with the sanitizers"
	cat "$tmp/cc.log"
fi

# The library in this run is the sanitizer build: a deliberate bad access
# would be reported (so the instrumentation is really there).
if nm -D "$papi/libpapi.so" | grep '__asan_report' >/dev/null; then
	pass "libpapi.so of the sanitizer build calls AddressSanitizer"
else
	fail "libpapi.so of the sanitizer build has no AddressSanitizer instrumentation"
fi
