#!/usr/bin/env bash
# The component's own PAPI test programs (components/intel_uncore/tests),
# run as PAPI users would: on this machine as it is (active on whatever it
# can count - here possibly the kernel's own PMUs only, counted as msr::tsc -
# or disabled with a reason), on the simulator, and on the simulator behind
# the simulated kernel (the perf backend).
set -u
. "$(dirname "$0")/lib.sh"
for t in "$BUILD"/ctests/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "# $name, this machine:"
	env -u PAPI_INTEL_UNCORE_BACKEND "$t" | sed 's/^\(PASS\|FAIL\) /\1 native: /'
	echo "# $name, simulator:"
	PAPI_INTEL_UNCORE_BACKEND=sim \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
		"$t" | sed 's/^\(PASS\|FAIL\) /\1 sim: /'
	echo "# $name, simulator behind the simulated kernel (perf backend):"
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=perf \
		PAPI_INTEL_UNCORE_SIM_SCENARIO="$SRCDIR/src/sim/scenarios/demo-stream.scn" \
		"$t" | sed 's/^\(PASS\|FAIL\) /\1 sim+perf: /'
done
