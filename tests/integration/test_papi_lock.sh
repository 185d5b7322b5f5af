#!/usr/bin/env bash
# Two processes on one simulated socket, through PAPI (build/itests/papi_lock):
# process A starts counting on socket 0 and waits; process B is refused with
# A's PID and command named; B may count on socket 1 meanwhile, and so may a
# process on another simulated machine; after kill -9 of A, B (the same
# process, retrying) and then a new process get socket 0.
set -u
. "$(dirname "$0")/lib.sh"
bin=$BUILD/itests/papi_lock
sim=$BUILD/bin/uncore-sim
if [ ! -x "$bin" ] || [ ! -x "$sim" ]; then
	fail "papi_lock or uncore-sim is not built: run make check"
	exit 0
fi
tmp=$(mktemp -d)
shm=$( [ -w /dev/shm ] && echo /dev/shm || echo "$tmp")
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
"$sim" create "$inst" >/dev/null && "$sim" create "$other" >/dev/null ||
	{ fail "cannot create simulated machines $inst, $other"; exit 0; }
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM=$inst PAPI_INTEL_UNCORE_VERBOSE=1
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG
ev0=hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0
ev0b=hswep_unc_cbo5::UNC_C_CLOCKTICKS:socket=0
ev1=hswep_unc_cbo5::UNC_C_CLOCKTICKS:socket=1

# A takes socket 0 (one iMC channel is enough: the socket is the unit).
"$bin" hold "$ev0" >"$tmp/a.out" 2>"$tmp/a.err" &
a_pid=$!
for _ in $(seq 200); do grep -q started "$tmp/a.out" && break; sleep 0.05; done
expect "process A ($a_pid) counts on socket 0" grep -q '^started' "$tmp/a.out"

# B, on another box of socket 0: refused, A named.
"$bin" try "$ev0b" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
expect "process B is refused (status $rc)" test $rc -eq 3
expect "  ... PAPI_start fails with PAPI's conflict error" \
	grep -q '^refused: Event exists, but cannot be counted' "$tmp/b.out"
expect "  ... and the detail names A's PID and command" \
	grep -q "socket 0 are in use by PID $a_pid (papi_lock)" "$tmp/b.err"
expect "  ... and the lock of this simulated machine" grep -q "lock $inst.locks/socket0.lock" "$tmp/b.err"
echo "   B said: $(cat "$tmp/b.err")"

# Socket 1 of the same machine, and socket 0 of another machine, are free.
"$bin" try "$ev1" >"$tmp/c.out" 2>&1
expect "meanwhile socket 1 is free" test $? -eq 0
PAPI_INTEL_UNCORE_SIM=$other "$bin" try "$ev0" >"$tmp/d.out" 2>&1
expect "meanwhile socket 0 of another simulated machine is free" test $? -eq 0

# B again, retrying in the same process once A is gone.
"$bin" retry "$ev0b" "$tmp/go" >"$tmp/r.out" 2>"$tmp/r.err" &
r_pid=$!
for _ in $(seq 200); do grep -q refused "$tmp/r.out" && break; sleep 0.05; done
expect "a retrying B is refused first" grep -q '^refused' "$tmp/r.out"
{
	kill -9 "$a_pid"
	wait "$a_pid"
} 2>/dev/null # not bash's "Killed" job notice
a_pid=
touch "$tmp/go"
wait "$r_pid"
rc=$?
expect "after kill -9 of A, the same B takes socket 0 (status $rc)" \
	test $rc -eq 0 -a -n "$(grep '^started' "$tmp/r.out")"
"$bin" try "$ev0" >"$tmp/n.out" 2>&1
expect "and then a new process takes socket 0 too" test $? -eq 0

# The lock directory goes with the simulated machine.
"$sim" destroy "$inst" >/dev/null 2>&1
expect "destroying the machine removes its lock directory" test ! -e "$inst.locks"
