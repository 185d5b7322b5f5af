#!/usr/bin/env bash
# The wrap guard (issue 27; README "Nothing lost"): a reader that does not
# run for longer than a counter can wrap in is told so, never silently
# short.  On a simulated Skylake client (i7-6700k, skl-stream.scn: 1e8 DRAM
# data reads per second on the IMC's free-running 32-bit counter, which at
# our fastest rate for it, 1.1e9/s, can wrap every 3.905 s), virtual clock:
# * through PAPI (build/itests/papi_wrap_guard): reads 1 s and 3.905 s - 1 ns
#   apart exact with no notice; exactly the period: "may have lost 1 wraps";
#   100 s: PAPI_OK, the values, and "may have lost 25 wraps of ...";
# * uncore-stat -I, stopped with SIGSTOP while 100 s of traffic pass, then
#   continued: the next interval has a notice row (CSV) "may have lost 25
#   wraps of skl_unc_imc::DRAM_DATA_READS:socket=0", the run's total too,
#   and PAPI_INTEL_UNCORE_VERBOSE=1 says it on stderr;
# * an MPI job (libpapi_uncore_mpi) whose counting rank is stopped the same
#   way: the report's "problems" list it.
set -u
. "$(dirname "$0")/lib.sh"
plan 27
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
inst=$shm/papi-wrap-guard-$$
sim=$BUILD/bin/uncore-sim
stat=$STAGE/bin/uncore-stat
cleanup() {
	"$sim" destroy "$inst" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR
unset PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_POLL
scn=$SRCDIR/src/sim/scenarios/skl-stream.scn
EV=skl_unc_imc::DRAM_DATA_READS
WANT="may have lost 25 wraps of $EV:socket=0"

run_checks "through PAPI" "$BUILD/itests/papi_wrap_guard"

# await FILE PID: FILE exists (0), or PID ended or 30 s passed (1).
await() {
	for _ in $(seq 600); do [ -s "$1" ] && return 0; kill -0 "$2" 2>/dev/null || return 1; sleep 0.05; done
	return 1
}

# uncore-stat, stopped while 100 s of traffic pass.
"$sim" destroy "$inst" >/dev/null 2>&1
if "$sim" create "$inst" -m i7-6700k -s "$scn" >/dev/null; then
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM="$inst" PAPI_INTEL_UNCORE_VERBOSE=1 \
		"$stat" -I 100 -e "$EV" --csv -o "$tmp/stat.csv" 2>"$tmp/stat.err" &
	pid=$!
	await "$tmp/stat.csv" $pid && "$sim" advance "$inst" 1s >/dev/null && sleep 0.3
	kill -STOP $pid
	"$sim" advance "$inst" 100s >/dev/null
	kill -CONT $pid
	sleep 0.5
	kill -INT $pid
	wait $pid
	expect "uncore-stat ran (status $?)" test -s "$tmp/stat.csv"
	got=$("$PYTHON3" - "$tmp/stat.csv" "$WANT" <<'PY' 2>&1
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
want = sys.argv[2]
iv = [r for r in rows if r["type"] == "notice" and r["kind"] == "interval" and want in r["name"]]
tot = [r for r in rows if r["type"] == "notice" and r["kind"] == "total" and want in r["name"]]
other = [r for r in rows if r["type"] == "notice" and want not in r["name"]]
print("%d %d %d" % (len(iv), len(tot), len(other)))
PY
)
	expect "uncore-stat: one interval and the run's total have the notice \"$WANT\", no other notice (got: intervals, totals, others = $got)" \
		test "$got" = "1 1 0"
	expect "uncore-stat with PAPI_INTEL_UNCORE_VERBOSE=1: the component says it on stderr ($(grep -m1 'wraps' "$tmp/stat.err"))" \
		grep -q "^intel_uncore: $WANT" "$tmp/stat.err"
else
	fail "cannot create a simulated i7-6700k"
fi

# An MPI job whose counting rank is stopped.
idle=$BUILD/mpitests/mpi_idle
lib=$STAGE/lib/libpapi_uncore_mpi.so
need --mpi "$idle" "$lib" || exit 0
"$sim" destroy "$inst" >/dev/null 2>&1
"$sim" create "$inst" -m i7-6700k -s "$scn" >/dev/null || { fail "cannot create a simulated i7-6700k"; exit 0; }
mkdir -p "$tmp/job"
mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo \
	--mca btl_tcp_if_include lo --mca plm_rsh_agent false -np 1 \
	-x PAPI_INTEL_UNCORE_BACKEND=sim -x PAPI_INTEL_UNCORE_SIM="$inst" \
	-x PAPI_INTEL_UNCORE_MPI_EVENTS="$EV" -x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/job.json" \
	-x LD_PRELOAD="$lib" "$idle" "$tmp/job" >"$tmp/job.out" 2>&1 &
pid=$!
if await "$tmp/job/ready" $pid; then
	rank=$(head -1 "$tmp/job/ready")
	kill -STOP "$rank"
	"$sim" advance "$inst" 100s >/dev/null
	kill -CONT "$rank"
fi
touch "$tmp/job/go"
wait $pid
expect "the MPI job ran (status $?)" test -s "$tmp/job.json"
said=$("$PYTHON3" -c 'import json,sys; print(" | ".join(p["problem"] for p in json.load(open(sys.argv[1]))["problems"]))' "$tmp/job.json" 2>&1)
expect "the MPI report's problems say \"1 read: $WANT\" ($said)" \
	test "${said#*1 read: $WANT}" != "$said"
