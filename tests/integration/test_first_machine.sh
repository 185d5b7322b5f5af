#!/usr/bin/env bash
# The first-machine checklist (scripts/first-machine.sh, make check-hardware):
# on the simulator every counting step runs and agrees (clocks at the model's
# rates, perf backend against direct backend); on this machine (a KVM guest
# without uncore PMON) it still runs, read-only, and says what it could not
# check and why, never failing silently.
set -u
. "$(dirname "$0")/lib.sh"
# 78 checks, and one per simulator model (the loop below).
plan $((78 + $("$STAGE/bin/uncore-sim" models | wc -l)))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script=$SRCDIR/scripts/first-machine.sh

"$script" --sim --bin "$STAGE/bin" -o "$tmp/sim.txt"
expect "the checklist runs on the simulator" test $? -eq 0
for s in machine access "PCI uncore devices" "kernel perf uncore PMUs" "boxes present" \
	"clocks against wall time" "memory traffic" "perf backend against direct backend" summary; do
	expect "section: $s" grep -q "^== $s" "$tmp/sim.txt"
done
# Boxes the direct backend discovers on the model (e5-2699v3-2s: 2 sockets).
expect "18 CBos per socket" grep -q '^  hswep_unc_cbo: 36 instance' "$tmp/sim.txt"
expect "8 iMC channels per socket, at their real device" grep -q '^  hswep_unc_imc: 16 instance.*pci 7f:14.0' "$tmp/sim.txt"
expect "the IRP on the root buses" grep -q '^  hswep_unc_irp: 2 instance.*pci 00:05.6;pci 80:05.6' "$tmp/sim.txt"
# The model's clocks (UCLK 2.5 GHz, DCLK 1066.67 MHz) through both backends.
# The simulator runs on the wall clock here and the counters are frozen while
# they are read, so a loaded machine measures a little low: within 3 %.
mhz_of() { # backend label [report] -> the MHz the report gives
	sed -n "s/^  OK: $1: $2 \([0-9.]*\) MHz.*/\1/p" "${3:-$tmp/sim.txt}" | head -1
}
near() { awk -v m="$1" -v r="$2" 'BEGIN {exit !(m != "" && m >= 0.97 * r && m <= 1.03 * r)}'; }
for be in perf direct; do
	expect "$be: UCLK at 2500 MHz (within 3%)" near "$(mhz_of "$be" "uncore clock")" 2500
	expect "$be: DCLK at 1066.7 MHz (within 3%)" near "$(mhz_of "$be" "DRAM clock (DCLK)")" 1066.67
done
expect "perf and direct agree on UCLK" grep -q '^  OK: hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0: perf .* (within 2%)' "$tmp/sim.txt"
expect "perf and direct agree on DCLK" grep -q '^  OK: hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0: perf .* (within 2%)' "$tmp/sim.txt"
expect "the simulator's report says it is simulated" grep -q '^mode: simulator' "$tmp/sim.txt"
expect "no MISMATCH on the simulator" test -z "$(grep '^  MISMATCH' "$tmp/sim.txt")"
expect "what it cannot check is said (counter widths)" grep -q '^  NOT CHECKED: counter widths observed' "$tmp/sim.txt"

# This machine, read-only (the default).
"$script" --bin "$STAGE/bin" -o "$tmp/hw.txt"
expect "the checklist runs on this machine" test $? -eq 0
expect "it is read-only by default" grep -q '^mode: hardware, read-only' "$tmp/hw.txt"
expect "direct counting is left to --write" grep -q 'NOT CHECKED: direct backend counting: programs PMON registers; run with --write' "$tmp/hw.txt"
expect "every NOT CHECKED line says why" test -z "$(grep -E 'NOT CHECKED: *$' "$tmp/hw.txt")"
expect "the summary counts the checks" grep -q -E '^  [0-9]+ OK, [0-9]+ MISMATCH, [0-9]+ NOTE, [0-9]+ NOT CHECKED' "$tmp/hw.txt"
if grep -q '^flags.* hypervisor' /proc/cpuinfo; then
	plan 1
	expect "a virtual machine is named as such" grep -q 'NOTE: this is a virtual machine' "$tmp/hw.txt"
fi
"$script" --bogus >/dev/null 2>&1
expect "an unknown option is refused (status 2)" test $? -eq 2

