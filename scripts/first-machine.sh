#!/usr/bin/env bash
# The first-machine checklist (`make check-hardware`): what a real Haswell-EP,
# Skylake client, Nehalem, Xeon 7100/7400 or today's Xeon (perf backend)
# shows papi-uncore, as a plain-text report to send back to us.  Read-only by
# default: it reads sysfs, /proc, PCI IDs and the registers whose meaning the
# manuals leave open, lets the direct backend discover the machine (register
# reads only) and counts through the kernel's perf uncore PMUs; --write (or
# WRITE=1) also programs registers: it counts a streaming loop through both
# backends and `perf stat` side by side and runs the register experiments.
# Every check prints OK, NOTE, MISMATCH or NOT CHECKED (with the reason);
# nothing is skipped silently.  --sim runs it on a simulator model (tests):
# --sim-model MODEL (default e5-2699v3-2s; `uncore-sim models`) or
# --sim-kernel spr|skx|icx|... (today's Xeons through the perf backend).
#
#   scripts/first-machine.sh [--write] [--sim [--sim-model M | --sim-kernel K]] [--bin DIR]
#                            [--hw-tests "PROGRAMS"] [-o FILE]
set -u

here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../stage/bin
write=0
[ "${WRITE:-0}" = 1 ] && write=1
sim=0
sim_model=e5-2699v3-2s
sim_kernel=""
hw_tests=""
out=""
while [ $# -gt 0 ]; do
	case $1 in
	--write) write=1 ;;
	--sim) sim=1 ;;
	--sim-model) sim=1; sim_model=$2; shift ;;
	--sim-kernel) sim=1; sim_kernel=$2; shift ;;
	--bin) bin=$2; shift ;;
	--hw-tests) hw_tests=$2; shift ;;
	-o) out=$2; shift ;;
	-h | --help)
		sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
		exit 0 ;;
	*) echo "first-machine.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$out" ] && exec >"$out"
stat=$bin/uncore-stat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0 notes=0 mismatches=0 unchecked=0
ok() { echo "  OK: $*"; checked=$((checked + 1)); }
note() { echo "  NOTE: $*"; notes=$((notes + 1)); }
mismatch() { echo "  MISMATCH: $*"; mismatches=$((mismatches + 1)); }
not_checked() { echo "  NOT CHECKED: $*"; unchecked=$((unchecked + 1)); }
section() { echo; echo "== $*"; }
readf() { [ -r "$1" ] && head -c 200 "$1" 2>/dev/null | tr -d '\n'; }

echo "papi-uncore first-machine report ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "mode: $([ $sim = 1 ] && echo simulator || echo hardware), $([ $write = 1 ] && echo 'read-write (--write)' || echo read-only)"
"$stat" --version 2>/dev/null | sed 's/^/release: /'

# ---- the machine -------------------------------------------------------------
section "machine"
echo "  kernel: $(uname -r)"
vendor=$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)
family=$(awk -F': ' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)
model=$(awk -F': ' '/^model[[:space:]]*:/ {print $2; exit}' /proc/cpuinfo)
name=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
echo "  cpu: $vendor family $family model $model ($name)"
packages=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)
cores=$(for f in /sys/devices/system/cpu/cpu*/topology; do
	echo "$(cat "$f/physical_package_id" 2>/dev/null) $(cat "$f/core_id" 2>/dev/null)"
done | sort -u | wc -l)
echo "  packages: $packages, physical cores: $cores, logical CPUs: $(nproc --all)"
# The generation, from its platform object (uncore-sim platform, key=value
# lines): name is its own (a cousin's, e.g. wsm); backend says whether the
# direct backend programs it or only the kernel's PMUs count it (today's
# Xeons, each named by its own platform object: spr, icx, ...); what the steps below count and try is its checklist
# facts (platform.h, struct uncore_platform_kit), a cousin's inherited from
# its description's.
pinfo() { printf '%s\n' "$pobj" | sed -n "s/^$1=//p"; }
pobj="" name=none
if [ $sim = 1 ] && [ -n "$sim_kernel" ]; then
	pobj=$("$bin/uncore-sim" platform -k "$sim_kernel" 2>/dev/null) || pobj=""
	name=$(pinfo name)
	name=${name:-none}
	echo "  platform: $name (the simulated kernel of a '$sim_kernel' through the perf backend; this machine's CPU is not used)"
