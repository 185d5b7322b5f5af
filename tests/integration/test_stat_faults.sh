#!/usr/bin/env bash
# uncore-stat survives transient device faults (issue 29, item 4).  On a
# shared simulated Haswell-EP (stream.scn: 100,000,000 read CAS a second on
# iMC channel 0 of socket 0, counted in PCI config space at 7f:14.0 +0xa0),
# whose virtual clock moves only when this script advances it, the
# simulator's fault injection makes reads of that counter fail with EIO:
# * -I 100, one failed read: every interval printed, the one the failed read
#   ends marked (a "fault" row naming the register), the next interval's
#   counts cover it, so the intervals add up to the total, exactly 3 x 1e8
#   for the 3 s advanced; exit 0; a warning on stderr names the register
#   (without PAPI_INTEL_UNCORE_VERBOSE);
# * -I 100, reads failing for good: the run ends by itself after 5 failed
#   reads in a row, its total the counts of the last good read (exactly
#   1e8: the second advanced second is never read) with the reason; exit 1
#   (README: a fault that persists);
# * no -I, the stop's read fails: the counts are those of the read uncore-stat
#   makes just before the stop (exact); a failed read before the stop: the
#   stop's counts (exact).  Exit 0 (the command's) with a warning.
# The script waits for uncore-stat's output, never for a time: the counts
# come from the simulator's clock.
set -u
. "$(dirname "$0")/lib.sh"
plan 20
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
inst=$shm/papi-stat-faults-$$
sim=$BUILD/bin/uncore-sim
stat=$STAGE/bin/uncore-stat
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	"$sim" destroy "$inst" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_VERBOSE
export PAPI_INTEL_UNCORE_POLL=off # every read of the counter is uncore-stat's
scn=$SRCDIR/src/sim/scenarios/stream.scn
EV=hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0
RATE=100000000 # stream.scn: read CAS per second per channel
REG='pci 7f:14.0+0xa0'
FAULT=(--space pci --op rd --bdf 7f:14.0 --addr 0xa0 --error EIO)

