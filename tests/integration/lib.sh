# Helpers for integration scripts: the PASS/FAIL/SKIP lines the runner
# counts (tests/README.md).  Sourced by tests/integration/test_*.sh; needs
# STAGE, BUILD, SRCDIR.  Every pipeline of a script fails when any of its
# programs fails (pipefail): a program under test that crashes inside a
# pipe is seen.
: "${STAGE:?STAGE must point at the staged PAPI}"
: "${BUILD:?}"
: "${SRCDIR:?}"
set -o pipefail
# plan N: this script (or the part of it that follows, when called again
# in a branch) reports N more PASS/FAIL/SKIP lines; the runner sums the
# plans and fails a script that reported fewer checks.
plan() { echo "PLAN $1"; }
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
# skip NAME: REASON - this machine cannot run the check (hardware, kernel,
# privileges): a skip everywhere.
skip() { echo "SKIP $*"; }
# skip_dep NAME: WHAT IS MISSING - a prerequisite CI provides is missing (a
# package scripts/install-deps.sh installs, the seeds - seeds.sh): a skip
# on a developer's machine, a failure under CI=true.
skip_dep() { echo "SKIP-DEP $*"; }
# expect NAME COMMAND...: the command must succeed
expect() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name (command: $*)"; fi
}

# run_checks LABEL COMMAND...: run a test program and pass its verdict on.
# Its PASS/FAIL/SKIP lines are relabelled "PASS LABEL: ...", its other
# lines indented; a non-zero exit status, a death by signal, a program
# that reports no check at all or fewer than the checks it declares (its
# PLAN lines, an integration script's) is a FAIL naming the program.  (Never pipe
# a test program into sed: the pipe's status is sed's, and a crash passes.)
# Returns the program's exit status.
run_checks() {
	local label=$1
	shift
	local out rc
	out=$(mktemp)
	"$@" >"$out" 2>&1
	rc=$?
	sed -e "s/^\(PASS\|FAIL\|SKIP\|SKIP-DEP\) /\1 $label: /" \
		-e '/^\(PASS\|FAIL\|SKIP\|SKIP-DEP\) /!s/^/   /' "$out"
	if [ "$rc" -gt 128 ]; then
		fail "$label: $(basename "$1") was killed by signal $((rc - 128)) (exit status $rc)"
	elif [ "$rc" -ne 0 ]; then
		fail "$label: $(basename "$1") exited with status $rc"
	fi
	local n planned
	n=$(grep -c -E '^(PASS|FAIL|SKIP|SKIP-DEP) ' "$out")
	planned=$(awk '/^PLAN [0-9]+$/ { n += $2 } END { print n + 0 }' "$out")
	if [ "$n" -eq 0 ]; then
		fail "$label: $(basename "$1") reported no check"
	elif [ "$n" -lt "$planned" ]; then
		fail "$label: $(basename "$1") reported $n of the $planned checks it declares: it stopped early"
	fi
	rm -f "$out"
	return "$rc"
}