else
	if [ $sim = 1 ]; then
		pobj=$("$bin/uncore-sim" platform -m "$sim_model" 2>/dev/null) ||
			{ echo "first-machine.sh: unknown simulator model $sim_model (uncore-sim models)" >&2; exit 2; }
	else
		pobj=$("$bin/uncore-sim" platform 2>/dev/null) || pobj=""
	fi
	name=$(pinfo name)
	case $(pinfo backend) in
	kernel | direct) ;;
	*) name=none ;;
	esac
	if [ $sim = 1 ]; then
		echo "  platform: $name (the simulator's model $sim_model; this machine's CPU is not used)"
	elif [ "$name" != none ]; then
		echo "  platform: $name ($(pinfo title))"
	else
		why=$(pinfo why)
		title=$(pinfo title)
		echo "  platform: none (${why:-${title:+no tables for }${title:-not an Intel processor papi-uncore has tables for}})"
	fi
fi
kernel_only=0
[ "$(pinfo backend)" = kernel ] && kernel_only=1
facts=$(pinfo facts)
# has FACT: the generation has this register experiment or check (its kit's facts).
has() { case " $facts " in *" $1 "*) return 0 ;; esac; return 1; }
if grep -q '^flags.* hypervisor' /proc/cpuinfo; then
	note "this is a virtual machine (cpuid hypervisor flag): uncore PMON registers are normally not passed through"
fi

# ---- access ----------------------------------------------------------------
section "access"
echo "  user: $(id -un) (euid $(id -u))"
for f in /dev/cpu/0/msr /dev/cpu/0/msr_safe /dev/cpu/msr_allowlist /dev/cpu/msr_batch; do
	if [ -e "$f" ]; then
		echo "  $f: present, $([ -r "$f" ] && echo readable || echo 'not readable')$([ -w "$f" ] && echo ', writable')"
	else
		echo "  $f: absent"
	fi
done
aw=$(readf /sys/module/msr/parameters/allow_writes)
echo "  msr.allow_writes: ${aw:-(no such parameter: kernel older than 5.9, or msr not loaded)}"
[ "$aw" = off ] && note "msr.allow_writes=off: every write through /dev/cpu/N/msr is refused (EPERM), root or not"
[ "$aw" = default ] && note "each write through /dev/cpu/N/msr is logged and taints the kernel (Linux >= 5.9); msr-safe avoids that"
lockdown=$(readf /sys/kernel/security/lockdown)
echo "  kernel lockdown: ${lockdown:-(not reported)}"
case $lockdown in *'[integrity]'* | *'[confidentiality]'*)
	note "the kernel is locked down (Secure Boot): MSR writes, /dev/mem and PCI config writes are refused; use the perf backend" ;;
esac
echo "  perf_event_paranoid: $(readf /proc/sys/kernel/perf_event_paranoid)"

# ---- PCI devices -------------------------------------------------------------
section "PCI uncore devices (sysfs IDs; readable by anyone)"
# The generation's uncore PCI functions (its kit, a cousin's own device IDs).
pci_fns=$(pinfo pci_functions)
npci=0
if [ $sim = 1 ]; then
	not_checked "PCI scan: the simulator has no sysfs devices (the direct backend's view is below)"
