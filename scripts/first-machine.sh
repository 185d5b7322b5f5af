#!/usr/bin/env bash
# The first-machine checklist (`make check-hardware`): what a real Haswell-EP,
# Skylake client or Nehalem machine shows papi-uncore, as a plain-text report
# to send back to us.  Read-only by default: it reads sysfs, /proc and PCI
# IDs, lets the direct backend discover the machine (register reads only) and
# counts through the kernel's perf uncore PMUs; --write also counts through
# the direct backend, which programs the PMON registers.  Every check prints
# OK, NOTE, MISMATCH or NOT CHECKED (with the reason); nothing is skipped
# silently.  --sim runs the counting steps on the simulator (tests).
#
#   scripts/first-machine.sh [--write] [--sim] [--bin DIR] [--hw-tests "PROGRAMS"] [-o FILE]
set -u

here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../stage/bin
write=0
sim=0
hw_tests=""
out=""
while [ $# -gt 0 ]; do
	case $1 in
	--write) write=1 ;;
	--sim) sim=1 ;;
	--bin) bin=$2; shift ;;
	--hw-tests) hw_tests=$2; shift ;;
	-o) out=$2; shift ;;
	-h | --help)
		sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
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
platform=none
if [ $sim = 1 ]; then
	platform=hswep
	echo "  platform: hswep (the simulator's model; this machine's CPU is not used)"
elif [ "$vendor" = GenuineIntel ] && [ "$family" = 6 ]; then
	case $model in
	63) platform=hswep ;;
	78 | 94) platform=skl ;;
	26 | 30) platform=nhm ;;
	esac
	echo "  platform: $platform"
else
	echo "  platform: none (not an Intel family 6 processor papi-uncore has tables for)"
fi
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
# Haswell-EP PMON and companion functions (platform/hswep/HARDWARE-DECISIONS.md)
hsx_ids="2f1e:UBox-socket-ID 2f30:HA0 2f38:HA1 2fb0:iMC0-ch0 2fb1:iMC0-ch1 2fb4:iMC0-ch2
2fb5:iMC0-ch3 2fd0:iMC1-ch0 2fd1:iMC1-ch1 2fd4:iMC1-ch2 2fd5:iMC1-ch3 2f39:IRP 2f32:QPI-port0
2f33:QPI-port1 2f3a:QPI-port2 2f86:QPI-port0-mask/match 2f96:QPI-port1-mask/match
2f46:QPI-port2-mask/match 2f80:QPI-misc-port0 2f90:QPI-misc-port1 2f40:QPI-misc-port2
2f34:R2PCIe 2f36:R3QPI-link0 2f37:R3QPI-link1 2f3e:R3QPI-link2 2fc0:PCU-CAPID"
npci=0
if [ $sim = 1 ]; then
	not_checked "PCI scan: the simulator has no sysfs devices (the direct backend's view is below)"
else
	for d in /sys/bus/pci/devices/*; do
		[ "$(readf "$d/vendor")" = 0x8086 ] || continue
		id=$(readf "$d/device")
		id=${id#0x}
		for e in $hsx_ids; do
			if [ "${e%%:*}" = "$id" ]; then
				echo "  ${d##*/}  8086:$id  ${e#*:}"
				npci=$((npci + 1))
			fi
		done
		if [ "$platform" = skl ] && [ "${d##*/}" = 0000:00:00.0 ]; then
			echo "  ${d##*/}  8086:$id  host bridge (MCHBAR)"
		fi
	done
	if [ "$platform" = hswep ]; then
		[ $npci -gt 0 ] && ok "$npci Haswell-EP uncore functions found" ||
			mismatch "no Haswell-EP uncore PCI function in sysfs (BIOS may hide them)"
	else
		echo "  ($npci Haswell-EP functions; none expected on platform $platform)"
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
	if [ $sim = 1 ]; then
		env=(PAPI_INTEL_UNCORE_BACKEND=sim)
		[ "$be" = perf ] && env+=(PAPI_INTEL_UNCORE_SIM_KERNEL=perf)
		simopt=(--sim --sim-scenario "${FIRST_MACHINE_SCENARIO:-demo-stream}")
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

case $platform in
hswep)
	clk_events="hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0,hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0"
	uclk=hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0
	dclk=hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0
	cas=hswep_unc_imc::UNC_M_CAS_COUNT:RD
	box_events="hswep_unc_ubo::UNC_U_CLOCKTICKS hswep_unc_cbo::UNC_C_CLOCKTICKS
	  hswep_unc_sbo::UNC_S_CLOCKTICKS hswep_unc_ha::UNC_H_CLOCKTICKS hswep_unc_imc::UNC_M_DCLOCKTICKS
	  hswep_unc_irp::UNC_I_CLOCKTICKS hswep_unc_pcu::UNC_P_CLOCKTICKS hswep_unc_qpi::UNC_Q_CLOCKTICKS
	  hswep_unc_r2pcie::UNC_R2_CLOCKTICKS hswep_unc_r3qpi::UNC_R3_CLOCKTICKS" ;;
