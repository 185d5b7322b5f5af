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
# uncore-stat and the component on hosts without an uncore to count (issue
# 26, item 7): on the AMD host, and on an Emerald Rapids KVM guest (family
# 6 model 207, the hypervisor flag, no uncore_* PMU: the machine of
# docs/hardware/2026-11-27-emr-kvm-h200.md) and the same processor bare,
# they name the processor they saw and what is and is not available, and
# advise loading intel_uncore only where that could help (Intel, no VM).
set -u
. "$(dirname "$0")/lib.sh"
scripts="test_perf_backend.sh test_upstream_uncore.sh test_component_tests.sh"
plan 22
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
shim=$BUILD/tests/fakes/fake_host.so
need "$shim" || exit 0

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

# ---- honest detection: uncore-stat and the component's description --------
amd "$STAGE/bin/uncore-stat" -g MEM -- true 2>"$tmp/amd-mem"
expect "AMD host: uncore-stat -g MEM refuses (status 2, got $?)" test $? -eq 2
expect "... naming the processor it saw, not an Intel one ($(head -c 300 "$tmp/amd-mem"))" \
	grep -q 'AMD EPYC 9654 96-Core Processor (AuthenticAMD family 25 model 0x11).*: not an Intel processor; intel_uncore has no uncore tables, metric groups or presets for it' "$tmp/amd-mem"
expect "... with no advice about Intel's driver" sh -c "! grep -Eq 'modprobe|intel_uncore driver|Xeon' '$tmp/amd-mem'"
expect "... and what it can count: the kernel's PMUs (software among them)" \
	grep -q "Available here: the kernel's PMUs .*software" "$tmp/amd-mem"
amd "$STAGE/bin/uncore-stat" -e kernel_metric::DRAM_BW -- true 2>"$tmp/amd-km"
expect "AMD host: uncore-stat -e kernel_metric::DRAM_BW refuses (status 2, got $?)" test $? -eq 2
expect "... as not an Intel processor, with no driver advice ($(head -c 300 "$tmp/amd-km"))" \
	sh -c "grep -q 'needs the kernel event uncore_imc::cas_count_read: AMD EPYC 9654.*not an Intel processor' '$tmp/amd-km' && ! grep -q modprobe '$tmp/amd-km'"
amd "$STAGE/bin/papi_component_avail" >"$tmp/amd-comp" 2>&1
expect "AMD host: intel_uncore's description names the processor (kernel PMUs only: AMD EPYC ...)" \
	grep -q '^Name: *intel_uncore *Intel uncore, perf backend: kernel PMUs only: AMD EPYC 9654 96-Core Processor' "$tmp/amd-comp"

# An Emerald Rapids guest: our tables, no uncore PMU; bare: the same
# processor whose kernel has no uncore driver loaded.
sed -e 's/^vendor_id\t*:.*/vendor_id\t: GenuineIntel/' -e 's/^cpu family\t*:.*/cpu family\t: 6/' \
	-e 's/^model\t*:.*/model\t\t: 207/' -e 's/^model name\t*:.*/model name\t: Intel(R) Xeon(R) Processor/' \
	-e 's/ hypervisor\b//' -e 's/^\(flags\t*:.*\)$/\1 hypervisor/' /proc/cpuinfo >"$tmp/emr-vm"
sed -e 's/ hypervisor\b//' "$tmp/emr-vm" >"$tmp/emr-bare"
emr() { # CPUINFO COMMAND...: run on that Emerald Rapids
	local info=$1
	shift
	LD_PRELOAD=$shim FAKE_HOST_CPUINFO=$info FAKE_HOST_EVENT_SOURCE=$tmp/pmus "$@"
}
emr "$tmp/emr-vm" "$STAGE/bin/uncore-stat" -g MEM -g LLC -- true 2>"$tmp/emr-vm-mem"
expect "EMR guest: uncore-stat -g MEM -g LLC refuses (status 2, got $?)" test $? -eq 2
expect "... naming the processor and its generation ($(head -c 300 "$tmp/emr-vm-mem"))" \
	grep -q 'GenuineIntel family 6 model 0xcf), a virtual machine \[5th gen Intel Xeon Scalable (Emerald Rapids)\]' "$tmp/emr-vm-mem"
expect "... saying the hypervisor exposes no uncore PMU: count on the host" \
	grep -q 'the hypervisor exposes no uncore PMU to this virtual machine .*count on the host' "$tmp/emr-vm-mem"
expect "... not to load a driver" sh -c "! grep -q modprobe '$tmp/emr-vm-mem'"
expect "... and what it can count (the kernel's PMUs)" \
	grep -q "Available here: the kernel's PMUs .*software" "$tmp/emr-vm-mem"
# What the guest lists is what it can count: the kernel's PMUs, none of
# the Emerald Rapids tables' events or metrics (their names still resolve,
# so naming one says why it cannot count).
emr "$tmp/emr-vm" "$STAGE/bin/papi_native_avail" >"$tmp/emr-vm-native" 2>&1
expect "EMR guest: papi_native_avail lists no event of the tables ($(grep -c 'emr_' "$tmp/emr-vm-native") listed)" \
	sh -c "! grep -q 'intel_uncore:::emr_' '$tmp/emr-vm-native'"
expect "... and lists the kernel's PMUs' events (software::cpu-clock)" \
	grep -q 'intel_uncore:::software::cpu-clock' "$tmp/emr-vm-native"
emr "$tmp/emr-vm" "$STAGE/bin/uncore-stat" -e emr_unc_imc::UNC_M_CLOCKTICKS -- true 2>"$tmp/emr-vm-named"
expect "... a table event named there is refused saying why ($(head -c 200 "$tmp/emr-vm-named"))" \
	grep -q 'hypervisor exposes no uncore PMU' "$tmp/emr-vm-named"
emr "$tmp/emr-bare" "$STAGE/bin/uncore-stat" -g MEM -- true 2>"$tmp/emr-bare-mem"
expect "EMR without a VM, no uncore PMU: uncore-stat -g MEM refuses (status 2, got $?)" test $? -eq 2
expect "... there the driver is the fix: modprobe intel_uncore ($(head -c 300 "$tmp/emr-bare-mem"))" \
	sh -c "grep -q 'the kernel publishes no uncore PMU .*modprobe intel_uncore' '$tmp/emr-bare-mem' && ! grep -q 'virtual machine' '$tmp/emr-bare-mem'"

for s in $scripts; do
	run_checks "AMD host: ${s%.sh}" amd bash "$SRCDIR/tests/integration/$s"
done