else
	for d in /sys/bus/pci/devices/*; do
		[ "$(readf "$d/vendor")" = 0x8086 ] || continue
		id=$(readf "$d/device")
		id=${id#0x}
		for e in $pci_fns; do
			if [ "${e%%:*}" = "$id" ]; then
				echo "  ${d##*/}  8086:$id  ${e#*:}"
				npci=$((npci + 1))
			fi
		done
		if has mchbar && [ "${d##*/}" = 0000:00:00.0 ]; then
			echo "  ${d##*/}  8086:$id  host bridge (MCHBAR)"
		fi
	done
	if has pci_pmon; then
		[ $npci -gt 0 ] && ok "$npci $name uncore functions found" ||
			mismatch "no $name uncore PCI function in sysfs (BIOS may hide them)"
	else
		echo "  (no uncore PMON functions expected on platform $name)"
	fi
fi

# ---- kernel PMUs ----------------------------------------------------------------
section "kernel perf uncore PMUs"
if [ $sim = 1 ]; then
	not_checked "the simulated kernel's PMUs are used below; this machine's are not listed"
else
	pmus=$(ls /sys/bus/event_source/devices 2>/dev/null | grep -E '^uncore' | tr '\n' ' ')
	echo "  ${pmus:-(none)}"
fi

# ---- counting ----------------------------------------------------------------
# count BACKEND EVENTS SECONDS [CMD...]: CSV of uncore-stat in $tmp/BACKEND.csv;
# 0, or 1 with the reason in $tmp/BACKEND.err.
count() {
	local be=$1 ev=$2 t=$3
	shift 3
	local env=(PAPI_INTEL_UNCORE_BACKEND="$be")
	local simopt=()
	if [ $sim = 1 ] && [ -n "$sim_kernel" ]; then
		env=(PAPI_INTEL_UNCORE_BACKEND=sim)
		simopt=(--sim --sim-kernel "$sim_kernel")
	elif [ $sim = 1 ]; then
		env=(PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM="$sim_model")
		[ "$be" = perf ] && env+=(PAPI_INTEL_UNCORE_SIM_KERNEL=perf)
		simopt=(--sim --sim-scenario "${FIRST_MACHINE_SCENARIO:-$sim_scenario}")
	fi
	if [ $# -gt 0 ]; then
		env "${env[@]}" "$stat" "${simopt[@]}" --csv -o "$tmp/$be.csv" -e "$ev" -- "$@" \
			>/dev/null 2>"$tmp/$be.err"
	else
		env "${env[@]}" "$stat" "${simopt[@]}" --csv -o "$tmp/$be.csv" -e "$ev" -t "$t" \
			>/dev/null 2>"$tmp/$be.err"
	fi
}
# value BACKEND EVENT SOCKET: the count ("all" for the total)
# CSV: kind,time_s,seconds,type,group,name,socket,value,units,simulated,partial
value() { awk -F, -v e="$2" -v s="$3" '$1 == "total" && $6 == e && $7 == s {print $8}' "$tmp/$1.csv" | tail -1; }
seconds() { awk -F, '$1 == "total" {print $3}' "$tmp/$1.csv" | tail -1; }
why() { grep -v '^$' "$tmp/$1.err" | head -2 | tr '\n' ' '; }

# What the counting steps count (the generation's checklist facts): the
# simulator scenario that feeds them, the uncore clock and a DRAM clock
# (socket 0), the DRAM read event, one event per box kind for discovery.
sim_scenario=$(pinfo sim_scenario)
uclk=$(pinfo uclk) dclk=$(pinfo dclk) cas=$(pinfo dram_reads) box_events=$(pinfo box_events)
clk_events=$uclk
[ -n "$dclk" ] && clk_events=${clk_events:+$clk_events,}$dclk

# ---- device facts the manuals leave open --------------------------------------
# Registers read (and with --write, written) one by one: on hardware through
# /dev/cpu/0/msr and the PCI config files of sysfs (root), on the simulator
# through a shared instance of the model (uncore-sim read/write).  Every
# value is printed: it is what we want back.
siminst=""
if [ $sim = 1 ] && [ -z "$sim_kernel" ]; then
	siminst=$tmp/sim-instance
	"$bin/uncore-sim" create "$siminst" -m "$sim_model" -s "${FIRST_MACHINE_SCENARIO:-$sim_scenario}" \
		>/dev/null 2>"$tmp/sim.err" || siminst=""
fi
# rdmsr ADDR: the value of MSR ADDR on CPU 0 (socket 0) in hex, or nothing.
rdmsr() {
	if [ -n "$siminst" ]; then
		"$bin/uncore-sim" read "$siminst" msr 0 "$1" 2>/dev/null | grep -o -E '0x[0-9a-f]+' | tail -1
	elif [ -r /dev/cpu/0/msr ]; then
		dd if=/dev/cpu/0/msr bs=8 count=1 skip=$(($1)) iflag=skip_bytes 2>/dev/null |
			od -An -tx8 | tr -d ' ' | sed -n 's/^/0x/p'
	fi
}
# wrmsr ADDR VALUE (--write only).
wrmsr() {
	if [ -n "$siminst" ]; then
		"$bin/uncore-sim" write "$siminst" msr 0 "$1" "$2" >/dev/null 2>&1
	elif [ -w /dev/cpu/0/msr ]; then
		printf "$(printf '%016x' $(($2)) | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\\x\8\\x\7\\x\6\\x\5\\x\4\\x\3\\x\2\\x\1/')" |
			dd of=/dev/cpu/0/msr bs=8 count=1 seek=$(($1)) oflag=seek_bytes conv=notrunc 2>/dev/null
	else
		return 1
	fi
}
# rdpci BDF OFFSET: a dword of PCI config space (bus:dev.fn in hex), or nothing.
rdpci() {
	if [ -n "$siminst" ]; then
		"$bin/uncore-sim" read "$siminst" pci "$1" "$2" 2>/dev/null | grep -o -E '0x[0-9a-f]+' | tail -1
	else
		local f
		f=$(ls -d /sys/bus/pci/devices/*:"$1" 2>/dev/null | head -1)
		[ -n "$f" ] && [ -r "$f/config" ] &&
			dd if="$f/config" bs=4 count=1 skip=$(($2)) iflag=skip_bytes 2>/dev/null |
			od -An -tx4 | tr -d ' ' | sed -n 's/^/0x/p'
	fi
}
# wrpci BDF OFFSET VALUE: write a dword of PCI config space (--write only).
wrpci() {
	if [ -n "$siminst" ]; then
		"$bin/uncore-sim" write "$siminst" pci "$1" "$2" "$3" >/dev/null 2>&1
	else
		local f
		f=$(ls -d /sys/bus/pci/devices/*:"$1" 2>/dev/null | head -1)
		[ -n "$f" ] && [ -w "$f/config" ] || return 1
		printf "$(printf '%08x' $(($3)) | sed -E 's/(..)(..)(..)(..)/\\x\4\\x\3\\x\2\\x\1/')" |
			dd of="$f/config" bs=4 count=1 seek=$(($2)) oflag=seek_bytes conv=notrunc 2>/dev/null
	fi
}
# The bus of the first PCI function with device ID $1 (8086), or nothing.
pci_bus_of() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(readf "$d/vendor")" = 0x8086 ] && [ "$(readf "$d/device")" = "$1" ] || continue
		d=${d##*/}
		echo "${d:5:2}"
		return
	done
}
# pause: let the counters run (wall time on hardware, virtual time on the simulator).
pause() {
	if [ -n "$siminst" ]; then "$bin/uncore-sim" advance "$siminst" 10ms >/dev/null 2>&1; else sleep 0.1; fi
}
regs_readable() { [ -n "$siminst" ] || [ -r /dev/cpu/0/msr ]; }
why_no_regs() {
	if [ $sim = 1 ]; then echo "the simulator instance could not be created: $(head -1 "$tmp/sim.err" 2>/dev/null)"
	else echo "/dev/cpu/0/msr is not readable (root and 'modprobe msr')"; fi
}

section "device facts (registers the manuals leave open)"
# Each experiment belongs to the generation whose kit names it (its facts).
fact=none
for f in slice_gate qpi_matchers addr_opcode_match emon_gl_commands; do has $f && fact=$f; done
[ $fact = none ] && [ $kernel_only = 1 ] && fact=kernel_only
case $fact in
slice_gate)
	# platform/skl/HARDWARE-DECISIONS.md S1: which bits of 0xE01 gate the slices.
	if ! regs_readable; then
		not_checked "MSR 0xE01, 0x396: $(why_no_regs)"
	else
		g=$(rdmsr 0xe01) c=$(rdmsr 0x396)
		if [ $sim = 1 ]; then drv="simulator, no kernel driver"
		elif [ -d /sys/bus/event_source/devices/uncore_cbox_0 ]; then drv="after the kernel's uncore driver loaded (uncore_cbox_0 exists)"
		else drv="before (or without) the kernel's uncore driver"; fi
		note "MSR_UNC_PERF_GLOBAL_CTRL (0xE01) = ${g:-unreadable}, $drv; Linux writes 0x2000001f while it counts, 0 after"
		note "MSR_UNC_CBO_CONFIG (0x396) = ${c:-unreadable}: $((${c:-1} & 0xf)) - 1 CBos (SKL 2.4.1)"
		if [ $write = 1 ] && [ -n "$g" ]; then
			# EN alone, then EN with the slice bits, counting CBo 0 clockticks-like lookups.
			wrmsr 0x700 $((0x400000 | 0x8f << 8 | 0x34)) && wrmsr 0x706 0 &&
				wrmsr 0xe01 0x20000000 && pause && a=$(rdmsr 0x706) &&
				wrmsr 0x706 0 && wrmsr 0xe01 0x2000001f && pause && b=$(rdmsr 0x706)
			wrmsr 0xe01 "$g"; wrmsr 0x700 0
			note "CBo 0 LLC_LOOKUP.ANY with GLOBAL_CTRL = 0x20000000 (EN only): ${a:-?}; with 0x2000001f: ${b:-?} (0 with EN alone: the low bits gate the slices)"
		elif [ $write = 0 ]; then
			not_checked "whether EN alone counts the CBos: programs MSRs; run with --write"
		fi
	fi ;;
qpi_matchers)
	# HARDWARE-DECISIONS.md H8b (SBo/UBox width) and H14 (QPI Tx matcher).
	if ! regs_readable; then
		not_checked "SBo/UBox counter width, QPI matchers: $(why_no_regs)"
	else
		qbus=7f
		qmm=$(printf '%s\n' $pci_fns | sed -n 's|:QPI-port0-mask/match$||p') # 2f86, a cousin's own
		[ $sim = 0 ] && qbus=$(pci_bus_of "0x$qmm")
		for port in 08 09; do
			id=$(rdpci "$qbus:$port.6" 0)
			if [ -z "$id" ] || [ "$id" = 0xffffffff ]; then
				not_checked "QPI port $((10#$port - 8)) mask/match function $qbus:$port.6 not readable (root, or another bus: lspci -d 8086:$qmm)"
				continue
			fi
			tx="$(rdpci "$qbus:$port.6" 0x200) $(rdpci "$qbus:$port.6" 0x204) $(rdpci "$qbus:$port.6" 0x210) $(rdpci "$qbus:$port.6" 0x214)"
			rx="$(rdpci "$qbus:$port.6" 0x228) $(rdpci "$qbus:$port.6" 0x22c) $(rdpci "$qbus:$port.6" 0x238) $(rdpci "$qbus:$port.6" 0x23c)"
			note "QPI port $((10#$port - 8)) ($qbus:$port.6, $id): Tx match0/1 mask0/1 = $tx; Rx = $rx (H14: both backends program Rx only; a Tx matcher whose masks are 0 must add nothing to CTO_COUNT)"
		done
		if [ $write = 1 ] && [ -n "$qbus" ] && [ -n "$(rdpci "$qbus:08.2" 0)" ]; then
			# H14: CTO_COUNT (event 0x38, ev_sel_ext) on QPI port 0 counter 0
			# with the Rx matcher set to every DRS packet (MATCH0 MC = 0xE:
			# 0x1C00 under MASK0 0x1E00, Table 2-173), first with the Tx
			# matcher at 0 (as Linux leaves it), then armed the same way.
			q=$qbus:08.6 p=$qbus:08.2
			saved=""
			for o in 0x200 0x204 0x210 0x214 0x228 0x22c 0x238 0x23c; do saved="$saved $(rdpci "$q" $o)"; done
			cto=$((0x38 | 1 << 21 | 1 << 22))
			for o in 0x200 0x204 0x210 0x214 0x22c 0x23c; do wrpci "$q" $o 0; done
			# Counting needs the box and the socket unfrozen (HSX 2.1.2 f).
			wrmsr 0x700 $((1 << 29)); wrpci "$p" 0xf4 0x30000
			wrpci "$q" 0x228 0x1c00 && wrpci "$q" 0x238 0x1e00 &&
				wrpci "$p" 0xd8 0 && wrpci "$p" 0xa0 0 && wrpci "$p" 0xa4 0 &&
				wrpci "$p" 0xd8 $cto && pause && rxonly=$(rdpci "$p" 0xa0) &&
				wrpci "$p" 0xd8 0 && wrpci "$p" 0xa0 0 && wrpci "$p" 0xa4 0 &&
				wrpci "$q" 0x200 0x1c00 && wrpci "$q" 0x210 0x1e00 &&
				wrpci "$p" 0xd8 $cto && pause && both=$(rdpci "$p" 0xa0)
			wrpci "$p" 0xd8 0
			set -- $saved
			for o in 0x200 0x204 0x210 0x214 0x228 0x22c 0x238 0x23c; do
				[ $# -gt 0 ] && wrpci "$q" $o "$1" && shift
			done
			note "QPI port 0 CTO_COUNT of DRS packets: Rx matcher only ${rxonly:-?} (low dword), Rx and Tx armed ${both:-?} (H14: equal or larger; Rx only must not already hold the Tx packets)"
		elif [ $write = 0 ]; then
			not_checked "CTO_COUNT with the Rx matcher only against Rx and Tx: programs PCI registers; run with --write"
		fi
		if ! has narrow_counters; then
			:
		elif [ $write = 1 ]; then
			# Width: all ones into the stopped counters, read back, restore 0.
			for r in "SBo 0 counter 0:0x726" "UBox counter 0:0x709"; do
				wrmsr "${r#*:}" 0xffffffffffff && v=$(rdmsr "${r#*:}")
				wrmsr "${r#*:}" 0
				case $v in
				0xfffffffffff | 0x00000fffffffffff) note "${r%%:*} (MSR ${r#*:}) holds 44 bits (all ones read back as $v): fold width 44 is the silicon's" ;;
				0xffffffffffff | 0x0000ffffffffffff) note "${r%%:*} (MSR ${r#*:}) holds 48 bits (read back $v): the manual's width; folding at 44 stays exact" ;;
				*) note "${r%%:*} (MSR ${r#*:}): all ones read back as '${v:-unreadable}'" ;;
				esac
			done
		else
			not_checked "SBo/UBox counter width (44 or 48 bits): writes a counter; run with --write"
		fi
	fi ;;
