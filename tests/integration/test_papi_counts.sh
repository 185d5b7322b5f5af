#!/usr/bin/env bash
# Exact counts through PAPI on the simulator for every Haswell-EP box type,
# filters, fixed counters and counter wraps (build/itests/papi_counts, from
# tests/integration/papi/papi_counts.c), on each simulated model: two and
# four sockets, and the small part with absent boxes (whose names must be
# refused).
set -u
. "$(dirname "$0")/lib.sh"
bin=$BUILD/itests/papi_counts
if [ ! -x "$bin" ]; then
	fail "papi_counts is not built ($bin): run make check"
	exit 0
fi
export SRCDIR
for model in e5-2699v3-2s e7-8890v3-4s e5-2620v3-2s; do
	echo "== $model"
	run_checks "$model" "$bin" "$model"
done
