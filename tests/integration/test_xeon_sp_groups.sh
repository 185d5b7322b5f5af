#!/usr/bin/env bash
# uncore-stat's metric groups on every simulated kernel of today's Xeons
# (issue 26: "uncore-stat -g MEM -g LLC -g UPI -g IO prints values equal to
# the scenario's"), on the kernel's virtual time
# (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1 s: a run of `-- true` is exactly one
# second): socket 0's value of every metric of MEM, UPI, IO (one run) and
# LLC, POWER (another: LLC and IO together need more CHA counters than a
# CHA has, so the set would take turns and one read at the end would leave
# some terms uncounted, NaN), equal to the one the shape's scenario defines
# (src/simkernel/shape_*.c: instance i of socket 0 counts rate x (i+1) a
# second, clocks uniform), as uncore-stat prints it (six significant
# digits): the one-read runs (`-- true`).  Left out here, because their
# terms take turns (settings of one box switched at every read: NaN until
# each has been active, which a one-read run cannot give; the report says
# so): Skylake-SP's IO metrics (eight IIO events restricted to counters 0-1,
# four settings) and Ice Lake-SP's IO_WRITE_BW (six CHA terms, two
# settings); they, and the four groups in ONE run on every shape, are
# checked over runs of several reads in test_xeon_sp_four_groups.sh.
set -u
. "$(dirname "$0")/lib.sh"
plan 46
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
stat=$STAGE/bin/uncore-stat

for shape in skx icx spr emr gnr srf; do
	"$stat" --sim --sim-kernel $shape --csv -o "$tmp/$shape.a.csv" -g MEM -g UPI -g IO -- true 2>"$tmp/err"
	expect "$shape: uncore-stat -g MEM -g UPI -g IO: status 0 ($(head -c 200 "$tmp/err"))" test $? -eq 0
	"$stat" --sim --sim-kernel $shape --csv -o "$tmp/$shape.b.csv" -g LLC -g POWER -- true 2>"$tmp/err"
	expect "$shape: uncore-stat -g LLC -g POWER: status 0 ($(head -c 200 "$tmp/err"))" test $? -eq 0
done
# shape run metric value: the arithmetic, socket 0, 1 s.
# DRAM: channels' CAS x 64 B (skx 6 ch: 1+..+6 = 21; icx 12: 78; spr/emr 8:
# 36; gnr 12: 78 (both schedulers, 10 M + 6 M); srf 8: 36).  UPI: data
# flits x 64/9 B (links: skx, icx 3: 6; spr, emr, srf 4: 10; gnr 6: 21).
# IO through the CHAs: TOR inserts x 64 B (CHAs: icx 40: 820; spr 56: 1596;
# emr 64: 2080; gnr 128: 8256; srf 144: 10440).  LLC miss latency: TOR
# occupancy / inserts of demand reads, 150 cycles, at the CHA clock (skx,
# icx 2.4 GHz: 62.5 ns; 2 GHz: 75 ns); the uncore clock in MHz.
while read -r shape run metric want; do
	got=$(awk -F, -v m="$metric" '$1 == "total" && $6 == m && $7 == "0" { print $8 }' "$tmp/$shape.$run.csv")
	expect "$shape: $metric socket 0 = ${got:-nothing}, the scenario's $want" test "${got:-x}" = "$want"
done <<'ROWS'
skx a skx_metric::DRAM_READ_BW 26.88
skx a skx_metric::DRAM_WRITE_BW 10.752
skx a skx_metric::UPI_DATA_BW 2.13333
skx b skx_metric::LLC_MISS_LATENCY 62.5
skx b skx_metric::UNCORE_FREQ 2400
icx a icx_metric::DRAM_READ_BW 24.96
icx a icx_metric::DRAM_WRITE_BW 9.984
icx a icx_metric::UPI_DATA_BW 2.56
icx a icx_metric::IO_READ_BW 26.24
icx b icx_metric::LLC_MISS_LATENCY 62.5
icx b icx_metric::UNCORE_FREQ 2400
emr a emr_metric::DRAM_READ_BW 23.04
emr a emr_metric::DRAM_WRITE_BW 11.52
emr a emr_metric::UPI_DATA_BW 4.26667
emr a emr_metric::IO_READ_BW 66.56
emr a emr_metric::IO_WRITE_BW 46.592
emr b emr_metric::LLC_MISS_LATENCY 75
emr b emr_metric::UNCORE_FREQ 2000
gnr a gnr_metric::DRAM_READ_BW 79.872
gnr a gnr_metric::DRAM_WRITE_BW 29.952
gnr a gnr_metric::UPI_DATA_BW 8.96
gnr a gnr_metric::IO_READ_BW 264.192
gnr a gnr_metric::IO_WRITE_BW 132.096
gnr b gnr_metric::LLC_MISS_LATENCY 75
gnr b gnr_metric::UNCORE_FREQ 2000
srf a srf_metric::DRAM_READ_BW 36.864
srf a srf_metric::DRAM_WRITE_BW 13.824
srf a srf_metric::UPI_DATA_BW 4.26667
srf a srf_metric::IO_READ_BW 334.08
srf a srf_metric::IO_WRITE_BW 167.04
srf b srf_metric::LLC_MISS_LATENCY 75
srf b srf_metric::UNCORE_FREQ 2000
ROWS
# spr's every group: test_kernel_groups.sh.  The four groups in one run of
# one read on spr: the metrics whose terms share the first setting count;
# the others are nan (test_xeon_sp_four_groups.sh: several reads).
"$stat" --sim --sim-kernel spr --csv -o "$tmp/four.csv" -g MEM -g LLC -g UPI -g IO -- true 2>"$tmp/err"
expect "spr: uncore-stat -g MEM -g LLC -g UPI -g IO: status 0" test $? -eq 0
got=$(awk -F, '$1 == "total" && $6 == "spr_metric::DRAM_READ_BW" && $7 == "0" { print $8 }' "$tmp/four.csv")
expect "spr, four groups in one run: DRAM_READ_BW socket 0 = ${got:-nothing}, the scenario's 23.04" test "${got:-x}" = 23.04
