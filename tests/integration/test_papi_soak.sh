#!/usr/bin/env bash
# A short soak (build/itests/papi_soak, issue 29): 8 threads taking random
# steps on their own event sets (create, add, start, read, reset, accum,
# stop, clean up, destroy, unregister with the set in any state) while
# simulated time moves, every value checked exactly; on both backends.
# `make soak` runs it for ten minutes with 16 threads under
# AddressSanitizer and ThreadSanitizer (tests/integration/soak.sh).
set -u
. "$(dirname "$0")/lib.sh"
plan 2
bin=$BUILD/itests/papi_soak
need "$bin" || exit 0
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL
seed=${SOAK_SEED:-$RANDOM}
run_checks "direct backend, 8 threads, 20 s" "$bin" 8 20 "$seed"
PAPI_INTEL_UNCORE_SIM_KERNEL=perf run_checks "perf backend (simulated kernel), 8 threads, 10 s" \
	"$bin" 8 10 "$seed"
