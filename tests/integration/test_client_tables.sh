#!/usr/bin/env bash
# The client-uncore tables (Skylake client, Nehalem guide events, Xeon 7100/7400 L3)
# are what their generators make from the seeds, the registration patch is what
# mkpatch_client.py makes, and the three audits pass.  Prints PASS/FAIL lines.
# Env: SRCDIR (source tree), PYTHON3 (optional), SEEDS or SEEDS_DIR (optional;
# without seeds the audit is reported as not run, see seeds.sh).
set -u
SRCDIR=${SRCDIR:?}
. "$(dirname "$0")/lib.sh"
PY=${PYTHON3:-python3}
. "$(dirname "$0")/seeds.sh"
find_seeds "client-table audit (Skylake client, Nehalem, Xeon 7100/7400)" || exit 0
plan 456
SEEDS=$seeds
tools=$SRCDIR/libpfm4-events/tools
# The pristine libpfm4 the patch is checked against: as given, else the
# build's PAPI source (--with-papi-src tree or the downloaded one).
pristine=${PAPI_LIBPFM4_PRISTINE:-}
if [ -z "$pristine" ]; then
	user_src=$(sed -n 's/^PAPI_SRC_USER *:= *//p' "$SRCDIR/Makefile" 2>/dev/null)
	for d in "${user_src:+$user_src/src/libpfm4}" "${BUILD:-$SRCDIR/build}/papi-dl/papi/src/libpfm4"; do
		[ -n "$d" ] && [ -d "$d/lib" ] && pristine=$d && break
	done
fi

for gen in gen_skl gen_nhm gen_x7400 gen_wsm; do
	if out=$(cd "$tools" && "$PY" "$gen.py" --check --seeds "$SEEDS" 2>&1); then
		echo "PASS $gen.py --check: committed intermediate and header equal the generator's output"
	else
		echo "FAIL $gen.py --check: $out"
	fi
done
if [ -n "$pristine" ]; then
	if out=$(cd "$tools" && "$PY" mkpatch_client.py "$pristine" --check 2>&1); then
		echo "PASS mkpatch_client.py --check: 20-register-client-pmus.patch is current"
	else
		echo "FAIL mkpatch_client.py --check: $out"
	fi
fi
for audit in audit_skl audit_nhm audit_x7400; do
	out=$(cd "$tools" && AUDIT_FLAGS=-v "$PY" "$audit.py" "$SEEDS" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL) '
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		echo "FAIL $audit.py exited with status $rc: $(printf '%s\n' "$out" | tail -3)"
	fi
done
