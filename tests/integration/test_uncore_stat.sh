#!/usr/bin/env bash
# uncore-stat from stage/ on the simulator: exact per-socket and total counts
# of a command that advances a shared instance's virtual time, the formats,
# interval mode, the exit statuses, error details and --explain.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
inst=/dev/shm/uncore-sim-stat-test-$$
trap 'rm -rf "$tmp"; rm -f "$inst"' EXIT
stat=$STAGE/bin/uncore-stat
sim=$STAGE/bin/uncore-sim
RD=hswep_unc_imc::UNC_M_CAS_COUNT:RD
WR=hswep_unc_imc::UNC_M_CAS_COUNT:WR

expect "the scenarios are staged" test -f "$STAGE/share/papi-uncore/scenarios/demo-stream.scn"

# stream.scn: 100 M read and 50 M write CAS per second per channel, 8 channels
# per socket; the command advances the simulated clock by exactly 1 s.
"$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null
"$stat" --sim --sim-model "$inst" --csv -o "$tmp/csv" -e "$RD,$WR" -- "$sim" advance "$inst" 1s
expect "a command's status 0 is uncore-stat's" test $? -eq 0
expect "CSV: read CAS of socket 0 exact" grep -q "^total,1.000000,1.000000,$RD,0,800000000,1\$" "$tmp/csv"
expect "CSV: read CAS of socket 1 exact" grep -q "^total,1.000000,1.000000,$RD,1,800000000,1\$" "$tmp/csv"
expect "CSV: read CAS total is the sum" grep -q "^total,1.000000,1.000000,$RD,all,1600000000,1\$" "$tmp/csv"
expect "CSV: write CAS total" grep -q "^total,1.000000,1.000000,$WR,all,800000000,1\$" "$tmp/csv"
expect "CSV says SIMULATED" grep -q '^# .*SIMULATED uncore' "$tmp/csv"

"$stat" --sim --sim-model "$inst" --json -o "$tmp/json" -e "$RD,${RD}:socket=1" -- "$sim" advance "$inst" 1s
if "$PYTHON3" - "$tmp/json" "$RD" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
rd = sys.argv[2]
ev = {e["name"]: e for e in d["events"]}
assert d["simulated"] is True and d["kind"] == "total" and d["clock"] == "simulated", d
assert ev[rd]["per_socket"] == {"0": 800000000, "1": 800000000}, ev[rd]
assert ev[rd]["total"] == 1600000000, ev[rd]
assert ev[rd + ":socket=1"]["per_socket"] == {"1": 800000000}, ev
PY
then pass "JSON: per-socket columns, totals, a socket-qualified event, simulated"
else fail "JSON report (file: $(cat "$tmp/json"))"; fi

"$stat" --sim --sim-model "$inst" -o "$tmp/text" -e "$RD" -- sh -c "'$sim' advance '$inst' 1s; exit 3"
expect "the command's exit status is passed on" test $? -eq 3
expect "text: per-socket and total columns" grep -Eq "^$RD +800,000,000 +800,000,000 +1,600,000,000 +1,600,000,000\$" "$tmp/text"
expect "text says SIMULATED" grep -q 'SIMULATED' "$tmp/text"

"$stat" --sim --sim-model "$inst" -o /dev/null -e "$RD" -- sh -c 'kill -TERM $$'
expect "a command killed by SIGTERM gives 143" test $? -eq 143
"$stat" --sim --sim-model "$inst" -o /dev/null -e "$RD" -- /nonexistent/command 2>/dev/null
expect "a missing command gives 127" test $? -eq 127
"$sim" destroy "$inst" >/dev/null

# Bad events: status 2 and the library's reason.
"$stat" --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:BOGUS -- true 2>"$tmp/err"
expect "a bad unit mask gives status 2" test $? -eq 2
expect "its reason lists the valid unit masks" grep -q "unknown unit mask 'BOGUS'.*valid: .*RD" "$tmp/err"
"$stat" --sim -e "$RD:socket=5" -- true 2>"$tmp/err"
expect "an absent socket gives status 2" test $? -eq 2
expect "its reason names the sockets there are" grep -q "socket=5, but this machine has 2 sockets" "$tmp/err"
"$stat" --sim --bogus 2>/dev/null
expect "an unknown option gives status 2" test $? -eq 2
"$stat" --sim -g DRAM_BW -- true 2>"$tmp/err"
expect "-g without the metrics library: status 2 and why" test $? -eq 2

