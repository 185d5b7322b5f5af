#!/usr/bin/env bash
# Pictures of a run: `uncore-stat --sim -I 100 --plot run.svg -g MEM -- sleep 1`
# writes an SVG that a real browser (Debian's headless Chromium, installed by
# scripts/install-deps.sh) renders with both sockets' series: the screenshot
# has pixels of socket 0's colour (#1f77b4) and of socket 1's (#d62728).  A
# plot of socket 0 alone has none of socket 1's, so the check can fail.  The
# same from a CSV saved by -I --csv (--plot-from).
set -u
. "$(dirname "$0")/lib.sh"
plan 28
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_BACKEND=sim
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	fail "no chromium to render the plot: run scripts/install-deps.sh (Debian package chromium)"
	exit 0
fi

# screenshot SVG PNG HEIGHT: the page as the browser draws it.
screenshot() {
	HOME=$tmp timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=960,"$3" --screenshot="$2" \
		"file://$1" >"$tmp/browser.log" 2>&1
}
colours() { "$PYTHON3" "$here/png_colours.py" "$1" '#1f77b4' '#d62728'; }

(cd "$tmp" && "$STAGE/bin/uncore-stat" --sim -I 100 --plot run.svg --csv -o run.csv -g MEM -- sleep 1 2>"$tmp/report")
expect "uncore-stat --sim -I 100 --plot run.svg -g MEM -- sleep 1: status 0" test $? -eq 0
expect "the report is written as usual (-o run.csv)" grep -q 'hswep_metric::DRAM_READ_BW' "$tmp/run.csv"
expect "the plot names the command" grep -q 'uncore-stat: sleep 1' "$tmp/run.svg"
expect "... says SIMULATED and the backend" grep -q 'SIMULATED uncore: model e5-2699v3-2s' "$tmp/run.svg"
expect "... has a legend entry per socket" grep -q '>socket 1</text>' "$tmp/run.svg"
expect "... and each metric with its units" grep -q 'DRAM_READ_BW <tspan[^>]*>\[GB/s\]' "$tmp/run.svg"
# The last interval is short when it spans under 3/4 of -I (stat_plot.c):
# how long it was depends on when `sleep 1` ended, which a loaded machine
# moves, so the run's own CSV says which of the two the plot must show.
last=$(awk -F, '$1 == "interval" { s = $3 } END { print s }' "$tmp/run.csv")
if "$PYTHON3" -c "import sys; sys.exit(not float(sys.argv[1]) < 0.075)" "${last:-1}"; then
	expect "... and marks the short last interval (${last} s of 0.1)" grep -q 'last interval short' "$tmp/run.svg"
else
	expect "... and no short last interval (${last} s of 0.1)" test -n "$last" -a "$(grep -c 'last interval short' "$tmp/run.svg")" = 0
fi
screenshot "$tmp/run.svg" "$tmp/run.png" 1020
expect "Chromium renders the plot (see $tmp/browser.log)" test -s "$tmp/run.png"
read -r blue red < <(colours "$tmp/run.png")
expect "the screenshot shows socket 0's series ($blue pixels of #1f77b4)" test "${blue:-0}" -gt 1000
expect "the screenshot shows socket 1's series ($red pixels of #d62728)" test "${red:-0}" -gt 1000

# Socket 0 alone: no pixel of socket 1's colour.
(cd "$tmp" && "$STAGE/bin/uncore-stat" --sim -I 100 -t 0.5 --plot one.svg \
	-e hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=0 2>/dev/null)
expect "a CAS panel drawn live is in bytes too (GB/s)" \
	grep -q 'UNC_M_CAS_COUNT:RD:socket=0 <tspan[^>]*>\[GB/s\]' "$tmp/one.svg"
screenshot "$tmp/one.svg" "$tmp/one.png" 340
read -r blue red < <(colours "$tmp/one.png")
expect "a plot of socket 0 alone: its series ($blue pixels) and none of socket 1's ($red)" \
	test "${blue:-0}" -gt 500 -a "${red:-1}" -eq 0

# From a saved CSV: events and metrics of one run.
"$STAGE/bin/uncore-stat" --sim -I 100 -t 0.6 --csv -o "$tmp/run.csv" -g MEM \
	-e hswep_unc_imc::UNC_M_CAS_COUNT:RD -e hswep_unc_ubo::UNC_U_CLOCKTICKS \
	-e PAPI_UNC_DRAM_WR_BYTES
