#!/usr/bin/env bash
# Why the component is disabled, said once and everywhere: the reason (with
# its fix) that papi_component_avail shows is what uncore-stat prints and
# what a PAPI program gets through PAPI's error channel (PAPI_VERBOSE, or
# PAPI_set_debug) and with PAPI_INTEL_UNCORE_VERBOSE=1, instead of a bare
# "Event does not exist"; metric groups are listed all the same.  Every
# reason takes this one path (intel_uncore.c disable_component); the reasons
# of missing permissions themselves are tested with their backends.  Here
# the component is disabled by a simulator instance that does not exist.
set -u
. "$(dirname "$0")/lib.sh"
plan 8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM=$tmp/no-such-instance
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_VERBOSE PAPI_VERBOSE
reason="sim backend: cannot open simulator instance $tmp/no-such-instance: No such file or directory (create it with \`uncore-sim create\`)"
ev=hswep_unc_imc::UNC_M_CAS_COUNT:RD

"$STAGE/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "papi_component_avail: disabled, with the reason and the fix" grep -qF -- "Disabled: $reason" "$tmp/avail"
"$STAGE/bin/uncore-stat" --sim-model "$PAPI_INTEL_UNCORE_SIM" --sim -g MEM -- true 2>"$tmp/stat"
expect "uncore-stat: status 1" test $? -eq 1
expect "uncore-stat: the same reason" grep -qxF -- "uncore-stat: intel_uncore is disabled: $reason" "$tmp/stat"
PAPI_VERBOSE=1 "$STAGE/bin/papi_command_line" "$ev" >"$tmp/cl" 2>&1
expect "a PAPI program: the same reason through PAPI's error channel" \
	grep -qxF -- "PAPI Error: intel_uncore is disabled: $reason" "$tmp/cl"
PAPI_INTEL_UNCORE_VERBOSE=1 "$STAGE/bin/papi_command_line" "$ev" >"$tmp/cl" 2>&1
expect "a PAPI program with PAPI_INTEL_UNCORE_VERBOSE=1: the same reason on stderr" \
	grep -qxF -- "intel_uncore is disabled: $reason" "$tmp/cl"
"$STAGE/bin/papi_command_line" "$ev" >"$tmp/cl" 2>&1
expect "... and nothing of it without either (PAPI's default is quiet)" \
	sh -c "! grep -q 'intel_uncore is disabled' '$tmp/cl'"

"$STAGE/bin/uncore-stat" --sim-model "$PAPI_INTEL_UNCORE_SIM" --sim -g list >"$tmp/list" 2>&1
expect "uncore-stat -g list with the component disabled: status 0" test $? -eq 0
expect "... lists the groups" grep -q '^MEM  *DRAM bandwidth per socket and node' "$tmp/list"
