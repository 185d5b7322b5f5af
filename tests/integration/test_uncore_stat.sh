#!/usr/bin/env bash
# uncore-stat from stage/ on the simulator: exact per-socket and total counts
# of a command that advances a shared instance's virtual time, the formats,
# interval mode, the exit statuses, error details and --explain.
set -u
. "$(dirname "$0")/lib.sh"
plan 79
tmp=$(mktemp -d)
inst=/dev/shm/uncore-sim-stat-test-$$
trap 'rm -rf "$tmp" "$inst" "$inst.locks"' EXIT
stat=$STAGE/bin/uncore-stat
CSV_HEADER=kind,time_s,seconds,type,group,name,socket,value,units,simulated,partial
# metric_rows FILE GROUP NAME UNITS V0 V1 VALL: the run's total rows of a
# metric in the CSV schema, per socket and for the node (all).
metric_rows() {
	local f=$1 g=$2 m=$3 u=$4
	grep -q "^total,[^,]*,[^,]*,metric,$g,$m,0,$5,$u,1,0\$" "$f" &&
		grep -q "^total,[^,]*,[^,]*,metric,$g,$m,1,$6,$u,1,0\$" "$f" &&
		grep -q "^total,[^,]*,[^,]*,metric,$g,$m,all,$7,$u,1,0\$" "$f"
}
sim=$STAGE/bin/uncore-sim
RD=hswep_unc_imc::UNC_M_CAS_COUNT:RD
WR=hswep_unc_imc::UNC_M_CAS_COUNT:WR

expect "the scenarios are staged" test -f "$STAGE/share/papi-uncore/scenarios/demo-stream.scn"

# stream.scn: 100 M read and 50 M write CAS per second per channel, 8 channels
# per socket; the command advances the simulated clock by exactly 1 s.
"$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null
"$stat" --sim --sim-model "$inst" --csv -o "$tmp/csv" -e "$RD,$WR" -- "$sim" advance "$inst" 1s
expect "a command's status 0 is uncore-stat's" test $? -eq 0
expect "CSV: read CAS of socket 0 exact" grep -q "^total,1.000000,1.000000,event,,$RD,0,800000000,count,1,0\$" "$tmp/csv"
expect "CSV: read CAS of socket 1 exact" grep -q "^total,1.000000,1.000000,event,,$RD,1,800000000,count,1,0\$" "$tmp/csv"
expect "CSV: read CAS total is the sum" grep -q "^total,1.000000,1.000000,event,,$RD,all,1600000000,count,1,0\$" "$tmp/csv"
expect "CSV: write CAS total" grep -q "^total,1.000000,1.000000,event,,$WR,all,800000000,count,1,0\$" "$tmp/csv"
expect "CSV says SIMULATED" grep -q '^# .*SIMULATED uncore' "$tmp/csv"

"$stat" --sim --sim-model "$inst" --json -o "$tmp/json" -e "$RD,${RD}:socket=1" -- "$sim" advance "$inst" 1s
if "$PYTHON3" - "$tmp/json" "$RD" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
rd = sys.argv[2]
ev = {e["name"]: e for e in d["events"]}
assert d["simulated"] is True and d["kind"] == "total" and d["clock"] == "simulated", d
assert d["nsockets"] == 2 and d["seconds"] == 1.0, d
assert ev[rd]["sockets"] == [800000000, 800000000] and ev[rd]["units"] == "count", ev[rd]
assert ev[rd]["total"] == 1600000000, ev[rd]
assert ev[rd + ":socket=1"]["sockets"] == [None, 800000000], ev
PY
then pass "JSON: a value per socket (null where not counted), totals, units, a socket-qualified event, simulated"
else fail "JSON report (file: $(cat "$tmp/json"))"; fi

