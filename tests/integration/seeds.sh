# Where the specifications are (../shared/seeds, see the brief's README):
# sourced by the seed audits (test_audit.sh, test_client_tables.sh,
# test_metrics_audit.sh).  find_seeds sets $seeds and returns 0, or says
# why the audit cannot run and returns 1.  A user's clone has no
# ../shared: there the audit is reported as not run (a SKIP line naming
# what is missing); CI (CI=true) has the seeds, so there it is a failure.
find_seeds() { # audit-name
	seeds=${SEEDS:-${SEEDS_DIR:-}}
	if [ -n "$seeds" ]; then
		if [ -f "$seeds/000_e75f66526956f957.txt" ]; then
			return 0
		fi
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
	if [ "${CI:-}" = true ]; then
		echo "FAIL $1: CI must run the seed audits but no specifications were found" \
			"($SRCDIR/../shared/seeds); provide them or set SEEDS"
	else
		echo "SKIP $1 did not run: the specifications it checks against are not in this" \
			"tree ($SRCDIR/../shared/seeds is missing, as in a user's clone); set SEEDS=<dir> to run it"
	fi
	return 1
}
