#!/usr/bin/env bash
# `make demo`: papi-uncore on its embedded default, the register-level
# simulator of a two-socket Xeon E5-2699 v3, running STREAM-like memory
# traffic in real time (src/sim/scenarios/demo-stream.scn).  Every line
# that comes from the simulator says so.
set -u
stage=${1:?usage: demo.sh STAGE SRCDIR}
srcdir=${2:?usage: demo.sh STAGE SRCDIR}
export PAPI_INTEL_UNCORE_BACKEND=sim
export PAPI_INTEL_UNCORE_SIM_SCENARIO="$srcdir/src/sim/scenarios/demo-stream.scn"
export PAPI_INTEL_UNCORE_VERBOSE=1

echo "== papi-uncore demo (SIMULATED uncore: PAPI_INTEL_UNCORE_BACKEND=sim)"
echo "== 1. the component, as PAPI lists it"
"$stage/bin/papi_component_avail" | sed -n '/^Active components/,/^----/p' | grep -A2 'intel_uncore'
echo
echo "== 2. one event counts DRAM reads of every channel of both sockets (papi_command_line)"
"$stage/bin/papi_command_line" \
	hswep_unc_imc::UNC_M_CAS_COUNT:RD \
	hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=0 \
	hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1 \
	hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 2>&1 | grep -E '^(hswep|Failed|because|intel_uncore)'
echo "   (scenario: 100 M read CAS per second on each populated channel, in simulated real time;"
echo "    bytes = CAS x 64)"
echo
echo "== 3. a clear error for a bad event"
"$stage/bin/papi_command_line" hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=7 2>&1 | grep -E '^(intel_uncore|Failed|because)'
echo
echo "== 4. derived metrics: the node's DRAM bandwidth in GB/s as one event, per socket, next to raw counts"
"$stage/bin/papi_command_line" \
	hswep_metric::DRAM_BW \
	hswep_metric::DRAM_READ_BW:socket=0 \
	hswep_metric::DRAM_WRITE_BW:socket=1 \
	hswep_unc_imc::PCT_REQUESTS_PAGE_HIT 2>&1 | grep -E '^(hswep|Failed|because)'
echo "   (scenario: per socket 51.2e9 B/s read, 25.6e9 B/s written = 47.7 + 23.8 GB/s of 2^30 bytes;"
echo "    formulas: metrics/hswep.metrics, HSX 1.7.1 and 2.6.6)"
