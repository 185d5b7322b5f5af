#!/usr/bin/env bash
# Section 8 of bench/README.md (issue 27: a metric at the cost of its
# events): instructions per PAPI_read of `hswep_metric::DRAM_BW` (and its
# `:int` form) against its two raw events, `hswep_unc_imc::UNC_M_CAS_COUNT:RD`
# and `:WR` (32 counters either way), direct backend on the simulator, read
# freeze on, under callgrind collecting PAPI_read only (bench_metric, 1,000
# reads + 100 warm-up, a new interval at every read).  Ours = inclusive in
# _intel_uncore_read less the simulator's register accesses (sim_read,
# sim_write, sim_read_twice) and less its clock (uncore_sim_now: on hardware
# a clock_gettime through the vDSO instead), whose reads per PAPI_read are
# counted apart.  Run by bench/run.sh; alone: BUILD=build bench/metric.sh.
set -u
: "${BUILD:?}"
bin=$BUILD/bench/bench_metric
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/callgrind.sh"
calls() { # FILE FUNCTION: how many times it was called (callgrind's calls= lines;
	# a function's name is given once, with its number, "(N) name", then the
	# number alone)
	awk -v f="$2" '
		/^c?fn=/ { s = $0; sub(/^c?fn=/, "", s); id = s; nm = s
			if (s ~ /^\([0-9]+\)/) { sub(/\).*/, ")", id); if (s ~ /^\([0-9]+\) /) { sub(/^\([0-9]+\) /, "", nm); name[id] = nm } else nm = name[id] }
			want = ($0 ~ /^cfn=/) && (nm == f || nm ~ ("[ :]" f "$")); next }
		want && /^calls=/ { split($0, a, /[= ]/); n += a[2]; want = 0; next } { want = 0 }
		END { print n + 0 }' "$1"
}
echo "| event set | Ir/PAPI_read | simulator: registers | simulator: clock | PAPI | ours | clock reads/read | ours / raw |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
raw_ours=0
for what in raw metric int; do
	cg=$tmp/cg.$what
	valgrind --tool=callgrind --callgrind-out-file="$cg" --toggle-collect=PAPI_read \
		"$bin" "$what" --reads 1000 >/dev/null 2>&1
	total=$(sed -n 's/^summary: *//p' "$cg")
	regs=$(($(incl "$cg" "sim_regio.c:sim_read") + $(incl "$cg" "sim_regio.c:sim_write") +
		$(incl "$cg" "sim_regio.c:sim_read_twice")))
	clock=$(incl "$cg" "sim_machine.c:uncore_sim_now")
	ncalls=$(calls "$cg" "uncore_sim_now")
	comp=$(incl "$cg" "intel_uncore.c:_intel_uncore_read")
	ours=$(((comp - regs - clock) / 1100))
	[ "$what" = raw ] && raw_ours=$ours
	case $what in
	raw) name="UNC_M_CAS_COUNT:RD, :WR (raw)" ;;
	metric) name="hswep_metric::DRAM_BW" ;;
	*) name="hswep_metric::DRAM_BW:int" ;;
	esac
	echo "| $name | $((total / 1100)) | $((regs / 1100)) | $((clock / 1100)) | $(((total - comp) / 1100)) | $ours |" \
		"$(awk -v c="$ncalls" 'BEGIN { printf "%.2f", c / 1100 }') | $(awk -v a="$ours" -v b="$raw_ours" 'BEGIN { printf "%.2f", a / b }') |"
done
