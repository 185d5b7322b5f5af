#!/usr/bin/env bash
# Rates and amounts right for every reader (issue 27, items 1-3), on the
# simulator's virtual clock, direct and perf backends: PAPI's high-level API
# over two regions (1 s of stream.scn, 1 s idle: every rate of the idle one
# 0, every count and amount its region's) and a TAU-like read/reset/
# accumulate client (build/itests/papi_rates; src/metrics/README.md, "What
# a read returns").
set -u
. "$(dirname "$0")/lib.sh"
plan 192
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR
bin=$BUILD/itests/papi_rates
need "$bin" || exit 0

check_hl() { # LABEL DIR
	local json
	json=$(find "$2" -name '*.json' | head -1)
	if [ -z "$json" ]; then
		fail "$1: the high-level API wrote no JSON under $2"
		return
	fi
	"$PYTHON3" - "$1" "$json" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
regions = {}
for t in doc["threads"].values():
    for r in t["regions"].values():
        regions[r["name"]] = r
RD, WR = 1600000000, 800000000           # per node and second (stream.scn)
BW = (RD + WR) * 64 // 10**6             # 153600 MB/s
want = {
    "hswep_unc_imc::UNC_M_CAS_COUNT:RD": RD,
    "hswep_metric::DRAM_BW:int": BW,
    "hswep_metric::DRAM_BW:socket0:int": BW // 2,
    "hswep_unc_imc::UNC_M_CAS_COUNT:WR": WR,
    "PAPI_UNC_DRAM_RD_BYTES": RD * 64,
    "hswep_metric::DRAM_BW:amount:int": BW * 10**6,
    "hswep_metric::DRAM_BW:socket=1:int": BW // 2,
    "hswep_metric::DRAM_BW:socket1:amount:int": BW // 2 * 10**6,
}
types = {k: v["type"] for k, v in doc["event_definitions"].items()}
for name in want:
    rate = name.endswith(":int") and ":amount" not in name
    t = types.get(name)
    print(("PASS " if t == ("instant" if rate else "delta") else "FAIL ") +
          "%s: %s read as %s" % (label, name, t))
for region, k in (("stream", 1), ("idle", 0)):
    r = regions.get(region)
    if r is None:
        print("FAIL %s: no region %s in the JSON" % (label, region))
        continue
    for name, per_s in want.items():
        got = int(r.get(name, "-1"))
        print(("PASS " if got == k * per_s else "FAIL ") +
              "%s: region %s: %s = %d (want %d)" % (label, region, name, got, k * per_s))
PY
}

for backend in direct perf; do
	kernel=
	[ "$backend" = perf ] && kernel=perf
	mkdir -p "$tmp/hl-$backend"
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "$backend backend, high-level API" \
		"$bin" hl "$tmp/hl-$backend"
	check_hl "$backend backend, high-level API" "$tmp/hl-$backend"
	PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel run_checks "$backend backend, TAU-like client" "$bin" tau
done
