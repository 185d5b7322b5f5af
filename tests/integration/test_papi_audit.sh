#!/usr/bin/env bash
# The simulator's audit log of PAPI programs (build/itests/papi_audit, from
# tests/integration/papi/papi_audit.c): the HSX PMON 2.1.2 programming
# sequence for MSR and PCI boxes, the UBox recipe, the SBo/R2PCIe/R3QPI
# double-write erratum, and no write outside an independently derived
# allowlist under thousands of random valid and invalid event strings
# (refused strings: no write at all).  Each model, two seeds on the first;
# ITEST_SEED adds another.
set -u
. "$(dirname "$0")/lib.sh"
plan 28
bin=$BUILD/itests/papi_audit
need "$bin" || exit 0
export SRCDIR
for run in "1 e5-2699v3-2s" "20240601 e5-2699v3-2s" "2 e7-8890v3-4s" "3 e5-2620v3-2s" \
	${ITEST_SEED:+"$ITEST_SEED e5-2699v3-2s"}; do
	set -- $run
	echo "== seed $1, $2"
	run_checks "$2 seed $1" "$bin" 4000 "$1" "$2"
done