"$stat" --sim --sim-model "$inst" -o "$tmp/text" -e "$RD" -- sh -c "'$sim' advance '$inst' 1s; exit 3"
expect "the command's exit status is passed on" test $? -eq 3
expect "text: per-socket and total columns" grep -Eq "^$RD +800,000,000 +800,000,000 +1,600,000,000 +1,600,000,000\$" "$tmp/text"
expect "text says SIMULATED" grep -q 'SIMULATED' "$tmp/text"

# Metric group MEM (metrics/hswep.metrics): DRAM_READ_BW, DRAM_WRITE_BW and
# DRAM_BW are bytes (64 per CAS) per second / GB (10^9, metrics/hswep.metrics); per
# socket 8 channels x 100 M read and 50 M write CAS/s; PCT_REQUESTS_PAGE_HIT
# is 1 - (ACT_COUNT - PRE_COUNT.PAGE_MISS + PRE_COUNT.PAGE_MISS) / CAS =
# 1 - 25 M / 150 M (no precharges in stream.scn).  %.6g of each:
#   read 8*100e6*64/1e9 = 51.2 per socket, 102.4 in total
#   write 25.6 / 51.2, both 76.8 / 153.6, page hits 0.833333.
"$stat" --sim --sim-model "$inst" --csv -o "$tmp/gcsv" -g mem -- "$sim" advance "$inst" 1s
expect "-g mem (any case) counts with status 0" test $? -eq 0
expect "-g CSV: one schema for events and metrics" grep -qx "$CSV_HEADER" "$tmp/gcsv"
expect "-g CSV: DRAM read bandwidth per socket and in total" metric_rows "$tmp/gcsv" MEM hswep_metric::DRAM_READ_BW GB/s 51.2 51.2 102.4
expect "-g CSV: DRAM write bandwidth" metric_rows "$tmp/gcsv" MEM hswep_metric::DRAM_WRITE_BW GB/s 25.6 25.6 51.2
expect "-g CSV: DRAM bandwidth" metric_rows "$tmp/gcsv" MEM hswep_metric::DRAM_BW GB/s 76.8 76.8 153.6
expect "-g CSV: page-hit fraction" metric_rows "$tmp/gcsv" MEM hswep_unc_imc::PCT_REQUESTS_PAGE_HIT fraction 0.833333 0.833333 0.833333
n=$(grep -vc '^#' "$tmp/gcsv")
expect "-g CSV: the header and the group's 4 metrics x (2 sockets + all) (got $n lines)" test "$n" -eq 13

# The same group and a raw event through the perf backend (the simulator
# behind the simulated kernel): the same exact values.
PAPI_INTEL_UNCORE_SIM_KERNEL=perf "$stat" --sim --sim-model "$inst" --csv -o "$tmp/gperf" -g MEM -e "$RD" \
	-- "$sim" advance "$inst" 1s
expect "-g through the perf backend: status 0" test $? -eq 0
expect "-g through the perf backend: DRAM bandwidth exact" \
	metric_rows "$tmp/gperf" MEM hswep_metric::DRAM_BW GB/s 76.8 76.8 153.6
expect "-g through the perf backend: page-hit fraction exact" \
	metric_rows "$tmp/gperf" MEM hswep_unc_imc::PCT_REQUESTS_PAGE_HIT fraction 0.833333 0.833333 0.833333
expect "-g through the perf backend: the raw event beside it exact, in the same schema" \
	grep -q "^total,1.000000,1.000000,event,,$RD,all,1600000000,count,1,0\$" "$tmp/gperf"
expect "-g and -e in one CSV: one header" test "$(grep -c '^kind,' "$tmp/gperf")" -eq 1

"$stat" --sim --sim-model "$inst" -o "$tmp/gtext" -g MEM -- "$sim" advance "$inst" 1s
expect "-g text: a titled table" grep -q '^ MEM: DRAM bandwidth per socket and node (SIMULATED), over 1.000000 s:' "$tmp/gtext"
expect "-g text: socket and total columns" grep -Eq '^metric +units +socket 0 +socket 1 +total$' "$tmp/gtext"
expect "-g text: a row with its units" grep -Eq '^hswep_metric::DRAM_BW +GB/s +76.8 +76.8 +153.6$' "$tmp/gtext"