"$STAGE/bin/uncore-stat" --plot-from "$tmp/run.csv" --plot "$tmp/csv.svg"
expect "--plot-from a saved -I --csv: status 0" test $? -eq 0
# Panels in the event's natural unit: a CAS moves one 64-byte line (HSX
# 2.6.6), a *_BYTES preset counts bytes; a clock has no unit but events/s.
expect "... a CAS panel in bytes, as GB/s" grep -q 'UNC_M_CAS_COUNT:RD <tspan[^>]*>\[GB/s\]' "$tmp/csv.svg"
expect "... a bytes preset's panel in GB/s" grep -q 'PAPI_UNC_DRAM_WR_BYTES <tspan[^>]*>\[GB/s\]' "$tmp/csv.svg"
expect "... a clock's panel as a rate" grep -q 'UNC_U_CLOCKTICKS <tspan[^>]*>\[events/s\]' "$tmp/csv.svg"
# ticks NAME: the tick labels of NAME's panel, one line.
ticks_of() {
	awk -v n="$1 <tspan" 'index($0, n) { on = 1; next }
		on && /font-weight="bold"/ { exit }
		on && /text-anchor="end">[^<]/ { sub(/.*text-anchor="end">/, ""); sub(/<.*/, ""); printf "%s;", $0 }' "$2"
}
cas=$(ticks_of hswep_unc_imc::UNC_M_CAS_COUNT:RD "$tmp/csv.svg")
bw=$(ticks_of hswep_metric::DRAM_READ_BW "$tmp/csv.svg")
expect "... the CAS panel's GB/s ticks ($cas) are the read-bandwidth metric's ($bw)" \
	test -n "$cas" -a "$cas" = "$bw"
expect "... and a metric panel" grep -q 'DRAM_BW <tspan[^>]*>\[GB/s\]' "$tmp/csv.svg"
screenshot "$tmp/csv.svg" "$tmp/csv.png" 800
read -r blue red < <(colours "$tmp/csv.png")
expect "... rendered with both sockets ($blue, $red pixels)" test "${blue:-0}" -gt 1000 -a "${red:-0}" -gt 1000

expect "... with the node's total, a line of its own in each panel and the legend" \
	sh -c "grep -q 'stroke=\"#222222\"' '$tmp/csv.svg' && grep -q '>node</text>' '$tmp/csv.svg'"
expect "the plot drawn live has the node's line too" grep -q 'stroke="#222222"' "$tmp/run.svg"
ticks=$(grep -c 'text-anchor="end">[-0-9.]*e[+-]' "$tmp/csv.svg")
expect "tick labels in k, M, G rather than 1e+09 ($ticks with an exponent)" test "$ticks" -eq 0
clk=$(ticks_of hswep_unc_ubo::UNC_U_CLOCKTICKS "$tmp/csv.svg")
expect "... e.g. labels in G (10^9 events/s of uncore clock: $clk)" sh -c "echo '$clk' | grep -q '[1-9][0-9.]* G;'"

# An unwritable --plot is found before the command runs (status 2, command not run).
"$STAGE/bin/uncore-stat" --sim -I 100 --plot "$tmp/no/such/dir/x.svg" -g MEM -- touch "$tmp/ran" 2>"$tmp/err"
rc=$?
expect "--plot into a missing directory: status 2 before the command runs (got $rc)" \
	sh -c "test $rc -eq 2 && test ! -e '$tmp/ran'"
expect "... saying why ($(head -1 "$tmp/err"))" grep -q 'cannot be written' "$tmp/err"

"$STAGE/bin/uncore-stat" --sim --plot "$tmp/x.svg" -g MEM -- true 2>"$tmp/err"
expect "--plot without -I: status 2" test $? -eq 2
expect "... saying -I is needed" grep -q -- '--plot draws intervals: give -I MS' "$tmp/err"
printf 'not,a,run\n' >"$tmp/bad.csv"
"$STAGE/bin/uncore-stat" --plot-from "$tmp/bad.csv" --plot "$tmp/x.svg" 2>"$tmp/err"
expect "--plot-from a file that is no run: status 1, and why" \
	grep -q 'not a row of uncore-stat -I --csv' "$tmp/err"
