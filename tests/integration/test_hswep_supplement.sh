#!/usr/bin/env bash
# The Haswell-EP supplement (issue 30 item 9): the 45 events Intel's event
# data lists and the uncore manual omits, a separate table generated from
# Intel's HSX data and cross-checked with its BDX data
# (libpfm4-events/events/supplement/, tools/gen_hswep_supplement.py).
#   - the audit against Intel's HSX and BDX files: 0 disagreements, and it
#     fails on a wrong code and on a missing event (negative runs);
#   - the committed headers are the generator's output;
#   - papi_native_avail lists the 45 apart: after every event of the
#     manual's tables, each described "[not in the manual; Intel's event
#     data]", and none of the manual's is;
#   - they count on the simulator through the direct backend and the
#     simulated kernel's perf_event: a supplement event with the rate of a
#     manual event counts what it counts, one with twice the rate twice
#     (virtual clock; the ExtSel bit 21 told apart from a stream without it).
# Intel's data: $PERFMON, else ../shared/reference/intel-perfmon; without it
# the audit parts are reported as not run (find_perfmon), the rest runs.
set -u
. "$(dirname "$0")/lib.sh"
plan 16
py=${PYTHON3:-python3}
tools=$SRCDIR/libpfm4-events/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_POLL=off
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_VERBOSE
mark="[not in the manual; Intel's event data]"
supp=$SRCDIR/libpfm4-events/events/supplement/intel_hswep_unc_supp_events.h

# --- listing: papi_native_avail ------------------------------------------
"$STAGE/bin/papi_native_avail" -i hswep_unc >"$tmp/avail" 2>&1
expect "papi_native_avail -i hswep_unc exits 0" test $? -eq 0
# Table events (UNC_*; the metrics come after them) with their description
# lines, in listing order.
awk '/^\| intel_uncore:::hswep_unc_[a-z0-9]+::UNC_/ { n = $2; getline; print n "\t" $0 }' \
	"$tmp/avail" >"$tmp/events"
nsupp=$(grep -c '{ .name' "$supp")
tagged=$(grep -c -F "$mark" "$tmp/events")
expect "the supplement header has 45 events ($nsupp)" test "$nsupp" -eq 45
expect "papi_native_avail describes $nsupp events as '$mark' ($tagged)" test "$tagged" -eq "$nsupp"
first_tagged=$(grep -n -F "$mark" "$tmp/events" | head -1 | cut -d: -f1)
last_plain=$(grep -n -v -F "$mark" "$tmp/events" | tail -1 | cut -d: -f1)
expect "... listed apart: all after the last of the manual's events (first marked line ${first_tagged:-none}, last unmarked ${last_plain:-none})" \
	test -n "$first_tagged" -a -n "$last_plain" -a "${first_tagged:-0}" -gt "${last_plain:-0}"
for ev in hswep_unc_qpi::UNC_Q_RXL_FLITS_G0 hswep_unc_ha::UNC_H_RPQ_CYCLES_NO_SPEC_CREDITS \
	hswep_unc_ha::UNC_H_WPQ_CYCLES_NO_SPEC_CREDITS hswep_unc_qpi::UNC_Q_RXL_CRC_ERRORS \
	hswep_unc_r2pcie::UNC_R2_IIO_CREDITS_USED; do
	expect "papi_native_avail lists intel_uncore:::$ev as a supplement event" \
		grep -q -F "intel_uncore:::$ev	" <(grep -F "$mark" "$tmp/events")
done
"$STAGE/bin/papi_native_avail" -e hswep_unc_qpi::UNC_Q_RXL_FLITS_G0:IDLE >"$tmp/one" 2>&1
expect "papi_native_avail -e hswep_unc_qpi::UNC_Q_RXL_FLITS_G0:IDLE names it and its mark" \
	grep -q -F "Description:    $mark" "$tmp/one"

