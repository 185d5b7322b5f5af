#!/usr/bin/env bash
# The uncore presets of every generation (issue 25), each from its platform
# object (src/platform/<gen>/), on the simulator model of each:
#  - build/itests/papi_presets_gen MODEL: every preset counts exactly what
#    the scenario defines, node and socket, beside its raw event, and a
#    generation lists its presets and no other;
#  - papi_avail lists them (Yes) on every model, the three Haswell-EP ones too;
#  - PAPI_EVENTS (PAPI's high-level API): the JSON holds each preset and its
#    raw event with the scenario's values.
set -u
. "$(dirname "$0")/lib.sh"
plan 100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks TMPDIR=$tmp
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
export SRCDIR
unset PAPI_INTEL_UNCORE_SIM_KERNEL PAPI_EVENTS
bin=$BUILD/itests/papi_presets_gen
need "$bin" || exit 0
for model in i7-6700k i7-7700k e5-2697v4-2s x5570-2s x5670-2s x7460-4s x7140m-4s; do
	run_checks "$model" "$bin" "$model"
done

while read -r model presets; do
	PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM=$model "$STAGE/bin/papi_avail" >"$tmp/avail" 2>&1
	for p in $presets; do
		expect "papi_avail on $model lists $p as available" grep -qE "^$p *0x[0-9a-f]+ +Yes" "$tmp/avail"
	done
done <<'LIST'
e5-2699v3-2s PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_QPI_DATA_BYTES PAPI_UNC_CLOCKTICKS
e7-8890v3-4s PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_QPI_DATA_BYTES PAPI_UNC_CLOCKTICKS
e5-2620v3-2s PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_QPI_DATA_BYTES PAPI_UNC_CLOCKTICKS
e5-2697v4-2s PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_QPI_DATA_BYTES PAPI_UNC_CLOCKTICKS
i7-6700k PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_CLOCKTICKS
i7-7700k PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_CLOCKTICKS
x5570-2s PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES PAPI_UNC_CLOCKTICKS PAPI_UNC_DRAM_RD_BYTES:socket=1
x7460-4s PAPI_UNC_LLC_MISSES PAPI_UNC_LLC_MISSES:socket=3
x7140m-4s PAPI_UNC_LLC_MISSES
LIST

for model in i7-6700k i7-7700k e5-2697v4-2s x5570-2s x5670-2s x7460-4s x7140m-4s; do
	rm -rf "$tmp/hl"
	"$bin" "$model" hl "$tmp/hl" >"$tmp/hl.out" 2>&1
	grep -E '^(PASS|FAIL)' "$tmp/hl.out"
	json=$(find "$tmp/hl" -name '*.json' 2>/dev/null | head -1)
	if [ -z "$json" ]; then
		fail "PAPI_EVENTS on $model: the high-level API wrote no JSON ($(tail -3 "$tmp/hl.out" | tr '\n' ' '))"
		continue
	fi
	"${PYTHON3:-python3}" - "$json" "$tmp/hl.out" "$model" <<'PY'
import json, sys
found = {}
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, str) and v.lstrip("-").isdigit():
                found.setdefault(k, int(v))
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))
for line in open(sys.argv[2]):
    if not line.startswith("want "):
        continue
    _, name, want = line.split()
    got = found.get(name)
    print(("PASS " if got == int(want) else "FAIL ") +
          "PAPI_EVENTS on %s: %s = %s, the scenario's %s" % (sys.argv[3], name, got, want))
PY
done
