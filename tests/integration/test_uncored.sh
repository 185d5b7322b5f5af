#!/usr/bin/env bash
# uncored, the node service (README "uncored, the node service"), first
# slice: `stage/sbin/uncored --sim NODE` owns a shared simulated node
# (virtual clock, the built-in stream scenario: per socket 8 channels x
# 100 M reads of 64 B a second, so PAPI_UNC_DRAM_RD_BYTES over 1 s is
# 2 x 51.2e9 = 102400000000 bytes) and serves unprivileged clients:
# * as nobody (when the test runs as root): papi_command_line
#   PAPI_UNC_DRAM_RD_BYTES, an unmodified PAPI program, counts exactly
#   through the service (the socket found through PAPI_INTEL_UNCORE_SERVICE,
#   the backend chosen by auto); the simulated second is advanced just
#   before its PAPI_stop's sample (tests/fakes/fake_advance_at_stop.c);
# * uncore-stat through the service counts the same exactly, and an event
#   on one socket half of it;
# * a client killed with SIGKILL frees its events (uncored --status);
# * a malformed request gets an error reply and the service serves on;
# * 16 concurrent clients (build/itests/papi_steps), each with another set
#   of 1 to 5 events, over the same simulated second: all exact (UCLK
#   2.5 GHz a box; 8 channels x 100 M CAS reads/s and 50 M CAS writes/s per
#   channel);
# * the service restarted under a running client: that client's PAPI_stop
#   fails with a clear error (not a hang), and its next PAPI_start
#   reconnects and counts exactly;
# * PAPI_INTEL_UNCORE_BACKEND=service without a service says so.
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 17
uncored=$STAGE/sbin/uncored
sim=$BUILD/bin/uncore-sim
shim=$BUILD/tests/fakes/fake_advance_at_stop.so
hold=$BUILD/itests/papi_lock
steps=$BUILD/itests/papi_steps
need "$uncored" "$sim" "$shim" "$hold" "$steps" || exit 0
tmp=$(mktemp -d)
chmod 755 "$tmp" # nobody reaches the socket and the node
mkdir "$tmp/out" && chmod 777 "$tmp/out" # and writes its outputs
node=$tmp/node
sock=$tmp/run/uncored.sock
d_pid=
h_pid=
c_pid=
c_pids=()
cleanup() {
	[ -n "$h_pid" ] && kill -9 "$h_pid" 2>/dev/null
	for p in ${c_pids[@]+"${c_pids[@]}"} ${c_pid:-}; do kill -9 "$p" 2>/dev/null; done
	[ -n "$d_pid" ] && kill "$d_pid" 2>/dev/null && wait "$d_pid" 2>/dev/null
	"$sim" destroy "$node" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG \
	PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_GROUP PAPI_INTEL_UNCORE_VERBOSE
"$sim" create "$node" -s stream >/dev/null && chmod 666 "$node" || { fail "cannot create the simulated node"; exit 0; }
PER_S=102400000000

"$uncored" --sim "$node" --socket "$sock" 2>"$tmp/uncored.err" &
d_pid=$!
for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
expect "uncored --sim serves $sock ($(head -1 "$tmp/uncored.err"))" test -S "$sock"
export PAPI_INTEL_UNCORE_SERVICE=$sock

nobody_prefix
# nobody runs copies in $tmp: the clone may be in a directory nobody
# cannot enter.
mine=$tmp/nobody
nobody_copies "$mine" papi_command_line papi_component_avail uncore-stat "$sim" "$shim" "$hold" ||
	{ fail "cannot copy the programs nobody runs into $mine"; exit 0; }
sim=$mine/bin/uncore-sim
shim=$mine/bin/${shim##*/}
hold=$mine/bin/${hold##*/}
as_nobody() { "${NOBODY[@]}" env LD_LIBRARY_PATH="$mine/lib" "$@"; }
who=$(as_nobody id -un)
as_nobody env UNCORE_FAKE_BEFORE_STOP="$sim advance $node 1s" LD_PRELOAD="$shim" \
	"$mine/bin/papi_command_line" PAPI_UNC_DRAM_RD_BYTES >"$tmp/pcl.out" 2>&1
rc=$?
got=$(sed -n 's/^PAPI_UNC_DRAM_RD_BYTES :[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/pcl.out")
expect "papi_command_line as $who through uncored: status 0 ($rc)" test $rc -eq 0
expect "papi_command_line PAPI_UNC_DRAM_RD_BYTES as $who = ${got:-nothing}, the scenario's $PER_S" \
	test "${got:-x}" = "$PER_S"
[ "${got:-x}" = "$PER_S" ] || sed 's/^/   /' "$tmp/pcl.out"
as_nobody "$mine/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "the component says it counts through uncored, SIMULATED" \
	grep -Eq "service backend: uncored at $sock( \(reads <= 100 ms old\))?: SIMULATED" "$tmp/avail"

as_nobody "$mine/bin/uncore-stat" --csv -o "$tmp/out/stat.csv" -e PAPI_UNC_DRAM_RD_BYTES \
	-e "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1" -- "$sim" advance "$node" 1s 2>"$tmp/stat.err"
total() { awk -F, -v e="$2" '$1 == "total" && $6 == e && $7 == "all" { print $8 }' "$1"; }
u=$(total "$tmp/out/stat.csv" PAPI_UNC_DRAM_RD_BYTES) s1=$(total "$tmp/out/stat.csv" "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1")
expect "uncore-stat as $who through uncored: PAPI_UNC_DRAM_RD_BYTES $u, CAS_COUNT.RD on socket 1 $s1" \
	test "$u $s1" = "$PER_S $((PER_S / 2 / 64))"
[ -n "$u" ] || sed 's/^/   /' "$tmp/stat.err"

# A client killed with SIGKILL frees its events.
# (not through as_nobody: a function in the background is a subshell, and
# the kill below must reach the client itself)
"${NOBODY[@]}" env LD_LIBRARY_PATH="$mine/lib" "$hold" hold hswep_unc_pcu::UNC_P_CLOCKTICKS >"$tmp/out/hold.out" 2>&1 &
h_pid=$!
for _ in $(seq 200); do grep -q started "$tmp/out/hold.out" && break; sleep 0.05; done
"$uncored" --status --socket "$sock" >"$tmp/st1" 2>&1
# (uncored --status is a client too while it asks.)
expect "a running client's event is counted ($(cat "$tmp/st1"))" grep -Eq "^clients 2 events [1-9]" "$tmp/st1"
{
	kill -9 "$h_pid"
	wait "$h_pid"
} 2>/dev/null
h_pid=
for _ in $(seq 100); do
	"$uncored" --status --socket "$sock" >"$tmp/st2" 2>&1
	grep -q "^clients 1 events 0 slots 0" "$tmp/st2" && break
	sleep 0.05
done
expect "after kill -9 of the client its events are freed ($(cat "$tmp/st2"))" grep -q "^clients 1 events 0 slots 0" "$tmp/st2"

# A malformed request: an error reply, and the service serves on.
"$PYTHON3" - "$sock" >"$tmp/bad" 2>&1 <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[1])
s.send(b"\xff" * 7)
r = s.recv(65536)
magic, op, status = struct.unpack("<IIi", r[:12])
print("status", status, r[16:16 + 120].split(b"\0")[0].decode())
PY
expect "a malformed request gets an error reply ($(cat "$tmp/bad"))" grep -q "^status -1 uncored: a request of 7 bytes" "$tmp/bad"
"$uncored" --status --socket "$sock" >"$tmp/st3" 2>&1
expect "... and the service serves on ($(cat "$tmp/st3"))" grep -q "^clients 1 events 0" "$tmp/st3"

# 16 concurrent clients, each its own set of the 5 events below (client i
# the events of i's bits), over the same simulated second.
EV=(hswep_unc_ubo::UNC_U_CLOCKTICKS hswep_unc_cbo::UNC_C_CLOCKTICKS hswep_unc_imc::UNC_M_CAS_COUNT:RD
	hswep_unc_imc2::UNC_M_CAS_COUNT:WR:socket=1 PAPI_UNC_DRAM_RD_BYTES)
# over 1 s: 2x1 UBox and 2x18 CBo x 2.5 G cycles; 16 channels x 100 M; 50 M
# on one; x 64 B.  (A second: the scenario's rates give whole counts over
# it at any start, not over every 4 ms.)
WANT=(5000000000 90000000000 1600000000 50000000 102400000000)
# wait_all WHAT R: every client's dir has WHAT.R (a guard against a hang,
# not a measurement: 60 s)
wait_all() {
	for _ in $(seq 1200); do
		local missing=0
		for i in $(seq 16); do [ -e "$tmp/c$i/$1.$2" ] || missing=1; done
		[ $missing = 0 ] && return 0
		sleep 0.05
	done
	return 1
}
c_pids=()
for i in $(seq 16); do
	mkdir "$tmp/c$i"
	set_i=()
	for b in 0 1 2 3 4; do (( (i >> b) & 1 )) && set_i+=("${EV[$b]}"); done
	"$steps" "$tmp/c$i" 1 "${set_i[@]}" >"$tmp/c$i/out" 2>&1 &
	c_pids+=($!)
	touch "$tmp/c$i/start.1"
done
wait_all started 1
"$uncored" --status --socket "$sock" >"$tmp/st16" 2>&1
expect "16 clients count at once ($(cat "$tmp/st16"))" grep -q "^clients 17 events 33 " "$tmp/st16"
"$sim" advance "$node" 1s
for i in $(seq 16); do touch "$tmp/c$i/stop.1"; done
wait_all done 1
bad=0
for i in $(seq 16); do
	want="round 1:"
	for b in 0 1 2 3 4; do (( (i >> b) & 1 )) && want+=" ${WANT[$b]}"; done
	got=$(cat "$tmp/c$i/out")
	[ "$got" = "$want" ] || { bad=$((bad + 1)); echo "   client $i: '$got', want '$want'"; }
done
expect "16 concurrent clients with different event sets: all exact ($bad not)" test $bad = 0
for p in "${c_pids[@]}"; do wait "$p"; done

# The service restarted under a running client: an error, not a hang; the
# client's next start reconnects.
r=$tmp/restart
mkdir "$r"
PAPI_INTEL_UNCORE_VERBOSE=1 "$steps" "$r" 2 hswep_unc_ubo::UNC_U_CLOCKTICKS >"$r/out" 2>"$r/err" &
c_pid=$!
wait_for() { for _ in $(seq 1200); do [ -e "$1" ] && return 0; sleep 0.05; done; return 1; }
touch "$r/start.1"
wait_for "$r/started.1"
kill "$d_pid"
wait "$d_pid"
"$uncored" --sim "$node" --socket "$sock" 2>"$tmp/uncored2.err" &
d_pid=$!
for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
expect "uncored restarted ($(head -1 "$tmp/uncored2.err"))" test -S "$sock"
"$sim" advance "$node" 4ms
touch "$r/stop.1"
wait_for "$r/done.1"
expect "the client's PAPI_stop across the restart fails, and returns ($(head -1 "$r/out"))" \
	grep -q "^round 1: PAPI_stop: .*; again: No error" "$r/out"
expect "  ... saying why (PAPI_INTEL_UNCORE_VERBOSE: $(grep -m1 "went away" "$r/err"))" \
	grep -q "uncored at $sock went away.*the next PAPI_start reconnects" "$r/err"
touch "$r/start.2"
wait_for "$r/started.2"
"$sim" advance "$node" 4ms
touch "$r/stop.2"
wait "$c_pid"
rc=$?
expect "its next start reconnects and counts exactly (status $rc: $(sed -n 2p "$r/out"))" \
	test "$(sed -n 2p "$r/out")" = "round 2: 20000000"

kill "$d_pid"
wait "$d_pid"
rc=$?
d_pid=
expect "uncored stops on SIGTERM (status $rc) and removes its socket" test $rc -eq 0 -a ! -e "$sock"
PAPI_INTEL_UNCORE_BACKEND=service "$STAGE/bin/papi_component_avail" >"$tmp/none" 2>&1
expect "PAPI_INTEL_UNCORE_BACKEND=service with no service running says so" \
	grep -q "no uncored listens at $sock" "$tmp/none"
