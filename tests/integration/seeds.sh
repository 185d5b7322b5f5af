# Where the specifications are (../shared/seeds, see the brief's README):
# sourced by the seed audits (test_audit.sh, test_client_tables.sh,
# test_metrics_audit.sh).  find_seeds sets $seeds and returns 0, or says
# why the audit cannot run and returns 1.  A user's clone has no
# ../shared: there the audit is reported as not run (a SKIP-DEP line naming
# what is missing); CI (CI=true) has the seeds, so there the runner counts
# it as a failure.
find_seeds() { # audit-name
	seeds=${SEEDS:-${SEEDS_DIR:-}}
	if [ -n "$seeds" ]; then
		if [ -f "$seeds/000_e75f66526956f957.txt" ]; then
			return 0
		fi
		echo "PLAN 1"
		echo "FAIL $1: SEEDS=$seeds holds no specification (000_e75f66526956f957.txt is missing)"
		return 1
	fi
	local d
	for d in "$SRCDIR/../shared/seeds" "$SRCDIR/../../shared/seeds"; do
		if [ -f "$d/000_e75f66526956f957.txt" ]; then
			seeds=$d
			return 0
		fi
	done
	# SKIP-DEP: a skip in a user's clone, a failure under CI=true (the
	# runner's rule, tests/README.md).
	echo "PLAN 1"
	echo "SKIP-DEP $1 did not run: the specifications it checks against are not in this" \
		"tree ($SRCDIR/../shared/seeds is missing, as in a user's clone); set SEEDS=<dir> to run it"
	return 1
}

# Intel's perfmon event and metric data (../shared/reference/intel-perfmon,
# README there), read by the perfmon audits (test_perfmon_audit.sh): sets
# $perfmon and returns 0, or says why the audit cannot run (SKIP-DEP, as
# find_seeds) and returns 1.  $PERFMON overrides the place.
find_perfmon() { # audit-name
	perfmon=${PERFMON:-}
	if [ -n "$perfmon" ]; then
		[ -f "$perfmon/mapfile.csv" ] && return 0
		echo "PLAN 1"
		echo "FAIL $1: PERFMON=$perfmon holds no Intel perfmon data (mapfile.csv is missing)"
		return 1
	fi
	local d
	for d in "$SRCDIR/../shared/reference/intel-perfmon" "$SRCDIR/../../shared/reference/intel-perfmon"; do
		if [ -f "$d/mapfile.csv" ]; then
			perfmon=$d
			return 0
		fi
	done
	echo "PLAN 1"
	echo "SKIP-DEP $1 did not run: Intel's perfmon data it checks against is not in this" \
		"tree ($SRCDIR/../shared/reference/intel-perfmon is missing, as in a user's clone); set PERFMON=<dir> to run it"
	return 1
}

# audit_verdict RC LABEL OUT NAME: the verdict on an audit that wrote its
# report to OUT and exited with RC: PASS "LABEL: <last line>" when it
# exited 0 and its last line says "NAME: N passed, 0 failed" (with "(0
# disagreements)" after it where the audit counts them), else FAIL with
# the lines that say what disagreed.  Returns 0 on PASS.
audit_verdict() {
	local rc=$1 label=$2 out=$3 name=$4 last
	last=$(tail -1 "$out")
	if [ $rc -eq 0 ] && printf '%s\n' "$last" |
		grep -q -E "^$name: [0-9]+ passed, 0 failed( \\(0 disagreements\\))?\$"; then
		pass "$label: $last"
		return 0
	fi
	fail "$label: $last"
	grep -E '^FAIL|^    ' "$out" | head -40
	return 1
}
