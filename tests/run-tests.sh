#!/usr/bin/env bash
# The test runner behind `make check`: runs unit test programs, the same
# programs built with AddressSanitizer + UndefinedBehaviorSanitizer, and the
# integration scripts; counts their PASS, FAIL and SKIP lines (the protocol
# is in tests/README.md) and ends with the summary line
# "N passed, N failed, N skipped" and a non-zero exit on any failure.
#
#   run-tests.sh [--unit "BINS"] [--sanitize "BINS"] [--integration "SCRIPTS"]
#
# The verdict is the programs' verdict: besides its FAIL lines, a program
# fails by name when it exits non-zero, dies of a signal, reports a
# sanitizer error, reports nothing at all, runs past its time bound (a hang
# guard, not a speed test), or - an integration script - reports fewer
# checks than it declares (`plan N`, tests/integration/lib.sh), or more
# while passing (a plan that no longer counts what the script checks).  A SKIP-DEP
# line (a prerequisite that scripts/install-deps.sh installs, or
# ../shared/seeds) is a skip on a developer's machine and a failure when
# CI=true.  A SKIP line must give its reason ("SKIP what: why").  Where
# the runner may mount (root: CI, our machines), every program runs with a
# /dev/shm of its own (a private tmpfs, unshare -m) and fails by name when
# it leaves anything there: simulator instances, their .locks directories
# and the simulated kernels' trees belong to the test that made them.
#
# Environment:
#   TEST_TIMEOUT=S   one bound for every program (overrides the two below)
#   TEST_TIMEOUT_UNIT=S         unit and sanitizer programs (default 30 s)
#   TEST_TIMEOUT_INTEGRATION=S  integration scripts (default 900 s; a script
#                    may declare a longer bound with a "# timeout: S" line)
#   TEST_LOAD=N      start N busy processes for the run (killed at its end):
#                    the suite must give the same verdicts on a loaded machine
#   TEST_LOG_DIR     where each program's output goes (build/test-logs)
set -u
passed=0
failed=0
skipped=0
failures=()
skips=()
log_dir=${TEST_LOG_DIR:-${BUILD:-build}/test-logs}
in_ci=0
[ "${CI:-}" = true ] && in_ci=1
mkdir -p "$log_dir"
: >"$log_dir/times.txt"

