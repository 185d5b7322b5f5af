#!/usr/bin/env bash
# Metrics through uncored, the node service, are timed by the service's
# samples (issue 27, "right for every reader"): a client's plain PAPI_read
# returns the totals of the service's last sample, up to 100 ms old, so a
# rate divides them by the time between two samples' instants (published in
# the snapshot, src/backend/service/snapshot.h), never by the reader's own
# "now".  On a shared simulated node in virtual time (the stream scenario:
# per socket 8 channels x 100 M reads of 64 B a second, 102.4 GB/s a node)
# behind `uncored --sim`, whose time moves only when `uncore-sim advance`
# moves it:
# * uncore-stat's run total of DRAM_READ_BW over one advanced second is the
#   scenario's 102.4 GB/s, socket 1's 51.2 (against the reader's clock it
#   was the bytes over the 10 ms uncore-stat ran: 9573 GB/s);
# * uncore-stat -I 100 while the node advances 1 s twice, 0.5 s apart: the
#   two intervals in which a sample brought the node's time on read
#   102.4 GB/s over 1 s, and the run total too (against the reader's clock
#   those intervals read the bytes of a second over 0.1 s, 1024 GB/s, the
#   others 0, and the run total 134).
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 4
sim=$BUILD/bin/uncore-sim
need "$STAGE/sbin/uncored" "$sim" "$STAGE/bin/uncore-stat" || exit 0
tmp=$(mktemp -d)
node=$tmp/node
cleanup() {
	uncored_sim_down "$tmp"
	rm -rf "$tmp"
}
trap cleanup EXIT
uncored_sim_up "$tmp" || exit 0
export PAPI_INTEL_UNCORE_SERVICE=$tmp/u.sock

total() { awk -F, -v e="$2" -v s="$3" '$1 == "total" && $6 == e && $7 == s { print $8 }' "$1"; }

"$STAGE/bin/uncore-stat" --csv -o "$tmp/run.csv" -e hswep_metric::DRAM_READ_BW \
	-- "$sim" advance "$node" 1s 2>"$tmp/run.err"
node_bw=$(total "$tmp/run.csv" hswep_metric::DRAM_READ_BW all)
s1_bw=$(total "$tmp/run.csv" hswep_metric::DRAM_READ_BW 1)
expect "uncore-stat through uncored: DRAM_READ_BW over 1 s of the node's time = ${node_bw:-nothing} GB/s, the scenario's 102.4" \
	test "${node_bw:-x}" = 102.4
expect "uncore-stat through uncored: DRAM_READ_BW on socket 1 = ${s1_bw:-nothing} GB/s, the scenario's 51.2" \
	test "${s1_bw:-x}" = 51.2
[ -n "$node_bw" ] || sed 's/^/   /' "$tmp/run.err"

# Intervals: the node advances 1 s twice while uncore-stat reads every
# 100 ms of the host's time; the service samples every 100 ms.
"$STAGE/bin/uncore-stat" -I 100 --csv -o "$tmp/int.csv" -e hswep_metric::DRAM_READ_BW -- \
	sh -c "sleep 0.5; '$sim' advance '$node' 1s; sleep 0.5; '$sim' advance '$node' 1s; sleep 0.5" \
	2>"$tmp/int.err"
# (column 3: the interval's counting time on the service's clock; an
# interval in which no sample came has none, and repeats the last value)
bad=$(awk -F, '$1 == "interval" && $6 == "hswep_metric::DRAM_READ_BW" && $7 == "all" && $3 + 0 > 0 &&
	($8 != "102.4" || $3 != "1.000000") { print $2 ": " $8 " GB/s over " $3 " s" }' "$tmp/int.csv" |
	head -5 | tr '\n' ';')
moved=$(awk -F, '$1 == "interval" && $6 == "hswep_metric::DRAM_READ_BW" && $7 == "all" && $3 + 0 > 0 { n++ }
	END { print n + 0 }' "$tmp/int.csv")
int_total=$(total "$tmp/int.csv" hswep_metric::DRAM_READ_BW all)
expect "uncore-stat -I 100 through uncored: the 2 intervals in which the node's time moved read 102.4 GB/s over 1 s ($moved such${bad:+; wrong: $bad})" \
	test -z "$bad" -a "$moved" -eq 2
expect "uncore-stat -I 100 through uncored: the run total = ${int_total:-nothing} GB/s, the scenario's 102.4" \
	test "${int_total:-x}" = 102.4
[ -n "$int_total" ] || sed 's/^/   /' "$tmp/int.err"