addr_opcode_match)
	if ! regs_readable; then
		not_checked "MSR 0x396: $(why_no_regs)"
	else
		note "MSR_UNCORE_ADDR_OPCODE_MATCH (0x396) = $(rdmsr 0x396 || echo unreadable) (SDM 18.8.2: address 39:3, opcode 47:40, match select 63:61)"
	fi ;;
emon_gl_commands)
	if ! regs_readable; then
		not_checked "MSR_EMON_L3_GL_CTL (0x107D8): $(why_no_regs)"
	else
		gl=$(rdmsr 0x107d8)
		note "MSR_EMON_L3_GL_CTL (0x107D8) = ${gl:-unreadable} (event select 23:16, overflow status 55:48; the commands read 0)"
		if [ $write = 1 ] && [ -n "$gl" ]; then
			# 18.21.5: freeze, reset and unfreeze act on the selected counters.
			sel=$((1 << 16))
			wrmsr 0x107cc $(((0x9051 << 32))) && pause &&
				wrmsr 0x107d8 $((sel | 1)) && f1=$(rdmsr 0x107cc) && pause && f2=$(rdmsr 0x107cc) &&
				wrmsr 0x107d8 $((sel | 4)) && r=$(rdmsr 0x107cc) &&
				wrmsr 0x107d8 $((sel | 2)) && pause && u=$(rdmsr 0x107cc)
			wrmsr 0x107cc 0
			if [ -n "${f1:-}" ] && [ "$f1" = "${f2:-}" ]; then ok "GL_freeze_cmd holds counter 0 (${f1})"; else mismatch "GL_freeze_cmd: counter 0 moved while frozen (${f1:-?} then ${f2:-?})"; fi
			if [ $((${r:-1} & 0xffffffff)) = 0 ]; then ok "GL_reset_cmd zeroes counter 0 (${r})"; else mismatch "GL_reset_cmd left counter 0 at ${r:-?}"; fi
			note "after GL_unfreeze_cmd counter 0 reads ${u:-?} (counting again if non-zero)"
		else
			not_checked "the freeze and reset commands' semantics: writes MSRs; run with --write"
		fi
	fi ;;
