#!/usr/bin/env bash
# A client's PAPI_read through uncored is a snapshot read (README "uncored,
# the node service"): no system call, values as of the service's last
# sample, which it takes at least every 100 ms while anything is counted;
# PAPI_start and PAPI_stop take a fresh sample, so intervals are exact.
# On a shared simulated node (the stream scenario: per socket 8 channels x
# 100 M reads of 64 B a second) behind `uncored --sim`:
# * strace sees no system call at all in 2000 PAPI_reads of
#   PAPI_UNC_DRAM_RD_BYTES (build/itests/papi_snapshot_reads);
# * after `uncore-sim advance NODE 1s` the plain reads move, by the whole
#   simulated second (102400000000 bytes: the service's periodic sample
#   after the advance), without any request from the client;
# * its PAPI_stop reads the same second exactly (papi-patches 91: PAPI's
#   stop-read asks for a fresh sample);
# * the component says how old a plain read may be (papi_component_avail).
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 5
uncored=$STAGE/sbin/uncored
sim=$BUILD/bin/uncore-sim
prog=$BUILD/itests/papi_snapshot_reads
need "$uncored" "$sim" "$prog" || exit 0
tmp=$(mktemp -d)
node=$tmp/node
sock=$tmp/u.sock
c_pid=
cleanup() {
	[ -n "$c_pid" ] && kill -9 "$c_pid" 2>/dev/null
	uncored_sim_down "$tmp"
	rm -rf "$tmp"
}
trap cleanup EXIT
uncored_sim_up "$tmp" || exit 0
PER_S=102400000000
export PAPI_INTEL_UNCORE_SERVICE=$sock

# (in its whole description: PAPI's field of 128 characters loses the
# parenthesised details first, and this tmp path is long)
PAPI_INTEL_UNCORE_VERBOSE=1 "$STAGE/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "the component says how old a plain read may be ($(grep -o 'uncored at [^:]*' "$tmp/avail" | head -1))" \
	grep -Fq "service backend: uncored at $sock (reads <= 100 ms old): SIMULATED" "$tmp/avail"

N=2000
if command -v strace >/dev/null; then
	strace -qq -f -o "$tmp/trace" "$prog" "$tmp" "$N" PAPI_UNC_DRAM_RD_BYTES >"$tmp/out" 2>&1 &
else
	"$prog" "$tmp" "$N" PAPI_UNC_DRAM_RD_BYTES >"$tmp/out" 2>&1 &
fi
c_pid=$!
for _ in $(seq 1200); do [ -e "$tmp/started" ] && break; sleep 0.05; done
"$sim" advance "$node" 1s
for _ in $(seq 1200); do grep -q '^moved' "$tmp/out" && break; sleep 0.05; done
touch "$tmp/stop"
wait "$c_pid"
rc=$?
c_pid=
if command -v strace >/dev/null; then
	calls=$(awk '/write\(1, "BEGIN/ { on = 1; next } /write\(1, "END/ { on = 0 } on { c++ } END { print c + 0 }' "$tmp/trace")
	expect "strace: $calls system calls in $N PAPI_reads of PAPI_UNC_DRAM_RD_BYTES through uncored (status $rc)" \
		test "$calls" = 0 -a "$(grep -c 'write(1, "END' "$tmp/trace")" = 1
else
	skip_dep "system calls per read: strace is not installed (scripts/install-deps.sh installs it)"
fi
moved=$(sed -n 's/^moved: //p' "$tmp/out")
expect "the plain reads moved by the simulated second (${moved:-nothing}, the scenario's $PER_S), no request made" \
	test "${moved:-x}" = "$PER_S"
stop=$(sed -n 's/^stop: //p' "$tmp/out")
expect "PAPI_stop: the same second exactly (${stop:-nothing})" test "${stop:-x}" = "$PER_S"
[ "${stop:-x}" = "$PER_S" ] || sed 's/^/   /' "$tmp/out"
"$uncored" --status --socket "$sock" >"$tmp/st" 2>&1
expect "the client gone, the service holds nothing ($(cat "$tmp/st"))" grep -q "^clients 1 events 0 slots 0" "$tmp/st"