# JSON, with an -e event in the same event set: exact values as doubles.
"$stat" --sim --sim-model "$inst" --json -o "$tmp/gjson" -g MEM -e "$RD" -- "$sim" advance "$inst" 1s
if "$PYTHON3" - "$tmp/gjson" "$RD" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
ev = [d for d in lines if "events" in d]
gr = [d for d in lines if "group" in d]
assert len(ev) == 1 and len(gr) == 1, lines
assert ev[0]["events"][0]["total"] == 1600000000, ev
g = gr[0]
assert g["group"] == "MEM" and g["simulated"] is True and g["seconds"] == 1.0, g
# One shape: a metric line has an event line's keys, its items an event's.
assert set(ev[0]) - {"events"} == set(g) - {"metrics", "group"}, (sorted(ev[0]), sorted(g))
assert set(ev[0]["events"][0]) == set(g["metrics"][0]), (ev[0]["events"][0], g["metrics"][0])
m = {x["name"]: x for x in g["metrics"]}
assert list(m) == ["hswep_metric::DRAM_READ_BW", "hswep_metric::DRAM_WRITE_BW",
                   "hswep_metric::DRAM_BW", "hswep_unc_imc::PCT_REQUESTS_PAGE_HIT"], list(m)
gb = 1e9  # metrics/hswep.metrics: const GB = 10^9
def near(a, b): return abs(a - b) <= 1e-5 * abs(b)
rd = m["hswep_metric::DRAM_READ_BW"]
assert rd["units"] == "GB/s" and len(rd["sockets"]) == 2, rd
assert all(near(v, 8 * 100e6 * 64 / gb) for v in rd["sockets"]), rd
assert near(rd["total"], 16 * 100e6 * 64 / gb), rd
assert near(m["hswep_metric::DRAM_BW"]["total"], 16 * 150e6 * 64 / gb), m
assert m["hswep_unc_imc::PCT_REQUESTS_PAGE_HIT"]["units"] == "fraction", m
assert near(m["hswep_unc_imc::PCT_REQUESTS_PAGE_HIT"]["total"], 1 - 25 / 150), m
PY
then pass "-g JSON: group, seconds, metrics with units, sockets and total, beside -e, in the events' shape"
else fail "-g JSON report (file: $(cat "$tmp/gjson"))"; fi

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
expect "an unknown group gives status 2" test $? -eq 2
expect "... and lists the groups" grep -q "no such metric group on hswep; available groups: MEM, LLC, QPI, IO, POWER" "$tmp/err"
"$stat" --sim -g list >"$tmp/list"
expect "-g list: status 0" test $? -eq 0
expect "-g list: a group and its title" grep -q '^MEM  *DRAM bandwidth per socket and node' "$tmp/list"
expect "-g list: its members" grep -q '^  *hswep_unc_imc::PCT_REQUESTS_PAGE_HIT$' "$tmp/list"

# Interval mode without a command, on the wall-clock demo scenario.
"$stat" --sim -I 100 -t 0.35 --csv -o "$tmp/iv" -e "$RD"
expect "-t without a command ends with status 0" test $? -eq 0
n=$(grep -c "^interval,.*,$RD,all,.*,0\$" "$tmp/iv")
expect "-I 100 -t 0.35 prints 3 full intervals (got $n)" test "$n" -eq 3
expect "... and the short rest, marked partial" grep -q "^interval,[^,]*,0\.0[0-9]*,event,,$RD,all,[0-9]*,count,1,1\$" "$tmp/iv"
expect "the run's total follows the intervals" grep -q "^total,.*,$RD,all," "$tmp/iv"

