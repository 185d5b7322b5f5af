#!/usr/bin/env bash
# A threshold over several rate streams never hangs the simulator: STREAM's
# CAS_COUNT:ALL with t=1 (cycles with at least one read or write CAS) over
# 4 s, through uncore-stat - exact in virtual time, against a count worked
# out here in Python, and in wall-clock mode (the command that once printed
# nothing for 10 minutes) finishing with the scenario's rate.
set -u
. "$(dirname "$0")/lib.sh"
plan 8
py=${PYTHON3:-python3}
tmp=$(mktemp -d)
inst=/dev/shm/uncore-sim-threshold-test-$$
trap 'rm -rf "$tmp" "$inst" "$inst.locks"' EXIT
stat=$STAGE/bin/uncore-stat
sim=$STAGE/bin/uncore-sim
ALL=hswep_unc_imc::UNC_M_CAS_COUNT:ALL:t=1

# The expected count per channel and DCLK period, independently: stream.scn
# puts 100 M (RD_REG), 37.5 M (WR_WMM) and 12.5 M (WR_RMM) CAS per second on
# each channel, on the model's DCLK f = 1066666667 Hz (uncore-sim models -v),
# placed at floor of the running total (SCENARIOS.md).  The rates are 8, 3, 1
# times u = 12.5 M/s; over one period of f cycles theta = x u mod f takes each
# value once (gcd(u, f) = 1) and the k u stream ticks on cycle x iff
# (k theta mod f) >= f - k u: k intervals of theta.  Count the union.
per_period=$("$py" - <<'EOF'
f, u = 1066666667, 12500000
spans = []
for k in (8, 3, 1):
    for j in range(1, k + 1):
        spans.append((max(-(-(j * f - k * u) // k), 0), min(-(-(j * f) // k), f)))
spans.sort()
total, lo, hi = 0, None, None
for a, b in spans:
    if hi is None or a > hi:
        total += 0 if hi is None else hi - lo
        lo, hi = a, b
    else:
        hi = max(hi, b)
print(total + hi - lo)
EOF
)
expect "the union of the three CAS streams is 125 M cycles per period (got $per_period)" \
	test "$per_period" = 125000000
freq=$("$sim" models -v | sed -n '/^e5-2699v3-2s/,/^$/s/.*DCLK \([0-9.]*\) GHz.*/\1/p' | head -1)
expect "the model's DCLK is 1.06667 GHz (got $freq)" test "$freq" = 1.06667

# Virtual time: 4 s are exactly 4 periods (floor(4 s * f) = 4 f cycles), on
# 8 channels of each of 2 sockets.
want_socket=$((4 * per_period * 8))
"$sim" create "$inst" -s "$SRCDIR/src/sim/scenarios/stream.scn" >/dev/null
"$stat" --sim --sim-model "$inst" --csv -o "$tmp/csv" -e "$ALL" -- "$sim" advance "$inst" 4s
expect "virtual time: uncore-stat ends with status 0" test $? -eq 0
expect "virtual time: socket 0 counts $want_socket cycles with a CAS" \
	grep -q "^total,4.000000,4.000000,event,,$ALL,0,$want_socket,count,1,0\$" "$tmp/csv"
expect "virtual time: both sockets count $((2 * want_socket))" \
	grep -q "^total,4.000000,4.000000,event,,$ALL,all,$((2 * want_socket)),count,1,0\$" "$tmp/csv"
# With t=2: two or more CAS on a cycle, only where the 8u and 3u streams
# meet, i.e. on the 1u stream's cycles: 12.5 M per period.
"$stat" --sim --sim-model "$inst" --csv -o "$tmp/csv2" -e "hswep_unc_imc::UNC_M_CAS_COUNT:ALL:t=2" \
	-- "$sim" advance "$inst" 4s
expect "virtual time: t=2 counts the cycles of two CAS (4 x 12.5 M x 16)" \
	grep -q ",all,$((4 * 12500000 * 16)),count,1,0\$" "$tmp/csv2"
"$sim" destroy "$inst" >/dev/null

# Wall clock (demo-stream.scn): the command of the report.  It must end; a
# hang would be stopped by the runner's TEST_TIMEOUT, and this bound
# (minutes, not a speed limit) names it.  The count is the scenario's rate
# over the elapsed time the tool reports, within 5% (the reads of the two
# sockets and the clock are not one instant).
timeout 300 "$stat" --sim --csv -o "$tmp/wall" -e "$ALL" -t 4
rc=$?
expect "wall clock: uncore-stat --sim -e $ALL -t 4 ends with status 0 (status $rc)" test $rc -eq 0
if "$py" - "$tmp/wall" "$ALL" "$per_period" <<'EOF'
import sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.startswith("total,")]
# kind,time_s,seconds,type,group,name,socket,value,units,simulated,partial
row = [r for r in rows if r[5] == sys.argv[2] and r[6] == "all"][0]
elapsed, count = float(row[2]), int(row[7])
want = int(sys.argv[3]) * 16 * elapsed
assert abs(count - want) <= 0.05 * want, (count, want, elapsed)
print("   %d cycles with a CAS in %.6f s (%.0f expected)" % (count, elapsed, want))
EOF
then pass "wall clock: the count is 16 x 125 M per second of the run"
else fail "wall clock: count (file: $(cat "$tmp/wall"))"; fi
