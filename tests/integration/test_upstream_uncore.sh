#!/usr/bin/env bash
# PAPI's own uncore tests, pointed at intel_uncore: the upstream programs of
# src/components/perf_event_uncore/tests in the PAPI tree, compiled unchanged
# but for the component they look up (build/upstream-tests/, see Makefile.in)
# with tests/integration/upstream/uncore_event_sim.c giving the events their
# library names for a Haswell-EP.  Each must end PASSED (a SKIPPED is a
# failure here: PAPI_CPU_ATTACH and every event they use must work), on the
# simulator through the direct backend and behind the simulated kernel.
# Also our own exact test of PAPI_CPU_ATTACH (papi/papi_cpu_attach.c).
# The programs ask PAPI's hardware information for the vendor
# (perf_event_uncore_cbox counts on Intel only): they see the simulated
# machine's processor, whatever the host is (tests/fakes/fake_host.c gives
# PAPI a /proc/cpuinfo of the simulated Xeon E5-2699 v3).
set -u
. "$(dirname "$0")/lib.sh"
# papi_cpu_attach's 2 cases, the identity, 4 programs x (source + 2 kernels);
# a machine without a core PMU adds a SKIP per run of
# perf_event_uncore_multiple (its own plan below).
plan 15
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR

bin=$BUILD/itests/papi_cpu_attach
if [ -x "$bin" ]; then
	run_checks "cpu attach" "$bin"
else
	fail "papi_cpu_attach is not built ($bin): run make check"
fi

export PAPI_INTEL_UNCORE_SIM_SCENARIO=$SRCDIR/src/sim/scenarios/demo-stream.scn

# The simulated machine's identity as /proc/cpuinfo gives it on a Xeon
# E5-2699 v3 (family 6, model 63 = 0x3f, stepping 2): the host's entries
# (so as many processors as the host has), these four fields replaced.
sed -e 's/^vendor_id\t*:.*/vendor_id\t: GenuineIntel/' \
	-e 's/^cpu family\t*:.*/cpu family\t: 6/' \
	-e 's/^model\t*:.*/model\t\t: 63/' \
	-e 's/^model name\t*:.*/model name\t: Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz/' \
	-e 's/^stepping\t*:.*/stepping\t: 2/' /proc/cpuinfo >"$tmp/cpuinfo"
simulated_host() { # COMMAND...: run with PAPI's hardware information of the simulated machine
	LD_PRELOAD=$BUILD/tests/fakes/fake_host.so${LD_PRELOAD:+:$LD_PRELOAD} \
		FAKE_HOST_CPUINFO=$tmp/cpuinfo "$@"
}
simulated_host "$STAGE/bin/papi_avail" >"$tmp/hw" 2>&1
expect "PAPI's hardware information shows the simulated processor (GenuineIntel, model 63)" \
	sh -c "grep -q '^Vendor string and code *: GenuineIntel (1,' '$tmp/hw' &&
		grep -q '^Model string and code *: Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz (63, 0x3f)' '$tmp/hw'"
# perf_event_uncore_multiple also counts PAPI_TOT_CYC on the CPU component;
# a machine without a core PMU (our KVM guests) cannot: there, everything up
# to that step must pass and the only failure be adding PAPI_TOT_CYC.
core_pmu=1
"$STAGE/bin/papi_avail" -e PAPI_TOT_CYC 2>&1 | grep 'NOT available' >/dev/null && core_pmu=0
for t in perf_event_uncore perf_event_uncore_attach perf_event_uncore_multiple perf_event_uncore_cbox; do
	bin=$BUILD/upstream-tests/$t
	if [ ! -x "$bin" ]; then
		fail "$t is not built ($bin): run make check"
		continue
	fi
	expect "$t looks up intel_uncore (retargeted source)" grep -q 'PAPI_get_component_index("intel_uncore")' "$bin.c"
	for kernel in none perf; do
		PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel simulated_host "$bin" >"$tmp/out" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && grep -q 'PASSED' "$tmp/out" && ! grep -q 'SKIPPED\|FAILED' "$tmp/out"; then
			pass "upstream $t passes against intel_uncore (simulator, kernel=$kernel)"
		elif [ "$t" = perf_event_uncore_multiple ] && [ $core_pmu = 0 ] &&
			grep -q 'Error in adding PAPI_TOT_CYC' "$tmp/out" && ! grep -q 'adding uncore event' "$tmp/out"; then
			plan 1
			pass "upstream $t: its intel_uncore set (CPU attach, granularity, domain, event) passes (kernel=$kernel)"
			skip "upstream $t: its PAPI_TOT_CYC half needs a core PMU, which this machine lacks"
		else
			fail "upstream $t against intel_uncore (simulator, kernel=$kernel): status $rc"
			tail -15 "$tmp/out"
		fi
	done
done
# The verbose run shows what was counted.
PAPI_INTEL_UNCORE_BACKEND=sim simulated_host "$BUILD/upstream-tests/perf_event_uncore_attach" >"$tmp/verbose" 2>&1
grep -v '^$' "$tmp/verbose" | head -8
