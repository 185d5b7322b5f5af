#!/usr/bin/env bash
# Metrics as native events of the staged PAPI, on the simulator:
# papi_native_avail lists each metric with its units, the values through
# PAPI_add_named_event are exact in virtual time (metrics_papi_check.c),
# through the direct backend and through the perf backend behind the
# simulated kernel, and papi_command_line prints them as doubles with units.
set -u
. "$(dirname "$0")/lib.sh"
plan 68
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
export PAPI_INTEL_UNCORE_SIM=e5-2699v3-2s
unset PAPI_INTEL_UNCORE_SIM_SCENARIO

"$STAGE/bin/papi_native_avail" >"$tmp/native" 2>&1
expect "papi_native_avail runs on the simulator" test $? -eq 0
expect "a manual metric is listed" grep -q '| intel_uncore:::hswep_unc_imc::MEM_BW_READS ' "$tmp/native"
expect "a node summary is listed" grep -q '| intel_uncore:::hswep_metric::DRAM_BW ' "$tmp/native"
expect "metrics show their units" grep -q 'Units: GB/s' "$tmp/native"
expect "a fraction metric shows its units" grep -q 'Units: fraction' "$tmp/native"
expect "the description cites the manual's formula" grep -q 'HSX 2.6.6: (CAS_COUNT.RD \* 64)' "$tmp/native"
expect "qualifiers are listed under a metric" sh -c \
	"grep -A8 '| intel_uncore:::hswep_metric::DRAM_BW ' '$tmp/native' | grep -q '^|     :socket=0 '"
expect "a metric's integer form is listed under it" sh -c \
	"grep -A12 '| intel_uncore:::hswep_metric::DRAM_BW ' '$tmp/native' | grep -q '^|     :int '"
# A metric the platform cannot measure is not listed; named, it says why.
expect "an unavailable metric is not listed" sh -c "! grep -q PCT_CYC_FREQ_CURRENT_LTD '$tmp/native'"
PAPI_INTEL_UNCORE_VERBOSE=1 "$STAGE/bin/papi_command_line" hswep_unc_pcu::PCT_CYC_FREQ_CURRENT_LTD >"$tmp/why" 2>&1
expect "an unavailable metric says why" grep -q 'cannot be measured on hswep: the PCU of Xeon E5/E7 v3 has no FREQ_MAX_CURRENT_CYCLES' "$tmp/why"

# One metric's entry, with -e.
"$STAGE/bin/papi_native_avail" -e hswep_metric::DRAM_READ_BW >"$tmp/one" 2>&1
expect "papi_native_avail -e shows a metric" grep -q 'DRAM read bandwidth' "$tmp/one"

# papi_command_line prints FP64 values with their units.
PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
	"$STAGE/bin/papi_command_line" hswep_metric::DRAM_BW hswep_unc_imc::UNC_M_CAS_COUNT:RD \
	>"$tmp/cmd" 2>&1
expect "papi_command_line prints DRAM_BW in GB/s" grep -E -q '^hswep_metric::DRAM_BW :[[:space:]]+[0-9]+\.[0-9]{3} GB/s' "$tmp/cmd"

ours=$BUILD/lib/libintel_uncore.a
bin=$tmp/metrics_papi_check
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/src" -I"$SRCDIR/libpfm4-events" \
	-I"$STAGE/include" "$here/metrics_papi_check.c" "$ours" -L"$STAGE/lib" -lpapi \
	-Wl,-rpath,"$STAGE/lib" -lpthread -lm -ldl -o "$bin" >"$tmp/cc.log" 2>&1; then
	fail "metrics_papi_check does not build"
	cat "$tmp/cc.log"
	exit 0
fi
unset PAPI_INTEL_UNCORE_SIM
# A setup that fails is a named failure (it was a silent exit 2).
"$bin" "$tmp/no-such-scenario-dir" >"$tmp/nosetup" 2>&1
rc=$?
expect "metrics_papi_check: a failed setup exits non-zero (status $rc)" test $rc -ne 0
expect "... with a FAIL line naming what failed" grep -q '^FAIL setup: .*no-such-scenario-dir/stream.scn' "$tmp/nosetup"
run_checks "direct backend" "$bin" "$SRCDIR/src/sim/scenarios"
PAPI_INTEL_UNCORE_SIM_KERNEL=perf run_checks "perf backend" "$bin" "$SRCDIR/src/sim/scenarios"

