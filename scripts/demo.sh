#!/usr/bin/env bash
# `make demo`: papi-uncore on its embedded default, the register-level
# simulator of a two-socket Xeon E5-2699 v3, running STREAM-like memory
# traffic in real time (src/sim/scenarios/demo-stream.scn); then one block
# for each other generation of the specifications (Skylake client,
# Nehalem, Xeon 7400) on its own simulator model.  Every line that comes
# from the simulator says so.
set -u
stage=${1:?usage: demo.sh STAGE SRCDIR}
srcdir=${2:?usage: demo.sh STAGE SRCDIR}
export PAPI_INTEL_UNCORE_BACKEND=sim
export PAPI_INTEL_UNCORE_SIM_SCENARIO="$srcdir/src/sim/scenarios/demo-stream.scn"
RD=hswep_unc_imc::UNC_M_CAS_COUNT:RD
WR=hswep_unc_imc::UNC_M_CAS_COUNT:WR
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "== papi-uncore demo (SIMULATED uncore: PAPI_INTEL_UNCORE_BACKEND=sim)"
echo "== 1. the component, as PAPI lists it"
# Its whole entry: from its Name: line to the blank line that ends it (every PMU).
"$stage/bin/papi_component_avail" | sed -n '/^Active components/,/^----/p' |
	awk '/^Name: +intel_uncore/ { on = 1 } on && /^$/ { exit } on { print }'
echo
echo "== 2. uncore-stat: DRAM read and write CAS of 'sleep 1', per socket and in total, and the"
echo "   component's DRAM bandwidth metrics (group MEM) of the same run"
echo "   \$ uncore-stat --sim -e $RD,$WR -g MEM -- sleep 1"
"$stage/bin/uncore-stat" --sim -o "$out" -e "$RD,$WR" -g MEM -- sleep 1
sed 's/^/   /' "$out"
echo
echo "   DRAM bandwidth the counts imply (CAS x 64 bytes / seconds / 10^9), SIMULATED:"
# Rows: event, one column per socket, total, total/s; then "N seconds elapsed".
awk -v rd="$RD" -v wr="$WR" '
	/seconds elapsed/ && !secs { secs = $1 }
	$1 == rd || $1 == wr { for (i = 2; i <= NF; i++) gsub(",", "", $i); row[$1] = $0 }
	END {
		if (secs <= 0) exit 1
		printf "   %-6s %14s %14s %14s\n", "", "socket 0", "socket 1", "total"
		n = split("read write", what, " ")
		for (k = 1; k <= n; k++) {
			split(row[k == 1 ? rd : wr], f, " ")
			printf "   %-6s %9.2f GB/s %9.2f GB/s %9.2f GB/s\n", what[k],
				f[2] * 64 / secs / 1e9, f[3] * 64 / secs / 1e9, f[4] * 64 / secs / 1e9
		}
	}' "$out"
echo "   (the same numbers as DRAM_READ_BW and DRAM_WRITE_BW above: GB is 10^9 bytes in every"
echo "    tool and metric. The scenario: 100 M read and 50 M write CAS per second on each of"
echo "    8 channels per socket, i.e. 51.2 GB/s read and 25.6 GB/s written per socket)"
echo
echo "== 3. PAPI's own tools count the same events (papi_command_line)"
PAPI_INTEL_UNCORE_VERBOSE=1 "$stage/bin/papi_command_line" "$RD" "$RD:socket=1" hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 2>&1 |
	grep -E '^(hswep|Failed|because|intel_uncore)'
echo
echo "== 4. a clear error for a bad event (exit status 2)"
"$stage/bin/uncore-stat" --sim -e "$RD:socket=7" -- true
echo "   exit status $?"
echo
echo "== 5. derived metrics: the node's DRAM bandwidth in GB/s as one event, per socket, next to raw counts"
"$stage/bin/papi_command_line" \
	hswep_metric::DRAM_BW \
	hswep_metric::DRAM_READ_BW:socket=0 \
	hswep_metric::DRAM_WRITE_BW:socket=1 \
	hswep_unc_imc::PCT_REQUESTS_PAGE_HIT 2>&1 | grep -E '^(hswep|Failed|because)'
echo "   (scenario: per socket 51.2 GB/s read, 25.6 GB/s written - the numbers of step 2: GB is 10^9 bytes"
echo "    everywhere; the manual's GB_CONVERSION of 2^30 would print 47.7 + 23.8;"
echo "    formulas: metrics/hswep.metrics, HSX 1.7.1 and 2.6.6)"
echo
echo "== 6. every other generation of the specifications, each on its own simulator and scenario"
echo "   (uncore-sim models; the same direct engine programs them all)"
while read -r title model scn events group; do
	echo "   -- ${title//-/ }: \$ uncore-stat --sim --sim-model $model --sim-scenario $scn -e $events${group:+ -g $group} -t 0.2"
	"$stage/bin/uncore-stat" --sim --sim-model "$model" --sim-scenario "$scn" -o "$out" -e "$events" \
		${group:+-g "$group"} -t 0.2
	# The tables with their header rows (event ... socket 0 ...; metric units ...).
	grep -E '^(event|metric) |^(skl|nhm|x7400)_' "$out" | sed 's/^/   /'
done <<'GENERATIONS'
Skylake-client i7-6700k skl-stream skl_unc_imc::DRAM_DATA_READS,skl_unc_clock::UNC_CLOCK MEM
Nehalem x5570-2s nhm-stream nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY,nhm_unc_guide::UNC_CLK_UNHALTED MEM
Xeon-7400 x7460-4s x7400-stream x7400_unc_gbsq::GBSQ_TRANSACTIONS,x7400_unc_fsb::FSB_DRDY
GENERATIONS
echo "   (scenarios: SKL 100 M reads/s = 6.4 GB/s; Nehalem 208 M reads/s per socket = 13.3 GB/s;"
echo "    X7460 one GBSQ transaction every 4 + 8 core cycles, DRDY every 4th bus cycle, per socket)"
echo
echo "== 7. today's Xeons, for which we have no tables: the kernel's own uncore PMUs, and DRAM"
echo "   bandwidth per socket from its cas_count aliases and their .scale/.unit (a SIMULATED"
echo "   kernel shaped as Sapphire Rapids' uncore driver publishes it: --sim-kernel spr)"
echo "   \$ uncore-stat --sim --sim-kernel spr -e uncore_imc::cas_count_read -g MEM -- sleep 0.5"
"$stage/bin/uncore-stat" --sim --sim-kernel spr -o "$out" -e uncore_imc::cas_count_read -g MEM -- sleep 0.5
sed 's/^/   /' "$out"
echo "   (the fake kernel's rates: channel i of socket s reads (i+1) x (s+1) x 10 M CAS/s, so"
echo "    socket 0 reads 23.04 GB/s over its 8 channels, socket 1 46.08; a CAS is 64 bytes:"
echo "    the alias's .scale 6.103515625e-5 in its .unit MiB)"
