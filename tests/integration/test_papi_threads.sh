#!/usr/bin/env bash
# Many event sets in one process (build/itests/papi_threads): 4, 8 and 16
# threads each with its own event set, started, read and stopped at once for
# hundreds of rounds, every value exactly the simulator's count over that
# set's own interval (shared and distinct encodings, sets starting at
# different times), on both backends.  (PAPI_shutdown racing other threads'
# calls is tested below PAPI, tests/unit/eventset/test_share.c: PAPI's own
# PAPI_stop dereferences the thread state PAPI_shutdown freed, papi.c.)
set -u
. "$(dirname "$0")/lib.sh"
bin=$BUILD/itests/papi_threads
if [ ! -x "$bin" ]; then
	fail "papi_threads is not built: run make check"
	exit 0
fi
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
for spec in "4 300" "8 200" "16 100"; do
	set -- $spec
	expect "$1 threads, $2 rounds: exact counts of each set's own interval" "$bin" count "$1" "$2"
done
PAPI_INTEL_UNCORE_SIM_KERNEL=perf expect "perf backend (simulated kernel): 8 threads, 100 rounds, exact" \
	"$bin" count 8 100
