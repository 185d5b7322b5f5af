#!/usr/bin/env bash
# PAPI_overflow/PAPI_profil on uncore events are refused with a reason
# (build/itests/papi_overflow, from tests/integration/papi/papi_overflow.c):
# uncore counters deliver no overflow interrupt, so sampling tools
# (HPCToolkit's hpcrun) get an error instead of a handler that never runs.
set -u
. "$(dirname "$0")/lib.sh"
plan 14
bin=$BUILD/itests/papi_overflow
need "$bin" || exit 0
export SRCDIR
run_checks "overflow" "$bin"
PAPI_INTEL_UNCORE_SIM_KERNEL=perf run_checks "overflow, perf backend" "$bin"