skl)
	clk_events="skl_unc_clock::UNC_CLOCK"
	uclk=skl_unc_clock::UNC_CLOCK dclk="" cas=skl_unc_imc::DRAM_DATA_READS
	box_events="skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL skl_unc_clock::UNC_CLOCK" ;;
nhm)
	clk_events="UNC_CLK_UNHALTED" uclk=UNC_CLK_UNHALTED dclk="" cas=""
	box_events="UNC_CLK_UNHALTED" ;;
*)
	clk_events="" uclk="" dclk="" cas="" box_events="" ;;
esac

section "boxes present (direct backend discovery: register reads only)"
if [ -z "$box_events" ]; then
	not_checked "no tables for this processor"
else
	for ev in $box_events; do
		PAPI_INTEL_UNCORE_BACKEND=$([ $sim = 1 ] && echo sim || echo direct) \
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
	not_checked "counter widths observed on the silicon (UBox/SBo: 44 or 48): needs a write of all-ones and a read-back, not done by this version"
fi

section "clocks against wall time (TSC)"
backends="perf"
if [ $write = 1 ] || [ $sim = 1 ]; then backends="perf direct"; fi
[ $write = 0 ] && [ $sim = 0 ] && not_checked "direct backend counting: programs PMON registers; run with --write to include it"
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
		if awk -v m="$mhz" 'BEGIN {exit !(m >= 800 && m <= 4000)}'; then
			ok "$be: uncore clock $mhz MHz ($u ticks in $s s)"
		else
			mismatch "$be: uncore clock $mhz MHz is outside 800-4000 MHz ($u ticks in $s s)"
		fi
	fi
	if [ -n "$dclk" ]; then
		d=$(value "$be" "$dclk" 0)
		[ -z "$d" ] && d=$(value "$be" "$dclk" all)
		if [ -n "$d" ] && [ -n "$s" ]; then
			mhz=$(awk -v c="$d" -v s="$s" 'BEGIN {printf "%.1f", c / s / 1e6}')
			if awk -v m="$mhz" 'BEGIN {exit !(m >= 500 && m <= 1700)}'; then
				ok "$be: DRAM clock (DCLK) $mhz MHz, DDR-$(awk -v m="$mhz" 'BEGIN {printf "%d", 2 * m}')"
			else
				mismatch "$be: DCLK $mhz MHz is outside 500-1700 MHz (DDR3/DDR4): channel 0 unpopulated?"
			fi
		fi
	fi
	cp "$tmp/$be.csv" "$tmp/clk-$be.csv"
done

section "memory traffic against a streaming loop"
py=${PYTHON3:-python3}
stream_mib=256 rounds=8
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
		if [ $sim = 1 ]; then
			note "$be: $got MiB read from DRAM while the loop read $want MiB (simulator: the scenario's traffic, not the loop's)"
		elif [ "$got" -ge $((want * 8 / 10)) ]; then
			ok "$be: $got MiB read from DRAM while the loop read $want MiB"
		else
			mismatch "$be: only $got MiB read from DRAM while the loop read $want MiB"
		fi
	done
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
elif [ $sim = 1 ] || [ "$platform" != hswep ] || [ "$(id -u)" != 0 ] || [ "${npci:-0}" = 0 ]; then
	not_checked "they need root on a Haswell-EP with its uncore PCI functions visible"
else
	for t in $hw_tests; do
		if "$t" >"$tmp/hw.log" 2>&1; then ok "${t##*/}"; else mismatch "${t##*/}: $(grep -v '^PASS' "$tmp/hw.log" | head -3 | tr '\n' ' ')"; fi
	done
fi

section "summary"
echo "  $checked OK, $mismatches MISMATCH, $notes NOTE, $unchecked NOT CHECKED"
echo "  Please send this report (and the output of 'lspci -nn | grep 8086') to the papi-uncore developers."
exit 0