# rows FILE KIND TYPE: the CSV rows of that kind and type ("all" socket for events).
rows() {
	[ -f "$1" ] || return 0
	awk -F, -v k="$2" -v t="$3" '$1 == k && $4 == t && (t != "event" || $7 == "all")' "$1"
}
# await COND...: COND holds (0), or uncore-stat ended or 60 s passed (1).
await() {
	for _ in $(seq 1200); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
n_rows() { rows "$1" interval "$2" | wc -l; }
more_than() { [ "$(n_rows "$1" "$2")" -gt "$3" ]; }
# An interval row after the last fault row with a count.
counted_after_fault() {
	awk -F, '$4 == "fault" { f = 1 } f && $1 == "interval" && $4 == "event" && $7 == "all" && $8 > 0 { n++ } END { exit !n }' "$1"
}
has_value() { rows "$1" interval event | awk -F, -v v="$2" '$8 == v { n++ } END { exit !n }'; }
sum_intervals() { rows "$1" interval event | awk -F, '{ s += $8 } END { printf "%d", s }'; }
sum_is() { [ "$(sum_intervals "$1")" = "$2" ]; }
total() { rows "$1" total event | awk -F, '{ print $8 }'; }

# counting_second CSV ERR: a new instance, uncore-stat -I 100 on it in the
# background ($pid), one second advanced and read whole: 0, or 1.
counting_second() {
	"$sim" destroy "$inst" >/dev/null 2>&1
	"$sim" create "$inst" -s "$scn" >/dev/null || return 1
	"$stat" --sim --sim-model "$inst" -I 100 -e "$EV" --csv -o "$1" 2>"$2" &
	pid=$!
	await more_than "$1" event 0 && "$sim" advance "$inst" 1s >/dev/null &&
		await has_value "$1" $RATE
}

# 1. One transient fault during -I 100.
csv=$tmp/one.csv
ok=0
if counting_second "$csv" "$tmp/one.err" &&
	"$sim" fault "$inst" "${FAULT[@]}" --nth 1 --count 1 >/dev/null &&
	await more_than "$csv" fault 0 &&
	"$sim" advance "$inst" 1s >/dev/null && await counted_after_fault "$csv" &&
	"$sim" advance "$inst" 1s >/dev/null && await sum_is "$csv" $((3 * RATE)); then
	ok=1
fi
n=$(rows "$csv" interval event | awk -F, '$8 > 0' | wc -l)
kill -INT $pid
wait $pid
st=$?
pid=
expect "one fault: uncore-stat ran through the script's steps" test $ok = 1
expect "one fault: exit status 0 (got $st)" test $st = 0
expect "one fault: exactly one interval is marked (fault rows: $(n_rows "$csv" fault))" \
	test "$(n_rows "$csv" fault)" = 1
f=$(rows "$csv" interval fault)
expect "one fault: the mark names the register and the error ($f)" \
	eval 'grep -F "$REG" <<<"$f" | grep -F "failed with EIO" >/dev/null'
expect "one fault: the mark says the next interval covers it" \
	eval 'grep -F "the next interval" <<<"$f" >/dev/null'
expect "one fault: the total is exactly 3 s of reads, $((3 * RATE)) (got $(total "$csv"))" \
	test "$(total "$csv")" = $((3 * RATE))
expect "one fault: the intervals add up to the total (sum $(sum_intervals "$csv"), $n counted intervals)" \
	test "$(sum_intervals "$csv")" = "$(total "$csv")"
expect "one fault: a warning on stderr names the register ($(head -n 1 "$tmp/one.err"))" \
	eval 'grep -F "warning: at" "$tmp/one.err" | grep -F "$REG" >/dev/null'
expect "one fault: stderr sums up: 1 read failed, the counts are complete" \
	grep -qF "1 read failed (marked in the report); the counts are complete" "$tmp/one.err"
expect "one fault: PAPI's bare words are not all it says" \
	test "$(grep -c 'A System/C library call failed' "$tmp/one.err")" = 0

# 2. A fault that persists.
csv=$tmp/persist.csv
ok=0
if counting_second "$csv" "$tmp/persist.err" &&
	"$sim" fault "$inst" "${FAULT[@]}" --nth 1 --count 0 >/dev/null &&
	"$sim" advance "$inst" 1s >/dev/null; then
	ok=1
fi
ended=0
for _ in $(seq 1200); do kill -0 $pid 2>/dev/null || { ended=1; break; }; sleep 0.05; done
[ $ended = 1 ] || kill -INT $pid
wait $pid
st=$?
pid=
expect "persisting fault: uncore-stat ran through the script's steps" test $ok = 1
expect "persisting fault: the run ended by itself" test $ended = 1
expect "persisting fault: exit status 1 (got $st)" test $st = 1
expect "persisting fault: the total is the last good read's, exactly $RATE (got $(total "$csv"))" \
	test "$(total "$csv")" = $RATE
f=$(rows "$csv" total fault)
expect "persisting fault: the total's fault row gives the reason and the register ($f)" \
	eval 'grep -F "the run ended: 5 reads in a row failed" <<<"$f" | grep -F "$REG" | grep -F "the counts are those of the last good read" >/dev/null'
expect "persisting fault: stderr says it too" \
	grep -qF "uncore-stat: the run ended: 5 reads in a row failed" "$tmp/persist.err"

# 3. Without -I: the stop's own read fails, then a read before the stop.
for case in "2 stop's read:the counts are those of the read just before the stop" \
	"1 read before the stop:the stop's counts are used"; do
	nth=${case%% *}
	rest=${case#* }
	what=${rest%%:*}
	said=${rest#*:}
	csv=$tmp/stop$nth.csv
	"$sim" destroy "$inst" >/dev/null 2>&1
	"$sim" create "$inst" -s "$scn" >/dev/null
	"$stat" --sim --sim-model "$inst" -e "$EV" --csv -o "$csv" -- sh -c \
		"'$sim' advance '$inst' 1s >/dev/null && '$sim' fault '$inst' ${FAULT[*]} --nth $nth --count 1 >/dev/null" \
		2>"$tmp/stop$nth.err"
	st=$?
	expect "the $what fails: exit status 0, the total exactly $RATE (got $st, $(total "$csv"))" \
		test "$st:$(total "$csv")" = "0:$RATE"
	expect "the $what fails: the warning names the register and says \"$said\" ($(head -n 1 "$tmp/stop$nth.err"))" \
		eval 'grep -F "$REG" "$tmp/stop$nth.err" | grep -F "$said" >/dev/null'
done
