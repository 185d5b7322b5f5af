#!/usr/bin/env bash
# The metric files against the manuals they quote (metrics/audit_metrics.py):
# every Common Metrics row of the Haswell-EP manual is in hswep.metrics with
# its equation and definition verbatim, every Nehalem formula is in the
# guide; and a changed formula makes the audit fail.  Seeds: $SEEDS, else
# ../shared/seeds next to the source tree; without them the audit is
# reported as not run (seeds.sh).
set -u
. "$(dirname "$0")/lib.sh"
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/seeds.sh"
find_seeds "audit-metrics (metric files against the manuals)" || exit 0
plan 3

"$py" "$SRCDIR/metrics/audit_metrics.py" --seeds "$seeds" >"$tmp/out" 2>&1
if ! audit_verdict $? "metric files against the manuals" "$tmp/out" audit-metrics; then
	cat "$tmp/out"
fi

# The audit can fail: one equation changed, one row dropped.
mkdir "$tmp/m"
cp "$SRCDIR"/metrics/*.metrics "$tmp/m/"
sed -i 's|^\tformula (CAS_COUNT.RD \* 64)$|\tformula (CAS_COUNT.RD * 32)|' "$tmp/m/hswep.metrics"
sed -i '/^metric UC_READS$/,/^$/d' "$tmp/m/hswep.metrics"
"$py" "$SRCDIR/metrics/audit_metrics.py" --seeds "$seeds" --metrics "$tmp/m" >"$tmp/neg" 2>&1
expect "a changed equation fails the audit" grep -q 'MEM_BW_READS: formula differs' "$tmp/neg"
expect "a missing row fails the audit" grep -q 'HSX 2.3.5 UC_READS has no stanza' "$tmp/neg"
