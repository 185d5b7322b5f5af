#!/usr/bin/env bash
# The component's own PAPI test programs (components/intel_uncore/tests),
# run as PAPI users would: on this machine as it is (active on whatever it
# can count - here possibly the kernel's own PMUs only, counted as msr::tsc -
# or disabled with a reason), on the simulator, and on the simulator behind
# the simulated kernel (the perf backend).
set -u
. "$(dirname "$0")/lib.sh"
plan 41
for t in "$BUILD"/ctests/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "# $name, this machine:"
	run_checks native env -u PAPI_INTEL_UNCORE_BACKEND "$t"
	echo "# $name, simulator:"
	PAPI_INTEL_UNCORE_BACKEND=sim \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
		run_checks sim "$t"
	echo "# $name, simulator behind the simulated kernel (perf backend):"
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=perf \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
		run_checks sim+perf "$t"
done

# The background poller, forced on (a 2 ms period) for the simulator's
# 48-bit counters, changes nothing but the reads; a bad setting is refused
# at start with the reason.
t="$BUILD/ctests/intel_uncore_basic"
if [ -x "$t" ]; then
	echo "# intel_uncore_basic, simulator, with the poller forced on:"
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_POLL=2 \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
		run_checks sim+poller "$t"
	out=$(PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_POLL=often PAPI_INTEL_UNCORE_VERBOSE=1 \
		"$STAGE/bin/papi_command_line" hswep_unc_imc::UNC_M_CAS_COUNT:RD 2>&1)
	if echo "$out" | grep -q 'PAPI_INTEL_UNCORE_POLL=often: give auto, off, or a period'; then
		pass "a bad PAPI_INTEL_UNCORE_POLL is refused at start with the reason"
	else
		fail "a bad PAPI_INTEL_UNCORE_POLL is refused at start with the reason (got: $(echo "$out" | tail -3))"
	fi
else
	fail "intel_uncore_basic was not built"
fi
