#!/usr/bin/env bash
# PAPI's high-level API (PAPI_EVENTS, the JSON it writes) with uncore
# presets and metrics' integer forms (issue 12): build/itests/papi_hl_json
# counts one region on the simulator; here the JSON must hold the preset
# equal to 64 x the CAS reads beside it, and DRAM_BW:int, read "=instant",
# equal to the MB/s of the CAS reads and writes over the 20 ms region
# (GB = 10^9 bytes, so MB/s = 10^6 bytes/s), node and socket 1.
set -u
. "$(dirname "$0")/lib.sh"
plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=${PAPI_INTEL_UNCORE_LOCK_DIR:-$tmp/locks}
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR
bin=$BUILD/itests/papi_hl_json
need "$bin" || exit 0
"$bin" "$tmp/out" 2>&1
json=$(find "$tmp/out" -name '*.json' | head -1)
if [ -z "$json" ]; then
	fail "the high-level API wrote no JSON under $tmp/out"
	exit 0
fi
"$PYTHON3" - "$json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
found = {}
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            # PAPI 7.0 writes every value as a JSON string of digits.
            if isinstance(v, str) and v.lstrip("-").isdigit():
                found.setdefault(k, int(v))
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(doc)
def get(k):
    if k not in found:
        print("FAIL the JSON has no %s (keys: %s)" % (k, sorted(found)))
        sys.exit(0)
    return found[k]
rd = get("hswep_unc_imc::UNC_M_CAS_COUNT:RD")
wr = get("hswep_unc_imc::UNC_M_CAS_COUNT:WR")
pre = get("PAPI_UNC_DRAM_RD_BYTES")
bw = get("hswep_metric::DRAM_BW:int")
bw1 = get("hswep_metric::DRAM_BW:socket1:int")
ok = lambda c, m: print(("PASS " if c else "FAIL ") + m)
ok(rd > 0 and pre == 64 * rd, "PAPI_EVENTS: PAPI_UNC_DRAM_RD_BYTES = %s = 64 x CAS reads (%s)" % (pre, rd))
want = 64 * (rd + wr) / 0.020 / 1e6
ok(abs(bw - want) <= 1,
   "PAPI_EVENTS: DRAM_BW:int=instant = %s MB/s, the CAS traffic's %.1f MB/s" % (bw, want))
ok(0 < bw1 < bw, "PAPI_EVENTS: DRAM_BW:socket1:int = %s MB/s, part of the node's" % bw1)
PY
