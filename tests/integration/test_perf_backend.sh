#!/usr/bin/env bash
# The perf backend through the staged PAPI: on this machine's kernel (its
# msr and software PMUs, sysfs-described, no uncore tables needed) msr::tsc
# agrees with rdtsc; strace sees one read() per PMU instance per PAPI_read;
# an unprivileged user gets a disabled reason with the paranoid level and
# the way out; and on the simulator behind a simulated kernel table events
# and kernel aliases count through the same groups.
set -u
. "$(dirname "$0")/lib.sh"
plan 7
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

bin=$tmp/perf_backend_check
if ! ${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -isystem "$STAGE/include" "$here/perf_backend_check.c" \
	-L"$STAGE/lib" -lpapi -Wl,-rpath,"$STAGE/lib" -o "$bin" >"$tmp/cc.log" 2>&1; then
	fail "perf_backend_check does not build"
	cat "$tmp/cc.log"
	exit 0
fi

if [ ! -d /sys/bus/event_source/devices/msr ]; then
	skip "msr::tsc checks: this kernel has no msr PMU"
elif [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	skip "msr::tsc checks: not root and perf_event_paranoid > 0"
else
	plan 8
	run_checks msr env -u PAPI_INTEL_UNCORE_BACKEND "$bin" tsc
	# Where the msr PMU exists a missing msr::tsc is a failure, not a skip:
	# the simulator (direct backend) has no msr::tsc.
	PAPI_INTEL_UNCORE_BACKEND=sim "$bin" tsc >"$tmp/notsc" 2>&1
	rc=$?
	expect "msr::tsc lost: perf_backend_check fails (status $rc)" test $rc -ne 0
	expect "... with a FAIL line" grep -q '^FAIL add msr::tsc:socket=0' "$tmp/notsc"

	if command -v strace >/dev/null; then
		n=200
		env -u PAPI_INTEL_UNCORE_BACKEND strace -qq -f -e trace=read,write -o "$tmp/trace" \
			"$bin" reads $n >"$tmp/reads.out" 2>&1
		rc=$?
		reads=$(awk '/write\(1, "BEGIN/{on=1; next} /write\(1, "END/{on=0} on && /read\(/{c++} END{print c+0}' "$tmp/trace")
		if [ $rc -ne 0 ]; then
			fail "strace: perf_backend_check reads $n exited with status $rc"
			cat "$tmp/reads.out"
		elif [ "$reads" -eq $((2 * n)) ]; then
			pass "strace: $reads read() calls for $n PAPI_reads of 5 events on 2 PMU instances (msr, software)"
		else
			fail "strace: $reads read() calls for $n PAPI_reads, expected $((2 * n)) (one per PMU instance)"
			cat "$tmp/reads.out"
		fi
	else
		skip_dep "read() count: strace is not installed (scripts/install-deps.sh installs it)"
	fi
fi

# Unprivileged: run as nobody, from copies in $tmp (the clone may be in a
# directory nobody can enter: a 0700 home or mktemp -d).  Where
# perf_event_paranoid lets everyone count (<= 0), root sets it to 2 for
# these checks and back after; a machine where that cannot be done skips
# them, and CI (CI=true), whose machine can run them, fails instead.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)
restore_paranoid=
if [ "$(id -u)" = 0 ] && [ "$paranoid" -le 0 ] && [ -d /sys/bus/event_source/devices/msr ] &&
	echo 2 2>/dev/null >/proc/sys/kernel/perf_event_paranoid; then
	restore_paranoid=$paranoid
	trap 'echo "$restore_paranoid" >/proc/sys/kernel/perf_event_paranoid; rm -rf "$tmp"' EXIT
	echo "   perf_event_paranoid was $paranoid: 2 for the unprivileged checks, $paranoid again after them"
	paranoid=2
fi
if [ "$(id -u)" = 0 ] && [ "$paranoid" -gt 0 ] && command -v setpriv >/dev/null &&
	[ -d /sys/bus/event_source/devices/msr ]; then
	plan 6
	mkdir -p "$tmp/lib"
	cp -P "$STAGE"/lib/libpapi.so* "$tmp/lib/"
	${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -isystem "$STAGE/include" "$here/perf_backend_check.c" \
		-L"$tmp/lib" -lpapi -Wl,-rpath,"$tmp/lib" -o "$tmp/denied" >"$tmp/cc2.log" 2>&1 ||
		cat "$tmp/cc2.log"
	cp "$STAGE/bin/papi_component_avail" "$tmp/avail-bin"
	chmod -R a+rX "$tmp"
	run_checks unprivileged env -u PAPI_INTEL_UNCORE_BACKEND setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$tmp/denied" denied
	setpriv --reuid=65534 --regid=65534 --clear-groups env -u PAPI_INTEL_UNCORE_BACKEND \
		"$tmp/avail-bin" >"$tmp/avail" 2>&1
	expect "unprivileged papi_component_avail shows the reason with CAP_PERFMON" \
		grep -q 'Disabled: perf backend: .*CAP_PERFMON' "$tmp/avail"
elif [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ] && [ -d /sys/bus/event_source/devices/msr ]; then
	fail "unprivileged checks: CI's machine must run them, but perf_event_paranoid is $paranoid and root could not set it to 2"
else
	skip "unprivileged checks: need root, perf_event_paranoid > 0 (is $paranoid; root sets it where it may), setpriv and the msr PMU"
fi
if [ -n "$restore_paranoid" ]; then
	echo "$restore_paranoid" >/proc/sys/kernel/perf_event_paranoid
	trap 'rm -rf "$tmp"' EXIT
fi

# The simulator behind a simulated perf_event kernel: a table event and the
# kernel's alias for the same counter count the same, in one group per IMC.
# Counted by uncore-stat (a PAPI client) on a shared machine whose time
# moves only when its command advances it, by 1 s of stream.scn: 100 M
# reads per second on each of 16 channels, exactly, however loaded this
# machine is.
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=perf
# The simulated kernels' trees in /dev/shm before these runs: /dev/shm is
# shared with every other test run on the machine.
simtrees() { ls /dev/shm | grep '^uncore-simkernel-' | sort; }
simtrees >"$tmp/trees-before"
sim=$STAGE/bin/uncore-sim
inst=perf-backend-test-$$
"$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null || fail "uncore-sim create $inst"
one_second() { # OUT EVENTS [VAR=VALUE...]: count EVENTS over 1 simulated second
	local out=$1 events=$2
	shift 2
	env "$@" PAPI_INTEL_UNCORE_SIM=/dev/shm/uncore-sim-$inst "$STAGE/bin/uncore-stat" --csv -o "$out" \
		-e "$events" -- "$sim" advance "$inst" 1s
}
total_of() { sed -n "s/^total,[^,]*,[^,]*,event,,$(echo "$1" | sed 's/[]:[]/\\&/g'),all,\([0-9]*\),count,.*/\1/p" "$2"; }
PAPI_INTEL_UNCORE_SIM=/dev/shm/uncore-sim-$inst "$STAGE/bin/papi_component_avail" >"$tmp/sim-avail" 2>&1
expect "sim+perf: the description says the counts come through a simulated kernel" \
	grep -q 'perf backend: simulated kernel, SIMULATED uncore' "$tmp/sim-avail"
one_second "$tmp/cl" hswep_unc_imc::UNC_M_CAS_COUNT:RD,uncore_imc::cas_count_read
a=$(total_of hswep_unc_imc::UNC_M_CAS_COUNT:RD "$tmp/cl")
b=$(total_of uncore_imc::cas_count_read "$tmp/cl")
expect "sim+perf: DRAM reads by table name ($a) and kernel alias ($b): 16 x 100 M" \
	test "$a" = 1600000000 -a "$b" = 1600000000
# A multiplexed group is scaled and the user is told (verbose).
PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE=uncore_imc_0=1/2 PAPI_INTEL_UNCORE_VERBOSE=1 \
	"$STAGE/bin/papi_command_line" hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 >"$tmp/mpx" 2>&1
expect "sim+perf: a multiplexed event is reported as scaled" \
	grep -q 'hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 counted 50.0% of the time' "$tmp/mpx"
# Its count is scaled back to the whole time: the 100 M of the second, as
# the channel the kernel does not multiplex counts; inverted scaling would
# give a quarter of it, none a half.
one_second "$tmp/mpx2" hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0,hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0 \
	PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE=uncore_imc_0=1/2
m=$(total_of hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 "$tmp/mpx2")
u=$(total_of hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0 "$tmp/mpx2")
expect "sim+perf: the multiplexed channel's count is scaled back ($m against $u unmultiplexed): 100 M" \
	test "$m" = 100000000 -a "$u" = 100000000
"$sim" destroy "$inst"
# A tree these runs left stays for good; one of another test run on the
# machine, made meanwhile, goes when that run's process ends: only a new
# tree still there after 20 s is a leak.
left=
for _ in $(seq 20); do
	left=$(simtrees | comm -13 "$tmp/trees-before" -)
	[ -z "$left" ] && break
	sleep 1
done
[ -n "$left" ] && fail "sim+perf: the simulated kernel's tree was left in /dev/shm: $left" ||
	pass "sim+perf: the simulated kernel's tree is removed at shutdown"
