#!/usr/bin/env bash
# Exact counts through PAPI on the simulator for every Haswell-EP box type,
# filters, fixed counters and counter wraps (build/itests/papi_counts, from
# tests/integration/papi/papi_counts.c), on each simulated model: two and
# four sockets, and the small part with absent boxes (whose names must be
# refused).
set -u
. "$(dirname "$0")/lib.sh"
plan 12
bin=$BUILD/itests/papi_counts
need "$bin" || exit 0
export SRCDIR
# The test advances virtual time from its own thread between PAPI_reads
# every 3,000 simulated s, well inside the fastest wrap (7,037 s, see
# papi_counts.c).  The background poller would read from another thread,
# and an advance that lands inside its read freeze (frz_all ... unfrz_all)
# passes 3,000 s with every counter frozen: a lost interval that only a
# virtual clock can produce (seen under load).  The poller has its own
# tests (test_poller, test_wrap_safety).
export PAPI_INTEL_UNCORE_POLL=off
for model in e5-2699v3-2s e7-8890v3-4s e5-2620v3-2s; do
	echo "== $model"
	run_checks "$model" "$bin" "$model"
done
