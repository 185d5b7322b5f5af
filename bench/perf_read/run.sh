#!/usr/bin/env bash
# PAPI_read cost, intel_uncore's perf backend against PAPI's perf_event
# component, on this machine's kernel PMUs, in one run.  Needs the staged
# PAPI (make) and root (system-wide counting; or perf_event_paranoid <= 0).
#
#   bench/perf_read/run.sh [reads]      (default 50000 PAPI_reads per point)
#
# Prints a markdown table: ns per PAPI_read (median of batches of 100),
# read() system calls per PAPI_read (from /proc/self/io), and user-space
# instructions per PAPI_read (callgrind, inside PAPI_read only) when
# valgrind is installed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
stage=${STAGE:-$top/stage}
reads=${1:-50000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin=$tmp/perf_read_bench
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -isystem "$stage/include" "$here/perf_read_bench.c" \
	-L"$stage/lib" -lpapi -Wl,-rpath,"$stage/lib" -o "$bin"

ir_per_read() { # callgrind: instructions executed inside PAPI_read, per call
	command -v valgrind >/dev/null || { echo "-"; return; }
	local out=$tmp/cg.out n=2000
	taskset -c "$1" valgrind --tool=callgrind --toggle-collect=PAPI_read --callgrind-out-file="$out" \
		"$bin" "${@:2}" $n >/dev/null 2>&1 || { echo "-"; return; }
	# warm-up reads (1000) are collected too: divide by all calls
	awk -v n=$((n + 1000)) '/^(summary|totals):/{printf "%.0f", $2 / n; exit}' "$out"
}

echo "PAPI_read cost on $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
echo
echo "| reader | events (N) | PMU instances (M) | reader CPU | ns/PAPI_read (median, p10-p90) | read() per PAPI_read | instructions per PAPI_read (user) |"
echo "|---|---|---|---|---|---|---|"
row() { # which N M cpu
	local line ns p10 p90 rd ir name
	line=$(taskset -c "$4" "$bin" "$1" "$2" "$3" "$reads")
	ns=$(echo "$line" | sed -n 's/.* \([0-9]*\) ns\/read.*/\1/p')
	p10=$(echo "$line" | sed -n 's/.*p10 \([0-9]*\),.*/\1/p')
	p90=$(echo "$line" | sed -n 's/.*p90 \([0-9]*\)).*/\1/p')
	rd=$(echo "$line" | sed -n 's/.* \([0-9.]*\) read()\/PAPI_read.*/\1/p')
	case $1 in
	ours) name="intel_uncore perf backend (system-wide, CPU 0)" ;;
	perf_event) name="PAPI perf_event (this thread)" ;;
	*) name="no PAPI: each event alone for CPU 0, one read() each (perf_event_uncore's way)" ;;
	esac
	if [ "$1" = alone ]; then ir="-"; else ir=$(ir_per_read "$4" "$1" "$2" "$3"); fi
	echo "| $name | $2 | $3 | $4 | $ns ($p10-$p90) | $rd | $ir |"
}
for n in 1 2 4 8; do
	row perf_event $n 1 0
	row ours $n 1 0
	row alone $n 1 0
done
row ours 2 2 0
row ours 4 2 0
row ours 8 2 0
row ours 3 3 0
row ours 8 3 0
row ours 4 1 1
row ours 4 2 1
echo
echo "perf_event counts software events of this thread; intel_uncore counts the same software"
echo "events (and msr::tsc for M >= 2, power::energy-psys for M = 3) for the whole of CPU 0, as"
echo "uncore events are counted: one group per PMU instance and CPU, one read() each."
