#!/usr/bin/env bash
# The libpfm4-events audit: our event tables against the specification texts
# (libpfm4-events/tools/audit.py), the committed generated tables against the
# generator, and two negative runs proving the audit can fail (a changed
# umask value, a stale exception).  Seeds: $SEEDS, else ../shared/seeds next
# to the source tree; without them the audit is reported as not run (seeds.sh).
set -u
. "$(dirname "$0")/lib.sh"
py=${PYTHON3:-python3}
tools=$SRCDIR/libpfm4-events/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/seeds.sh"
find_seeds "audit (libpfm4-events against the manuals)" || exit 0
plan 4

# A pristine libpfm4 (for the informational upstream comparison and the
# check of the flag values the audit assumes), if the build has one: the
# --with-papi-src tree recorded in the generated Makefile, or the download.
user_src=$(sed -n 's/^PAPI_SRC_USER *:= *//p' "$SRCDIR/Makefile" 2>/dev/null)
up=
for d in "${UPSTREAM_LIBPFM4:-}" "${user_src:+$user_src/src/libpfm4}" "$BUILD/papi-dl/papi/src/libpfm4"; do
	[ -n "$d" ] && [ -d "$d/lib/events" ] && up=$d && break
done

out=$tmp/audit.out
"$py" "$tools/audit.py" --seeds "$seeds" ${up:+--upstream "$up"} --report "$BUILD/audit-report.md" >"$out" 2>&1
if audit_verdict $? "audit (report: $BUILD/audit-report.md)" "$out" audit; then
	if [ -n "$up" ]; then
		echo "upstream libpfm4 $up: $(grep -c '^- ' "$BUILD/audit-report.md") report lines"
	else
		echo "no pristine libpfm4 found: upstream comparison skipped (set UPSTREAM_LIBPFM4)"
	fi
fi

if "$py" "$tools/gen_hswep.py" --seeds "$seeds" --check >"$tmp/gen.out" 2>&1; then
	pass "generated Haswell-EP tables and data are what gen_hswep.py produces"
else
	fail "generated tables out of date: $(tail -1 "$tmp/gen.out"); run $tools/gen_hswep.py --seeds $seeds"
	head -20 "$tmp/gen.out"
fi

# Negative 1: one unit-mask value changed in a copy of the tables.
mkdir "$tmp/tables"
cp "$SRCDIR"/libpfm4-events/events/*.h "$tmp/tables/"
sed -i '/"RD_UNDERFILL"/,/ucode/ s/\.ucode = 0x200,/.ucode = 0x400,/' "$tmp/tables/intel_hswep_unc_imc_events.h"
if cmp -s "$tmp/tables/intel_hswep_unc_imc_events.h" "$SRCDIR/libpfm4-events/events/intel_hswep_unc_imc_events.h"; then
	fail "audit negative test could not alter CAS_COUNT:RD_UNDERFILL"
elif "$py" "$tools/audit.py" --seeds "$seeds" --tables "$tmp/tables" >"$tmp/neg1" 2>&1; then
	fail "audit accepted CAS_COUNT:RD_UNDERFILL = 0x04 (Table 2-119 says 0x02)"
elif grep -q 'CAS_COUNT:RD_UNDERFILL value' "$tmp/neg1"; then
	pass "audit rejects a wrong unit-mask value (CAS_COUNT:RD_UNDERFILL)"
else
	fail "audit failed, but not on CAS_COUNT:RD_UNDERFILL: $(tail -1 "$tmp/neg1")"
fi

# Negative 2: an exception that matches nothing.
cp "$SRCDIR/libpfm4-events/audit-exceptions.txt" "$tmp/exc"
echo "hswep cbo MISC:STARTED value | none | test | Table 2-23" >>"$tmp/exc"
if "$py" "$tools/audit.py" --seeds "$seeds" --exceptions "$tmp/exc" >"$tmp/neg2" 2>&1; then
	fail "audit accepted a stale exception"
elif grep -q 'matches no difference' "$tmp/neg2"; then
	pass "audit rejects an exception that matches no difference"
else
	fail "audit failed, but not on the stale exception: $(tail -1 "$tmp/neg2")"
fi