# Interval mode without a command, on the wall-clock demo scenario.
"$stat" --sim -I 100 -t 0.35 --csv -o "$tmp/iv" -e "$RD"
expect "-t without a command ends with status 0" test $? -eq 0
n=$(grep -c "^interval,.*,$RD,all," "$tmp/iv")
expect "-I 100 -t 0.35 prints 3 intervals (got $n)" test "$n" -eq 3
expect "the run's total follows the intervals" grep -q "^total,.*,$RD,all," "$tmp/iv"

# Without -t: until SIGINT, which is never lost (even during PAPI's start-up).
"$stat" --sim --csv -o "$tmp/int" -e "$RD" &
pid=$!
# A background job of a non-interactive shell starts with SIGINT ignored
# until uncore-stat's main catches it: repeat the signal until it is seen.
for i in $(seq 50); do
	sleep 0.2
	kill -INT "$pid" 2>/dev/null || break
done
kill -0 "$pid" 2>/dev/null && kill -TERM "$pid"
wait "$pid"
expect "SIGINT ends an open-ended run with status 0" test $? -eq 0
expect "... and with its report" grep -q "^total,.*,$RD,all," "$tmp/int"

# --explain: registers and values of the direct backend.
"$stat" --sim --explain -e "$RD:socket=0,hswep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:socket=1" >"$tmp/explain"
expect "--explain succeeds" test $? -eq 0
expect "--explain: iMC 0 control register and value" grep -q 'imc0.CTL0 *pci 7f:14.0+0xd8  = 0x400304' "$tmp/explain"
expect "--explain: CBo 0 filter of socket 1" grep -q 'cbo0.FILTER0 *msr 0xe05 socket 1  = 0x' "$tmp/explain"
expect "--explain: the perf PMU names" grep -q 'uncore_cbox_0' "$tmp/explain"
expect "--explain: the cost of one read" grep -q 'one read (PAPI_read)' "$tmp/explain"
# A metric's counters are listed under the events its terms count.
"$stat" --sim --explain -e hswep_metric::DRAM_BW >"$tmp/explain-metric"
expect "--explain of a metric names its terms' events" \
	grep -qx 'hswep_unc_imc::UNC_M_CAS_COUNT:WR' "$tmp/explain-metric"
if grep -q '(null)\|^?$' "$tmp/explain-metric"; then
	fail "--explain of a metric lists an unnamed event"
else
	pass "--explain of a metric lists no unnamed event"
fi

# --explain through the perf backend (the simulator behind the simulated
# kernel): the perf_event_attr each counter is opened with.
PAPI_INTEL_UNCORE_SIM_KERNEL=perf "$stat" --sim --explain \
	-e "$RD:socket=0,hswep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:socket=1,msr::tsc:socket=0" \
	>"$tmp/explain-perf"
expect "--explain, perf backend: succeeds" test $? -eq 0
expect "--explain, perf backend: iMC 0 on socket 0's CPU, event 0x04 umask 0x03" \
	grep -q 'perf     pmu    uncore_imc_0 (type [0-9]*) on CPU 0  config=0x304 config1=0x0' "$tmp/explain-perf"
expect "--explain, perf backend: CBo 0 of socket 1, state filter in config1" \
	grep -q 'uncore_cbox_0 (type [0-9]*) on CPU [1-9][0-9]*  config=0x334 config1=0x3e0000' "$tmp/explain-perf"
expect "--explain, perf backend: msr::tsc on the msr PMU" \
	grep -q 'perf     pmu    msr (type [0-9]*) on CPU 0  config=0x0' "$tmp/explain-perf"
expect "--explain, perf backend: one read() per PMU instance (8 IMCs, a CBo, msr)" \
	grep -q 'one read (PAPI_read): 10 read() system calls' "$tmp/explain-perf"
if grep -q 'direct   ctl' "$tmp/explain-perf"; then
	fail "--explain, perf backend: direct registers shown without the direct backend's discovery"
else
	pass "--explain, perf backend: no made-up direct registers"
fi
