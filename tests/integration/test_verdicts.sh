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
# And the rules that keep a script honest (issue 24): an integration script
# that reports fewer checks than it declares (plan N) or declares none
# fails; a program under test that crashes inside a pipe fails the script
# (pipefail); a SKIP without a reason fails; a hanging unit program fails
# within its bound (under 60 s) and a script within its own; under CI=true
# every SKIP is listed with its reason in the closing summary; TEST_LOAD=N
# runs N busy processes beside the tests and ends them.
set -u
. "$(dirname "$0")/lib.sh"
plan 49
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
fake script_crash ". '$SRCDIR/tests/integration/lib.sh'; plan 3; pass before; run_checks inner '$tmp/crash'; pass after"
fake noreason 'echo "PASS one"; echo "SKIP two"'
lib=". '$SRCDIR/tests/integration/lib.sh'"
fake script_whole "$lib; plan 3; pass one; pass two; skip 'three: not here'"
fake script_early "$lib; plan 3; pass one; exit 0"
fake script_noplan "$lib; pass one; pass two"
fake script_branch "$lib; plan 1; pass one; if true; then plan 2; pass two; pass three; fi"
fake script_pipe "$lib; plan 1; if '$tmp/crash' | grep -q PASS; then pass 'the program said PASS'; else fail 'the program in the pipe failed'; fi"
fake script_inner_early "$lib; plan 0; run_checks inner '$tmp/script_early'"
fake script_over "$lib; plan 1; pass one; pass two"
fake script_hang "# timeout: 2
$lib; plan 1; pass one; sleep 60"
fake load "$lib; plan 1
# the busy processes are the runner's other children: the runner is this
# program's nearest ancestor running run-tests.sh (timeout and, where it may
# mount, the private /dev/shm's wrappers lie between them)
r= p=\$\$
while [ -n \"\$p\" ] && [ \"\$p\" -gt 1 ]; do
	case \$(ps -o args= -p \$p) in *run-tests.sh*) r=\$p; break ;; esac
	p=\$(ps -o ppid= -p \$p | tr -d ' ')
done
ps -o pid=,args= --ppid \$r | grep 'while :; do :; done' | awk '{print \$1}' >'$tmp/load.pids'
n=\$(wc -l <'$tmp/load.pids')
if [ \$n -eq 3 ]; then pass \"3 busy processes run beside the test\"; else fail \"\$n busy processes, want 3\"; fi"

# verdict NAME WANT-STATUS WANT-SUMMARY [env...]: run the runner on one fake
verdict() {
	local name=$1 want=$2 summary=$3 kind=--unit
	shift 3
	case $name in script_* | load) kind=--integration ;; esac
	env "$@" "$runner" "$kind" "$tmp/$name" >"$tmp/$name.out" 2>&1
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
# A program that leaves files in /dev/shm (a simulator instance and its
# .locks directory, as a killed test would) fails by name; one that removes
# what it made passes; and neither touches the machine's own /dev/shm.
leak=run-tests-leak-${tmp##*/}
fake shmleak "echo 'PASS one'; : >/dev/shm/$leak; mkdir /dev/shm/$leak.locks"
fake shmclean "echo 'PASS one'; : >/dev/shm/$leak; rm /dev/shm/$leak"
if unshare -m sh -c 'mount -t tmpfs -o mode=1777 probe /dev/shm' 2>/dev/null; then
	plan 3
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
verdict noreason 1 "1 passed, 1 failed, 1 skipped" CI=
expect "runner: a SKIP without its reason fails" \
	grep -q 'FAIL noreason skipped 1 check(s) without a reason' "$tmp/noreason.out"

# Declared checks: a script that stops early or declares nothing fails.
verdict script_whole 0 "2 passed, 0 failed, 1 skipped" CI=
verdict script_early 1 "1 passed, 1 failed, 0 skipped" CI=
expect "runner: a script that stops after 1 of its 3 declared checks fails, saying so" \
	grep -q 'FAIL script_early reported 1 of the 3 checks it declares: it stopped early' "$tmp/script_early.out"
verdict script_noplan 1 "2 passed, 1 failed, 0 skipped" CI=
expect "runner: a script that declares no number of checks fails" \
	grep -q 'FAIL script_noplan declares no number of checks' "$tmp/script_noplan.out"
verdict script_branch 0 "3 passed, 0 failed, 0 skipped" CI=
verdict script_over 1 "2 passed, 1 failed, 0 skipped" CI=
expect "runner: a script that passes with more checks than it declares fails, saying so" \
	grep -q 'FAIL script_over reported 2 checks, more than the 1 it declares: update its plan' "$tmp/script_over.out"
verdict script_inner_early 1 "1 passed, 1 failed, 0 skipped" CI=
expect "run_checks: a script run inside another that stops early fails there too" \
	grep -q 'FAIL inner: script_early reported 1 of the 3 checks it declares' "$tmp/script_inner_early.out"
# A program under test that crashes inside a pipe fails the script.
verdict script_pipe 1 "0 passed, 1 failed, 0 skipped" CI=
expect "pipefail: the crash of a program piped into grep is a FAIL" \
	grep -q 'FAIL the program in the pipe failed' "$tmp/script_pipe.out"

# Hangs fail fast, by name: a unit program within its default bound (no
# TEST_TIMEOUT given), a script within the bound it declares.
start=$SECONDS
verdict hang 1 "1 passed, 1 failed, 0 skipped" CI= TEST_TIMEOUT= TEST_TIMEOUT_UNIT=
took=$((SECONDS - start))
expect "runner: a hanging unit program fails in under 60 s (took $took s)" test "$took" -lt 60
expect "... named, with its bound" grep -q 'FAIL hang did not finish within [0-9]* s' "$tmp/hang.out"
start=$SECONDS
verdict script_hang 1 "1 passed, 1 failed, 0 skipped" CI= TEST_TIMEOUT=
took=$((SECONDS - start))
expect "runner: a script's own '# timeout: 2' bound holds (took $took s)" test "$took" -lt 30
expect "... named, with its bound" grep -q 'FAIL script_hang did not finish within 2 s' "$tmp/script_hang.out"

# Under CI=true every SKIP is in the closing summary, with its reason.
verdict skip 0 "1 passed, 0 failed, 1 skipped" CI=true
expect "runner, CI=true: the closing summary lists the SKIP with its reason" \
	sh -c "sed -n '/^Skipped checks (1), each with its reason:\$/,\$p' '$tmp/skip.out' |
		grep -q 'unit/skip: SKIP two: this machine has no uncore PMU'"

# TEST_LOAD=3: three busy processes beside the tests, gone after the run.
verdict load 0 "1 passed, 0 failed, 0 skipped" CI= TEST_LOAD=3
left=0
while read -r pid; do kill -0 "$pid" 2>/dev/null && left=$((left + 1)); done <"$tmp/load.pids"
expect "TEST_LOAD: the busy processes are ended with the run ($left left of $(wc -l <"$tmp/load.pids"))" \
	test "$left" -eq 0 -a "$(wc -l <"$tmp/load.pids")" -eq 3

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
# Nor runs a program under test in a pipe under sh -c, whose shell (dash)
# has no pipefail: such pipes go through bash -o pipefail -c.
bad=$(grep -n -E "(^|[^a-z])sh -c \"[^\"]*'\\\$(STAGE|BUILD|prefix|sim|bin)[^\"|]*\|[^|]" \
	"$SRCDIR"/tests/integration/test_*.sh | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
expect "no program under test is piped inside sh -c (${bad:-none})" test -z "$bad"

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
