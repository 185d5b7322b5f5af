#!/usr/bin/env bash
# Uncore presets (issue 12; src/presets/): exact values against their
# formula over the raw events (build/itests/papi_presets), listed by
# papi_avail, counted by papi_command_line on the simulator.
set -u
. "$(dirname "$0")/lib.sh"
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR
bin=$BUILD/itests/papi_presets
if [ -x "$bin" ]; then
	"$bin"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "papi_presets exited with an error"
else
	fail "papi_presets is not built ($bin): run make check"
fi
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_SCENARIO=$SRCDIR/src/sim/scenarios/demo-stream.scn
"$STAGE/bin/papi_avail" >"$tmp/avail" 2>&1
for p in PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_QPI_DATA_BYTES PAPI_UNC_CLOCKTICKS 'PAPI_UNC_DRAM_RD_BYTES:socket=1'; do
	expect "papi_avail lists $p as available" grep -qE "^$p *0x[0-9a-f]+ +Yes" "$tmp/avail"
done
"$STAGE/bin/papi_avail" -e PAPI_UNC_DRAM_RD_BYTES >"$tmp/one" 2>&1
expect "papi_avail -e PAPI_UNC_DRAM_RD_BYTES shows its formula and event" \
	sh -c "grep -q 'N0|64|\*|' '$tmp/one' && grep -q 'hswep_unc_imc::UNC_M_CAS_COUNT:RD' '$tmp/one'"
"$STAGE/bin/papi_command_line" PAPI_UNC_DRAM_RD_BYTES 'PAPI_UNC_DRAM_RD_BYTES:socket=0' >"$tmp/cl" 2>&1
v=$(grep -F "PAPI_UNC_DRAM_RD_BYTES :" "$tmp/cl" | grep -o '[0-9][0-9]*' | head -1)
if [ -n "$v" ] && [ "$v" -gt 0 ] && [ $((v % 64)) -eq 0 ]; then
	pass "papi_command_line counts PAPI_UNC_DRAM_RD_BYTES on the simulator ($v, a multiple of 64)"
else
	fail "papi_command_line PAPI_UNC_DRAM_RD_BYTES"
	cat "$tmp/cl"
fi
