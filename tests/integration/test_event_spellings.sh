#!/usr/bin/env bash
# Event names as other tools spell them (components/intel_uncore/README.md,
# src/events/spelling.h), everywhere a name is taken: uncore-stat -e on the
# simulator through the direct backend and through the simulated perf
# kernel (exact counts of stream.scn over 1 s of simulated time: 100 M read
# CAS per channel and socket, 8 channels), a Sapphire Rapids-shaped kernel
# with the README's comma example, PAPI (papi_command_line), PAPI_EVENTS
# (the high-level API); refusals give the name to type instead.  (The PMPI
# library: test_mpi.sh.)
set -u
. "$(dirname "$0")/lib.sh"
plan 24
tmp=$(mktemp -d)
inst=$( [ -w /dev/shm ] && echo /dev/shm || echo "$tmp")/uncore-sim-spell-test-$$
trap 'rm -rf "$tmp" "$inst" "$inst.locks"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
stat=$STAGE/bin/uncore-stat
sim=$STAGE/bin/uncore-sim

# total_is CSV NAME SOCKET VALUE: the run's total row of an event.
total_is() { grep -q "^total,[^,]*,[^,]*,event,,$2,$3,$4,count,1,0\$" "$1"; }

for kernel in none perf; do
	"$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null
	"$stat" --sim --sim-model "$inst" --sim-kernel $kernel --csv -o "$tmp/csv" \
		-e 'uncore_imc_0/event=0x4,umask=0x3/,UNC_M_CAS_COUNT.RD,hswep_unc_imc/UNC_M_CAS_COUNT.RD/:socket=1' \
		-- "$sim" advance "$inst" 1s
	rc=$?
	"$sim" destroy "$inst" >/dev/null
	expect "$kernel kernel: perf's and Intel's spellings count (status $rc)" test $rc -eq 0
	expect "$kernel kernel: uncore_imc_0/event=0x4,umask=0x3/ is channel 0's read CAS: 100 M a socket" \
		total_is "$tmp/csv" 'uncore_imc_0::event=0x4:umask=0x3' 0 100000000
	expect "$kernel kernel: ... 200 M on the node" \
		total_is "$tmp/csv" 'uncore_imc_0::event=0x4:umask=0x3' all 200000000
	expect "$kernel kernel: UNC_M_CAS_COUNT.RD is every channel's: 800 M a socket" \
		total_is "$tmp/csv" 'UNC_M_CAS_COUNT.RD' 1 800000000
	expect "$kernel kernel: hswep_unc_imc/UNC_M_CAS_COUNT.RD/:socket=1 is socket 1's" \
		total_is "$tmp/csv" 'hswep_unc_imc::UNC_M_CAS_COUNT.RD:socket=1' 1 800000000
done

# The README's comma example, on the kernel PMUs of a processor without tables.
"$stat" --sim --sim-kernel spr --csv -o "$tmp/spr" -e 'uncore_upi::event=0x2,umask=0xf,uncore_imc/cas_count_read/' -- true
rc=$?
expect "spr: -e 'uncore_upi::event=0x2,umask=0xf,uncore_imc/cas_count_read/' is two events (status $rc)" test $rc -eq 0
expect "... the UPI raw fields stay one event" grep -q '^total,.*,event,,uncore_upi::event=0x2:umask=0xf,all,' "$tmp/spr"
expect "... and perf's uncore_imc/cas_count_read/ is the kernel's alias" \
	grep -q '^total,.*,event,,uncore_imc::cas_count_read,all,' "$tmp/spr"

# Refused, with what to type instead; a bad event is a usage error (2).
refused() { # WANT-IN-MESSAGE EVENT...
	local want=$1
	shift
	"$stat" --sim "$@" -- true >"$tmp/out" 2>&1
	local rc=$?
	expect "'$*' refused with status 2 (got $rc)" test $rc -eq 2
	expect "... saying: $want" grep -qF -- "$want" "$tmp/out"
}
refused "write 'uncore_imc_0::event=0x4:umask=0x3'" -e 'uncore_imc_0/event=0x4,umask=0x3/u'
refused "needs its closing '/'" -e 'uncore_imc_0/event=0x4'
refused "no event of hswep_unc_imc's table has this code and unit mask" -e 'uncore_imc_0/event=0x4,umask=0x7/'
refused "unknown unit mask 'RDX'" -e 'UNC_M_CAS_COUNT.RDX'

# PAPI itself (papi_command_line adds each name with PAPI_add_named_event).
PAPI_INTEL_UNCORE_BACKEND=sim "$STAGE/bin/papi_command_line" 'UNC_M_CAS_COUNT.RD' \
	'uncore_imc_0/event=0x4,umask=0x3/' >"$tmp/pcl" 2>&1
for e in 'UNC_M_CAS_COUNT.RD' 'uncore_imc_0/event=0x4,umask=0x3/'; do
	expect "papi_command_line adds and counts $e" \
		grep -qE "^$(printf '%s' "$e" | sed 's/[.]/[.]/g') :[[:space:]]+[1-9][0-9]*" "$tmp/pcl"
done

# PAPI_EVENTS (the high-level API's list, papi-patches/90-...): Intel's name
# and perf's PMU/fields/ with its commas count what our spelling counts.
bin=$BUILD/itests/papi_hl_json
if [ -x "$bin" ]; then
	"$bin" "$tmp/hl" 'UNC_M_CAS_COUNT.RD,hswep_unc_imc::UNC_M_CAS_COUNT:RD,uncore_imc_0/event=0x4,umask=0x3/,hswep_unc_imc0::UNC_M_CAS_COUNT:RD' >"$tmp/hl.out" 2>&1
	json=$(find "$tmp/hl" -name '*.json' | head -1)
	"$PYTHON3" - "$json" >"$tmp/hl.check" 2>&1 <<'PY'
import json, sys
found = {}
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, str) and v.lstrip("-").isdigit():
                found.setdefault(k, int(v))
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))
pairs = [("UNC_M_CAS_COUNT.RD", "hswep_unc_imc::UNC_M_CAS_COUNT:RD"),
         ("uncore_imc_0/event=0x4,umask=0x3/", "hswep_unc_imc0::UNC_M_CAS_COUNT:RD")]
bad = [("%s=%s, %s=%s" % (a, found.get(a), b, found.get(b))) for a, b in pairs
       if found.get(a) is None or found.get(a) != found.get(b) or not found.get(a)]
print("; ".join(bad) if bad else "ok")
PY
	expect "PAPI_EVENTS: UNC_M_CAS_COUNT.RD and uncore_imc_0/event=0x4,umask=0x3/ count as ours ($(head -c 300 "$tmp/hl.check"))" \
		test "$(cat "$tmp/hl.check")" = ok
else
	fail "papi_hl_json is not built ($bin): run make check"
fi