kernel_only)
	not_checked "no register facts: today's Xeons are counted through the kernel's perf PMUs only" ;;
*)
	not_checked "no tables for this processor" ;;
esac
[ -n "$siminst" ] && "$bin/uncore-sim" destroy "$siminst" >/dev/null 2>&1

section "boxes present (direct backend discovery: register reads only)"
if [ -z "$box_events" ]; then
	not_checked "$([ $kernel_only = 1 ] && echo 'perf backend only: no direct backend on this processor' || echo 'no tables for this processor')"
else
	for ev in $box_events; do
		PAPI_INTEL_UNCORE_BACKEND=$([ $sim = 1 ] && echo sim || echo direct) PAPI_INTEL_UNCORE_SIM=$sim_model \
			"$stat" --explain -e "$ev" >"$tmp/explain" 2>&1
		box=${ev%%::*}
		n=$(grep -c -E "^    socket [0-9]+  " "$tmp/explain")
		if [ "$n" -gt 0 ]; then
			where=$(grep -o -E '(pci [0-9a-f]{2}:[0-9a-f]{2}\.[0-9]|msr 0x[0-9a-f]+ socket [0-9]+)' "$tmp/explain" |
				sort -u | head -3 | tr '\n' ';')
			width=$(grep -o -E '[0-9]+ bits' "$tmp/explain" | sort -u | tr '\n' ' ')
			echo "  $box: $n instance(s) over all sockets; table width ${width:-?}; e.g. $where"
		else
			not_checked "$box: $(grep -v '^$' "$tmp/explain" | tail -1)"
		fi
	done
	has narrow_counters && [ $write = 0 ] &&
		not_checked "counter widths observed on the silicon (UBox/SBo: 44 or 48): needs a write of all-ones and a read-back, run with --write (device facts above)"
