#!/usr/bin/env bash
# The README's tables say what the code does (issue 31): for each generation
# of the specifications, the row of "What each processor gets today" names
# `perf` exactly when its boxes have a kernel PMU (uncore-stat --explain names
# one), `direct` and `simulator` exactly when a simulator model of it counts
# through the direct engine, and after `-g` exactly the metric groups
# `uncore-stat -g list` gives; and the Permissions section's lists of the
# boxes msr-safe covers (MSR boxes) and of those it does not (PCI boxes) are
# what a msr-safe user on the simulator counts and is refused.
set -u
. "$(dirname "$0")/lib.sh"
plan 28
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_USER
stat=$STAGE/bin/uncore-stat
readme=$SRCDIR/README.md

# README row (its first cell's start) | models | an event of the model | scenario
gens=(
	'Xeon E5/E7 v3 (Haswell-EP)|e5-2699v3-2s|hswep_unc_imc::UNC_M_CAS_COUNT:RD|demo-stream'
	'Skylake client|i7-6700k|skl_unc_imc::DRAM_DATA_READS|skl-stream'
	'Nehalem|x5570-2s|nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY|nhm-stream'
	'Xeon 7400 / 7100|x7460-4s x7140m-4s|GBSQ_TRANSACTIONS|x7400-stream'
)
table=$(sed -n '/^What each processor gets today/,/^On the processors without/p' "$readme")
for g in "${gens[@]}"; do
	IFS='|' read -r title models event scn <<<"$g"
	row=$(printf '%s\n' "$table" | grep -F "| $title" | head -1)
	if [ -z "$row" ]; then
		fail "README: no row for $title in 'What each processor gets today'"
		continue
	fi
	backends=$(printf '%s' "$row" | awk -F'|' '{ print $3 }')
	groups_cell=$(printf '%s' "$row" | awk -F'|' '{ print $5 }')
	says() { printf '%s' "$backends" | grep -qw "$1"; }
	perf=no counts=yes groups=
	for m in $models; do
		ev=$event
		case $m in x7460-4s) ev=x7400_unc_gbsq::$event ;; x7140m-4s) ev=x7100_unc_gbsq::$event ;; esac
		"$stat" --sim --sim-model "$m" --sim-scenario "$scn" --csv -o "$tmp/c" -e "$ev" -t 0.05 >"$tmp/e" 2>&1 &&
			awk -F, -v e="$ev" '$1 == "total" && $6 == e && $7 == "all" && $8 > 0 { ok = 1 } END { exit !ok }' "$tmp/c" ||
			counts=no
		"$stat" --sim --sim-model "$m" --explain -e "$ev" >"$tmp/x" 2>&1
		grep -Eq '^ +perf +pmu +[a-z_0-9]+ ' "$tmp/x" && ! grep -Eq '^ +perf +pmu +\? ' "$tmp/x" && perf=yes
		groups="$groups $("$stat" --sim --sim-model "$m" -g list 2>/dev/null | awk '/^[A-Z0-9_]+ / { print $1 }')"
	done
	if [ $perf = yes ]; then
		expect "$title: a kernel PMU serves its boxes, and the README says perf" says perf
	else
		expect "$title: no kernel PMU serves its boxes, and the README does not say perf" sh -c "! printf '%s' '$backends' | grep -qw perf"
	fi
	for b in direct simulator; do
		if [ $counts = yes ]; then
			expect "$title: $models count $event through the direct engine on the simulator, and the README says $b" says $b
		else
			expect "$title: $models do not count, and the README does not say $b ($(head -c 200 "$tmp/e"))" \
				sh -c "! printf '%s' '$backends' | grep -qw $b"
		fi
	done
	# shellcheck disable=SC2086 # one group a word
	want=$(printf '%s\n' $groups | sort -u | xargs)
	said=$(printf '%s' "${groups_cell#*\`-g\`}" | grep -oE '\b[A-Z][A-Z0-9_]+\b' | sort -u | xargs)
	[ "${groups_cell#*\`-g\`}" = "$groups_cell" ] && said=
	expect "$title: the README's groups after \`-g\` ('$said') are uncore-stat -g list's ('$want')" \
		test "$said" = "$want"
done

# Permissions: which boxes a msr-safe user (MSR boxes only) counts.
perm=$(sed -n '/^### direct backend (registers)/,/^The direct backend never widens/p' "$readme")
msr_list=$(printf '%s' "$perm" | tr '\n' ' ' | sed -n 's/.*\*\*MSR boxes\*\* only (Haswell-EP: \([^;]*\);.*/\1/p')
pci_list=$(printf '%s' "$perm" | tr '\n' ' ' | sed -n 's/.*\*\*PCI boxes\*\* — \([^,]*\(, [^,—]*\)*\) —.*/\1/p')
expect "README Permissions names the MSR boxes of Haswell-EP ($msr_list)" test -n "$msr_list"
expect "README Permissions names the PCI boxes ($pci_list)" test -n "$pci_list"
# Box kind as the README names it | an event of it
kinds=(
	'UBox|hswep_unc_ubo::UNC_U_CLOCKTICKS' 'CBo|hswep_unc_cbo::UNC_C_CLOCKTICKS' 'SBo|hswep_unc_sbo::UNC_S_CLOCKTICKS'
	'PCU|hswep_unc_pcu::UNC_P_CLOCKTICKS' 'memory controllers|hswep_unc_imc::UNC_M_DCLOCKTICKS'
	'home agents|hswep_unc_ha::UNC_H_CLOCKTICKS' 'QPI|hswep_unc_qpi::UNC_Q_CLOCKTICKS'
	'R2PCIe|hswep_unc_r2pcie::UNC_R2_CLOCKTICKS' 'R3QPI|hswep_unc_r3qpi::UNC_R3_CLOCKTICKS'
	'IRP|hswep_unc_irp::UNC_I_CLOCKTICKS'
)
for k in "${kinds[@]}"; do
	name=${k%%|*} ev=${k#*|}
	PAPI_INTEL_UNCORE_SIM_USER=msr-safe "$stat" --sim --sim-scenario hswep-clocks -e "$ev" -t 0.05 >"$tmp/p" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		expect "msr-safe user counts $name ($ev): the README lists it among the MSR boxes" \
			sh -c "printf '%s' '$msr_list' | grep -qw '$name'"
	else
		expect "msr-safe user cannot count $name ($ev, status $rc): the README lists it among the PCI boxes" \
			sh -c "printf '%s' '$pci_list' | grep -qw '$name'"
	fi
done
