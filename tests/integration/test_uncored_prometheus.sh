#!/usr/bin/env bash
# uncored's Prometheus endpoint (`uncored --prometheus 127.0.0.1:PORT`,
# README "uncored, the node service") scraped by a real Prometheus server
# (Debian's prometheus package, scripts/install-deps.sh), started here on
# loopback with a scrape config and a storage directory of its own, and
# queried through its HTTP API.  On a shared simulated node (the stream
# scenario: per socket 8 channels x 100 M reads of 64 B a second of
# simulated time, 51,200,000,000 bytes a second):
# * PAPI_UNC_DRAM_RD_BYTES per socket, papi_unc_dram_rd_bytes_total
#   {scope="socket"}, is 51.2e9 x the scrape's simulated time
#   (intel_uncore_clock_seconds of the same scrape), checked in PromQL at
#   2 s and again after the node advanced to 5 s: exactly 102400000000 and
#   256000000000 bytes a socket;
# * every series is labelled host, platform="hswep" and simulated="true";
#   the node series and the MEM group's DRAM_BW gauge are there.
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 6
uncored=$STAGE/sbin/uncored
sim=$BUILD/bin/uncore-sim
PROM=${PROMETHEUS:-$(command -v prometheus || true)}
if [ -z "$PROM" ]; then
	skip_dep "prometheus is not installed (scripts/install-deps.sh installs Debian's prometheus)"
	exit 0
fi
need "$uncored" "$sim" || exit 0
tmp=$(mktemp -d)
node=$tmp/node
p_pid=
cleanup() {
	[ -n "$p_pid" ] && kill "$p_pid" 2>/dev/null && wait "$p_pid" 2>/dev/null
	uncored_sim_down "$tmp"
	rm -rf "$tmp"
}
trap cleanup EXIT
# Two free loopback ports (the kernel's choice), for the endpoint and the
# server.  Free when chosen, not reserved: another program may take one
# before uncored binds it (CI ran into that), so a port in use is chosen
# again, five times at most.
for try in 1 2 3 4 5; do
	read -r eport pport < <("$PYTHON3" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
	uncored_sim_up "$tmp" --prometheus "127.0.0.1:$eport" >"$tmp/up.out" && break
	uncored_sim_down "$tmp"
	if [ "$try" = 5 ] || ! grep -q 'Address already in use' "$tmp/uncored.err"; then
		cat "$tmp/up.out"
		exit 0
	fi
done
"$sim" advance "$node" 2s
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: uncored
    static_configs:
      - targets: ['127.0.0.1:$eport']
YML
"$PROM" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom.log" 2>&1 &
p_pid=$!
# query PROMQL: the instant vector's samples, one "labels value" line each
# (nothing while the server starts or has not scraped yet).
query() {
	"$PYTHON3" - "http://127.0.0.1:$pport/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
try:
    url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
    r = json.load(urllib.request.urlopen(url, timeout=5))
except Exception:
    sys.exit(0)
for s in r.get("data", {}).get("result", []):
    m = s["metric"]
    print(",".join(f'{k}={m[k]}' for k in sorted(m) if k not in ("instance", "job")), s["value"][1])
PY
}
# wait_for PROMQL WANT: until the query's output is WANT (a guard of 60 s
# for the server's start and its scrapes, not a measurement).
wait_for() {
	for _ in $(seq 120); do
		[ "$(query "$1")" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
RD='papi_unc_dram_rd_bytes_total{scope="socket"}'
L="host=$(hostname),platform=hswep,scope=socket,simulated=true"
want2="__name__=papi_unc_dram_rd_bytes_total,$L,socket=0 102400000000
__name__=papi_unc_dram_rd_bytes_total,$L,socket=1 102400000000"
wait_for "$RD" "$want2"
expect "Prometheus scraped PAPI_UNC_DRAM_RD_BYTES per socket at 2 simulated s: $(query "$RD" | tr '\n' ' ')" \
	test "$(query "$RD")" = "$want2"
[ "$(query "$RD")" = "$want2" ] || { sed 's/^/   /' "$tmp/uncored.err"; tail -5 "$tmp/prom.log" | sed 's/^/   /'; }
# The scenario's value at the scrape's simulated time: 51.2e9 bytes a
# second a socket, by the clock of the same scrape.
DIFF="$RD - on(host, platform, simulated) group_left 51200000000 * intel_uncore_clock_seconds"
expect "  ... = 51.2e9 x the scrape's simulated time, in PromQL: $(query "$DIFF" | awk '{ print $NF }' | tr '\n' ' ')" \
	test "$(query "$DIFF" | awk '{ print $NF }' | tr '\n' ' ')" = "0 0 "
"$sim" advance "$node" 3s
want5="__name__=papi_unc_dram_rd_bytes_total,$L,socket=0 256000000000
__name__=papi_unc_dram_rd_bytes_total,$L,socket=1 256000000000"
wait_for "$RD" "$want5"
expect "after 3 more simulated seconds: $(query "$RD" | awk '{ print $NF }' | tr '\n' ' ')(clock $(query intel_uncore_clock_seconds | awk '{ print $NF }') s)" \
	test "$(query "$RD")" = "$want5" -a "$(query intel_uncore_clock_seconds | awk '{ print $NF }')" = 5
expect "  ... still 51.2e9 x the scrape's simulated time" \
	test "$(query "$DIFF" | awk '{ print $NF }' | tr '\n' ' ')" = "0 0 "
node_rd=$(query 'papi_unc_dram_rd_bytes_total{scope="node"}' | awk '{ print $NF }')
expect "the node series: $node_rd (both sockets)" test "$node_rd" = 512000000000
bw=$(query 'intel_uncore_mem_dram_bw{scope="node",simulated="true"}' | awk '{ print $NF }')
expect "the MEM group's DRAM_BW gauge is scraped too (${bw:-nothing} GB/s)" test -n "$bw"
