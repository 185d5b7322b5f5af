#!/usr/bin/env bash
# The test runner behind `make check`: runs unit test programs, the same
# programs built with AddressSanitizer + UndefinedBehaviorSanitizer, and the
# integration scripts; counts their PASS/FAIL/SKIP lines; ends with the
# summary line "N passed, N failed" (", N skipped" when a check could not
# run here, each SKIP line saying why) and a non-zero exit on any failure.
#
#   run-tests.sh [--unit "BINS"] [--sanitize "BINS"] [--integration "SCRIPTS"]
#
# A program or script that exits non-zero without printing a FAIL line (a
# crash, a sanitizer report) counts as one failure of its own.
set -u
passed=0
failed=0
skipped=0
failures=()
log_dir=${BUILD:-build}/test-logs
mkdir -p "$log_dir"

run_one() { # kind path [command...]
	local kind=$1 path=$2
	shift 2
	local name
	name=$(basename "$path")
	local log="$log_dir/$kind-$name.log"
	echo "-- $kind: $name"
	"$@" >"$log" 2>&1
	local rc=$?
	local p f k
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	k=$(grep -c '^SKIP ' "$log")
	grep -E '^(FAIL|SKIP) ' "$log" | sed 's/^/   /'
	if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
		# show the details of the failure
		grep -v -E '^(PASS|FAIL) |^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -40 | sed 's/^/   | /'
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		failed=$((failed + 1))
		echo "   FAIL $name exited with status $rc without reporting a failing case (log: $log)"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$k" -eq 0 ] && [ "$rc" -eq 0 ]; then
		failed=$((failed + 1))
		echo "   FAIL $name ran no test case (log: $log)"
	fi
	[ "$f" -gt 0 ] || [ "$rc" -ne 0 ] && failures+=("$kind/$name")
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

echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "Failing programs: ${failures[*]} (logs in $log_dir)"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