# Every generation's simulator model (and today's Xeons through the perf
# backend of a simulated kernel), read-only: the report runs, names the
# platform, prints the register facts the manuals leave open, and finds no
# MISMATCH.
for m in i7-6700k:skl x5570-2s:nhm x7460-4s:x7400 x7140m-4s:x7100 kernel-spr:spr; do
	model=${m%%:*} plat=${m#*:}
	if [ "$model" = kernel-spr ]; then
		"$script" --sim-kernel spr --bin "$STAGE/bin" -o "$tmp/$model.txt"
	else
		"$script" --sim-model "$model" --bin "$STAGE/bin" -o "$tmp/$model.txt"
	fi
	expect "$model: the report runs" test $? -eq 0
	expect "$model: platform $plat" grep -q "^  platform: $plat " "$tmp/$model.txt"
	expect "$model: read-only" grep -q '^mode: simulator, read-only' "$tmp/$model.txt"
	expect "$model: device facts section" grep -q '^== device facts' "$tmp/$model.txt"
	expect "$model: no MISMATCH" test -z "$(grep '^  MISMATCH' "$tmp/$model.txt")"
	expect "$model: a summary" grep -q -E '^  [0-9]+ OK, 0 MISMATCH' "$tmp/$model.txt"
done
# Every model the simulator has runs the report on a platform it knows (a
# cousin added to the simulator is not left out of the kit).
for model in $("$STAGE/bin/uncore-sim" models | awk '{ print $1 }'); do
	[ -f "$tmp/$model.txt" ] || [ "$model" = e5-2699v3-2s ] ||
		"$script" --sim-model "$model" --bin "$STAGE/bin" -o "$tmp/$model.txt" >/dev/null 2>&1
	# A known platform: the one its platform object names (uncore-sim platform), not none.
	expect "$model (uncore-sim models): the report runs on a known platform" \
		grep -q -E "^  platform: $("$STAGE/bin/uncore-sim" platform -m "$model" | sed -n 's/^name=//p') \(the simulator's model $model;" \
		"${tmp}/$( [ "$model" = e5-2699v3-2s ] && echo sim || echo "$model").txt"
done
# Broadwell-EP, a cousin: the checklist counts with its own events (its
# platform object's: bdx_unc_*, UNC_M_CLOCKTICKS for DCLK) at the model's
# clocks (UCLK 2.8 GHz, DCLK 1.2 GHz); the simulated kernel models it from
# its platform object, so its perf backend is checked against the direct.
bdx=$tmp/e5-2697v4-2s.txt
expect "bdx: its 18 CBos per socket found under its own name" grep -q '^  bdx_unc_cbo: 36 instance' "$bdx"
expect "bdx: direct UCLK at 2800 MHz (within 3%)" near "$(mhz_of direct "uncore clock" "$bdx")" 2800
expect "bdx: direct DCLK (UNC_M_CLOCKTICKS) at 1200 MHz (within 3%)" near "$(mhz_of direct "DRAM clock (DCLK)" "$bdx")" 1200
expect "bdx: DRAM reads counted" grep -q '^  NOTE: direct: [0-9]* MiB read from DRAM' "$bdx"
expect "bdx: the simulated kernel counts it: perf and direct agree on UCLK (the kernel's fixed event 0xff)" \
	grep -q '^  OK: bdx_unc_ubo::UNC_U_CLOCKTICKS:socket=0: perf .* (within 2%)' "$bdx"
expect "bdx: no Haswell-EP event name in its report, no MISMATCH" \
	sh -c "! grep -q 'hswep_unc' '$bdx' && ! grep -q '^  MISMATCH' '$bdx'"
expect "skl: MSR 0xE01 printed" grep -q 'NOTE: MSR_UNC_PERF_GLOBAL_CTRL (0xE01) = 0x' "$tmp/i7-6700k.txt"
expect "skl: MSR 0x396: four CBos" grep -q 'NOTE: MSR_UNC_CBO_CONFIG (0x396) = 0x5: 5 - 1 CBos' "$tmp/i7-6700k.txt"
expect "skl: UCLK through both backends" grep -q 'OK: direct: uncore clock' "$tmp/i7-6700k.txt"
expect "nhm: MSR 0x396 printed" grep -q 'NOTE: MSR_UNCORE_ADDR_OPCODE_MATCH (0x396) = 0x' "$tmp/x5570-2s.txt"
expect "x7400: GL_CTL printed" grep -q 'NOTE: MSR_EMON_L3_GL_CTL (0x107D8) = 0x' "$tmp/x7460-4s.txt"
expect "x7400: its freeze/reset left to --write" grep -q 'NOT CHECKED: the freeze and reset' "$tmp/x7460-4s.txt"
expect "hswep: QPI Tx and Rx matchers printed" grep -q 'NOTE: QPI port 0 (7f:08.6' "$tmp/sim.txt"
expect "xeon: DRAM traffic through the kernel's aliases" grep -q 'perf: .* MiB read from DRAM' "$tmp/kernel-spr.txt"

# --write on the simulator: the register experiments run.
"$script" --sim-model x7460-4s --write --bin "$STAGE/bin" -o "$tmp/x7400w.txt"
expect "x7400 --write: freeze holds" grep -q 'OK: GL_freeze_cmd holds counter 0' "$tmp/x7400w.txt"
expect "x7400 --write: reset zeroes" grep -q 'OK: GL_reset_cmd zeroes counter 0' "$tmp/x7400w.txt"
WRITE=1 "$script" --sim --bin "$STAGE/bin" -o "$tmp/hswepw.txt"
expect "WRITE=1 is --write" grep -q '^mode: simulator, read-write' "$tmp/hswepw.txt"
expect "hswep --write: the SBo width measured (the model's 48 bits)" grep -q 'NOTE: SBo 0 counter 0 (MSR 0x726) holds 48 bits' "$tmp/hswepw.txt"
"$script" --sim-model i7-6700k --write --bin "$STAGE/bin" -o "$tmp/sklw.txt"
expect "skl --write: EN alone against 0x2000001f" grep -q -E 'NOTE: CBo 0 LLC_LOOKUP.ANY with GLOBAL_CTRL = 0x20000000 \(EN only\): 0x0; with 0x2000001f: 0x[1-9a-f]' "$tmp/sklw.txt"
"$script" --sim-model nosuch >/dev/null 2>&1
expect "an unknown model is refused (status 2)" test $? -eq 2
