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
echo "## papi-uncore benchmarks ($(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r))"
echo
echo "### 1. PAPI_read: time and register accesses per read"
echo
"$bin"
echo
echo "### 2. Instructions per PAPI_read (callgrind, 1000 reads + 100 warm-up)"
echo
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
	echo "| events | Ir/read freeze on | of which simulator | papi-uncore + PAPI | Ir/read freeze off | of which simulator | papi-uncore + PAPI |"
	echo "|---:|---:|---:|---:|---:|---:|---:|"
	for n in 1 8 32 128; do
		row="| $n"
		for f in 1 0; do
			cg=$tmp/cg.$n.$f
			valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect=PAPI_read \
				"$bin" --freeze "$f" --no-log --reads 1000 --size "$n" >/dev/null 2>&1
			total=$(sed -n 's/^summary: *//p' "$cg")
			# The simulator's share: everything under its register-access entry.
			sim=$(callgrind_annotate --inclusive=yes "$cg" 2>/dev/null |
				awk '/sim_regio.c:sim_access /{ gsub(",", "", $1); print $1; exit }')
			sim=${sim:-0}
			row="$row | $((total / 1100)) | $((sim / 1100)) | $(((total - sim) / 1100))"
		done
		echo "$row |"
	done
else
	echo "valgrind is not installed (apt-get install valgrind): skipped"
fi
echo
echo "### 3. Enumerating every native event"
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
echo "### 4. Start-up: PAPI_library_init with and without intel_uncore (this machine, no simulator)"
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
} | tee "$out"
echo "(saved in $out)"
