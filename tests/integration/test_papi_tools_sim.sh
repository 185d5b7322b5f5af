#!/usr/bin/env bash
# PAPI's own utilities with our events, on the simulator
# (PAPI_INTEL_UNCORE_BACKEND=sim): papi_native_avail lists every box type
# once with umasks and descriptions and survives -e, -i and --check;
# papi_command_line counts the demo scenario (demo-stream.scn, wall clock)
# and refuses a wrong name, umask, modifier value, socket or box with
# PAPI_strerror and, with PAPI_INTEL_UNCORE_VERBOSE=1, the component's
# detail; papi_event_chooser lists what can be added next to our events.
set -u
. "$(dirname "$0")/lib.sh"
plan 100
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
export PAPI_INTEL_UNCORE_SIM=e5-2699v3-2s
unset PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_VERBOSE PAPI_INTEL_UNCORE_SIM_SCENARIO
types="ubo cbo sbo ha imc irp pcu qpi r2pcie r3qpi"

# ---- papi_native_avail -------------------------------------------------------
"$STAGE/bin/papi_native_avail" >"$tmp/all" 2>&1
expect "papi_native_avail runs on the simulator" test $? -eq 0
sed -n '/Native Events in Component: intel_uncore/,/Native Events in Component: sysdetect/p' \
	"$tmp/all" >"$tmp/iu"
grep -o '^| intel_uncore:::[^ ]*' "$tmp/iu" | sed 's/^| intel_uncore::://' >"$tmp/events"
expect "no event is listed twice" test -z "$(sort "$tmp/events" | uniq -d)"
# Each box type once: its events (UNC_*) and its derived metrics under the
# type's name, whole-node metrics under hswep_metric::, never per instance.
bad=$(grep -v -E "^hswep_unc_($(echo $types | tr ' ' '|'))::[A-Za-z0-9_]+$|^hswep_metric::" "$tmp/events" | head -3)
expect "events are listed per box type, not per instance (${bad:-ok})" test -z "$bad"
# As many events per box type as our tables have: the manual's and the
# supplement's (events Intel's data lists and the manual omits).
"$py" - "$SRCDIR/libpfm4-events" $types >"$tmp/want" <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import pfmtable
letter = {"ubo": "u", "cbo": "c", "sbo": "s", "ha": "h", "imc": "m", "irp": "i", "pcu": "p",
          "qpi": "q", "r2pcie": "r2", "r3qpi": "r3"}
supp = pfmtable.Table(os.path.join(sys.argv[1], "events", "supplement",
                                   "intel_hswep_unc_supp_events.h"), "intel_hswep_unc_q_supp_pe")
for box in sys.argv[2:]:
    t = pfmtable.Table(os.path.join(sys.argv[1], "events", "intel_hswep_unc_%s_events.h" % box))
    print(box, len(t.events) + len(supp.arrays.get("intel_hswep_unc_%s_supp_pe" % letter[box], [])))
EOF
while read -r box want; do
	got=$(grep -c "^hswep_unc_$box::UNC_" "$tmp/events")
	expect "hswep_unc_$box: $got events listed, $want in the tables (manual and supplement)" test "$got" -eq "$want"
