#!/usr/bin/env bash
# PAPI's own utilities, from stage/, as real clients of the component:
# intel_uncore is compiled in next to perf_event; it is in the state this
# machine calls for (on a processor without uncore tables: active on the
# kernel's own PMUs), and when it is disabled its reason says what is
# missing and what to do.
set -u
. "$(dirname "$0")/lib.sh"
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$STAGE/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "papi_component_avail runs" test $? -eq 0
expect "intel_uncore is compiled in" grep -q '^Name: *intel_uncore ' "$tmp/avail"
expect "perf_event is still compiled in" grep -q '^Name: *perf_event ' "$tmp/avail"
expect "perf_event_uncore is still compiled in" grep -q '^Name: *perf_event_uncore ' "$tmp/avail"

# What this machine must give, worked out independently of the component
# (bind/backend_choice.c decides the same from CPUID, sysfs and rights):
# a processor without uncore tables whose kernel has PMUs countable by
# their sysfs aliases (msr, power, cstate, software) gets the perf backend
# on those PMUs alone - active when this user may count system-wide (root
# or perf_event_paranoid <= 0), else disabled with the permission fix.
# Elsewhere: active, or disabled with an actionable reason (names the CPU
# or the device and a fix), never a bare "disabled".
family=$(sed -n 's/^cpu family[[:space:]]*: *//p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model[[:space:]]*: *//p' /proc/cpuinfo | head -1)
vendor=$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -1)
# The CPUs src/platform/*/ have tables for (GenuineIntel only; each
# platform's `models[]`): HSX, BDX, SKL and its Kaby/Coffee/Comet Lake
# cousins, NHM, X7400/X7100, SKX/CLX, ICX, SPR, EMR, GNR, SRF.
case "$vendor/$family/$(printf '0x%x' "${model:-0}")" in
GenuineIntel/6/0x3f | GenuineIntel/6/0x4f | GenuineIntel/6/0x4e | GenuineIntel/6/0x5e | \
	GenuineIntel/6/0x8e | GenuineIntel/6/0x9e | GenuineIntel/6/0xa5 | GenuineIntel/6/0xa6 | \
	GenuineIntel/6/0x1a | GenuineIntel/6/0x1e | GenuineIntel/6/0x1f | GenuineIntel/6/0x1d | \
	GenuineIntel/15/0x6 | GenuineIntel/6/0x55 | GenuineIntel/6/0x6a | GenuineIntel/6/0x6c | \
	GenuineIntel/6/0x8f | GenuineIntel/6/0xcf | GenuineIntel/6/0xad | GenuineIntel/6/0xae | \
	GenuineIntel/6/0xaf)
	tables=1 ;;
*) tables=0 ;;
esac
kernel_pmus=0
for p in msr power cstate_core cstate_pkg software; do
	[ -e "/sys/bus/event_source/devices/$p/type" ] && kernel_pmus=1
done
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
may_count=0
{ [ "$(id -u)" = 0 ] || [ "$paranoid" -le 0 ]; } && may_count=1
reason=$(sed -n '/^Name: *intel_uncore /{n;p}' "$tmp/avail" | sed -n 's/.*Disabled: //p')
active=0
grep -A30 '^Active components' "$tmp/avail" | grep '^Name: *intel_uncore ' >/dev/null && active=1
desc=$(grep -m1 '^Name: *intel_uncore ' "$tmp/avail" | sed 's/^Name: *intel_uncore *//')
pmus=$(grep -A30 '^Active components' "$tmp/avail" | sed -n '/^Name: *intel_uncore /,/^$/s/.*PMUs supported: //p')
if [ "$tables" = 0 ] && [ "$kernel_pmus" = 1 ] && [ "$may_count" = 1 ]; then
	plan 2
	expect "no uncore tables for family $family model $model, kernel PMUs countable: intel_uncore is active" \
		test "$active" = 1
	# The processor it saw, as /proc/cpuinfo names it (its identification
	# in parentheses may be left out to fit PAPI's 128 characters).
	brand=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1)
	expect "... and says it counts the kernel's PMUs only, through the perf backend, for the processor it saw ($desc)" \
		sh -c 'case "$1" in "Intel uncore, perf backend: kernel PMUs only: "*"$2"*) exit 0 ;; esac; exit 1' _ "$desc" "${brand:-family $family}"
	bad=""
	for p in $(echo "$pmus" | tr ',' ' '); do
		# a PMU, or a family of numbered ones (uncore_imc: uncore_imc_0..)
		[ -e "/sys/bus/event_source/devices/$p/type" ] ||
			ls -d /sys/bus/event_source/devices/"$p"_[0-9]* >/dev/null 2>&1 || bad="$bad $p"
	done
	expect "... and lists kernel PMUs that exist ($pmus)" test -n "$pmus" -a -z "$bad"
	if [ -e /sys/bus/event_source/devices/msr/type ]; then
		plan 1
		"$STAGE/bin/papi_command_line" intel_uncore:::msr::tsc >"$tmp/tsc" 2>&1
		tsc=$(sed -n 's/^intel_uncore:::msr::tsc :[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/tsc")
		expect "... and papi_command_line counts msr::tsc through it ($tsc)" test "${tsc:-0}" -gt 0
	fi
elif [ "$tables" = 0 ] && [ "$kernel_pmus" = 1 ]; then
	expect "kernel PMUs only but no right to count system-wide: disabled with the permission fix" \
		sh -c "echo \"\$1\" | grep -q 'perf_event_paranoid.*CAP_PERFMON'" _ "$reason"
elif [ "$active" = 1 ]; then
	pass "intel_uncore is active: $desc"
elif [ -n "$reason" ] && echo "$reason" | grep -q -E 'model|/dev/|PAPI_INTEL_UNCORE_BACKEND|modprobe|driver'; then
	pass "intel_uncore disabled with an actionable reason: $reason"
else
	fail "intel_uncore neither active nor disabled with a useful reason (got: '$reason')"
fi

# An invalid override is reported as such.
PAPI_INTEL_UNCORE_BACKEND=bogus "$STAGE/bin/papi_component_avail" >"$tmp/bogus" 2>&1
expect "an invalid PAPI_INTEL_UNCORE_BACKEND is named in the reason" \
	grep -q 'PAPI_INTEL_UNCORE_BACKEND=bogus is invalid' "$tmp/bogus"

"$STAGE/bin/papi_native_avail" >"$tmp/native" 2>&1
expect "papi_native_avail runs" test $? -eq 0
"$STAGE/bin/papi_version" >"$tmp/version" 2>&1
expect "staged PAPI is version 7" grep -q 'PAPI Version: *7\.' "$tmp/version"
expect "libpapi.so is staged" test -e "$STAGE/lib/libpapi.so"
expect "papi.h is staged" test -f "$STAGE/include/papi.h"