fi

section "clocks against wall time (TSC)"
programs=0
{ [ $write = 1 ] || [ $sim = 1 ]; } && programs=1
# The backends that count this generation (its kit; both where it is not
# known): direct only where this run may program registers, perf on the
# simulator only where the simulated kernel models the generation's PMUs.
all=$(pinfo backends)
[ "$name" = none ] && all="perf direct"
backends=""
for be in $all; do
	if [ $be = direct ] && [ $programs = 0 ]; then
		continue
	elif [ $be = perf ] && [ $sim = 1 ] && [ "$(pinfo sim_perf)" != yes ]; then
		not_checked "perf backend on the simulator: the simulated kernel does not model $name's PMUs (uncore-sim platform: sim_perf=no)"
		continue
	fi
	backends="$backends${backends:+ }$be"
done
[ $programs = 0 ] && case " $all " in *" direct "*) true ;; *) false ;; esac &&
	not_checked "direct backend counting: programs PMON registers; run with --write to include it"
for be in $backends; do
	if [ -z "$clk_events" ]; then
		not_checked "$be: no clock events for this processor"
		continue
	fi
	if ! count "$be" "$clk_events" 1; then
		not_checked "$be backend cannot count here: $(why "$be")"
		continue
	fi
	s=$(seconds "$be")
	u=$(value "$be" "$uclk" all)
	[ -z "$u" ] && u=$(value "$be" "$uclk" 0)
	if [ -n "$u" ] && [ -n "$s" ]; then
		mhz=$(awk -v c="$u" -v s="$s" 'BEGIN {printf "%.1f", c / s / 1e6}')
		# 5 GHz: an overclocked client ring (the i7-6700K's runs at 4).
		if awk -v m="$mhz" 'BEGIN {exit !(m >= 800 && m <= 5000)}'; then
			ok "$be: uncore clock $mhz MHz ($u ticks in $s s)"
		else
			mismatch "$be: uncore clock $mhz MHz is outside 800-5000 MHz ($u ticks in $s s)"
		fi
	fi
	if [ -n "$dclk" ]; then
		d=$(value "$be" "$dclk" 0)
		[ -z "$d" ] && d=$(value "$be" "$dclk" all)
		if [ -n "$d" ] && [ -n "$s" ]; then
			mhz=$(awk -v c="$d" -v s="$s" 'BEGIN {printf "%.1f", c / s / 1e6}')
			# The fastest memory of the generation (its kit: DDR4-3200 on
			# Haswell-EP, DDR5-6400 on today's Xeons).
			top=$(pinfo dclk_mhz_max)
			if awk -v m="$mhz" -v t=$top 'BEGIN {exit !(m >= 500 && m <= t)}'; then
				ok "$be: DRAM clock (DCLK) $mhz MHz, DDR-$(awk -v m="$mhz" 'BEGIN {printf "%d", 2 * m}')"
			else
				mismatch "$be: DCLK $mhz MHz is outside 500-$top MHz (DDR3/4/5): channel 0 unpopulated?"
			fi
		fi
	fi
	cp "$tmp/$be.csv" "$tmp/clk-$be.csv"
