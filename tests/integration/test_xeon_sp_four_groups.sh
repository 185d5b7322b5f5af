#!/usr/bin/env bash
# issue 26: `uncore-stat -g MEM -g LLC -g UPI -g IO` in ONE run prints the
# scenario's values on every simulated kernel of today's Xeons, although
# the four groups need more counters than a box has (6 CHA terms for 4
# counters from Sapphire Rapids on; Skylake-SP's IIO terms 4 settings):
# the set's settings take turns at each read (uncore-stat reads a
# multiplexed set every 100 ms), each metric's terms of a box stay in one
# setting where they fit together, and the whole run's value of every
# metric comes from its ":run" form (the counts since start, each term
# scaled by the time its setting counted), so ratios (LLC_MISS_LATENCY)
# have a whole-run value too.  The output says the metrics were
# multiplexed, and a run too short for every setting to count says why its
# values are nan.
#
# Counts on virtual time (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1 s a round of
# reads); the scenario's rates are constant, so every printed rate, ratio
# and latency is the scenario's exactly, however many reads the command's
# time allowed (`sleep 1.5`: about 15, at least the 4 settings; fewer would
# show as nan and fail).  The values, from the shapes' scenarios
# (src/simkernel/shape_*.c; instance i of socket s counts rate x (i+1) x
# (s+1) a second, clocks uniform), computed here in closed form:
#  DRAM: channels' CAS x 64 B (skx 20 M rd / 8 M wr on 6 channels, icx 5 / 2
#  M on 12, spr and emr 10 / 5 M on 8, gnr 16 (both schedulers) / 6 M on
#  12, srf 16 / 6 M on 8); UPI: 60 M data flits (skx 50 M) x 64/9 B, links
#  3 (skx, icx), 4 (spr, emr, srf), 6 (gnr); IO through the CHAs: TOR
#  inserts x 64 B, reads 500 k, writes 350 k (icx, spr, emr: ITOM 250 k +
#  ITOMCACHENEAR 100 k) or 250 k (gnr, srf), CHAs 40, 56, 64, 128, 144;
#  skx's IO through the IIO stacks (6): 2 M read and 1 M written 4-byte
#  words; LLC miss latency 150 cycles at the CHA clock (2.4 GHz: 62.5 ns;
#  2 GHz: 75 ns).  Socket 1 counts twice socket 0, the node three times.
set -u
. "$(dirname "$0")/lib.sh"
plan 58
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks TMPDIR=$tmp PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_EVENTS PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO \
	PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE
stat=$STAGE/bin/uncore-stat

for shape in skx icx spr emr gnr srf; do
	"$stat" --sim --sim-kernel $shape --csv -o "$tmp/$shape.csv" -g MEM -g LLC -g UPI -g IO \
		-- sleep 1.5 2>"$tmp/err"
	expect "$shape: uncore-stat -g MEM -g LLC -g UPI -g IO -- sleep 1.5: status 0 ($(head -c 200 "$tmp/err"))" \
		test $? -eq 0
done

# 7 metrics x 6 shapes, each on socket 0, socket 1 and the node: 42 checks.
"$PYTHON3" - "$tmp" <<'PY'
import csv, os, sys

