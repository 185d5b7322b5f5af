#!/usr/bin/env bash
# The Xeon tables generated from Intel's perfmon event data
# (libpfm4-events/events/perfmon/, tools/gen_perfmon.py): the audit against
# Intel's files (0 disagreements), the committed headers against the
# generator, and a negative run proving the audit can fail.  Intel's data:
# $PERFMON, else ../shared/reference/intel-perfmon next to the source tree;
# without it the audit is reported as not run (find_perfmon, seeds.sh).
set -u
. "$(dirname "$0")/lib.sh"
py=${PYTHON3:-python3}
tools=$SRCDIR/libpfm4-events/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/seeds.sh"
find_perfmon "perfmon audit (Xeon tables against Intel's event data)" || exit 0
plan 5

"$py" "$tools/audit_perfmon.py" --perfmon "$perfmon" >"$tmp/audit.out" 2>&1
audit_verdict $? "perfmon audit ($(grep -c '^note' "$tmp/audit.out") notes on Intel's own inconsistencies)" \
	"$tmp/audit.out" audit-perfmon

if "$py" "$tools/gen_perfmon.py" --perfmon "$perfmon" --check >"$tmp/gen.out" 2>&1; then
	pass "committed perfmon tables are what gen_perfmon.py produces ($(grep -c '^same' "$tmp/gen.out") headers)"
else
	fail "perfmon tables out of date: run $tools/gen_perfmon.py --perfmon $perfmon"
	grep -v '^same' "$tmp/gen.out" | head -20
fi

# The metric files of these generations (metrics/<gen>.metrics) are what
# the generator writes from Intel's metric files; one edited file is found.
if "$py" "$SRCDIR/metrics/gen_perfmon_metrics.py" --perfmon "$perfmon" --check >"$tmp/mgen.out" 2>&1; then
	pass "committed Xeon metric files are what metrics/gen_perfmon_metrics.py produces"
else
	fail "Xeon metric files out of date: run metrics/gen_perfmon_metrics.py --perfmon $perfmon ($(head -3 "$tmp/mgen.out" | tr '\n' ' '))"
fi
mkdir -p "$tmp/msrc/metrics"
cp "$SRCDIR"/metrics/gen_perfmon_metrics.py "$SRCDIR"/metrics/*.metrics "$tmp/msrc/metrics/"
ln -s "$SRCDIR/libpfm4-events" "$tmp/msrc/libpfm4-events"
sed -i 's/ \* 64 \/ 1000000)/ * 32 \/ 1000000)/' "$tmp/msrc/metrics/spr.metrics"
"$py" "$tmp/msrc/metrics/gen_perfmon_metrics.py" --perfmon "$perfmon" --check >"$tmp/mneg.out" 2>&1
expect "an edited metric file is found (spr.metrics)" grep -q 'differs: .*spr.metrics' "$tmp/mneg.out"

# Negative: UNC_CHA_TOR_INSERTS:IA_MISS of Sapphire Rapids given another
# UMaskExt in a copy of the tables.
mkdir "$tmp/tables"
cp "$SRCDIR"/libpfm4-events/events/perfmon/*.h "$tmp/tables/"
f=$tmp/tables/intel_spr_unc_cha_events.h
sed -i '/"IA_MISS"/,/ucode/ s/\.ucode  = 0xc001fe00000100ULL,/.ucode  = 0xc001ff00000100ULL,/' "$f"
if cmp -s "$f" "$SRCDIR/libpfm4-events/events/perfmon/intel_spr_unc_cha_events.h"; then
	fail "perfmon audit negative test could not alter UNC_CHA_TOR_INSERTS:IA_MISS"
elif "$py" "$tools/audit_perfmon.py" --perfmon "$perfmon" --tables "$tmp/tables" --only spr >"$tmp/neg" 2>&1; then
	fail "perfmon audit accepted UNC_CHA_TOR_INSERTS.IA_MISS with UMaskExt 0xc001ff (Intel: 0xc001fe)"
elif grep -q 'UNC_CHA_TOR_INSERTS.IA_MISS: control bits 63:32' "$tmp/neg"; then
	pass "perfmon audit rejects a wrong UMaskExt (UNC_CHA_TOR_INSERTS.IA_MISS)"
else
	fail "perfmon audit failed, but not on UNC_CHA_TOR_INSERTS.IA_MISS: $(tail -1 "$tmp/neg")"
fi
