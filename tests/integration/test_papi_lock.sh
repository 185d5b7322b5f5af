#!/usr/bin/env bash
# Several processes on one simulated node, through PAPI (build/itests/papi_lock),
# on a machine whose time moves with the wall clock.  The policy (README "MPI
# jobs and threads"): process A counts on socket 0 first and holds it;
# process B adding an event of socket 0 gets no error, reads 0 there and is
# told (verbose) that A's PID and command count it; B counts on socket 1
# meanwhile, and so does a process on another simulated machine; after
# kill -9 of A, B (still running, reading) takes socket 0 over, and so does
# a new process.
set -u
. "$(dirname "$0")/lib.sh"
plan 13
bin=$BUILD/itests/papi_lock
sim=$BUILD/bin/uncore-sim
need "$bin" "$sim" || exit 0
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
inst=$shm/papi-lock-test-$$
other=$shm/papi-lock-test-other-$$
a_pid=
cleanup() {
	[ -n "$a_pid" ] && kill -9 "$a_pid" 2>/dev/null
	"$sim" destroy "$inst" >/dev/null 2>&1
	"$sim" destroy "$other" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
clocks=$SRCDIR/src/sim/scenarios/hswep-clocks.scn
"$sim" create "$inst" --wall -s "$clocks" >/dev/null && "$sim" create "$other" --wall -s "$clocks" >/dev/null ||
	{ fail "cannot create simulated machines $inst, $other"; exit 0; }
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM=$inst PAPI_INTEL_UNCORE_VERBOSE=1
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_LOCK_DIR
ev0=hswep_unc_pcu::UNC_P_CLOCKTICKS:socket=0
ev0b=hswep_unc_cbo5::UNC_C_CLOCKTICKS:socket=0
ev1=hswep_unc_cbo5::UNC_C_CLOCKTICKS:socket=1

# A takes socket 0 (one iMC channel is enough: the socket is the unit).
"$bin" hold "$ev0" >"$tmp/a.out" 2>"$tmp/a.err" &
a_pid=$!
for _ in $(seq 200); do grep -q started "$tmp/a.out" && break; sleep 0.05; done
expect "process A ($a_pid) counts on socket 0" grep -q '^started' "$tmp/a.out"

# B, on another box of socket 0: no error, reads 0, A named.
"$bin" try "$ev0b" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
expect "process B starts, reads and stops without an error (status $rc)" test $rc -eq 0
expect "  ... and reads 0 on socket 0" grep -qx 'value 0' "$tmp/b.out"
expect "  ... and is told A's PID and command count socket 0" \
	grep -q "socket 0 counted by PID $a_pid (papi_lock), reads 0 here" "$tmp/b.err"
echo "   B said: $(head -1 "$tmp/b.err")"

# uncore-stat, a PAPI client like any, says who holds socket 0.
PAPI_INTEL_UNCORE_VERBOSE=0 "$STAGE/bin/uncore-stat" -e hswep_unc_ubo::UNC_U_CLOCKTICKS -- sleep 0.05 \
	>"$tmp/s.out" 2>"$tmp/s.err"
expect "uncore-stat warns that socket 0 is counted by A and reads 0 here" \
	grep -q "uncore-stat: warning: socket 0 counted by PID $a_pid (papi_lock), reads 0 here" "$tmp/s.err"

# Socket 1 of the same machine, and socket 0 of another machine, are free.
"$bin" try "$ev1" >"$tmp/c.out" 2>&1
expect "meanwhile socket 1 is counted by a third process" grep -Eq '^value [1-9][0-9]*$' "$tmp/c.out"
PAPI_INTEL_UNCORE_SIM=$other "$bin" try "$ev0" >"$tmp/d.out" 2>&1
expect "meanwhile socket 0 of another simulated machine is counted" grep -Eq '^value [1-9][0-9]*$' "$tmp/d.out"

# B again, running while A is killed.
"$bin" retry "$ev0b" "$tmp/go" >"$tmp/r.out" 2>"$tmp/r.err" &
r_pid=$!
for _ in $(seq 200); do grep -q value "$tmp/r.out" && break; sleep 0.05; done
expect "a running B reads 0 while A holds socket 0" grep -qx 'value 0' "$tmp/r.out"
{
	kill -9 "$a_pid"
	wait "$a_pid"
} 2>/dev/null # not bash's "Killed" job notice
a_pid=
touch "$tmp/go"
wait "$r_pid"
rc=$?
expect "after kill -9 of A, the running B counts socket 0 within a second (status $rc)" \
	grep -Eq '^running [1-9][0-9]*$' "$tmp/r.out"
expect "  ... and counts it when started again" grep -Eq '^value [1-9][0-9]*$' <(tail -1 "$tmp/r.out")
"$bin" try "$ev0" >"$tmp/n.out" 2>&1
expect "and then a new process counts socket 0 too" grep -Eq '^value [1-9][0-9]*$' "$tmp/n.out"

# A holder of both sockets (an event of no socket counts every socket):
# uncore-stat's warning names both, in one clause.
"$bin" hold hswep_unc_pcu::UNC_P_CLOCKTICKS >"$tmp/a2.out" 2>"$tmp/a2.err" &
a_pid=$!
for _ in $(seq 200); do grep -q started "$tmp/a2.out" && break; sleep 0.05; done
PAPI_INTEL_UNCORE_VERBOSE=0 "$STAGE/bin/uncore-stat" -e hswep_unc_ubo::UNC_U_CLOCKTICKS -- sleep 0.05 \
	>"$tmp/s2.out" 2>"$tmp/s2.err"
expect "uncore-stat warns that sockets 0 and 1 are counted by A ($(grep warning "$tmp/s2.err"))" \
	grep -q "uncore-stat: warning: sockets 0, 1 counted by PID $a_pid (papi_lock), read 0 here" "$tmp/s2.err"
{
	kill -9 "$a_pid"
	wait "$a_pid"
} 2>/dev/null
a_pid=

# The lock directory goes with the simulated machine.
"$sim" destroy "$inst" >/dev/null 2>&1
expect "destroying the machine removes its lock directory" test ! -e "$inst.locks"
