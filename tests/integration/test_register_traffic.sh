#!/usr/bin/env bash
# The register traffic of every simulator model, byte for byte: papi_command_line
# counts a fixed list of events per model (every box kind, filters, fixed
# counters; Haswell-EP also through the perf backend on the simulated
# kernel) on the virtual clock with the poller off, the simulator's audit
# log records every access, and its write lines must equal the recorded
# tests/integration/traffic/<model>.wr.  A change of the programming code
# that changes what is written, in which order or with which value, fails
# here; a deliberate change re-records the file (TRAFFIC_RECORD=1) and says
# why in its commit.
set -u
. "$(dirname "$0")/lib.sh"
plan 33
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_POLL=off
unset PAPI_INTEL_UNCORE_VERBOSE
printf 'name traffic\nclock virtual\naccess_ns 1000\n' >"$tmp/traffic.scn"
dir=$SRCDIR/tests/integration/traffic

hswep="hswep_unc_imc::UNC_M_CAS_COUNT:RD hswep_unc_imc::UNC_M_DCLOCKTICKS
 hswep_unc_cbo::UNC_C_LLC_LOOKUP:ANY:STATE_I hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD:cf=2:tf=1
 hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA hswep_unc_ubo::UNC_U_CLOCKTICKS
 hswep_unc_ha::UNC_H_REQUESTS:READS hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDDATA:addr=0x48d159
 hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=10 hswep_unc_sbo::UNC_S_CLOCKTICKS
 hswep_unc_r2pcie::UNC_R2_CLOCKTICKS hswep_unc_r3qpi::UNC_R3_CLOCKTICKS hswep_unc_irp::UNC_I_CLOCKTICKS"
# The kernel's HSX driver has no HA address match (hswep_kernel.c): that one out.
hswep_perf=${hswep/hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDDATA:addr=0x48d159/}
skl="skl_unc_imc::DRAM_DATA_READS skl_unc_imc::DRAM_DATA_WRITES skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:READ_I
 skl_unc_arb::UNC_ARB_TRK_OCCUPANCY:ALL:e=1:i=1 skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL skl_unc_clock::UNC_CLOCK"
nhm="nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY nhm_unc_guide::UNC_IMC_WRITES:FULL_ANY
 nhm_unc_guide::UNC_LLC_MISS:READ nhm_unc_guide::UNC_QHL_REQUESTS:LOCAL_READS
 nhm_unc_guide::UNC_GQ_ALLOC:RT nhm_unc_guide::UNC_CLK_UNHALTED"
# Westmere (a cousin on Nehalem's description, SDM Table 19-20's events):
# IMC, a DRAM CAS event of its own, a snoop event with MSR 301h, an event
# whose code carries its umask, the fixed counter.
wsm="wsm_unc_sdm::UNC_IMC_NORMAL_READS:ANY wsm_unc_sdm::UNC_IMC_WRITES:FULL_ANY
 wsm_unc_sdm::UNC_DRAM_READ_CAS:CH0 wsm_unc_sdm::UNC_GQ_SNOOP:GOTO_S_HIT_E
 wsm_unc_sdm::UNC_QHL_TO_QMC_BYPASS wsm_unc_sdm::UNC_CLK_UNHALTED"
x7400="x7400_unc_gbsq::GBSQ_TRANSACTIONS x7400_unc_gbsq::GBSQ_CROSS_SNOOP_TRANSACTIONS
 x7400_unc_gsnpq::GSNPQ_TRANSACTIONS x7400_unc_fsb::FSB_TYPE"
x7100=${x7400//x7400/x7100}
# Broadwell-EP (a cousin on Haswell-EP's description, Intel's BDX tables):
# an event of every box kind.
bdx="bdx_unc_imc::UNC_M_CAS_COUNT:RD bdx_unc_imc::UNC_M_CLOCKTICKS
 bdx_unc_cbo::UNC_C_CLOCKTICKS bdx_unc_qpi::UNC_Q_TxL_FLITS_G0:DATA bdx_unc_ubo::UNC_U_CLOCKTICKS
 bdx_unc_ha::UNC_H_REQUESTS:READS bdx_unc_pcu::UNC_P_CLOCKTICKS bdx_unc_sbo::UNC_S_CLOCKTICKS
 bdx_unc_r2pcie::UNC_R2_CLOCKTICKS bdx_unc_r3qpi::UNC_R3_CLOCKTICKS bdx_unc_irp::UNC_I_CLOCKTICKS"

while read -r model events kernel; do
	rm -f "$tmp/log"
	name=$model${kernel:+-$kernel}
	# shellcheck disable=SC2086 # the event list is words
	PAPI_INTEL_UNCORE_SIM_KERNEL=${kernel:-none} PAPI_INTEL_UNCORE_SIM=$model PAPI_INTEL_UNCORE_SIM_SCENARIO=$tmp/traffic.scn \
		PAPI_INTEL_UNCORE_SIM_LOG=$tmp/log "$STAGE/bin/papi_command_line" ${!events} \
		>"$tmp/out" 2>&1
	expect "papi_command_line on $name exits 0" test $? -eq 0
	added=$(grep -c '^Successfully added' "$tmp/out")
	want=$(echo ${!events} | wc -w)
	expect "papi_command_line on $name adds all $want events ($added)" test "$added" -eq "$want"
	grep '"op":"wr"' "$tmp/log" >"$tmp/wr" 2>/dev/null
	if [ "${TRAFFIC_RECORD:-0}" = 1 ]; then
		cp "$tmp/wr" "$dir/$name.wr"
	fi
	if [ -s "$tmp/wr" ] && cmp -s "$tmp/wr" "$dir/$name.wr"; then
		pass "$name: $(wc -l <"$tmp/wr") register writes equal traffic/$name.wr"
	else
		fail "$name: register writes differ from traffic/$name.wr: $(diff "$dir/$name.wr" "$tmp/wr" 2>&1 | head -6 | tr '\n' ' ')"
	fi
done <<'LIST'
e5-2699v3-2s hswep
e7-8890v3-4s hswep
e5-2620v3-2s hswep
i7-6700k skl
i7-7700k skl
e5-2697v4-2s bdx
x5570-2s nhm
x5670-2s wsm
x7460-4s x7400
x7140m-4s x7100
e5-2699v3-2s hswep_perf perf
LIST
