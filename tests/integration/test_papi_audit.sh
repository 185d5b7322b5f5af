#!/usr/bin/env bash
# The simulator's audit log of PAPI programs (build/itests/papi_audit, from
# tests/integration/papi/papi_audit.c): the HSX PMON 2.1.2 programming
# sequence for MSR and PCI boxes, the UBox recipe, the SBo/R2PCIe/R3QPI
# double-write erratum, and no write outside an independently derived
# allowlist under thousands of random valid and invalid event strings
# (refused strings: no write at all).  Two seeds; ITEST_SEED adds another.
set -u
. "$(dirname "$0")/lib.sh"
bin=$BUILD/itests/papi_audit
if [ ! -x "$bin" ]; then
	fail "papi_audit is not built ($bin): run make check"
	exit 0
fi
export SRCDIR
for seed in 1 20240601 ${ITEST_SEED:-}; do
	echo "== seed $seed"
	"$bin" 4000 "$seed" | sed -e "s/^PASS /PASS seed $seed: /" -e "s/^FAIL /FAIL seed $seed: /"
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || fail "papi_audit seed $seed exited with status $rc"
done
