#!/usr/bin/env bash
# Quiet and accurate listing (issue 12), with PAPI's own utilities on the
# simulator: papi_native_avail --check reports no error about names that are
# not ours; unit-mask and qualifier lines show as ":RD" (not
# "::UNC_M_CAS_COUNT:RD") in papi_native_avail and papi_event_chooser, also
# for a name given with the intel_uncore::: prefix; a metric the platform
# cannot measure is not listed; the :int integer forms are.
set -u
. "$(dirname "$0")/lib.sh"
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export PAPI_INTEL_UNCORE_BACKEND=sim

"$STAGE/bin/papi_native_avail" --check >"$tmp/check" 2>&1
# The PMUs named in intel_uncore's errors (the lines also say what it was doing).
grep -o 'PAPI Error: intel_uncore: .*' "$tmp/check" | grep -o '[A-Za-z0-9_]*::' | sort -u >"$tmp/named"
expect "papi_native_avail --check: intel_uncore's errors name their PMU" test -s "$tmp/named"
foreign=$(grep -v '^hswep_' "$tmp/named" | head -5 | tr '\n' ' ')
expect "papi_native_avail --check: no intel_uncore error about a PMU that is not ours (${foreign:-none})" \
	test -z "$foreign"
# Names without a PMU (UNHALTED_CORE_CYCLES:period=0, offered to every
# component by the tool's probes) are not ours either: no error about them.
nopmu=$(grep 'PAPI Error: intel_uncore: ' "$tmp/check" | grep -vc 'hswep_')
expect "papi_native_avail --check: no intel_uncore error about a name without one of our PMUs ($nopmu)" \
	test "$nopmu" -eq 0
"$STAGE/bin/papi_native_avail" >"$tmp/list" 2>&1
bad=$(grep -cE '^\| {3,8}::[A-Z]' "$tmp/list")
expect "papi_native_avail: no unit-mask line shown as '::EVENT:UMASK' ($bad)" test "$bad" -eq 0
expect "papi_native_avail: UNC_M_CAS_COUNT's unit masks shown as ':RD'" grep -qE '^\| +:RD +\|' "$tmp/list"
expect "papi_native_avail lists metrics' integer forms (hswep_metric::DRAM_BW:int)" \
	grep -qE '^\| +:int +\|' "$tmp/list"
expect "papi_native_avail does not list a metric this platform cannot measure (PCT_CYC_FREQ_CURRENT_LTD)" \
	sh -c "! grep -q PCT_CYC_FREQ_CURRENT_LTD '$tmp/list'"
"$STAGE/bin/papi_native_avail" -e intel_uncore:::hswep_unc_imc::UNC_M_CAS_COUNT >"$tmp/one" 2>&1
expect "papi_native_avail -e intel_uncore:::PMU::EVENT shows its qualifiers" \
	sh -c "grep -q '^Qualifiers:' '$tmp/one' && grep -qE 'Info: +:RD --' '$tmp/one'"
"$STAGE/bin/papi_event_chooser" NATIVE intel_uncore:::hswep_unc_imc::UNC_M_CAS_COUNT:RD >"$tmp/chooser" 2>&1
lines=$(grep -cE '^    0x[0-9a-f]+' "$tmp/chooser")
badc=$(grep -E '^    0x[0-9a-f]+' "$tmp/chooser" | grep -c ':::')
expect "papi_event_chooser shows $lines qualifier lines, none as ':::pmu::' ($badc)" \
	test "$lines" -gt 0 -a "$badc" -eq 0

# -i with a box instance (papi-patches/80-...): the events of its box type,
# which count that instance as INSTANCE::EVENT; nothing of other boxes.
for inst in hswep_unc_imc0 hswep_unc_imc0::UNC_M_CAS; do
	"$STAGE/bin/papi_native_avail" -i "$inst" >"$tmp/inst" 2>&1
	expect "papi_native_avail -i $inst lists hswep_unc_imc::UNC_M_CAS_COUNT" \
		grep -q 'hswep_unc_imc::UNC_M_CAS_COUNT' "$tmp/inst"
	others=$(grep -o 'intel_uncore:::[a-z0-9_]*::' "$tmp/inst" | grep -vc 'intel_uncore:::hswep_unc_imc::')
	expect "... and no event of another box ($others)" test "$others" -eq 0
done
