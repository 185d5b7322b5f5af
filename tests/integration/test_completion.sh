#!/usr/bin/env bash
# The bash completion of uncore-stat as a user meets it: a real interactive
# bash in a pseudo-terminal (completion_pty.py), the staged completion file
# sourced, keys typed with Tab, the line read back.  Event names hold ':',
# '=' and ',', where bash splits words for completion (COMP_WORDBREAKS): PMU
# names, events after PMU::, unit masks and qualifiers after EVENT:, an
# event after a comma, groups, scenarios and options.
set -u
. "$(dirname "$0")/lib.sh"
plan 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL

comp=$STAGE/share/bash-completion/completions/uncore-stat
expect "the completion is staged ($comp)" test -f "$comp"
if ! command -v "${PYTHON3:-python3}" >/dev/null; then
	plan 1
	skip_dep "completion in a pseudo-terminal: python3 (scripts/install-deps.sh installs it)"
	exit 0
fi
plan 13

# KEYS and the line completion must leave.
rows=(
	'uncore-stat --sim -e hswep_unc_imc::UNC_M_CA\t|uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT'
	'uncore-stat --sim -e hswep_unc_im\t|uncore-stat --sim -e hswep_unc_imc::'
	'uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:WR_W\t|uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:WR_WMM'
	'uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:RD:soc\t|uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket='
	'uncore-stat --sim -e hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:nf\t|uncore-stat --sim -e hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:nf='
	'uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_metric::DRAM_R\t|uncore-stat --sim -e hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_metric::DRAM_READ_BW'
	'uncore-stat --sim --sim-kernel spr -e uncore_imc::cas_count_r\t|uncore-stat --sim --sim-kernel spr -e uncore_imc::cas_count_read'
	'uncore-stat --sim -g ME\t|uncore-stat --sim -g MEM'
	'uncore-stat --sim --sim-scenario qpi\t|uncore-stat --sim --sim-scenario qpi-remote'
	'uncore-stat --plot-f\t|uncore-stat --plot-from'
	'uncore-stat --sim -e hswep_unc_imc::UNC_M_C\t\t|uncore-stat --sim -e hswep_unc_imc::UNC_M_C'
)
keys=()
for r in "${rows[@]}"; do keys+=("${r%%|*}"); done
"${PYTHON3:-python3}" "$SRCDIR/tests/integration/completion_pty.py" "$comp" "$STAGE/bin" "${keys[@]}" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect "bash ran in a pseudo-terminal ($(head -c 300 "$tmp/err"))" test $rc -eq 0
mapfile -t lines < <(grep '^LINE: ' "$tmp/out")
mapfile -t shown < <(grep '^SHOWN: ' "$tmp/out")
for i in "${!rows[@]}"; do
	typed=${rows[i]%%|*} want=${rows[i]#*|}
	got=${lines[i]#LINE: }
	expect "'${typed//\\t/<Tab>}' completes to '$want' (got '$got')" test "$got" = "$want"
done
# The double Tab of the last row lists both events that start UNC_M_C.
last=${shown[${#shown[@]} - 1]}
expect "a double Tab after UNC_M_C lists UNC_M_CAS_COUNT and UNC_M_CLOCKTICKS" \
	sh -c "echo '$last' | grep -q 'UNC_M_CAS_COUNT' && echo '$last' | grep -q 'UNC_M_CLOCKTICKS'"
