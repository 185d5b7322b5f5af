#!/usr/bin/env bash
# What a user reads (issue 31, item 4): the component's description fits
# PAPI's 128 characters on every simulated shape without being cut in a
# word, with the backend and SIMULATED kept; the component reports the
# release every tool does; every bad event is a usage error (status 2)
# with its reason; a preset refused next to a group is explained by the
# preset's events (the CBo filter conflict), not as an unknown preset.
# (JSON: test_uncore_stat.sh; the plot: test_plot.sh; the socket warning:
# test_papi_lock.sh; papi_native_avail -i: test_listing.sh; the demo:
# test_demo_units.sh.)
set -u
. "$(dirname "$0")/lib.sh"
plan 39
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
stat=$STAGE/bin/uncore-stat

# The description, as papi_component_avail prints it, on every shape; the
# full text (printed with PAPI_INTEL_UNCORE_VERBOSE=1 when it was longer)
# has every word of it: details were dropped, no word was cut.
words() { tr ' ,;()' '\n\n\n\n\n' <<<"$1" | grep -v '^$' | grep -vx '\.\.\.' | sed 's/\.\.\.$//'; }
for shape in "" "PAPI_INTEL_UNCORE_SIM_KERNEL=perf" "PAPI_INTEL_UNCORE_SIM_KERNEL=gnr" \
	"PAPI_INTEL_UNCORE_SIM_KERNEL=spr" "PAPI_INTEL_UNCORE_SIM=x7140m-4s" \
	"PAPI_INTEL_UNCORE_SIM_KERNEL=perf PAPI_INTEL_UNCORE_SIM_SCENARIO=qpi-remote"; do
	# shellcheck disable=SC2086 # the shape's variables
	env PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_VERBOSE=1 $shape \
		"$STAGE/bin/papi_component_avail" >"$tmp/ca" 2>"$tmp/ca.err"
	d=$(sed -n 's/^Name: *intel_uncore *//p' "$tmp/ca" | head -1)
	full=$(sed -n 's/^intel_uncore: \(Intel uncore, .*\)/\1/p' "$tmp/ca.err" | head -1)
	: "${full:=$d}"
	expect "${shape:-sim}: the description fits PAPI's 128 characters (${#d}): '$d'" test "${#d}" -le 127
	expect "... says the backend and SIMULATED" sh -c "echo '$d' | grep -q 'backend: .*SIMULATED'"
	cut=$(comm -23 <(words "$d" | sort -u) <(words "$full" | sort -u) | xargs)
	expect "... and has only whole words of the full text (${#full} characters; not in it: '${cut}')" test -z "$cut"
done

release=$(sed -n 's/^AC_INIT(\[papi-uncore\], \[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
PAPI_INTEL_UNCORE_BACKEND=sim "$STAGE/bin/papi_component_avail" -d >"$tmp/cad" 2>&1
v=$(awk '/^Name: *intel_uncore/ { on = 1 } on && /Version:/ { print $NF; exit }' "$tmp/cad")
expect "the component's version is the release of the tools ($v, $release)" test "$v" = "$release"

# Bad events: status 2 and the reason.
while IFS='|' read -r ev why; do
	"$stat" --sim -e "$ev" -- true >"$tmp/out" 2>&1
	rc=$?
	expect "-e '$ev': status 2 (got $rc)" test $rc -eq 2
	expect "... saying: $why" grep -qF -- "$why" "$tmp/out"
done <<'BAD'
nope|unknown event 'nope'
UNC_M_CAS_COUNT:RDX|unknown unit mask 'RDX'
hswep_unc_imc::NOPE|unknown event 'NOPE' in hswep_unc_imc
hswep_unc_imc::UNC_M_CAS_COUNT:socket=9|this machine has 2 sockets
hswep_unc_imc::UNC_M_CAS_COUNT:RD:t=999|out of range
PAPI_NOPE|unknown event 'PAPI_NOPE'
PAPI_UNC_DRAM_RD_BYTES:socket=9|this machine has 2 sockets
msr::tsc|unknown PMU 'msr'
uncore_imc_0/event=0x4,umask=0x3/k|write 'uncore_imc_0::event=0x4:umask=0x3'
BAD

# A preset next to a group whose CBo filter it contradicts.
"$stat" --sim -g LLC -e PAPI_UNC_LLC_MISSES -- true >"$tmp/out" 2>&1
rc=$?
expect "-g LLC -e PAPI_UNC_LLC_MISSES: status 2 (got $rc)" test $rc -eq 2
expect "... explained by the preset's event and its CBo filter ($(head -c 300 "$tmp/out"))" \
	sh -c "grep -q 'filter conflict on hswep_unc_cbo.*need different values of the box.s filter register Cn_MSR_PMON_BOX_FILTER0' '$tmp/out' && ! grep -q \"unknown event 'PAPI_UNC_LLC_MISSES'\" '$tmp/out'"
