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
# lines indented (a program that declares a plan has its checks planned
# here: the caller's plan counts only the caller's own); a non-zero exit status, a death by signal, a program
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
	# A program with a plan of its own (an integration script): its checks
	# are planned here, as many as it reported (fewer is the FAIL above),
	# so the caller's plan counts only the caller's own checks.
	[ "$planned" -gt 0 ] && echo "PLAN $n"
	rm -f "$out"
	return "$rc"
}

# need [--mpi] FILE...: what a script needs that `make check` builds (and,
# with --mpi, Open MPI's mpirun, which scripts/install-deps.sh installs).
# 0 when all is there; else one FAIL line naming what is missing, and 1:
# the script then exits 0, the FAIL being its verdict.
need() {
	local f missing=
	if [ "${1:-}" = --mpi ]; then
		shift
		command -v mpirun >/dev/null || missing=" mpirun (Open MPI: scripts/install-deps.sh)"
	fi
	for f; do
		[ -e "$f" ] || missing="$missing ${f##*/}"
	done
	[ -z "$missing" ] && return 0
	fail "missing:$missing: run make check"
	return 1
}

# shm_dir TMP: where a script's simulated machines live: /dev/shm, as a
# real one's would, or TMP where /dev/shm cannot be written.
shm_dir() {
	if [ -w /dev/shm ]; then echo /dev/shm; else echo "$1"; fi
}

# nobody_prefix: NOBODY=(setpriv ... as nobody) where root can switch
# (setpriv installed), else NOBODY=() (the script's checks of nobody then
# run as the user it is, and say so where it matters).
nobody_prefix() {
	NOBODY=()
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
}

# nobody_copies DIR FILE...: copies in DIR/bin of the programs (a name in
# $STAGE/bin, or a path) and in DIR/lib of the staged libraries, readable
# by everyone: a script that runs programs as nobody must not need the
# clone's directory, which may be private (a 0700 home, mktemp -d).  Run
# them with LD_LIBRARY_PATH=DIR/lib (the staged RUNPATH points into the
# clone).
nobody_copies() {
	local dir=$1 f
	shift
	mkdir -p "$dir/bin" "$dir/lib" || return 1
	cp -P "$STAGE"/lib/*.so* "$dir/lib/" || return 1
	for f; do
		case $f in
		/*) cp "$f" "$dir/bin/" || return 1 ;;
		*) cp "$STAGE/bin/$f" "$dir/bin/" || return 1 ;;
		esac
	done
	chmod -R a+rX "$dir"
}

# uncored_sim_up DIR [OPTION...]: for the tests of uncored, the node
# service: the component's settings cleared, a shared simulated node
# DIR/node (the stream scenario) and `uncored --sim DIR/node --socket
# DIR/u.sock OPTION...` serving it (its stderr in DIR/uncored.err),
# UNCORED_PID its process.  0 once the socket exists; else a FAIL line and
# 1.  uncored_sim_down DIR stops the service and destroys the node.
uncored_sim_up() {
	local dir=$1
	shift
	unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO \
		PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_GROUP \
		PAPI_INTEL_UNCORE_VERBOSE
	UNCORED_PID=
	if ! "$BUILD/bin/uncore-sim" create "$dir/node" -s stream >/dev/null; then
		fail "cannot create the simulated node $dir/node"
		return 1
	fi
	"$STAGE/sbin/uncored" --sim "$dir/node" --socket "$dir/u.sock" "$@" 2>"$dir/uncored.err" &
	UNCORED_PID=$!
	for _ in $(seq 200); do
		[ -S "$dir/u.sock" ] && return 0
		kill -0 "$UNCORED_PID" 2>/dev/null || break
		sleep 0.05
	done
	fail "uncored does not serve $dir/u.sock: $(head -1 "$dir/uncored.err")"
	return 1
}
uncored_sim_down() {
	if [ -n "${UNCORED_PID:-}" ]; then
		kill "$UNCORED_PID" 2>/dev/null && wait "$UNCORED_PID" 2>/dev/null
	fi
	UNCORED_PID=
	"$BUILD/bin/uncore-sim" destroy "$1/node" >/dev/null 2>&1
}
