#!/usr/bin/env bash
# The suite on a host we do not have: an AMD EPYC (Zen 4) KVM guest without
# a core PMU.  The scripts whose checks read what the host's processor and
# kernel say run again with /proc/cpuinfo and /sys/bus/event_source/devices
# replaced (tests/fakes/fake_host.c, LD_PRELOAD into the script and every
# program it starts) by that host's: vendor AuthenticAMD, family 25 (0x19),
# model 17 (0x11), and the kernel PMUs of this machine without the
# Intel-only ones, the msr PMU holding tsc alone (arch/x86/events/msr.c:
# on AMD only PERF_MSR_TSC probes true).  Each must pass as it does here;
# the tests of the host itself (test_papi_utilities.sh) are left out, the
# component's CPUID being this machine's.
set -u
. "$(dirname "$0")/lib.sh"
scripts="test_perf_backend.sh test_upstream_uncore.sh test_component_tests.sh"
plan $((5 + $(echo "$scripts" | wc -w)))
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
shim=$BUILD/tests/fakes/fake_host.so
if [ ! -f "$shim" ]; then
	fail "$shim is not built: run make check"
	exit 0
fi

sed -e 's/^vendor_id\t*:.*/vendor_id\t: AuthenticAMD/' \
	-e 's/^cpu family\t*:.*/cpu family\t: 25/' \
	-e 's/^model\t*:.*/model\t\t: 17/' \
	-e 's/^model name\t*:.*/model name\t: AMD EPYC 9654 96-Core Processor/' \
	-e 's/^stepping\t*:.*/stepping\t: 1/' /proc/cpuinfo >"$tmp/cpuinfo"
real=/sys/bus/event_source/devices
for d in "$real"/*; do
	p=$(basename "$d")
	case $p in
	uncore_* | cstate_* | intel_* | power | cpu | cpu_core | cpu_atom | i915 | msr_safe) continue ;;
	esac
	mkdir -p "$tmp/pmus/$p"
	cp "$d/type" "$tmp/pmus/$p/"
	[ -f "$d/cpumask" ] && cp "$d/cpumask" "$tmp/pmus/$p/"
	[ -d "$d/format" ] && cp -r "$d/format" "$tmp/pmus/$p/"
	if [ "$p" = msr ]; then
		mkdir -p "$tmp/pmus/msr/events"
		[ -f "$d/events/tsc" ] && cp "$d/events/tsc" "$tmp/pmus/msr/events/"
	elif [ -d "$d/events" ]; then
		cp -r "$d/events" "$tmp/pmus/$p/"
	fi
done
amd() { # COMMAND...: run on the AMD host
	LD_PRELOAD=$shim FAKE_HOST_CPUINFO=$tmp/cpuinfo FAKE_HOST_EVENT_SOURCE=$tmp/pmus "$@"
}

vendor=$(amd sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -1)
expect "the AMD host's /proc/cpuinfo is the one programs read (vendor '$vendor')" test "$vendor" = AuthenticAMD
amd "$STAGE/bin/papi_avail" >"$tmp/avail" 2>&1
expect "PAPI's hardware information says AMD" grep -q '^Vendor string and code *: AuthenticAMD (2,' "$tmp/avail"
if [ -d "$real/msr" ]; then
	events=$(amd ls /sys/bus/event_source/devices/msr/events | tr '\n' ' ')
	expect "the AMD host's msr PMU has tsc alone (${events:-none})" test "$events" = "tsc "
	amd env -u PAPI_INTEL_UNCORE_BACKEND "$STAGE/bin/papi_native_avail" >"$tmp/native" 2>&1
	expect "intel_uncore offers no msr event beside tsc there" \
		sh -c "! grep -E 'msr::(smi|aperf|mperf|pperf|cpu_thermal_margin)' '$tmp/native' >/dev/null"
else
	skip "the AMD host's msr PMU: this kernel has no msr PMU to copy"
	skip "intel_uncore's msr events on the AMD host: this kernel has no msr PMU to copy"
fi
# PAPI's own cbox test, shown this host's identity as it is, refuses to
# count (as on a real AMD host): what test_upstream_uncore.sh gives it, the
# simulated Xeon's identity, is what makes it run.
amd env PAPI_INTEL_UNCORE_BACKEND=sim "$BUILD/upstream-tests/perf_event_uncore_cbox" >"$tmp/cbox" 2>&1
expect "PAPI's perf_event_uncore_cbox on the AMD host's own identity says it supports Intel only" \
	grep -q 'We only support Intel for now' "$tmp/cbox"

for s in $scripts; do
	run_checks "AMD host: ${s%.sh}" amd bash "$SRCDIR/tests/integration/$s"
done
