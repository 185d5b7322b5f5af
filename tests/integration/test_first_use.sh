#!/usr/bin/env bash
# Start-up that costs nothing when unused (bench/README.md, start-up): on
# this machine's kernel PMUs (no uncore tables) PAPI_library_init opens no
# PMU format or alias file and no perf event (strace), and the discovery it
# leaves to the first use is raced by threads making that first call at
# once (build/itests/papi_first_use: every call succeeds, one code for the
# event in every thread, the event count PAPI_library_init announced is
# the one enumerated), also under ThreadSanitizer; on the simulator, which
# binds at start-up, the same calls hold.
set -u
. "$(dirname "$0")/lib.sh"
plan 6
bin=$BUILD/itests/papi_first_use
tsan=$BUILD/tsan-itests/papi_first_use
need "$bin" || exit 0
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# race LABEL BIN THREADS EVENT: 2 (component disabled here) is a skip.
race() {
	local label=$1
	shift
	"$@" >"$tmp/out" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then
		pass "$label: $(tail -1 "$tmp/out")"
	elif [ $rc -eq 2 ]; then
		skip "$label: $(cat "$tmp/out")"
	else
		fail "$label (exit status $rc)"
		sed 's/^/   /' "$tmp/out"
	fi
}

(
	unset PAPI_INTEL_UNCORE_BACKEND
	race "kernel PMUs, 8 threads' first calls at once" "$bin" 8 software::cpu-clock
	race "kernel PMUs, 16 threads' first calls at once" "$bin" 16 software::cpu-clock
	if [ -x "$tsan" ]; then
		race "ThreadSanitizer: kernel PMUs, 8 threads' first calls at once" "$tsan" 8 \
			software::cpu-clock
	else
		fail "the ThreadSanitizer build of papi_first_use is missing ($tsan): run make check"
	fi
)
PAPI_INTEL_UNCORE_BACKEND=sim race "simulator (bound at start-up), 8 threads" "$bin" 8 \
	hswep_unc_cbo::UNC_C_CLOCKTICKS
PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=spr race \
	"simulated kernel without tables, 8 threads" "$bin" 8 uncore_imc::cas_count_read

# What PAPI_library_init costs us on this machine, in system calls.
if ! command -v strace >/dev/null; then
	skip_dep "start-up system calls: strace is not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
env -u PAPI_INTEL_UNCORE_BACKEND strace -f -qq -e trace=openat,perf_event_open -o "$tmp/trace" \
	"$bin" 0 - >"$tmp/init" 2>&1
rc=$?
if { [ $rc -ne 0 ] && [ $rc -ne 2 ]; } || [ ! -s "$tmp/trace" ]; then
	fail "start-up system calls: strace of papi_first_use 0 recorded nothing"
	sed 's/^/   /' "$tmp/init"
	exit 0
fi
files=$(grep -c -E 'openat\(.*/bus/event_source/devices/[^/"]+/(format|events)/[^"]+"' "$tmp/trace")
cpuwide=$(grep -c -E 'perf_event_open\(.*\}, -1, [0-9]+,' "$tmp/trace")
if [ "$files" -eq 0 ] && [ "$cpuwide" -eq 0 ]; then
	pass "PAPI_library_init opens no PMU format or alias file and no CPU-wide perf event"
else
	fail "PAPI_library_init opened $files PMU format/alias files and $cpuwide CPU-wide perf events"
	grep -E 'event_source/devices/[^/"]+/(format|events)/|perf_event_open\(.*\}, -1, [0-9]+,' \
		"$tmp/trace" | sed 's/^/   /'
fi