# -g with -I: the shape of the report (wall-clock intervals, the counts
# not compared here).
"$stat" --sim -g MEM -I 100 -t 0.35 --csv -o "$tmp/giv"
expect "-g -I: status 0" test $? -eq 0
expect "-g -I CSV: the one schema" grep -qx "$CSV_HEADER" "$tmp/giv"
n=$(grep -c '^interval,[^,]*,[^,]*,metric,MEM,hswep_metric::DRAM_READ_BW,all,' "$tmp/giv")
expect "-g -I 100 -t 0.35: 3 intervals and the rest (got $n rows)" test "$n" -eq 4
expect "-g -I: the short last interval is marked partial" \
	grep -q '^interval,[^,]*,0\.0[0-9]*,metric,MEM,hswep_metric::DRAM_READ_BW,all,[0-9.]*,GB/s,1,1$' "$tmp/giv"
expect "-g -I: the full intervals are not" \
	test "$(grep -c '^interval,.*,metric,MEM,hswep_metric::DRAM_READ_BW,all,.*,0$' "$tmp/giv")" -eq 3
expect "-g -I: the run's total of a rate metric" \
	grep -q '^total,[^,]*,[^,]*,metric,MEM,hswep_metric::DRAM_READ_BW,all,[0-9][0-9.]*,GB/s,1,0$' "$tmp/giv"
expect "-g -I: a fraction's whole-run value (its :run form, over the counts since start)" \
	grep -q '^total,[^,]*,[^,]*,metric,MEM,hswep_unc_imc::PCT_REQUESTS_PAGE_HIT,all,0*\.[0-9][0-9]*,fraction,1,0$' "$tmp/giv"
# The values, exactly: a shared machine whose time moves only when the
# command advances it (stream.scn: 16 channels x 100 M reads x 64 B per
# second = 102.4 GB/s, 5 of 6 requests page hits).  The command advances
# 1 s, waits, advances 1 s again: an interval holding an advance shows the
# scenario's rate, one without traffic nan, and none more than the rate
# (a running sum would show 204.8 once the second second is in); the
# run's total is the rate too.
inst=uncore-stat-test-$$
if "$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null; then
	PAPI_INTEL_UNCORE_SIM=/dev/shm/uncore-sim-$inst "$stat" --sim -g MEM -I 100 --csv -o "$tmp/g2s" -- \
		sh -c "'$sim' advance '$inst' 1s && sleep 0.5 && '$sim' advance '$inst' 1s && sleep 0.2"
	expect "-g -I over 2 simulated seconds: status 0" test $? -eq 0
	"$sim" destroy "$inst"
	if "$PYTHON3" - "$tmp/g2s" <<'PY'
import sys
import csv
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
iv = [r for r in rows if r["kind"] == "interval"]
rd = [r["value"] for r in iv if r["name"] == "hswep_metric::DRAM_READ_BW" and r["socket"] == "all"]
total = [r["value"] for r in rows if r["kind"] == "total" and r["name"] == "hswep_metric::DRAM_READ_BW" and r["socket"] == "all"]
assert total == ["102.4"], total
assert rd.count("102.4") >= 1 and all(v in ("102.4", "nan") for v in rd), rd
hit = [r["value"] for r in iv if r["name"] == "hswep_unc_imc::PCT_REQUESTS_PAGE_HIT"]
assert hit.count("0.833333") == 3 * rd.count("102.4") and all(v in ("0.833333", "nan") for v in hit), hit
PY
	then pass "-g -I: each interval's bandwidth is that interval's rate (102.4 GB/s, or nan without traffic), not a sum"
	else fail "-g -I values (file: $(cat "$tmp/g2s"))"; fi
	grep -q '^interval,.*,hswep_metric::DRAM_READ_BW,all,102.4,' "$tmp/g2s" &&
		[ "$(grep -c '^interval,.*,hswep_metric::DRAM_READ_BW,all,102.4,' "$tmp/g2s")" -lt 2 ] &&
		echo "   (both advances fell in one interval: the machine was too loaded to tell a rate from a sum this time)"
