#!/usr/bin/env bash
# The first-machine checklist (scripts/first-machine.sh, make check-hardware):
# on the simulator every counting step runs and agrees (clocks at the model's
# rates, perf backend against direct backend); on this machine (a KVM guest
# without uncore PMON) it still runs, read-only, and says what it could not
# check and why, never failing silently.
set -u
. "$(dirname "$0")/lib.sh"
plan 28
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
mhz_of() { # backend label -> the MHz the report gives
	sed -n "s/^  OK: $1: $2 \([0-9.]*\) MHz.*/\1/p" "$tmp/sim.txt" | head -1
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
