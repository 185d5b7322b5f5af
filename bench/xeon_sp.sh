#!/usr/bin/env bash
# Section 9 of bench/README.md (issue 26): today's Xeons beside Haswell-EP.
# (a) Enumeration: every native event of intel_uncore with its umasks and
#     descriptions (bench_read --enum: PAPI_enum_cmp_event +
#     PAPI_get_event_info) and a whole papi_native_avail run, on the
#     simulated kernel of a Granite Rapids (PAPI_INTEL_UNCORE_SIM_KERNEL=gnr)
#     and of a Sapphire Rapids, beside the Haswell-EP simulator (direct
#     backend, section 4's configuration): entries, instructions
#     (callgrind), and the median time of 5 runs.
# (b) One event summed over a PMU family (bench_family --only K): the 128
#     CHAs of one Granite Rapids socket, both sockets' 256, Sapphire Rapids'
#     112, beside the 36 CBos of the Haswell-EP simulator behind its
#     simulated perf kernel.  Under callgrind collecting PAPI_read (100
#     warm-up reads + READS): the simulated kernel's share (inclusive in its
#     read(), shape_kernel.c:k_read or sim_perf.c:k_read: on hardware the
#     kernel's system call instead), PAPI's (PAPI_read outside
#     _intel_uncore_read), ours (the rest), and ours per PMU instance.
# Run by bench/run.sh; alone: BUILD=build STAGE=stage bench/xeon_sp.sh [READS]
set -u
: "${BUILD:?}" "${STAGE:?}"
reads=${1:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_VERBOSE \
	PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_KERNEL_STEP
export PAPI_INTEL_UNCORE_BACKEND=sim
. "$(dirname "$0")/callgrind.sh"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
summary() { sed -n 's/^summary: *//p' "$1"; }

echo "(a) Enumerating every native event of intel_uncore, and a whole papi_native_avail run"
echo
echo "| machine | entries (events + umasks) | Ir to enumerate | Ir per entry | enumerate, median of 5 | papi_native_avail: Ir | median of 5 runs |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for row in "none|Haswell-EP simulator (e5-2699v3-2s, direct backend)" \
	"spr|Sapphire Rapids, simulated kernel (spr)" \
	"gnr|Granite Rapids, simulated kernel (gnr)"; do
	k=${row%%|*} label=${row#*|}
	if [ "$k" = none ]; then unset PAPI_INTEL_UNCORE_SIM_KERNEL; else export PAPI_INTEL_UNCORE_SIM_KERNEL=$k; fi
	line=$("$BUILD/bench/bench_read" --enum 5)
	entries=$(echo "$line" | sed -n 's/^enumerate: \([0-9]*\) entries.*/\1/p')
	ms=$(echo "$line" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
	valgrind --tool=callgrind --callgrind-out-file="$tmp/enum.$k" --toggle-collect=enumerate_all \
		"$BUILD/bench/bench_read" --enum 1 >/dev/null 2>&1
	ir=$(summary "$tmp/enum.$k")
	valgrind --tool=callgrind --callgrind-out-file="$tmp/avail.$k" "$STAGE/bin/papi_native_avail" \
		>/dev/null 2>&1
	avail=$(summary "$tmp/avail.$k")
	t=$(for i in 1 2 3 4 5; do
		s=$(date +%s%N)
		"$STAGE/bin/papi_native_avail" >/dev/null 2>&1
		echo $(($(date +%s%N) - s))
	done | median)
	echo "| $label | $entries | $ir | $((ir / (entries > 0 ? entries : 1))) | $ms ms | $avail |" \
		"$(awk -v t="$t" 'BEGIN { printf "%.1f ms", t / 1e6 }') |"
done
unset PAPI_INTEL_UNCORE_SIM_KERNEL
echo
echo "(b) PAPI_read of one event summed over a PMU family (callgrind, 100 warm-up + $reads reads)"
echo
echo "| family | PMU instances | Ir/PAPI_read | simulated kernel's read() | PAPI | ours | ours per instance |"
echo "|---|---:|---:|---:|---:|---:|---:|"
n=$((reads + 100))
for k in 1 0 2 3; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/fam.$k" --toggle-collect=PAPI_read \
		"$BUILD/bench/bench_family" --only "$k" "$reads" >"$tmp/fam.$k.out" 2>/dev/null
	label=$(sed -n 's/^| \([^|]*\) | \([0-9]*\) |.*/\1/p' "$tmp/fam.$k.out")
	inst=$(sed -n 's/^| \([^|]*\) | \([0-9]*\) |.*/\2/p' "$tmp/fam.$k.out")
	total=$(summary "$tmp/fam.$k")
	kern=$(($(incl "$tmp/fam.$k" "shape_kernel.c:k_read") + $(incl "$tmp/fam.$k" "sim_perf.c:k_read")))
	comp=$(incl "$tmp/fam.$k" "intel_uncore.c:_intel_uncore_read")
	ours=$(((comp - kern) / n))
	echo "| ${label:-configuration $k (failed)} | ${inst:-0} | $((total / n)) | $((kern / n)) | $(((total - comp) / n)) | $ours |" \
		"$(awk -v o="$ours" -v i="${inst:-0}" 'BEGIN { printf "%.1f", i ? o / i : 0 }') |"
done
