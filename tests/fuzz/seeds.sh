#!/usr/bin/env bash
# Seed corpora of the fuzz targets, from the project's own data: event
# strings of the golden encoding tables (good and bad rows), formulas and
# whole files of metrics/, the simulator's scenarios, perf format strings.
#   seeds.sh SRCDIR OUTDIR    (OUTDIR/<target>/ made afresh)
set -eu
src=${1:?} out=${2:?}
rm -rf "$out"
mkdir -p "$out"/{fuzz_uncored_protocol,fuzz_event_name,fuzz_set_sim,fuzz_metric_expr,fuzz_metric_file,fuzz_scenario,fuzz_perf_format,fuzz_allowlist_line,fuzz_uncored_policy}
n=0
for g in "$src"/libpfm4-events/golden/*.txt "$src"/tests/unit/events/fixtures/golden.txt; do
	[ -f "$g" ] || continue
	sed -n 's/^\([a-z][^ |]*\) *|.*/\1/p' "$g" | while read -r ev; do
		n=$((n + 1))
		printf '%s' "$ev" >"$out/fuzz_event_name/$(basename "$g" .txt)-$n"
	done
done
# Sets of up to four Haswell-EP events, and metrics by name.
sed -n 's/^\(hswep_[^ |]*\) *|.*| OK$/\1/p' "$src/libpfm4-events/golden/hswep.txt" |
	split -l 4 - "$out/fuzz_set_sim/golden-"
for m in "$src"/metrics/*.metrics; do
	sed -n 's/^metric \([A-Z0-9_a-z]*\).*/\1/p' "$m" | head -40 | while read -r name; do
		printf 'hswep_unc_imc::UNC_M_CAS_COUNT:RD\n%s' "$name" >"$out/fuzz_set_sim/metric-$name"
	done
	sed -n 's/^\tformula //p' "$m" | while read -r f; do
		n=$((n + 1))
		printf '%s' "$f" >"$out/fuzz_metric_expr/$(basename "$m" .metrics)-$n"
	done
	cp "$m" "$out/fuzz_metric_file/"
done
cp "$src"/src/sim/scenarios/*.scn "$out/fuzz_scenario/"
i=0
for f in 'config:0-7' 'config:8-15' 'config:0-7,21' 'config1:0-31' 'config1:32-63' 'config2:0-15,32-47' \
	'config:63' 'config:24-31' 'config1:0-5'; do
	i=$((i + 1))
	printf '%s\n' "$f" >"$out/fuzz_perf_format/seed-$i"
done
i=0
for l in '0x00000C00 0x0000000000000000' '0x00000700 0x00000000FFFFFFFF # UBox' '# comment' '' \
	'c00 ffff' '0x10000000000000000 0x1' '0x700 0x1FFFFFFFFFFFFFFFFF'; do
	i=$((i + 1))
	printf '%s\n' "$l" >"$out/fuzz_allowlist_line/seed-$i"
done
# uncored's protocol: conversations of well-formed requests (HELLO naming a
# group, ADDs, SAMPLE, REMOVE, STATUS), each a 16-bit length and the
# message, 0xffff a reconnect; one malformed message among them.
mkdir -p "$out/fuzz_uncored_protocol"
"${PYTHON3:-python3}" - "$out/fuzz_uncored_protocol" <<'PY'
import struct, sys
def req(op, name=b"", id=0):
    m = struct.pack("<IIII", 0x31444355, 1, op, id) + name.ljust(256, b"\0")[:256]
    return struct.pack("<H", len(m)) + m
HELLO, ADD, REMOVE, SAMPLE, STATUS = 1, 2, 3, 4, 5
talks = {
    "hello-add-sample": req(HELLO, b"openmpi:7") + req(ADD, b"hswep_unc_ubo::UNC_U_CLOCKTICKS") + req(SAMPLE),
    "add-remove": req(HELLO) + req(ADD, b"hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1") + req(REMOVE, id=1) + req(STATUS),
    "reconnect": req(HELLO, b"user:x") + req(ADD, b"hswep_unc_cbo::UNC_C_CLOCKTICKS") + b"\xff\xff" + req(HELLO, b"user:x") + req(ADD, b"hswep_unc_cbo::UNC_C_CLOCKTICKS"),
    "metric-and-junk": req(ADD, b"hswep_metric::DRAM_BW") + struct.pack("<H", 7) + b"garbage" + req(ADD, b"PAPI_UNC_DRAM_RD_BYTES"),
}
for name, data in talks.items():
    open(sys.argv[1] + "/" + name, "wb").write(data)
PY
# uncored policies: every kind of rule, and a few bad lines.
i=0
for p in 'allow * *' 'deny * pcu reason power readings are for administrators' \
	'allow user:root cbo,cha with tf,cf,thread\nallow group:0 imc with raw\nlimit * events 16\nlimit user:0 clients 4' \
	'# comment\n\n  deny group:root * with * reason x # tail' 'limit * sets 3' 'allow user: imc' 'deny * imc with'; do
	i=$((i + 1))
	printf "$p\n" >"$out/fuzz_uncored_policy/seed-$i"
done