# Busy processes for TEST_LOAD, ended by their process ids when the runner
# exits (however it exits).
load_pids=()
end_load() {
	if [ ${#load_pids[@]} -gt 0 ]; then
		kill "${load_pids[@]}" 2>/dev/null
		wait "${load_pids[@]}" 2>/dev/null
	fi
	load_pids=()
}
trap end_load EXIT
trap 'end_load; exit 130' INT TERM
load=${TEST_LOAD:-0}
case $load in '' | *[!0-9]*)
	echo "run-tests.sh: TEST_LOAD=$load is not a number of processes" >&2
	exit 2 ;;
esac
if [ "$load" -gt 0 ]; then
	for _ in $(seq "$load"); do
		bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
		load_pids+=($!)
	done
	echo "== TEST_LOAD=$load: $load busy processes beside the tests ($(nproc) CPUs)"
fi

# A private /dev/shm per program when this machine allows it (the probe
# mounts in a namespace of its own: nothing outside sees it).
private_shm=0
if command -v unshare >/dev/null &&
	unshare -m sh -c 'mount -t tmpfs -o mode=1777 run-tests-shm /dev/shm' 2>/dev/null; then
	private_shm=1
fi
# in_private_shm LEFT command...: run command in a fresh, empty /dev/shm;
# what it leaves there is listed in file LEFT.  Its exit status is the
# command's.
in_private_shm() {
	local left=$1
	shift
	unshare -m bash -c 'mount -t tmpfs -o mode=1777 run-tests-shm /dev/shm || exit 125
		left=$1; shift
		"$@"; rc=$?
		ls -A /dev/shm >"$left"
		exit $rc' in_private_shm "$left" "$@"
}

signal_name() { # exit status 128+N -> SIGxxx
	local n
	n=$(kill -l "$(($1 - 128))" 2>/dev/null) && echo "SIG$n" || echo "signal $(($1 - 128))"
}

# The time bound of one program: TEST_TIMEOUT, else the kind's default, an
# integration script's own "# timeout: S" declaration taking precedence.
bound_of() { # kind path
	if [ -n "${TEST_TIMEOUT:-}" ]; then
		echo "$TEST_TIMEOUT"
		return
	fi
	if [ "$1" = integration ]; then
		local own
		own=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$2" | head -1)
		echo "${own:-${TEST_TIMEOUT_INTEGRATION:-900}}"
	else
		echo "${TEST_TIMEOUT_UNIT:-30}"
	fi
}

run_one() { # kind path command...
	local kind=$1 path=$2
	shift 2
	local name bound
	name=$(basename "$path")
	bound=$(bound_of "$kind" "$path")
	local log="$log_dir/$kind-$name.log"
	echo "-- $kind: $name"
	local t0=$SECONDS
	local left="$log.shm-left"
	rm -f "$left"
	if [ "$private_shm" = 1 ]; then
		timeout -k 10 "$bound" bash -c "$(declare -f in_private_shm); in_private_shm \"\$@\"" \
			run-tests "$left" "$@" >"$log" 2>&1
	else
		timeout -k 10 "$bound" "$@" >"$log" 2>&1
	fi
	local rc=$?
	echo "$((SECONDS - t0)) $kind/$name" >>"$log_dir/times.txt"
	local p f s d plan own=0 why=()
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	s=$(grep -c '^SKIP ' "$log")
	d=$(grep -c '^SKIP-DEP ' "$log")
	plan=$(awk '/^PLAN [0-9]+$/ { n += $2; seen = 1 } END { print seen ? n : "" }' "$log")
	grep -E '^(FAIL|SKIP|SKIP-DEP) ' "$log" | sed 's/^/   /'
	# A verdict of the program's own, on top of its FAIL lines.
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why+=("did not finish within $bound s (a hang; the bound: tests/README.md)")
	elif [ "$rc" -gt 128 ] && [ "$rc" -le 192 ]; then
		why+=("was killed by $(signal_name "$rc") (exit status $rc)")
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		why+=("exited with status $rc without reporting a failing case")
	fi
	if grep -q -E '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|: runtime error: ' "$log"; then
		why+=("reported a sanitizer error")
	fi
	if [ -s "$left" ]; then
		why+=("left $(wc -l <"$left") file(s) in /dev/shm: $(head -5 "$left" | tr '\n' ' ')")
	fi
	rm -f "$left"
	if [ $((p + f + s + d)) -eq 0 ]; then
		why+=("reported no test case (no PASS, FAIL or SKIP line)")
	fi
	if [ "$kind" = integration ]; then
		if [ -z "$plan" ]; then
			why+=("declares no number of checks (plan N, tests/integration/lib.sh)")
		elif [ $((p + f + s + d)) -lt "$plan" ]; then
			why+=("reported $((p + f + s + d)) of the $plan checks it declares: it stopped early")
		elif [ "$f" -eq 0 ] && [ $((p + s + d)) -gt "$plan" ]; then
			# A check no plan counts could hide a missing one.
			why+=("reported $((p + s + d)) checks, more than the $plan it declares: update its plan")
		fi
	fi
	local noreason
	noreason=$(grep -c -E '^SKIP [^:]*$' "$log")
	if [ "$noreason" -gt 0 ]; then
		why+=("skipped $noreason check(s) without a reason (SKIP what: why)")
	fi
	if [ "$in_ci" = 1 ] && [ "$d" -gt 0 ]; then
		why+=("skipped $d check(s) whose prerequisite CI must provide (CI=true; scripts/install-deps.sh installs packages, seeds come from ../shared)")
	fi
	if [ ${#why[@]} -gt 0 ] || [ "$f" -gt 0 ]; then
		# show the details of the failure
		grep -v -E '^(PASS|FAIL|SKIP|SKIP-DEP|PLAN) |^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" |
			tail -40 | sed 's/^/   | /'
	fi
	for w in "${why[@]}"; do
		echo "   FAIL $name $w (log: $log)"
		own=$((own + 1))
	done
	passed=$((passed + p))
	failed=$((failed + f + own))
	if [ "$in_ci" = 1 ]; then
		skipped=$((skipped + s))
	else
		skipped=$((skipped + s + d))
	fi
	while IFS= read -r line; do
		skips+=("$kind/$name: $line")
	done < <(grep -E '^(SKIP|SKIP-DEP) ' "$log")
	[ "$f" -gt 0 ] || [ "$own" -gt 0 ] && failures+=("$kind/$name")
	return 0
}

while [ $# -gt 0 ]; do
	case $1 in
	--unit)
		for t in $2; do run_one unit "$t" "$t"; done
		shift 2 ;;
	--sanitize)
		for t in $2; do
			ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
				run_one sanitize "$t" "$t"
		done
		shift 2 ;;
	--integration)
		for t in $2; do run_one integration "$t" bash "$t"; done
		shift 2 ;;
	*)
		echo "run-tests.sh: unknown option $1" >&2
		exit 2 ;;
	esac
done
end_load

echo
if [ ${#skips[@]} -gt 0 ]; then
	echo "Skipped checks (${#skips[@]}), each with its reason:"
	printf '   %s\n' "${skips[@]}"
fi
if [ ${#failures[@]} -gt 0 ]; then
	echo "Failing programs: ${failures[*]} (logs in $log_dir)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
