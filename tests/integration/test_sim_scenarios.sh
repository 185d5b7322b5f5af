#!/usr/bin/env bash
# The simulator always shows something: through the staged PAPI, every
# built-in scenario named as a user names it (PAPI_INTEL_UNCORE_SIM_SCENARIO=llc)
# runs on the wall clock of the component's private machine and gives
# non-zero counts for the event its name promises (exact values:
# tests/unit/sim/test_scenario_promises.c); with no scenario a PAPI program
# gets demo-stream and the component says so; uncore-stat -g QPI on
# qpi-remote shows QPI traffic.
set -u
. "$(dirname "$0")/lib.sh"
plan 15
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_LOG

count_of() { # count_of FILE EVENT: the count papi_command_line printed
	grep -F "$2 : " "$1" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/'
}
while read -r scenario event; do
	PAPI_INTEL_UNCORE_SIM_SCENARIO=$scenario "$STAGE/bin/papi_command_line" "$event" >"$tmp/out" 2>&1
	n=$(count_of "$tmp/out" "$event")
	expect "scenario $scenario by name: $event counts (got '${n:-nothing}')" test "${n:-0}" -gt 0
done <<'LIST'
demo-stream hswep_unc_imc::UNC_M_CAS_COUNT:RD
stream hswep_unc_imc::UNC_M_CAS_COUNT:WR
llc hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ
qpi-remote hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA
qpi-remote hswep_unc_qpi::UNC_Q_RXL_FLITS_G1:DRS_DATA
idle hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6
pcie-io hswep_unc_irp::UNC_I_TRANSACTIONS:READS
boxes hswep_unc_ha::UNC_H_REQUESTS:READS_REMOTE
hswep-clocks hswep_unc_cbo::UNC_C_CLOCKTICKS
LIST

# No scenario: the demo's, said by the component.
"$STAGE/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "without a scenario the component says it runs demo-stream (default)" \
	grep -q 'SIMULATED uncore.*scenario demo-stream (default)' "$tmp/avail"
"$STAGE/bin/papi_command_line" hswep_unc_imc::UNC_M_CAS_COUNT:RD >"$tmp/out" 2>&1
n=$(count_of "$tmp/out" hswep_unc_imc::UNC_M_CAS_COUNT:RD)
expect "... and a PAPI program counts its DRAM traffic (got '${n:-nothing}')" test "${n:-0}" -gt 0

# uncore-stat: -g QPI on qpi-remote, data from socket 1 (3.2 GB/s; the wall
# clock: above 2.5).
"$STAGE/bin/uncore-stat" --sim --sim-scenario qpi-remote --csv -o "$tmp/qpi" -g QPI -- sleep 0.3
expect "uncore-stat -g QPI on qpi-remote: status 0" test $? -eq 0
expect "... QPI data bandwidth: 0 on socket 0, about 3.2 GB/s on socket 1" \
	awk -F, '$1 == "total" && $6 == "hswep_metric::QPI_DATA_BW" && $7 == 0 { z = $8 == 0 }
		$1 == "total" && $6 == "hswep_metric::QPI_DATA_BW" && $7 == 1 { r = $8 > 2.5 && $8 < 3.3 }
		END { exit !(z && r) }' "$tmp/qpi"
"$STAGE/bin/uncore-stat" --sim --sim-scenario qpi_remote -g QPI -- true 2>"$tmp/err"
expect "a wrong scenario name: status 2" test $? -eq 2
expect "... naming the built-in ones" grep -q "no built-in scenario of that name (built-in: boxes, demo-stream" "$tmp/err"