done <"$tmp/want"
# The lines under one event of the listing: up to the next event.
under() { awk -v ev="| intel_uncore:::$1 " 'index($0, ev) == 1 {on = 1; next}
	on && /^\| intel_uncore:::/ {exit} on' "$tmp/iu"; }
under hswep_unc_imc::UNC_M_CAS_COUNT >"$tmp/cas"
expect "umasks are listed under their event, as ':RD'" grep -q '^|     :RD  ' "$tmp/cas"
expect "a umask has its description" grep -A1 '^|     :RD  ' "$tmp/cas" | grep -q 'DRAM RD_CAS'
under hswep_unc_cbo::UNC_C_LLC_LOOKUP >"$tmp/llc"
expect "modifiers and qualifiers are listed" grep -q '^|     :socket=0 ' "$tmp/llc"
# Every umask, modifier and qualifier line is followed by a description line.
missing=$(awk 'prev ~ /^\|     :/ && ($0 !~ /^\|            / || $0 ~ /^\| +\|$/) {n++} {prev=$0}
	END {print n+0}' "$tmp/iu")
expect "every umask/modifier/qualifier has a description ($missing without)" test "$missing" -eq 0
expect "descriptions say where the counts come from" grep -q 'summed over every imc box' "$tmp/iu"

"$STAGE/bin/papi_native_avail" -e hswep_unc_imc::UNC_M_CAS_COUNT >"$tmp/e" 2>&1
expect "papi_native_avail -e describes an event" grep -q '^Event name: *intel_uncore:::hswep_unc_imc::UNC_M_CAS_COUNT' "$tmp/e"
expect "papi_native_avail -e lists its umasks with descriptions" \
	grep -qE 'Info: +:RD_WMM -- Read CAS issued in WMM' "$tmp/e"
"$STAGE/bin/papi_native_avail" -e hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES >"$tmp/e2" 2>&1
expect "papi_native_avail -e describes an event that needs a modifier" \
	grep -qE 'Info: +:ff=0 -- frequency band' "$tmp/e2"
"$STAGE/bin/papi_native_avail" -e hswep_unc_imc::UNC_M_NO_SUCH >"$tmp/e3" 2>&1
rc=$?
expect "papi_native_avail -e refuses an unknown event" \
	test $rc -ne 0 -a -n "$(grep 'could not be found' "$tmp/e3")"
for t in $types; do
	"$STAGE/bin/papi_native_avail" -i "hswep_unc_$t::" >"$tmp/i_$t" 2>&1
	rc=$?
	expect "papi_native_avail -i hswep_unc_$t:: runs (status $rc)" test $rc -eq 0
done
"$STAGE/bin/papi_native_avail" --check -i hswep_unc_imc::UNC_M_CAS >"$tmp/c" 2>&1
expect "papi_native_avail --check: CAS_COUNT is available" \
	grep -q -E '^\| intel_uncore:::hswep_unc_imc::UNC_M_CAS_COUNT +\|$' "$tmp/c"
"$STAGE/bin/papi_native_avail" --check -i UNC_P_FREQ_BAND0 >"$tmp/c2" 2>&1
expect "papi_native_avail --check: FREQ_BAND0_CYCLES is available with ff=" \
	grep -q -E '^\| intel_uncore:::hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES +\|$' "$tmp/c2"

# ---- papi_command_line ------------------------------------------------------
export PAPI_INTEL_UNCORE_SIM_SCENARIO=$SRCDIR/src/sim/scenarios/demo-stream.scn
events="hswep_unc_imc::UNC_M_CAS_COUNT:RD hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=0
	hswep_unc_imc3::UNC_M_CAS_COUNT:WR:socket=1 hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I
	hswep_unc_ubo::UNC_U_CLOCKTICKS hswep_unc_sbo2::UNC_S_CLOCKTICKS hswep_unc_ha::UNC_H_REQUESTS:READS
	hswep_unc_irp::UNC_I_CLOCKTICKS hswep_unc_pcu::UNC_P_CLOCKTICKS hswep_unc_qpi1::UNC_Q_CLOCKTICKS
	hswep_unc_r2pcie::UNC_R2_CLOCKTICKS:socket=0 intel_uncore:::hswep_unc_r3qpi::UNC_R3_CLOCKTICKS"
# shellcheck disable=SC2086
"$STAGE/bin/papi_command_line" $events >"$tmp/cl" 2>&1
expect "papi_command_line counts the demo scenario" test $? -eq 0
for e in $events; do
	v=$(grep -F "${e#intel_uncore:::} : " "$tmp/cl" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
	expect "papi_command_line: $e = ${v:-nothing} > 0" test "${v:-0}" -gt 0
done
# One read of one event set: the two sockets add up to the whole.
all=$(grep -F 'hswep_unc_imc::UNC_M_CAS_COUNT:RD : ' "$tmp/cl" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
s0=$(grep -F 'hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=0 : ' "$tmp/cl" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
expect "socket 0 is about half of both sockets ($s0 of $all)" \
	test $((s0 * 2)) -gt $((all * 9 / 10)) -a $((s0 * 2)) -lt $((all * 11 / 10))
expect "the component says the counts are simulated" \
	bash -o pipefail -c "'$STAGE/bin/papi_component_avail' | grep 'SIMULATED uncore.*scenario demo-stream' >/dev/null"
unset PAPI_INTEL_UNCORE_SIM_SCENARIO

# A non-root msr-safe user (PAPI_INTEL_UNCORE_SIM_USER=msr-safe: PCI config
# space readable in its first 64 bytes only, as Linux shows it to non-root
# readers): the direct backend opens with the MSR boxes and refuses the PCI
# boxes saying why.
export PAPI_INTEL_UNCORE_SIM_SCENARIO=$SRCDIR/src/sim/scenarios/demo-stream.scn
msr_events="hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I hswep_unc_ubo::UNC_U_CLOCKTICKS
	hswep_unc_sbo2::UNC_S_CLOCKTICKS hswep_unc_pcu::UNC_P_CLOCKTICKS:socket=1"
# shellcheck disable=SC2086
PAPI_INTEL_UNCORE_SIM_USER=msr-safe "$STAGE/bin/papi_command_line" $msr_events >"$tmp/msrsafe" 2>&1
expect "msr-safe user: papi_command_line counts the MSR boxes" test $? -eq 0
for e in $msr_events; do
	v=$(grep -F "$e : " "$tmp/msrsafe" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
	expect "msr-safe user: $e = ${v:-nothing} > 0" test "${v:-0}" -gt 0
done
PAPI_INTEL_UNCORE_SIM_USER=msr-safe PAPI_INTEL_UNCORE_VERBOSE=1 \
	"$STAGE/bin/papi_command_line" hswep_unc_imc::UNC_M_CAS_COUNT:RD >"$tmp/msrsafe-imc" 2>&1
expect "msr-safe user: an iMC event is refused" grep -q '^Failed adding: hswep_unc_imc::UNC_M_CAS_COUNT:RD' "$tmp/msrsafe-imc"
expect "  ... saying PCI boxes need root (64 bytes of config space)" \
	grep -q '^intel_uncore: .*PCI boxes need root.*64 bytes' "$tmp/msrsafe-imc"
unset PAPI_INTEL_UNCORE_SIM_SCENARIO

# Wrong name, umask, modifier value, socket, box: PAPI's message, and the
# component's detail with PAPI_INTEL_UNCORE_VERBOSE=1.
while IFS='|' read -r what event strerror detail; do
	PAPI_INTEL_UNCORE_VERBOSE=1 "$STAGE/bin/papi_command_line" "$event" >"$tmp/err" 2>&1
	expect "papi_command_line refuses a wrong $what" grep -q "^Failed adding: $event" "$tmp/err"
	expect "  ... with PAPI_strerror '$strerror'" grep -q "^because: $strerror" "$tmp/err"
	expect "  ... and the detail '$detail'" grep -q "^intel_uncore: .*$detail" "$tmp/err"
	"$STAGE/bin/papi_command_line" "$event" >"$tmp/quiet" 2>&1
	expect "  ... no detail without PAPI_INTEL_UNCORE_VERBOSE" test -z "$(grep '^intel_uncore:' "$tmp/quiet")"
done <<'EOF'
event name|hswep_unc_imc::UNC_M_CAS_CONT|Event does not exist|unknown event 'UNC_M_CAS_CONT' in hswep_unc_imc
umask|hswep_unc_imc::UNC_M_CAS_COUNT:RDX|Event does not exist|unknown unit mask 'RDX' of hswep_unc_imc::UNC_M_CAS_COUNT; valid: RD_REG
modifier value|hswep_unc_imc::UNC_M_CAS_COUNT:RD:t=256|Invalid argument|t=256 is out of range \[0-255\]
missing modifier|hswep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES|Invalid argument|needs modifier ff=
socket|hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=2|Event does not exist|socket=2, but this machine has 2 sockets (0-1)
box|hswep_unc_imc::UNC_M_CAS_COUNT:RD:box=8|Invalid argument|box=8 is out of range \[0-7\]
box name|intel_uncore:::hswep_unc_cbo18::UNC_C_CLOCKTICKS|Event does not exist|unknown PMU 'hswep_unc_cbo18': hswep_unc_cbo has instances 0-17
EOF

# ---- papi_event_chooser -----------------------------------------------------
"$STAGE/bin/papi_event_chooser" NATIVE hswep_unc_imc::UNC_M_CAS_COUNT:RD >"$tmp/ch" 2>&1
expect "papi_event_chooser runs with an intel_uncore event" test $? -eq 0
n=$(sed -n 's/^Total events reported: //p' "$tmp/ch")
expect "papi_event_chooser lists most of our events next to it ($n)" test "${n:-0}" -gt 250
for t in $types; do
	expect "papi_event_chooser lists hswep_unc_$t events" grep -q "^intel_uncore:::hswep_unc_$t::" "$tmp/ch"
done
expect "papi_event_chooser lists the umasks of what it offers" \
	sh -c "grep -A20 '^intel_uncore:::hswep_unc_cbo::UNC_C_LLC_LOOKUP	' '$tmp/ch' | grep -qE '^ +0x[0-9a-f]+:STATE_M  \|.*state'"
# With CBo 0 of socket 0 full, only events that share its programming fit.
"$STAGE/bin/papi_event_chooser" NATIVE hswep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0 \
	hswep_unc_cbo0::UNC_C_LLC_VICTIMS:M_STATE:socket=0 hswep_unc_cbo0::UNC_C_RING_AD_USED:UP:socket=0 \
	hswep_unc_cbo0::UNC_C_RING_AK_USED:UP:socket=0 >"$tmp/ch2" 2>&1
expect "papi_event_chooser with four events on CBo 0 runs" test $? -eq 0
expect "  ... and no longer offers other CBo events" \
	test -z "$(grep '^intel_uncore:::hswep_unc_cbo::UNC_C_LLC_LOOKUP' "$tmp/ch2")"
expect "  ... but still offers iMC events" grep -q '^intel_uncore:::hswep_unc_imc::UNC_M_CAS_COUNT' "$tmp/ch2"
"$STAGE/bin/papi_event_chooser" NATIVE hswep_unc_imc::UNC_M_CAS_COUNT:NOPE >"$tmp/ch3" 2>&1
rc=$?
expect "papi_event_chooser refuses a wrong event" test $rc -ne 0 -a -n "$(grep "can't be found" "$tmp/ch3")"
