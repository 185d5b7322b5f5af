#!/usr/bin/env bash
# Run each fuzz target (build/fuzz/bin/fuzz_*) for FUZZ_SECONDS from its
# seed corpus (tests/fuzz/seeds.sh) plus what earlier runs kept in
# build/fuzz/corpus/<target>; prints one PASS or FAIL line per target (a
# crash, a leak or a sanitizer report is a FAIL, with the input that
# caused it kept in build/fuzz/artifacts/).
#   BUILD=... SRCDIR=... FUZZ_SECONDS=60 run.sh BIN...
set -u
secs=${FUZZ_SECONDS:-60}
root=$BUILD/fuzz
"$SRCDIR/tests/fuzz/seeds.sh" "$SRCDIR" "$root/seeds"
mkdir -p "$root/corpus" "$root/artifacts" "$root/logs"
for bin in "$@"; do
	name=$(basename "$bin")
	mkdir -p "$root/corpus/$name"
	log=$root/logs/$name.log
	# The simulator's scenarios include files relative to the directory of
	# their origin: run where the seeds' includes resolve.
	(cd "$SRCDIR/src/sim/scenarios" &&
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			"$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
			-artifact_prefix="$root/artifacts/$name-" -print_final_stats=1 \
			"$root/corpus/$name" "$root/seeds/$name") >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "PASS fuzz $name: ${runs:-?} inputs in ${secs} s, nothing found"
	else
		echo "FAIL fuzz $name: status $rc; input kept in $root/artifacts/ (log: $log)"
		grep -E 'ERROR|SUMMARY|runtime error|^    #[0-9]' "$log" | head -20
	fi
done
