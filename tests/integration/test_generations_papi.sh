#!/usr/bin/env bash
# PAPI's own utilities on the simulator of every generation besides
# Haswell-EP (Skylake client i7-6700k, Nehalem x5570-2s, Xeon 7400 x7460-4s,
# Xeon 7100 x7140m-4s; the Kaby Lake cousin i7-7700k counts on Skylake
# client's description, the Broadwell-EP cousin e5-2697v4-2s on Haswell-EP's,
# every channel of its eight: 16 counters a read, the Westmere cousin
# x5670-2s on Nehalem's with its own SDM table), through the one direct engine:
#  - papi_native_avail lists each box type's events, as many as its table;
#  - papi_command_line counts a representative event of each (Skylake client
#    IMC reads, a Nehalem QMC read event, a Xeon 7400/7100 GBSQ event) and a
#    preset of each (PAPI_UNC_DRAM_RD_BYTES, 64 per read; Xeon 7400: L3
#    fills, PAPI_UNC_LLC_MISSES) with
#    the scenario's exact value: the scenario runs on the virtual clock with
#    a fixed time per register access (access_ns), a first run's audit log
#    shows which access interval lies between the origin read of PAPI_start
#    and the final read of PAPI_stop, and a stream of one occurrence per
#    cycle fills exactly half of that interval; the count is then
#    sockets x cycles of the window, whatever the rest of the run does;
#  - metrics through PAPI (DRAM bandwidth of the default scenarios, wall
#    clock) agree with the scenarios' rates.
set -u
. "$(dirname "$0")/lib.sh"
plan 48
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" ${skl_inst:+"$skl_inst" "$skl_inst.locks"}' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_VERBOSE PAPI_INTEL_UNCORE_SIM_SCENARIO

# ---- papi_native_avail -------------------------------------------------------
while read -r model boxes; do
	PAPI_INTEL_UNCORE_SIM=$model "$STAGE/bin/papi_native_avail" >"$tmp/na" 2>&1
	expect "papi_native_avail runs on $model" test $? -eq 0
	for spec in $boxes; do
		box=${spec%%=*}
		header=${spec#*=}
		"$py" - "$SRCDIR/libpfm4-events" "$header" "$box" >"$tmp/names" <<'PYEOF'
import os, sys, re
text = open(os.path.join(sys.argv[1], "events", sys.argv[2])).read()
table = {"skl_unc_cbo": "intel_skl_unc_iu_cbo_pe", "skl_unc_arb": "intel_skl_unc_iu_arb_pe",
         "skl_unc_clock": "intel_skl_unc_iu_clock_pe", "skl_unc_imc": "intel_skl_unc_iu_imc_pe",
         "nhm_unc_guide": "intel_nhm_unc_iu_pe", "x7400_unc_gbsq": "intel_x7400_unc_iu_gbsq_pe",
         "x7400_unc_gsnpq": "intel_x7400_unc_iu_gsnpq_pe", "x7400_unc_fsb": "intel_x7x00_unc_iu_fsb_pe",
         "x7100_unc_gbsq": "intel_x7100_unc_iu_gbsq_pe", "x7100_unc_gsnpq": "intel_x7100_unc_iu_gsnpq_pe",
         "x7100_unc_fsb": "intel_x7x00_unc_iu_fsb_pe",
         "bdx_unc_imc": "intel_bdx_unc_imc_pe", "bdx_unc_qpi": "intel_bdx_unc_qpi_pe",
         "wsm_unc_sdm": "intel_wsm_unc_sdm_pe"}[sys.argv[3]]
body = text[text.index("%s[] = {" % table):]
body = body[:body.index("\n};")]
for name in re.findall(r'\.name\s*=\s*"(\w+)"', body):
    print(name)
PYEOF
		want=$(wc -l <"$tmp/names")
		got=0
		while read -r ev; do
			grep -q "^| intel_uncore:::$box::$ev " "$tmp/na" && got=$((got + 1))
		done <"$tmp/names"
		expect "$model: papi_native_avail lists all $want events of $box's table ($got)" \
			test "$got" -eq "$want" -a "$want" -gt 0
	done
done <<'LIST'
i7-6700k skl_unc_cbo=intel_skl_unc_iu_events.h skl_unc_arb=intel_skl_unc_iu_events.h skl_unc_clock=intel_skl_unc_iu_events.h skl_unc_imc=intel_skl_unc_iu_events.h
x5570-2s nhm_unc_guide=intel_nhm_unc_iu_events.h
x7460-4s x7400_unc_gbsq=intel_x7400_unc_iu_events.h x7400_unc_gsnpq=intel_x7400_unc_iu_events.h x7400_unc_fsb=intel_x7400_unc_iu_events.h
x7140m-4s x7100_unc_gbsq=intel_x7400_unc_iu_events.h x7100_unc_gsnpq=intel_x7400_unc_iu_events.h x7100_unc_fsb=intel_x7400_unc_iu_events.h
e5-2697v4-2s bdx_unc_imc=perfmon/intel_bdx_unc_imc_events.h bdx_unc_qpi=perfmon/intel_bdx_unc_qpi_events.h
x5670-2s wsm_unc_sdm=intel_wsm_unc_sdm_events.h
LIST

# ---- papi_command_line: exact counts ----------------------------------------
# 4 s per register access, the stream in the middle second of the interval:
# a whole second holds exactly f cycles of a clock of f Hz, wherever the
# second starts (the scenario is loaded a few wall-clock microseconds after
# the machine is made).
A=4000000000 # ns per register access
# The access interval (k*A, (k+1)*A) in which every socket counts between
# the origin read and the final read: from the log of a run.
# A read of the event set reads the counter once per socket.
window() {
	"$py" - "$1" "$2" "$3" "$4" <<'PYEOF'
import json, sys
log, space, addr, sockets = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4])
acc = [json.loads(l) for l in open(log)]
# An MSR or MMIO register by its address, a PCI one by its offset (in
# every function that is read: the counter of each channel).
reads = [i + 1 for i, a in enumerate(acc)
         if a["op"] == "rd" and a["space"] == space and int(a.get("addr", a.get("offset", "-1")), 16) == addr]
