#!/usr/bin/env bash
# `make bench`: the benchmarks of bench/README.md, in one run, on the
# simulator (nothing here needs uncore hardware).  Prints markdown tables;
# a copy goes to $BUILD/bench/results.md.  Needs BUILD and STAGE.
set -u
: "${BUILD:?}" "${STAGE:?}"
bin=$BUILD/bench/bench_read
out=$BUILD/bench/results.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_VERBOSE

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

{
# The commit the build came from ("+changes" when the tree differs from
# it): bench/README.md quotes figures only with the commit that produced them.
src=${SRCDIR:-$(dirname "$0")/..}
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git -C "$src" diff --quiet HEAD -- 2>/dev/null; then
	commit="$commit+changes"
fi
echo "## papi-uncore benchmarks (commit $commit, $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r))"
echo
echo "Machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)."
echo
echo "### 1. PAPI_read: time and register accesses per read"
echo
"$bin"
echo
echo "### 2. Instructions per PAPI_read, direct backend on the simulator (callgrind, 1000 reads + 100 warm-up)"
echo
# incl FILE FUNCTION: callgrind's inclusive count of a function, or 0.
incl() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f="$2" 'index($0, f " ") || index($0, f "\t") { gsub(",", "", $1); print $1; exit }' |
		grep . || echo 0
}
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
	echo "Ours = inclusive in the component's read (_intel_uncore_read) minus the simulator's register"
	echo "accesses (inclusive in its entry points sim_read, sim_write and sim_read_twice); PAPI = the rest of PAPI_read"
	echo "(PAPI's own code)."
	echo
	echo "| events | freeze on: Ir/read | simulator | PAPI | ours | freeze off: Ir/read | simulator | PAPI | ours |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for n in 1 8 32 128; do
		row="| $n"
		for f in 1 0; do
			cg=$tmp/cg.$n.$f
			valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect=PAPI_read \
				"$bin" --freeze "$f" --no-log --reads 1000 --size "$n" >/dev/null 2>&1
			total=$(sed -n 's/^summary: *//p' "$cg")
			# The simulator's share: everything behind its register-access
			# entry points (the regio ops sim_read, sim_write,
			# sim_read_twice: a PCI counter's two reads), on hardware
			# the device's system call instead.
			sim=$(($(incl "$cg" "sim_regio.c:sim_read") + $(incl "$cg" "sim_regio.c:sim_write") +
				$(incl "$cg" "sim_regio.c:sim_read_twice")))
			comp=$(incl "$cg" "intel_uncore.c:_intel_uncore_read")
			ours=$(((comp - sim) / 1100))
			eval "ours_${n}_$f=$ours"
			row="$row | $((total / 1100)) | $((sim / 1100)) | $(((total - comp) / 1100)) | $ours"
		done
		echo "$row |"
	done
	echo
	slope() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'; }
	echo "Ours per additional event (8 to 128 events): freeze on $(slope "$ours_8_1" "$ours_128_1" 120), freeze off $(slope "$ours_8_0" "$ours_128_0" 120) instructions."
else
	echo "valgrind is not installed (apt-get install valgrind): skipped"
fi
echo
echo "### 3. The perf backend against PAPI's perf_event, side by side (this machine's kernel PMUs)"
echo
# What PAPI perf_event can measure on this machine (a KVM guest without a
# PMU: software events): the same N software events of one PMU, read by
# our perf backend (system-wide on CPU 0, one group) and by PAPI's
# perf_event component (this thread, one group).  Both pay one read().
prb=$tmp/perf_read_bench
if ${CC:-cc} -std=gnu11 -O2 -isystem "$STAGE/include" "$SRCDIR/bench/perf_read/perf_read_bench.c" \
	-L"$STAGE/lib" -lpapi -Wl,-rpath,"$STAGE/lib" -o "$prb" 2>/dev/null &&
	(unset PAPI_INTEL_UNCORE_BACKEND; taskset -c 0 "$prb" ours 1 1 200 >/dev/null 2>&1); then
	echo "| events (one PMU) | reader | ns/PAPI_read, median of 5 runs of 20,000 taking turns | Ir/PAPI_read (user) | of which ours |"
	echo "|---:|---|---:|---:|---:|"
	# Both readers in one process, their batches of 100 reads taking turns
	# (perf_read_bench both), so that the machine's load and the process's
	# memory layout weigh on both alike; five processes.
	for n in 1 8; do
		for k in 1 2 3 4 5; do
			(unset PAPI_INTEL_UNCORE_BACKEND; taskset -c 0 "$prb" both "$n" 1 20000) >"$tmp/both"
			for w in perf_event ours; do
				sed -n "s/^$w .* \\([0-9]*\\) ns\\/read.*/\\1/p" "$tmp/both" >>"$tmp/runs.$w.$n"
			done
		done
		for w in perf_event ours; do
			median <"$tmp/runs.$w.$n" >"$tmp/ns.$w.$n"
		done
	done
	for n in 1 8; do
		for w in perf_event ours; do
			(unset PAPI_INTEL_UNCORE_BACKEND
			 taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$tmp/cgp.$w.$n" \
				--toggle-collect=PAPI_read "$prb" "$w" "$n" 1 2000 >/dev/null 2>&1)
			ir=$(( $(sed -n 's/^summary: *//p' "$tmp/cgp.$w.$n") / 3000 ))
			comp=$(incl "$tmp/cgp.$w.$n" "intel_uncore.c:_intel_uncore_read")
			eval "ir_${w}_$n=$ir comp_${w}_$n=$((comp / 3000))"
			name=$([ "$w" = ours ] && echo "intel_uncore perf backend" || echo "PAPI perf_event")
			echo "| $n | $name | $(cat "$tmp/ns.$w.$n") | $ir | $([ "$w" = ours ] && echo $((comp / 3000)) || echo -) |"
		done
	done
	echo
	slope() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n }'; }
	echo "8 events: intel_uncore / PAPI perf_event = $(awk -v a="$(cat "$tmp/ns.ours.8")" -v b="$(cat "$tmp/ns.perf_event.8")" 'BEGIN { printf "%.3f", a / b }') in time;" \
		"per additional event: intel_uncore's own code $(slope "$comp_ours_1" "$comp_ours_8" 7) instructions" \
		"(the whole PAPI_read $(slope "$ir_ours_1" "$ir_ours_8" 7)), PAPI perf_event's whole PAPI_read $(slope "$ir_perf_event_1" "$ir_perf_event_8" 7)."