done

section "memory traffic against a streaming loop"
py=${PYTHON3:-python3}
stream_mib=256 rounds=8
# On the simulator the count is the scenario's traffic, not the loop's (a
# NOTE, never checked), so a short loop is enough: the long one cost most of
# a simulated run's CPU time, and its test runs the kit 15 times under load.
[ $sim = 1 ] && stream_mib=16 rounds=2
if [ -z "$cas" ]; then
	not_checked "no DRAM traffic event for this processor"
elif ! command -v "$py" >/dev/null; then
	not_checked "python3 is needed for the streaming loop"
else
	for be in $backends; do
		if ! count "$be" "$cas" 0 "$py" -c "
b = bytearray($stream_mib << 20)
for i in range($rounds):
    c = bytes(b)"; then
			not_checked "$be backend cannot count here: $(why "$be")"
			continue
		fi
		c=$(value "$be" "$cas" all)
		[ -z "$c" ] && c=$(value "$be" "$cas" 0)
		want=$((stream_mib * rounds))
		got=$(awk -v c="${c:-0}" 'BEGIN {printf "%.0f", c * 64 / 1048576}')
		echo "$got" >"$tmp/mib-$be"
		if [ $sim = 1 ]; then
			note "$be: $got MiB read from DRAM while the loop read $want MiB (simulator: the scenario's traffic, not the loop's)"
		elif [ "$got" -ge $((want * 8 / 10)) ]; then
			ok "$be: $got MiB read from DRAM while the loop read $want MiB"
		else
			mismatch "$be: only $got MiB read from DRAM while the loop read $want MiB"
		fi
	done