d = sys.argv[1]
# shape: DRAM rd, wr CAS/s per channel, sum of (i+1) over channels; UPI
# flits/s, sum over links; IO rd, wr per CHA, sum over CHAs (skx: IIO
# words of 4 B); LLC latency ns.
S = {
    "skx": (20e6, 8e6, 21, 50e6, 6, 2e6, 1e6, 21, 4, 62.5),
    "icx": (5e6, 2e6, 78, 60e6, 6, 500e3, 350e3, 820, 64, 62.5),
    "spr": (10e6, 5e6, 36, 60e6, 10, 500e3, 350e3, 1596, 64, 75.0),
    "emr": (10e6, 5e6, 36, 60e6, 10, 500e3, 350e3, 2080, 64, 75.0),
    "gnr": (16e6, 6e6, 78, 60e6, 21, 500e3, 250e3, 8256, 64, 75.0),
    "srf": (16e6, 6e6, 36, 60e6, 10, 500e3, 250e3, 10440, 64, 75.0),
}
for shape, (rd, wr, ch, fl, links, ior, iow, boxes, bpr, lat) in S.items():
    want = {
        "DRAM_READ_BW": (rd * ch * 64 / 1e9, 1),
        "DRAM_WRITE_BW": (wr * ch * 64 / 1e9, 1),
        "DRAM_BW": ((rd + wr) * ch * 64 / 1e9, 1),
        "LLC_MISS_LATENCY": (lat, 0),
        "UPI_DATA_BW": (fl * links * 64 / 9 / 1e9, 1),
        "IO_READ_BW": (ior * boxes * bpr / 1e9, 1),
        "IO_WRITE_BW": (iow * boxes * bpr / 1e9, 1),
    }
    rows = {}
    path = os.path.join(d, shape + ".csv")
    if os.path.exists(path):
        for r in csv.DictReader(l for l in open(path) if not l.startswith("#")):
            if r["kind"] == "total":
                rows[(r["name"], r["socket"])] = r["value"]
    for m, (v0, scales) in want.items():
        name = "%s_metric::%s" % (shape, m)
        exp = {"0": v0, "1": v0 * (2 if scales else 1), "all": v0 * (3 if scales else 1)}
        bad = []
        for s, v in exp.items():
            got = rows.get((name, s))
            try:
                ok = abs(float(got) - v) <= 5e-6 * abs(v)
            except (TypeError, ValueError):
                ok = False
            if not ok:
                bad.append("socket %s: %s, want %.6g" % (s, got, v))
        if bad:
            print("FAIL %s, four groups in one run: %s" % (name, "; ".join(bad)))
        else:
            print("PASS %s, four groups in one run: %.6g / %.6g / %.6g (socket 0 / 1 / node), the scenario's"
                  % (name, exp["0"], exp["1"], exp["all"]))
PY

# Said in the output: multiplexed, and how many settings took turns.
for shape in skx icx spr emr gnr srf; do
	"$stat" --sim --sim-kernel $shape -g MEM -g LLC -g UPI -g IO -- sleep 1.5 >"$tmp/out" 2>&1
	n=$(grep -c '^ multiplexed: the metrics. terms took [0-9]* settings in turn, switched at each of the run.s [0-9]* reads' "$tmp/out")
	expect "$shape: the text report says the metrics were multiplexed ($(grep '^ multiplexed' "$tmp/out" | head -c 120))" \
		test "$n" -eq 1
done

# Skylake-SP's IO group and Ice Lake-SP's IO_WRITE_BW alone (their terms
# need 4 and 2 settings even alone): exact over a run of several reads.
"$stat" --sim --sim-kernel skx --csv -o "$tmp/skx-io.csv" -g IO -- sleep 1.5
rc=$?
r=$(awk -F, '$1 == "total" && $6 == "skx_metric::IO_READ_BW" && $7 == "0" { print $8 }' "$tmp/skx-io.csv")
w=$(awk -F, '$1 == "total" && $6 == "skx_metric::IO_WRITE_BW" && $7 == "0" { print $8 }' "$tmp/skx-io.csv")
expect "skx -g IO alone (status $rc): IO_READ_BW ${r:-nothing}, IO_WRITE_BW ${w:-nothing} on socket 0, the scenario's 0.168, 0.084" \
	test "$rc.${r:-x}.${w:-x}" = "0.0.168.0.084"
"$stat" --sim --sim-kernel icx --csv -o "$tmp/icx-io.csv" -g IO -- sleep 1.5
rc=$?
w=$(awk -F, '$1 == "total" && $6 == "icx_metric::IO_WRITE_BW" && $7 == "0" { print $8 }' "$tmp/icx-io.csv")
expect "icx -g IO alone (status $rc): IO_WRITE_BW ${w:-nothing} on socket 0, the scenario's 18.368" \
	test "$rc.${w:-x}" = "0.18.368"

# A run shorter than the settings' turns: nan, and why.
"$stat" --sim --sim-kernel skx -g IO -- true >"$tmp/short" 2>&1
expect "skx -g IO -- true (one read for 4 settings): nan, not a made-up value" \
	grep -qE '^skx_metric::IO_READ_BW +GB/s +nan +nan +nan$' "$tmp/short"
expect "... and the report says why ($(grep '^ multiplexed' "$tmp/short" | head -c 160))" \
	grep -q '^ multiplexed: the metrics. terms take 4 settings in turn, switched at each read (every 100 ms); this run was read 1 time, so the terms of some settings were never counted (nan)' "$tmp/short"
