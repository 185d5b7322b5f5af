#!/usr/bin/env bash
# PAPI's own high-level API tests with our event, as users run them:
# upstream ctests/pthread_hl (threads, each with the event set PAPI's HL
# makes for it) and ctests/omp_hl (OpenMP threads), built from the PAPI tree
# the build unpacked, with PAPI_EVENTS=hswep_unc_imc::UNC_M_CAS_COUNT:RD on
# the simulator: every run passes, none crashes (README "MPI jobs and threads";
# 50 runs in a row were verified by hand, `make check` runs 10 of each).
# Then PAPI_shutdown from one thread while 8 others are inside PAPI's
# high-level API (build/itests/papi_hl_shutdown: each round a process;
# papi-patches 50: before it, about one round in six crashed), also under
# AddressSanitizer and under ThreadSanitizer (PAPI's sources instrumented).
set -u
. "$(dirname "$0")/lib.sh"
plan 9
papi=$BUILD/papi/src
out=$BUILD/hl
mkdir -p "$out"
runs=${HL_RUNS:-10}
for t in pthread_hl omp_hl; do
	if [ ! -x "$out/$t" ] || [ "$STAGE/lib/libpapi.so" -nt "$out/$t" ]; then
		${CC:-cc} -O1 -fopenmp -I"$STAGE/include" -I"$papi/testlib" "$papi/ctests/$t.c" \
			"$papi/testlib/test_utils.c" "$papi/testlib/do_loops.c" -L"$STAGE/lib" -lpapi \
			-Wl,-rpath,"$STAGE/lib" -lpthread -o "$out/$t" 2>"$out/$t.build.log" ||
			{ fail "$t: cannot build it from $papi/ctests ($out/$t.build.log)"; continue; }
	fi
	tmp=$(mktemp -d)
	bad=0
	crash=0
	for i in $(seq "$runs"); do
		(cd "$tmp" && PAPI_INTEL_UNCORE_BACKEND=sim PAPI_EVENTS=hswep_unc_imc::UNC_M_CAS_COUNT:RD \
			OMP_NUM_THREADS=4 "$out/$t" >"$tmp/out" 2>&1)
		rc=$?
		[ $rc -ge 128 ] && crash=$((crash + 1))
		if [ $rc -ne 0 ] || ! grep -q PASSED "$tmp/out"; then
			bad=$((bad + 1))
			[ $bad -eq 1 ] && cp "$tmp/out" "$out/$t.failed.log"
		fi
	done
	expect "$t with PAPI_EVENTS=hswep_unc_imc::UNC_M_CAS_COUNT:RD: $runs runs pass ($bad failed, $crash crashed)" \
		test $bad -eq 0
	expect "  ... and PAPI's HL output names the event" \
		grep -rq 'hswep_unc_imc::UNC_M_CAS_COUNT:RD' "$tmp/papi_hl_output"
	rm -rf "$tmp"
done

hl_out=$(mktemp -d)
bin=$BUILD/itests/papi_hl_shutdown
if [ -x "$bin" ]; then
	expect "PAPI_shutdown racing 8 threads in PAPI_hl_region_begin/end, 50 rounds: no crash, a call after it fails, then PAPI_EMISC" \
		"$bin" 8 50 "$hl_out"
	expect "  ... 16 threads, 20 rounds" "$bin" 16 20 "$hl_out"
else
	fail "papi_hl_shutdown is not built: run make check"
fi
asan=$BUILD/asan-itests/papi_hl_shutdown
if [ -x "$asan" ]; then
	ASAN_OPTIONS=detect_leaks=0 expect "AddressSanitizer: PAPI_shutdown racing 8 threads in the high-level API, 20 rounds" \
		"$asan" 8 20 "$hl_out"
else
	fail "the sanitizer build of papi_hl_shutdown is missing ($asan): run make check"
fi
# any ThreadSanitizer report makes the round exit 66: "broke the contract"
tsan=$BUILD/tsan-itests/papi_hl_shutdown
if [ -x "$tsan" ]; then
	expect "ThreadSanitizer: PAPI_shutdown racing 8 threads in the high-level API, 10 rounds, no report" \
		"$tsan" 8 10 "$hl_out"
else
	fail "the ThreadSanitizer build of papi_hl_shutdown is missing ($tsan): run make check"
fi
expect "  ... and the high-level API wrote no output after it was deactivated" \
	test -z "$(ls -A "$hl_out")"
rm -rf "$hl_out"
