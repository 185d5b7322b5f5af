#!/usr/bin/env bash
# One meaning of GB/s: `make demo` prints a DRAM bandwidth table computed
# from raw CAS counts (x 64 bytes / seconds / 10^9) and then the component's
# metrics (metrics/hswep.metrics, GB = 10^9); for the same traffic
# (demo-stream.scn: 51.2 GB/s read, 25.6 GB/s written per socket) both must
# show the same number.  The demo runs on the wall clock, so each figure is
# compared with the scenario's rate to within 1 %.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL

"$SRCDIR/scripts/demo.sh" "$STAGE" "$SRCDIR" >"$tmp/demo" 2>&1
expect "the demo runs (status 0)" test $? -eq 0

near() { # near VALUE WANT: within 1 %
	awk -v v="$1" -v w="$2" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= w / 100) }'
}
table_read=$(awk '$1 == "read" && $3 == "GB/s" { print $2; exit }' "$tmp/demo")
table_write=$(awk '$1 == "write" && $3 == "GB/s" { print $2; exit }' "$tmp/demo")
metric_read=$(awk '$1 == "hswep_metric::DRAM_READ_BW:socket=0" { print $3; exit }' "$tmp/demo")
metric_write=$(awk '$1 == "hswep_metric::DRAM_WRITE_BW:socket=1" { print $3; exit }' "$tmp/demo")
expect "demo table: socket 0 reads 51.2 GB/s (got '$table_read')" near "$table_read" 51.2
expect "demo table: socket 0 writes 25.6 GB/s (got '$table_write')" near "$table_write" 25.6
expect "metric DRAM_READ_BW:socket=0: 51.2 GB/s, as the table (got '$metric_read')" near "$metric_read" 51.2
expect "metric DRAM_WRITE_BW:socket=1: 25.6 GB/s, as the table (got '$metric_write')" near "$metric_write" 25.6
