#!/usr/bin/env bash
# The component's own PAPI test programs (components/intel_uncore/tests),
# run as PAPI users would: on this machine as it is (the component is
# disabled with a reason) and on the simulator.
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
done
