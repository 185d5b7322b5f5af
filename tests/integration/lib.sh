# Helpers for integration scripts: pass/fail lines the runner counts.
# Sourced by tests/integration/test_*.sh; needs STAGE, BUILD, SRCDIR.
: "${STAGE:?STAGE must point at the staged PAPI}"
: "${BUILD:?}"
: "${SRCDIR:?}"
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
# expect NAME COMMAND...: the command must succeed
expect() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name (command: $*)"; fi
}