else
	fail "uncore-sim create $inst"
fi
# The rate of a plain run, exactly: 1 simulated second.
if "$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null; then
	PAPI_INTEL_UNCORE_SIM=/dev/shm/uncore-sim-$inst "$stat" --sim -g MEM --csv -o "$tmp/g1s" -- \
		"$sim" advance "$inst" 1s
	expect "-g MEM over 1 simulated second of stream.scn: DRAM_READ_BW = 102.4 GB/s" \
		grep -q '^total,[^,]*,[^,]*,metric,MEM,hswep_metric::DRAM_READ_BW,all,102.4,GB/s,' "$tmp/g1s"
	"$sim" destroy "$inst"
else
	fail "uncore-sim create $inst"
fi

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
# --explain names the direct engine's registers on every generation.
"$stat" --sim --sim-model i7-6700k --explain \
	-e skl_unc_imc::DRAM_DATA_READS,skl_unc_cbo0::UNC_CBO_CACHE_LOOKUP:ANY_MESI >"$tmp/explain-skl"
expect "--explain, Skylake client: CBo 0 PERFEVTSEL0 with EN" \
	grep -q 'cbo0.CTL0 *msr 0x700 socket 0  = 0x408f34' "$tmp/explain-skl"
expect "--explain, Skylake client: the IMC counter in MCHBAR" \
	grep -q 'imc0.CTR3 *mmio MCHBAR+0x5050  32 bits, free-running' "$tmp/explain-skl"
"$stat" --sim --sim-model x5570-2s --explain -e nhm_unc_guide::UNC_IMC_NORMAL_READS:CH0:socket=1 \
	>"$tmp/explain-nhm"
expect "--explain, Nehalem: MSR_UNCORE_PERFEVTSEL0 of socket 1" \
	grep -q 'unc0.CTL0 *msr 0x3c0 socket 1  = 0x40012c' "$tmp/explain-nhm"
"$stat" --sim --sim-model x7460-4s --explain -e x7400_unc_gbsq::GBSQ_TRANSACTIONS:socket=2 \
	>"$tmp/explain-x7400"
expect "--explain, Xeon 7400: a GBSQ EMON register of socket 2" \
	grep -q 'gbsq0.CTL[01] *msr 0x107c[cd] socket 2  = 0x' "$tmp/explain-x7400"
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

"$stat" --sim --explain -g MEM >"$tmp/gexplain"
expect "--explain -g: status 0" test $? -eq 0
expect "--explain -g: each metric's method" grep -q '^  method: exact: every term counted' "$tmp/gexplain"
expect "--explain -g: the manual's formula" grep -q 'HSX 2.6.6: 1 - (PCT_REQUESTS_PAGE_EMPTY' "$tmp/gexplain"

# A metric named with -e is shown as a metric (a double with its units, per
# socket and for the node), not as the bits of a count; with a qualifier it
# is refused (the tool makes the per-socket columns itself).
"$stat" --sim --csv -e hswep_metric::DRAM_BW -- sleep 0.1 >"$tmp/emetric" 2>&1
expect "-e METRIC: status 0" test $? -eq 0
expect "-e METRIC: a GB/s row with decimal values per socket and in total" \
	grep -q -E '^total,[^,]*,[^,]*,metric,-e,hswep_metric::DRAM_BW,all,[0-9]+\.[0-9]+,GB/s,1,0$' "$tmp/emetric"
"$stat" --sim -e hswep_metric::DRAM_BW:socket=1 -- true >"$tmp/emetricq" 2>&1
expect "-e METRIC:socket=N: usage error" test $? -eq 2
expect "-e METRIC:socket=N: says why" grep -q 'give a metric without qualifiers' "$tmp/emetricq"
