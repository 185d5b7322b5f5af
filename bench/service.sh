#!/usr/bin/env bash
# bench/README.md section 10: PAPI_read of the DRAM bandwidth set
# (UNC_M_CAS_COUNT:RD and :WR, 8 channels x 2 sockets: 32 counters) through
# uncored, the node service, against the same set through the perf backend.
# Needs BUILD and STAGE; strace for the system calls.
set -u
: "${BUILD:?}" "${STAGE:?}"
b=$BUILD/bench/bench_service
tmp=$(mktemp -d)
d_pid=
cleanup() {
	[ -n "$d_pid" ] && kill "$d_pid" 2>/dev/null && wait "$d_pid" 2>/dev/null
	"$BUILD/bin/uncore-sim" destroy "$tmp/node" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_SCENARIO
N=100000
"$BUILD/bin/uncore-sim" create "$tmp/node" -s stream >/dev/null || { echo "cannot create a simulated node: skipped"; exit 0; }
"$STAGE/sbin/uncored" --sim "$tmp/node" --socket "$tmp/u.sock" 2>"$tmp/uncored.err" &
d_pid=$!
for _ in $(seq 200); do [ -S "$tmp/u.sock" ] && break; sleep 0.05; done
export PAPI_INTEL_UNCORE_SERVICE=$tmp/u.sock
read -r s_med s_p10 s_p90 < <("$b" service "$N")
sc="(strace not installed)"
if command -v strace >/dev/null; then
	# A run that starts, stops and sorts as one of N reads, and one of N
	# reads: the difference divided by N, by system call (none: 0).
	strace -f -c -o "$tmp/st0" "$b" service 0 "$N" >/dev/null 2>&1
	strace -f -c -o "$tmp/st1" "$b" service "$N" >/dev/null 2>&1
	sc=$(awk -v n="$N" 'NR == FNR { if ($4 ~ /^[0-9]+$/ && $NF != "total") a[$NF] = $4; next }
		$4 ~ /^[0-9]+$/ && $NF != "total" { d = $4 - a[$NF]; if (d != 0) { l = l sprintf("%s %+d, ", $NF, d) }; t += d }
		END { printf "%.4f (over %d reads: %s)", t / n, n, l == "" ? "no call more" : substr(l, 1, length(l) - 2) }' \
		"$tmp/st0" "$tmp/st1")
fi
unset PAPI_INTEL_UNCORE_SERVICE
read -r p_med p_p10 p_p90 p_reads < <(PAPI_INTEL_UNCORE_SERVICE=none PAPI_INTEL_UNCORE_BACKEND=sim \
	PAPI_INTEL_UNCORE_SIM_KERNEL=perf "$b" perf 2001)
read -r r_med r_p10 r_p90 < <("$b" read-cost 20001)
echo "| path | ns per PAPI_read, median (p10-p90) | system calls per PAPI_read |"
echo "|---|---:|---|"
echo "| through uncored (\`uncored --sim\`, stream scenario): a snapshot read | $s_med ($s_p10-$s_p90) | $sc |"
echo "| perf backend over the simulated perf kernel (answered in process: the simulator's time) | $p_med ($p_p10-$p_p90) | $p_reads \`read()\` (counted by the backend; each a system call on hardware) |"
echo "| one real \`read()\` of a perf group (2 software events, this machine's kernel) | $r_med ($r_p10-$r_p90) | 1 |"
echo
awk -v n="$p_reads" -v r="$r_med" -v s="$s_med" 'BEGIN {
	printf "The perf backend on hardware pays at least %.0f x %.0f ns = %.0f ns of read() calls per PAPI_read of this set\n", n, r, n * r
	printf "(the kernel'\''s uncore read of each PMU adds its own work); through uncored %s ns, %.0fx less.\n", s, n * r / s }'