fi

# perf stat's own count of the same loop (--write: a user who asked for the
# counting comparison), and the ratio of each backend to it.
perf_event=$(pinfo perf_dram_reads)
if [ -n "$cas" ] && [ $write = 1 ]; then
	if [ $sim = 1 ]; then
		not_checked "perf stat side by side: the simulator has no perf tool behind it"
	elif [ -z "$perf_event" ]; then
		not_checked "perf stat side by side: the kernel names no DRAM read event on this processor"
	elif ! command -v perf >/dev/null; then
		not_checked "perf stat side by side: no 'perf' tool (apt-get install linux-perf)"
	elif perf stat -a -x, -e "$perf_event" -o "$tmp/perfstat" -- "$py" -c "
b = bytearray($stream_mib << 20)
for i in range($rounds):
    c = bytes(b)" >/dev/null 2>&1; then
		# perf stat -x,: value,unit,event,...; the kernel's scale makes MiB.
		p=$(awk -F, '/cas_count_read|data_reads/ {v += $1} END {printf "%.0f", v}' "$tmp/perfstat")
		note "perf stat: $p MiB ($perf_event) for the same loop"
		for be in $backends; do
			[ -f "$tmp/mib-$be" ] || continue
			note "ratio $be / perf stat: $(awk -v a="$(cat "$tmp/mib-$be")" -v b="$p" 'BEGIN {if (b > 0) printf "%.3f", a / b; else print "n/a"}')"
		done
	else
		not_checked "perf stat -a -e $perf_event failed: $(head -2 "$tmp/perfstat" 2>/dev/null | tr '\n' ' ')"
	fi
fi

section "perf backend against direct backend, same events"
if [ ! -f "$tmp/clk-perf.csv" ] || [ ! -f "$tmp/clk-direct.csv" ]; then
	not_checked "needs both backends counting (perf: $([ -f "$tmp/clk-perf.csv" ] && echo yes || echo no), direct: $([ -f "$tmp/clk-direct.csv" ] && echo yes || echo "no$([ $write = 0 ] && echo ', run with --write')"))"
else
	for ev in ${clk_events//,/ }; do
		a=$(awk -F, -v e="$ev" '$1 == "total" && $6 == e && $7 == "all" {print $8 / $3}' "$tmp/clk-perf.csv" | tail -1)
		b=$(awk -F, -v e="$ev" '$1 == "total" && $6 == e && $7 == "all" {print $8 / $3}' "$tmp/clk-direct.csv" | tail -1)
		if [ -z "$a" ] || [ -z "$b" ]; then
			not_checked "$ev: a backend gave no count"
		elif awk -v a="$a" -v b="$b" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b)}'; then
			ok "$ev: perf $a/s, direct $b/s (within 2%)"
		else
			mismatch "$ev: perf $a/s, direct $b/s"
		fi
	done
fi

section "opt-in hardware tests"
if [ -z "$hw_tests" ]; then
	not_checked "no test programs given (make check-hardware passes them)"
elif [ $sim = 1 ] || ! has hw_tests || [ "$(id -u)" != 0 ] || [ "${npci:-0}" = 0 ]; then
	not_checked "they need root on a machine whose kit has them (hw_tests: Haswell-EP's) with its uncore PCI functions visible"
else
	for t in $hw_tests; do
		if "$t" >"$tmp/hw.log" 2>&1; then ok "${t##*/}"; else mismatch "${t##*/}: $(grep -v '^PASS' "$tmp/hw.log" | head -3 | tr '\n' ' ')"; fi
	done
fi

section "summary"
echo "  $checked OK, $mismatches MISMATCH, $notes NOTE, $unchecked NOT CHECKED"
echo "  Please send this report (scripts/first-machine.sh -o report.txt writes it to a file; add"
echo "  the output of 'lspci -nn | grep 8086') to the papi-uncore developers: README.md,"
echo "  'Running on real machines', says how."
exit 0