# --- counting on the simulator, both backends ---------------------------
# Port 0: RxL_FLITS_G0.IDLE (0x01, umask 0x01) at the rate of the manual's
# RxL_FLITS_G1.DRS_DATA (0x02 ext, 0x08).  Port 1: RxL_STALLS_VN0.BGF_NDR
# (0x35 ext, 0x20) at twice RxL_FLITS_G1.DRS_DATA's rate, and a stream of
# event 0x35 without the ExtSel bit it must not count.
cat >"$tmp/supp.scn" <<'EOF'
name supplement
clock virtual
access_ns 1000
stream qpi[0] ev=0x01 umask=0x01 rate=3M/s
stream qpi[0] ev=0x02 ext=1 umask=0x08 rate=3M/s
stream qpi[1] ev=0x35 ext=1 umask=0x20 rate=14M/s
stream qpi[1] ev=0x35 umask=0x20 rate=100M/s
stream qpi[1] ev=0x02 ext=1 umask=0x08 rate=7M/s
EOF
for kernel in none perf; do
	rm -f "$tmp/c"
	"$STAGE/bin/uncore-stat" --sim --sim-model e5-2699v3-2s --sim-scenario "$tmp/supp.scn" \
		$([ $kernel = perf ] && echo --sim-kernel perf) --csv -o "$tmp/c" -t 0.001 \
		-e hswep_unc_qpi0::UNC_Q_RXL_FLITS_G0:IDLE -e hswep_unc_qpi0::UNC_Q_RXL_FLITS_G1:DRS_DATA \
		-e hswep_unc_qpi1::UNC_Q_RXL_STALLS_VN0:BGF_NDR -e hswep_unc_qpi1::UNC_Q_RXL_FLITS_G1:DRS_DATA \
		>"$tmp/out" 2>&1
	expect "uncore-stat counts supplement events (kernel $kernel): exit 0 ($(head -c 200 "$tmp/out"))" test $? -eq 0
	val() { awk -F, -v n="$1" '$1 == "total" && $6 == n && $7 == "all" { print $8 }' "$tmp/c"; }
	g0=$(val hswep_unc_qpi0::UNC_Q_RXL_FLITS_G0:IDLE)
	g1a=$(val hswep_unc_qpi0::UNC_Q_RXL_FLITS_G1:DRS_DATA)
	st=$(val hswep_unc_qpi1::UNC_Q_RXL_STALLS_VN0:BGF_NDR)
	g1b=$(val hswep_unc_qpi1::UNC_Q_RXL_FLITS_G1:DRS_DATA)
	expect "kernel $kernel: RXL_FLITS_G0:IDLE counts what the manual's RXL_FLITS_G1:DRS_DATA counts at its rate ($g0 = $g1a > 0)" \
		test -n "$g0" -a "${g0:-0}" = "${g1a:-x}" -a "${g0:-0}" -gt 0
	expect "kernel $kernel: RXL_STALLS_VN0:BGF_NDR (ExtSel) counts twice RXL_FLITS_G1:DRS_DATA at half its rate ($st = 2 x $g1b)" \
		test -n "$st" -a -n "$g1b" -a "${st:-0}" -eq $((2 * ${g1b:-0})) -a "${g1b:-0}" -gt 0
done

# --- Intel's data: the audit and the generator ----------------------------
. "$(dirname "$0")/seeds.sh"
find_perfmon "Haswell-EP supplement audit (against Intel's HSX and BDX event data)" || exit 0
plan 5

"$py" "$tools/audit_hswep_supplement.py" --perfmon "$perfmon" >"$tmp/audit.out" 2>&1
audit_verdict $? "supplement audit against Intel's HSX and BDX data" "$tmp/audit.out" audit-hswep-supplement
expect "the supplement audit saw 45 events in 7 arrays" grep -q '^supplement: 45 events in 7 arrays$' "$tmp/audit.out"

if "$py" "$tools/gen_hswep_supplement.py" --perfmon "$perfmon" --check >"$tmp/gen.out" 2>&1; then
	pass "committed supplement headers are what gen_hswep_supplement.py produces"
else
	fail "supplement headers out of date: run $tools/gen_hswep_supplement.py"
	head -5 "$tmp/gen.out"
fi

# Negative runs on a copy of the tables: RxL_FLITS_G0 given event 0x02, and
# RXL_CRC_ERRORS taken out.
cp -r "$SRCDIR/libpfm4-events/events" "$tmp/tables"
f=$tmp/tables/supplement/intel_hswep_unc_supp_events.h
sed -i '/"UNC_Q_RXL_FLITS_G0"/,/code/ s/\.code    = 0x1,/.code    = 0x2,/' "$f"
if cmp -s "$f" "$supp"; then
	fail "supplement audit negative test could not alter UNC_Q_RXL_FLITS_G0"
elif "$py" "$tools/audit_hswep_supplement.py" --perfmon "$perfmon" --tables "$tmp/tables" >"$tmp/neg" 2>&1; then
	fail "supplement audit accepted UNC_Q_RXL_FLITS_G0 with code 0x2 (Intel: 0x1)"
elif grep -q '^FAIL UNC_Q_RXL_FLITS_G0: code 0x2 is Intel' "$tmp/neg"; then
	pass "supplement audit rejects a wrong event code (UNC_Q_RXL_FLITS_G0)"
else
	fail "supplement audit failed, but not on UNC_Q_RXL_FLITS_G0's code: $(grep -m1 '^FAIL' "$tmp/neg")"
fi
cp "$supp" "$f"
"$py" - "$f" <<'EOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
s, n = re.subn(r'\{ \.name    = "UNC_Q_RXL_CRC_ERRORS",.*?\n\},\n', "", s, flags=re.S)
assert n == 1
open(p, "w").write(s)
EOF
if "$py" "$tools/audit_hswep_supplement.py" --perfmon "$perfmon" --tables "$tmp/tables" >"$tmp/neg2" 2>&1; then
	fail "supplement audit accepted a supplement without UNC_Q_RXL_CRC_ERRORS"
elif grep -q '^FAIL UNC_Q_RXL_CRC_ERRORS (HSX QPI LL): missing' "$tmp/neg2"; then
	pass "supplement audit rejects a missing event (UNC_Q_RXL_CRC_ERRORS)"
else
	fail "supplement audit failed, but not on the missing UNC_Q_RXL_CRC_ERRORS: $(grep -m1 '^FAIL' "$tmp/neg2")"
fi