else
	echo "cannot count system-wide here (root or perf_event_paranoid <= 0 needed): skipped"
fi
echo
echo "### 4. Enumerating every native event"
echo
"$bin" --enum 5
for i in 1 2 3 4 5; do
	s=$(date +%s%N)
	"$STAGE/bin/papi_native_avail" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $((e - s))
done | median | awk '{ printf "papi_native_avail (all components, intel_uncore on the simulator): median %.1f ms of 5 runs\n", $1 / 1e6 }'
if command -v valgrind >/dev/null; then
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.enum" --toggle-collect=enumerate_all \
		"$bin" --enum 1 >/dev/null 2>&1
	echo "instructions to enumerate intel_uncore's events with their umasks and descriptions (PAPI_enum_cmp_event + PAPI_get_event_info): $(sed -n 's/^summary: *//p' "$tmp/cg.enum")"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.avail" "$STAGE/bin/papi_native_avail" >/dev/null 2>&1
	echo "instructions of a whole papi_native_avail run: $(sed -n 's/^summary: *//p' "$tmp/cg.avail")"
fi
echo
echo "### 5. System calls per read: the DRAM bandwidth set on two sockets (strace, fake devices)"
echo
if command -v strace >/dev/null; then
	sc=$BUILD/bench/bench_syscalls
	# strace -c of a run with 0 reads and of one with 1000: the difference
	# per read, by system call.
	per_read() {
		awk 'NR == FNR { if ($4 ~ /^[0-9]+$/ && $NF != "total") a[$NF] = $4; next }
		     $4 ~ /^[0-9]+$/ && $NF != "total" { d = ($4 - a[$NF]) / 1000
		       if (d >= 0.5) { printf "%s %.0f, ", $NF, d; t += d } }
		     END { printf "| %.0f |", t }' "$1" "$2"
	}
	echo "UNC_M_CAS_COUNT.RD and .WR on the 8 iMC channels of both sockets of a Haswell-EP (32 PCI"
	echo "counters), through the direct backend and the real device code over fake files (/dev/cpu/N/msr"
	echo "and PCI configuration space as regular files, an ECAM window as a file): no simulator, no root."
	echo
	echo "| PCI path | freeze | system calls per read, by call | total |"
	echo "|---|---|---|---:|"
	for m in sysfs ecam libpci; do
		for f in 1 0; do
			strace -f -c -o "$tmp/st0" "$sc" "$m" 0 "$f" >/dev/null 2>&1
			strace -f -c -o "$tmp/st1" "$sc" "$m" 1000 "$f" >/dev/null 2>&1
			echo "| $m | $([ "$f" = 1 ] && echo on || echo off) | $(per_read "$tmp/st0" "$tmp/st1" | sed 's/, |/ |/')"
		done
	done
else
	echo "strace is not installed (scripts/install-deps.sh installs it): skipped"
fi
echo
echo "### 6. Start-up: PAPI_library_init with and without intel_uncore (this machine, no simulator)"
echo
(unset PAPI_INTEL_UNCORE_BACKEND; "$BUILD/bench/bench_startup" 41)
if command -v valgrind >/dev/null; then
	for m in on off; do
		(unset PAPI_INTEL_UNCORE_BACKEND
		 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.init.$m" --toggle-collect=PAPI_library_init \
			"$BUILD/bench/bench_startup" --once "$m" >/dev/null 2>&1)
	done
	on=$(sed -n 's/^summary: *//p' "$tmp/cg.init.on")
	off=$(sed -n 's/^summary: *//p' "$tmp/cg.init.off")
	echo
	echo "instructions in PAPI_library_init (callgrind): $on with intel_uncore, $off without (ratio $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }'))"
fi
echo
echo "### 7. One event summed over a PMU family, by family size (simulated kernels, perf backend)"
echo
"$BUILD/bench/bench_family" 20001
echo
echo "### 8. A metric against its raw events: instructions per PAPI_read (callgrind, direct backend on the simulator)"
echo
BUILD=$BUILD "$(dirname "$0")/metric.sh"
echo
echo "### 9. Today's Xeons beside Haswell-EP: enumeration and a 128-instance read (callgrind)"
echo
BUILD=$BUILD STAGE=$STAGE "$(dirname "$0")/xeon_sp.sh"
echo
echo "### 10. PAPI_read through uncored (a snapshot read) against the perf backend: the DRAM bandwidth set"
echo
BUILD=$BUILD STAGE=$STAGE "$(dirname "$0")/service.sh"
} | tee "$out"
echo "(saved in $out)"