runs = [reads[i:i + sockets] for i in range(0, len(reads), sockets)]
if len(runs) < 2 or any(r[-1] - r[0] != sockets - 1 for r in runs[:2]):
    sys.exit("fewer than two reads of the counter on every socket")
r1, r2 = runs[0][-1], runs[1][0]
between = acc[r1:r2 - 1]
if any(a["op"] != "wr" for a in between) or len(between) % 2:
    sys.exit("unexpected accesses between the two reads")
print(r1 + len(between) // 2)
PYEOF
}
while read -r model event unit stream space addr hz sockets factor; do
	base="name gen-exact
clock virtual
access_ns $A"
	printf '%s\n' "$base" >"$tmp/probe.scn"
	rm -f "$tmp/log"
	PAPI_INTEL_UNCORE_SIM=$model PAPI_INTEL_UNCORE_SIM_SCENARIO=$tmp/probe.scn \
		PAPI_INTEL_UNCORE_SIM_LOG=$tmp/log "$STAGE/bin/papi_command_line" "$event" >"$tmp/p1" 2>&1
	k=$(window "$tmp/log" "$space" "$addr" "$sockets" 2>"$tmp/werr")
	expect "$model: the log shows the counting interval of papi_command_line ($(cat "$tmp/werr"))" \
		test -n "$k"
	[ -n "$k" ] || continue
	start=$((k * A + A / 2 - 500000000))
	stop=$((start + 1000000000))
	printf "%s\n%s %s start=%sns stop=%sns\n" "$base" "$unit" "${stream//+/ }" "$start" "$stop" >"$tmp/exact.scn"
	PAPI_INTEL_UNCORE_SIM=$model PAPI_INTEL_UNCORE_SIM_SCENARIO=$tmp/exact.scn \
		"$STAGE/bin/papi_command_line" "$event" >"$tmp/p2" 2>&1
	got=$(grep -F "$event : " "$tmp/p2" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
	# One per cycle of the unit clock in [start, stop), on every socket
	# (a preset: times its formula's factor).
	want=$((sockets * hz * ${factor:-1}))
	expect "papi_command_line $event on $model = ${got:-nothing}, the scenario's $want" \
		test "${got:-x}" = "$want"
done <<'LIST'
i7-6700k skl_unc_imc::DRAM_DATA_READS free imc.DRAM_DATA_READS+inc=1 mmio 0xfed15050 4000000000 1
x5570-2s nhm_unc_guide::UNC_IMC_NORMAL_READS:CH0 stream unc+ev=0x2c+umask=0x01+inc=1 msr 0x3b0 2666666667 2
x7460-4s x7400_unc_gbsq::GBSQ_TRANSACTIONS stream gbsq+match=0x9051+inc=1 msr 0x107cc 2666666667 4
x7140m-4s x7100_unc_gbsq::GBSQ_TRANSACTIONS stream gbsq+match=0x9051+inc=1 msr 0x107cc 3400000000 4
i7-6700k PAPI_UNC_DRAM_RD_BYTES free imc.DRAM_DATA_READS+inc=1 mmio 0xfed15050 4000000000 1 64
i7-7700k skl_unc_imc::DRAM_DATA_READS free imc.DRAM_DATA_READS+inc=1 mmio 0xfed15050 4200000000 1
i7-7700k PAPI_UNC_DRAM_RD_BYTES free imc.DRAM_DATA_READS+inc=1 mmio 0xfed15050 4200000000 1 64
x5570-2s PAPI_UNC_DRAM_RD_BYTES stream unc+ev=0x2c+umask=0x01+inc=1 msr 0x3b0 2666666667 2 64
x7460-4s PAPI_UNC_LLC_MISSES stream gbsq+match=0x1009051+inc=1 msr 0x107cc 2666666667 4 1
x5670-2s wsm_unc_sdm::UNC_DRAM_READ_CAS:CH0 stream unc+ev=0x63+umask=0x01+inc=1 msr 0x3b0 2666666667 2
x5670-2s PAPI_UNC_DRAM_RD_BYTES stream unc+ev=0x2c+umask=0x01+inc=1 msr 0x3b0 2666666667 2 64
LIST

# Broadwell-EP on Haswell-EP's description: its boxes freeze and unfreeze
# together through U_MSR_PMON_GLOBAL_CTL (0x700, HSX 2.1.5: frz_all bit 31,
# unfrz_all bit 29) around each read, so each socket counts between its
# unfreeze and its freeze after the origin read.  The log of a run gives
# those accesses; a stream of one CAS per DCLK cycle on every channel (8 a
# socket, 1.2 GHz on this model) for the whole run must then give exactly
# channels x 1.2 GHz x (accesses unfrozen) x access_ns on every socket.
unfrozen() {
	"$py" - "$1" <<'PYEOF'
import json, sys
acc = [json.loads(l) for l in open(sys.argv[1])]
ctr = [i for i, a in enumerate(acc) if a["op"] == "rd" and a["space"] == "pci" and a.get("offset") == "0xa0"]
runs = [ctr[i:i + 16] for i in range(0, len(ctr), 16)]
if len(runs) < 2 or any(r[-1] - r[0] != 15 for r in runs[:2]):
    sys.exit("fewer than two reads of the 16 channel counters")
gctl = [(i, a["socket"], int(a["value"], 16)) for i, a in enumerate(acc[:runs[1][0]])
        if i > runs[0][-1] and a["op"] == "wr" and a.get("addr") == "0x700"]
total = 0
for s in (0, 1):
    on = [i for i, so, v in gctl if so == s and v == 0x20000000]
    off = [i for i, so, v in gctl if so == s and v == 0x80000000]
    if len(on) != 1 or len(off) != 1 or off[0] < on[0]:
        sys.exit("socket %d: no single unfreeze and freeze between the reads" % s)
    total += off[0] - on[0]
print(total)
PYEOF
}
printf 'name gen-exact\nclock virtual\naccess_ns %s\n' "$A" >"$tmp/probe.scn"
rm -f "$tmp/log"
PAPI_INTEL_UNCORE_SIM=e5-2697v4-2s PAPI_INTEL_UNCORE_SIM_SCENARIO=$tmp/probe.scn \
	PAPI_INTEL_UNCORE_SIM_LOG=$tmp/log "$STAGE/bin/papi_command_line" bdx_unc_imc::UNC_M_CAS_COUNT:RD >"$tmp/p1" 2>&1
n=$(unfrozen "$tmp/log" 2>"$tmp/werr")
expect "e5-2697v4-2s: the log shows each socket's unfrozen accesses of papi_command_line ($(cat "$tmp/werr"))" \
	test -n "$n"
printf 'name gen-exact\nclock virtual\naccess_ns %s\nstream imc ev=0x04 umask=0x01 inc=1\n' "$A" >"$tmp/exact.scn"
for spec in bdx_unc_imc::UNC_M_CAS_COUNT:RD:1 PAPI_UNC_DRAM_RD_BYTES:64; do
	event=${spec%:*}
	PAPI_INTEL_UNCORE_SIM=e5-2697v4-2s PAPI_INTEL_UNCORE_SIM_SCENARIO=$tmp/exact.scn \
		"$STAGE/bin/papi_command_line" "$event" >"$tmp/p2" 2>&1
	got=$(grep -F "$event : " "$tmp/p2" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
	want=$((8 * 1200000000 * ${n:-0} * (A / 1000000000) * ${spec##*:}))
	expect "papi_command_line $event on e5-2697v4-2s = ${got:-nothing}, the scenario's $want (8 channels x 1.2 GHz x $n accesses unfrozen x 4 s)" \
		test "${got:-x}" = "$want" -a "${n:-0}" -gt 0
done

# ---- metrics through PAPI ---------------------------------------------------
# Skylake on virtual time: skl-stream's 100 M reads of 64 B per second
# (6.4 GB/s) on a shared simulated machine whose time moves only when
# `uncore-sim advance` moves it, between the metric's two reads (through
# PAPI, by uncore-stat): the metric is the scenario's rate exactly, whatever
# the load.  (Not with access_ns inside a private machine: there all of
# the time passes inside the reads, which the counting time leaves out of
# a read that freezes while the free-running IMC counters keep counting -
# the metric is nan; issue 27's counting time, src/metrics/README.md.)
skl_inst=$( [ -w /dev/shm ] && echo /dev/shm || echo "$tmp")/uncore-sim-gen-skl-$$
if "$STAGE/bin/uncore-sim" create "$skl_inst" -m i7-6700k -s "$SRCDIR/src/sim/scenarios/skl-stream.scn" >/dev/null; then
	"$STAGE/bin/uncore-stat" --sim --sim-model "$skl_inst" --csv -o "$tmp/skl.csv" -e skl_metric::DRAM_READ_BW \
		-- "$STAGE/bin/uncore-sim" advance "$skl_inst" 1s >"$tmp/skl.out" 2>&1
	got=$(awk -F, '$1 == "total" && $6 == "skl_metric::DRAM_READ_BW" && $7 == "all" { print $8 }' "$tmp/skl.csv" 2>/dev/null)
	"$STAGE/bin/uncore-sim" destroy "$skl_inst" >/dev/null 2>&1
	rm -rf "$skl_inst.locks"
else
	got=
fi
expect "skl_metric::DRAM_READ_BW through PAPI (uncore-stat) on i7-6700k over 1 s of virtual time = ${got:-nothing} GB/s, the scenario's 6.4 ($(head -c 200 "$tmp/skl.out" 2>/dev/null))" \
	test "${got:-x}" = 6.4
# Nehalem on the wall clock (nhm-stream, 208.3 M reads per second per
# socket: 13.33 GB/s, 26.67 on the node; GB is 10^9 bytes): its counters
# are frozen and read some register accesses away from the clock reads, so
# on virtual time the interval is not the counting window; on the wall
# clock those accesses take microseconds of the run: within 1 %.
while read -r model metric want; do
	PAPI_INTEL_UNCORE_SIM=$model "$STAGE/bin/papi_command_line" "$metric" >"$tmp/m" 2>&1
	got=$(grep -F "$metric : " "$tmp/m" | sed 's/.*:[[:space:]]*\([0-9.]*\).*/\1/')
	expect "papi_command_line $metric on $model = ${got:-nothing} GB/s, the scenario's $want (1 %)" \
		"$py" -c "import sys; g=float(sys.argv[1]); sys.exit(abs(g-$want) > 0.01*$want)" "${got:-0}"
done <<'LIST'
x5570-2s nhm_metric::DRAM_READ_BW 26.6667
x5570-2s nhm_metric::DRAM_READ_BW:socket=1 13.3333
LIST
