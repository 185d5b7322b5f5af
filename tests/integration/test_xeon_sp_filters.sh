#!/usr/bin/env bash
# Two events that need different values of one box's filter register never
# share that box silently (issue 26): on the Skylake-SP simulated kernel,
# UNC_CHA_TOR_INSERTS.IA_MISS (every opcode: FILTER1 0) beside .IA_MISS_DRD
# (FILTER1 0x40433, demand data reads) used to be merged into one CHA
# filter, and IA_MISS then counted demand reads only (1,218,000,000 a
# second instead of 3,654,000,000).  The kernel's driver programs FILTER1
# for every TOR event (skx_uncore_cha_extra_regs), so such a pair is now a
# conflict: refused with PAPI_ECNFLCT and a message naming both events and
# the register (src/events/registry_xeon_sp.c, skx_cha_claims).  The
# scenario (src/simkernel/shape_skx.c): CHA j of socket s inserts 3 M IA
# misses and 1 M demand-read misses a second x (j+1) x (s+1), 28 CHAs:
# socket 0 3 M x 406, socket 1 twice that; on virtual time
# (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1 s a round of reads).
set -u
. "$(dirname "$0")/lib.sh"
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks TMPDIR=$tmp PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_EVENTS PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE
stat=$STAGE/bin/uncore-stat
miss=$((3000000 * 406)) drd=$((1000000 * 406))

rate_of() { # event csv -> its node total per second of the run (exact: integer)
	awk -F, -v e="$1" '$1 == "total" && $6 == e && $7 == "all" && $3 + 0 > 0 {
		r = $8 / $3; if (r == int(r)) printf "%.0f\n", r; else print "not whole: " $8 "/" $3 }' "$2" | head -1
}

# Each alone counts what the scenario defines.
for ev in UNC_CHA_TOR_INSERTS.IA_MISS:$((3 * miss)) UNC_CHA_TOR_INSERTS.IA_MISS_DRD:$((3 * drd)); do
	name=${ev%%:*} want=${ev#*:}
	"$stat" --sim --sim-kernel skx --csv -o "$tmp/one.csv" -e "$name" -- true 2>"$tmp/err"
	rc=$?
	got=$(rate_of "$name" "$tmp/one.csv")
	expect "skx: $name alone: status $rc, node total ${got:-nothing} a second, the scenario's $want" \
		test $rc -eq 0 -a "${got:-x}" = "$want"
done

# Together in one set: refused, both events and the filter register named.
"$stat" --sim --sim-kernel skx -e UNC_CHA_TOR_INSERTS.IA_MISS -e UNC_CHA_TOR_INSERTS.IA_MISS_DRD \
	-- true >"$tmp/out" 2>&1
rc=$?
expect "skx: IA_MISS with IA_MISS_DRD in one set: refused (status $rc), nothing counted" \
	sh -c "test $rc -ne 0 && ! grep -E '^UNC_CHA_TOR_INSERTS' '$tmp/out' >/dev/null"
expect "... the message names both events and CHA_MSR_PMON_BOX_FILTER1 ($(head -c 400 "$tmp/out"))" \
	sh -c "grep 'filter conflict' '$tmp/out' | grep 'UNC_CHA_TOR_INSERTS.IA_MISS:' | grep 'UNC_CHA_TOR_INSERTS.IA_MISS_DRD' | grep CHA_MSR_PMON_BOX_FILTER1 >/dev/null"

# Through PAPI: the second is PAPI_ECNFLCT, the first still counts right.
PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=skx \
	"$STAGE/bin/papi_command_line" UNC_CHA_TOR_INSERTS.IA_MISS UNC_CHA_TOR_INSERTS.IA_MISS_DRD \
	>"$tmp/pcl" 2>&1
rc=$?
expect "papi_command_line IA_MISS IA_MISS_DRD: status 0 ($rc)" test $rc -eq 0
expect "... IA_MISS_DRD refused as a resource conflict (PAPI_ECNFLCT's words)" \
	sh -c "grep -A1 'Failed adding: UNC_CHA_TOR_INSERTS.IA_MISS_DRD' '$tmp/pcl' | grep 'cannot be counted due to hardware resource limits' >/dev/null"
got=$(awk '$1 == "UNC_CHA_TOR_INSERTS.IA_MISS" { print $3 }' "$tmp/pcl" | tr -dc 0-9)
expect "... IA_MISS counts every opcode: ${got:-nothing}, the scenario's $((3 * miss))" \
	test "${got:-x}" = "$((3 * miss))"

# The preset beside the LLC group (IA_MISS_DRD terms): refused the same way,
# not counted as demand reads.
"$stat" --sim --sim-kernel skx -e PAPI_UNC_LLC_MISSES -g LLC -- true >"$tmp/out" 2>&1
rc=$?
expect "skx: -e PAPI_UNC_LLC_MISSES -g LLC: refused (status $rc)" test $rc -ne 0
expect "... naming IA_MISS, IA_MISS_DRD and CHA_MSR_PMON_BOX_FILTER1 ($(head -c 400 "$tmp/out"))" \
	sh -c "grep 'filter conflict' '$tmp/out' | grep 'IA_MISS:' | grep 'IA_MISS_DRD' | grep CHA_MSR_PMON_BOX_FILTER1 >/dev/null"
