#!/usr/bin/env bash
# The suite cannot lie: tests/run-tests.sh (what `make check` runs) fails on
# fake test programs that crash after passing checks, exit non-zero, report
# a sanitizer error, hang, report nothing, or skip a check CI must run
# (SKIP-DEP under CI=true); skips are counted and shown with their reason;
# an integration script's test program that crashes fails through
# run_checks; a program that leaves files in /dev/shm fails; and `make
# check-unit` itself fails on a crashing program.
# Then the six holes an audit found, each shown closed: a missing golden
# file, a failed temporary directory, a metrics check whose setup fails.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runner=$SRCDIR/tests/run-tests.sh
export TEST_LOG_DIR=$tmp/logs

fake() { # NAME BODY: an executable test program
	printf '#!/usr/bin/env bash\n%s\n' "$2" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
fake pass 'echo "PASS one"; echo "PASS two"'
fake crash 'echo "PASS one"; echo "PASS two"; kill -SEGV $$'
fake status 'echo "PASS one"; exit 3'
fake failline 'echo "PASS one"; echo "FAIL two"; exit 1'
fake silent 'echo "nothing to report"'
fake skip 'echo "PASS one"; echo "SKIP two: this machine has no uncore PMU"'
fake skipdep 'echo "PASS one"; echo "SKIP-DEP two: strace is not installed"'
fake asan 'echo "PASS one"; echo "==4242==ERROR: AddressSanitizer: heap-use-after-free"'
fake hang 'echo "PASS one"; sleep 60'
fake script_crash ". '$SRCDIR/tests/integration/lib.sh'; pass before; run_checks inner '$tmp/crash'; pass after"

# verdict NAME WANT-STATUS WANT-SUMMARY [env...]: run the runner on one fake
verdict() {
	local name=$1 want=$2 summary=$3
	shift 3
	env "$@" "$runner" --unit "$tmp/$name" >"$tmp/$name.out" 2>&1
	local rc=$?
	local last
	last=$(tail -1 "$tmp/$name.out")
	if [ $rc -eq "$want" ] && [ "$last" = "$summary" ]; then
		pass "runner: $name gives status $rc and '$last'"
	else
		fail "runner: $name gives status $rc and '$last', want $want and '$summary'"
		sed 's/^/   | /' "$tmp/$name.out"
	fi
}
verdict pass 0 "2 passed, 0 failed, 0 skipped" CI=
verdict crash 1 "2 passed, 1 failed, 0 skipped" CI=
expect "runner: the crash is named with its signal" grep -q 'FAIL crash was killed by SIGSEGV' "$tmp/crash.out"
verdict status 1 "1 passed, 1 failed, 0 skipped" CI=
expect "runner: the exit status is named" grep -q 'FAIL status exited with status 3' "$tmp/status.out"
verdict failline 1 "1 passed, 1 failed, 0 skipped" CI=
verdict silent 1 "0 passed, 1 failed, 0 skipped" CI=
verdict skip 0 "1 passed, 0 failed, 1 skipped" CI=
expect "runner: a skip is shown with its reason" \
	grep -q 'unit/skip: SKIP two: this machine has no uncore PMU' "$tmp/skip.out"
verdict skip 0 "1 passed, 0 failed, 1 skipped" CI=true
verdict skipdep 0 "1 passed, 0 failed, 1 skipped" CI=
verdict skipdep 1 "1 passed, 1 failed, 0 skipped" CI=true
expect "runner: under CI=true a SKIP-DEP fails, saying why" \
	grep -q 'FAIL skipdep skipped 1 check(s) whose prerequisite CI must provide' "$tmp/skipdep.out"
verdict asan 1 "1 passed, 1 failed, 0 skipped" CI=
verdict hang 1 "1 passed, 1 failed, 0 skipped" CI= TEST_TIMEOUT=1

# A program that leaves files in /dev/shm (a simulator instance and its
# .locks directory, as a killed test would) fails by name; one that removes
# what it made passes; and neither touches the machine's own /dev/shm.
leak=run-tests-leak-${tmp##*/}
fake shmleak "echo 'PASS one'; : >/dev/shm/$leak; mkdir /dev/shm/$leak.locks"
fake shmclean "echo 'PASS one'; : >/dev/shm/$leak; rm /dev/shm/$leak"
if unshare -m sh -c 'mount -t tmpfs -o mode=1777 probe /dev/shm' 2>/dev/null; then
	verdict shmleak 1 "1 passed, 1 failed, 0 skipped" CI=
	expect "runner: the files left in /dev/shm are named" \
		grep -q "FAIL shmleak left 2 file(s) in /dev/shm: $leak $leak.locks" "$tmp/shmleak.out"
	verdict shmclean 0 "1 passed, 0 failed, 0 skipped" CI=
	expect "runner: the programs ran in a /dev/shm of their own (none of $leak here)" \
		sh -c "! ls /dev/shm/$leak* 2>/dev/null"
else
	skip "runner: files left in /dev/shm: this machine cannot give a program a private /dev/shm (unshare -m needs root)"
fi
verdict script_crash 1 "4 passed, 1 failed, 0 skipped" CI=
expect "run_checks: an integration script's crashing program fails by name" \
	grep -q 'FAIL inner: crash was killed by signal 11' "$tmp/script_crash.out"

# make check-unit (the recipe make check uses) fails on a crashing program.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$SRCDIR" check-unit UNIT_BINS="$tmp/crash" \
	>"$tmp/make.out" 2>&1
rc=$?
expect "make check-unit with a crashing test program fails (status $rc)" test $rc -ne 0
expect "... and its closing line counts the crash" grep -qx '2 passed, 1 failed, 0 skipped' "$tmp/make.out"

# No integration script pipes a test program into sed to relabel its lines
# (the pipe's status is sed's): relabelling goes through run_checks.
bad=$(grep -n -E '\|[[:space:]]*sed .*(PASS|FAIL)' "$SRCDIR"/tests/integration/test_*.sh | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
expect "no test program's PASS/FAIL lines are relabelled through a pipe (${bad:-none})" test -z "$bad"

# A missing golden file fails test_golden (it was a SKIP).
mkdir -p "$tmp/src/libpfm4-events/golden" "$tmp/src/tests/unit/events/fixtures"
cp "$SRCDIR"/tests/unit/events/fixtures/* "$tmp/src/tests/unit/events/fixtures/"
cp "$SRCDIR"/libpfm4-events/golden/{hswep,skl,nhm}.txt "$tmp/src/libpfm4-events/golden/"
SRCDIR=$tmp/src "$BUILD/tests/unit/events/test_golden" >"$tmp/golden.out" 2>&1
rc=$?
expect "test_golden without x7400.txt fails (status $rc)" test $rc -ne 0
expect "... naming the missing file" grep -q 'golden file .*x7400.txt is missing' "$tmp/golden.out"

# A temporary directory that cannot be made fails its case (it returned
# as a pass).
TMPDIR=$tmp/nonexistent "$BUILD/tests/unit/access/test_pci_cfg" >"$tmp/pci.out" 2>&1
rc=$?
expect "test_pci_cfg without a temporary directory fails (status $rc)" test $rc -ne 0
expect "... in the case that needed it" grep -q '^FAIL fake_tree_writes_through_both_methods' "$tmp/pci.out"
