#!/usr/bin/env bash
# Every PMU name routable without the "intel_uncore:::" prefix (issue 12):
# table types and instances on the simulator, every kernel PMU instance
# behind the simulated kernel (build/itests/papi_pmu_routing), and the
# README's perf example, with the raw fields separated by ',' and by ':'
# (PAPI_EVENTS, TAU and hpcrun split their lists on ',').
set -u
. "$(dirname "$0")/lib.sh"
plan 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
bin=$BUILD/itests/papi_pmu_routing
need "$bin" || exit 0
export PAPI_INTEL_UNCORE_BACKEND=sim
PAPI_INTEL_UNCORE_SIM_KERNEL=none run_checks "table names" "$bin" table
PAPI_INTEL_UNCORE_SIM_KERNEL=perf run_checks "kernel PMU names" "$bin" kernel

export PAPI_INTEL_UNCORE_SIM_KERNEL=perf PAPI_INTEL_UNCORE_SIM_SCENARIO=$SRCDIR/src/sim/scenarios/demo-stream.scn
for ev in 'uncore_imc_0::event=0x4,umask=0x3:socket=1' 'uncore_imc_0::event=0x4:umask=0x3:socket=1' 'uncore_imc_0::event=0x4:umask=0x3:socket1'; do
	"$STAGE/bin/papi_command_line" "$ev" >"$tmp/out" 2>&1
	v=$(grep -F "$ev :" "$tmp/out" | grep -o "[0-9][0-9]*(u)" | tr -d "(u)")
	if [ -n "$v" ] && [ "$v" -gt 0 ]; then
		pass "papi_command_line $ev counts without the prefix on the simulated kernel ($v)"
	else
		fail "papi_command_line $ev on the simulated kernel"
		cat "$tmp/out"
	fi
done
