#!/usr/bin/env bash
# Memory: valgrind over event-set life cycles through PAPI (build/itests/
# papi_cycles: create, add events and a metric, start, read, stop, cleanup,
# destroy, counts checked) and over uncore-stat on the simulator.  Nothing
# may be lost (definitely, indirectly or possibly), and a long run may not
# lose more than a short one: a leak per cycle shows as growth.
set -u
. "$(dirname "$0")/lib.sh"
plan 6
tmp=$(mktemp -d)
inst=/dev/shm/uncore-sim-memory-test-$$
trap 'rm -rf "$tmp" "$inst" "$inst.locks"' EXIT
if ! command -v valgrind >/dev/null; then
	fail "valgrind is not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
bin=$BUILD/itests/papi_cycles
need "$bin" || exit 0
export SRCDIR
vg() { # log command...
	local log=$1
	shift
	valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
		--log-file="$log" "$@"
}
lost() { # log: the bytes lost of every kind, summed
	sed -n 's/.*\(definitely\|indirectly\|possibly\) lost: \([0-9,]*\) bytes.*/\2/p' "$1" |
		tr -d , | awk '{s += $1} END {print s + 0}'
}
# Each summary line must be there: a run that crashed has none.
summary() { grep -c -E '(definitely|indirectly|possibly) lost: ' "$1"; }

for n in 3 30; do
	vg "$tmp/cycles$n.log" "$bin" "$n" >"$tmp/cycles$n.out" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) ' "$tmp/cycles$n.out"
	if [ $rc -eq 0 ] && [ "$(lost "$tmp/cycles$n.log")" = 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$tmp/cycles$n.log"; then
		pass "valgrind, $n PAPI event-set cycles: 0 bytes lost, 0 errors"
	else
		fail "valgrind, $n PAPI event-set cycles: status $rc, $(lost "$tmp/cycles$n.log") bytes lost"
		grep -E 'lost in loss record|Invalid|uninitialised|^==[0-9]+==    (at|by) ' "$tmp/cycles$n.log" | head -40
	fi
done
if [ -s "$tmp/cycles3.log" ] && [ -s "$tmp/cycles30.log" ]; then
	expect "memory lost does not grow with the cycles (3: $(lost "$tmp/cycles3.log") B, 30: $(lost "$tmp/cycles30.log") B)" \
		test "$(lost "$tmp/cycles30.log")" -le "$(lost "$tmp/cycles3.log")"
fi

# uncore-stat: events, a metric group, intervals.
"$STAGE/bin/uncore-sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null
vg "$tmp/stat.log" "$STAGE/bin/uncore-stat" --sim --sim-model "$inst" --csv -o "$tmp/stat.csv" \
	-e hswep_unc_imc::UNC_M_CAS_COUNT:RD -g mem -- "$STAGE/bin/uncore-sim" advance "$inst" 1s >"$tmp/stat.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(summary "$tmp/stat.log")" -gt 0 ] && [ "$(lost "$tmp/stat.log")" = 0 ] &&
	grep -q 'ERROR SUMMARY: 0 errors' "$tmp/stat.log" && grep -q 'CAS_COUNT' "$tmp/stat.csv"; then
	pass "valgrind, uncore-stat -e -g on the simulator: 0 bytes lost, 0 errors"
else
	fail "valgrind, uncore-stat: status $rc, $(lost "$tmp/stat.log") bytes lost"
	tail -5 "$tmp/stat.out"
	grep -E 'lost in loss record|Invalid|uninitialised|^==[0-9]+==    (at|by) ' "$tmp/stat.log" | head -40
fi
