#!/usr/bin/env bash
# uncore-sim, the simulator's tool, as its README section uses it: it lists
# the models, runs a scenario with exact counts, and works on a shared
# instance (write, advance, read, dump, log tail, fault injection, destroy).
set -u
. "$(dirname "$0")/lib.sh"
plan 37
sim=$BUILD/bin/uncore-sim
tmp=$(mktemp -d)
inst="$tmp/instance"
trap 'rm -rf "$tmp"' EXIT
scn=$SRCDIR/src/sim/scenarios

"$sim" models >"$tmp/models"
expect "models lists ten models" test "$(wc -l <"$tmp/models")" -eq 10
for m in "i7-6700k .*Skylake client" "x5570-2s .*Nehalem" "x5670-2s .*Westmere" "x7460-4s .*Xeon 7400" "x7140m-4s .*Xeon 7100"; do
	expect "... with $m" grep -q "^$m" "$tmp/models"
done
"$sim" create "$tmp/flat" -m x7460-4s -s "$scn/x7400-stream.scn" >/dev/null
"$sim" dump "$tmp/flat" >"$tmp/dump-flat" 2>&1
expect "dump of a flat model says how to read it instead (status 2)" \
	sh -c "test $? -eq 2 && grep -q 'read <inst> msr' '$tmp/dump-flat'"
"$sim" write "$tmp/flat" msr 0 0x107cc 0x3fffff00000000 >/dev/null
"$sim" advance "$tmp/flat" 1ms >/dev/null
expect "read counts a GBSQ event on the Xeon 7400 model" \
	bash -o pipefail -c "'$sim' read '$tmp/flat' msr 0 0x107cc | grep '0x3fffff000f423f' >/dev/null"
"$sim" destroy "$tmp/flat" >/dev/null
expect "... with the E7 four-socket one" grep -q '^e7-8890v3-4s .*4 sockets.*3 QPI, 3 R3QPI' "$tmp/models"
# platform: the generation of a model from its platform object, for
# scripts (first-machine.sh): a cousin's description and preset events.
"$sim" platform -m x5670-2s >"$tmp/platform"
expect "platform -m x5670-2s: Westmere on Nehalem's description, its DRAM read event" \
	sh -c "grep -qx 'name=wsm' '$tmp/platform' && grep -qx 'description=nhm' '$tmp/platform' &&
	  grep -qx 'PAPI_UNC_DRAM_RD_BYTES=wsm_unc_sdm::UNC_IMC_NORMAL_READS:ANY' '$tmp/platform'"
expect "platform -m e5-2697v4-2s: Broadwell-EP on Haswell-EP's, through the direct backend" \
	bash -o pipefail -c "'$sim' platform -m e5-2697v4-2s | tr '\n' ' ' | grep -q 'name=bdx description=hswep backend=direct '"
expect "... with its own PCI device IDs (UBox 2f1e -> 6f1e), Haswell-EP none" \
	bash -o pipefail -c "'$sim' platform -m e5-2697v4-2s | grep -q '^pci_ids=2f1e:6f1e ' &&
	  ! '$sim' platform -m e5-2699v3-2s | grep -q '^pci_ids='"
# The first-machine checklist's facts (struct uncore_platform_kit): a cousin
# inherits its description's and overrides what differs; a preset symbol
# is the preset's event in the generation's own tables.
"$sim" platform -m e5-2697v4-2s >"$tmp/kit-bdx"
expect "platform -m e5-2697v4-2s: its own DCLK event (UNC_M_CLOCKTICKS), through its preset its own UCLK, its own PCI functions" \
	sh -c "grep -qx 'dclk=bdx_unc_imc0::UNC_M_CLOCKTICKS:socket=0' '$tmp/kit-bdx' &&
	  grep -qx 'uclk=bdx_unc_ubo::UNC_U_CLOCKTICKS:socket=0' '$tmp/kit-bdx' && ! grep -q hswep_unc '$tmp/kit-bdx' &&
	  grep -q '^pci_functions=6f1e:UBox-socket-ID 6f30:HA0 ' '$tmp/kit-bdx'"
expect "... Haswell-EP's scenario, backends and DCLK range inherited; not the simulated kernel's" \
	sh -c "grep -qx 'sim_scenario=demo-stream' '$tmp/kit-bdx' && grep -qx 'backends=perf direct' '$tmp/kit-bdx' &&
	  grep -qx 'dclk_mhz_max=1700' '$tmp/kit-bdx' && grep -qx 'sim_perf=yes' '$tmp/kit-bdx'"
expect "platform -m i7-7700k: Kaby Lake takes Skylake client's kit whole" \
	bash -o pipefail -c "diff <('$sim' platform -m i7-7700k | sed -n '/^sim_scenario=/,\$p') <('$sim' platform -m i7-6700k | sed -n '/^sim_scenario=/,\$p') &&
	  '$sim' platform -m i7-7700k | grep -qx 'facts=mchbar slice_gate'"
"$sim" platform -k spr >"$tmp/kit-spr"
expect "platform -k spr: the generation a simulated kernel stands for, counted by perf only" \
	sh -c "grep -qx 'name=spr' '$tmp/kit-spr' && grep -qx 'backend=kernel' '$tmp/kit-spr' && grep -qx 'backends=perf' '$tmp/kit-spr' &&
	  grep -qx 'dclk_mhz_max=3300' '$tmp/kit-spr'"
"$sim" platform -m nosuch >/dev/null 2>"$tmp/platform-err"
expect "platform -m nosuch: status 2, named" sh -c "test $? -eq 2 && grep -q 'no model or instance nosuch' '$tmp/platform-err'"
"$sim" models -v >"$tmp/models-v"
expect "models -v gives clocks" grep -q 'DCLK 1.06667 GHz' "$tmp/models-v"

"$sim" run -s "$scn/stream.scn" -t 1s -p imc:0x400304 -p imc:0x400c04 >"$tmp/run"
expect "run says the output is simulated" grep -q '^SIMULATED uncore: model e5-2699v3-2s' "$tmp/run"
expect "run: 100 M read CAS on all 16 channels" \
	test "$(grep -c 'ctl0 0x00400304 .* ctr0 100000000$' "$tmp/run")" -eq 16
expect "run: 50 M write CAS on all 16 channels" \
	test "$(grep -c 'ctl1 0x00400c04 .* ctr1 50000000$' "$tmp/run")" -eq 16

# A cousin's functions answer with its own device IDs (Broadwell-EP's
# 0x6fXX, platform/bdx/bdx.c), and the dump shows what they answer.
"$sim" create "$tmp/bdx" -m e5-2697v4-2s >/dev/null
"$sim" dump "$tmp/bdx" -a imc ha >"$tmp/dump-bdx" 2>&1
expect "dump of the Broadwell-EP model shows its IMC channel 0 as 8086:6fb0" grep -q 'imc0 (7f:14.0 8086:6fb0)' "$tmp/dump-bdx"
expect "... and its home agent 1 as 8086:6f38" grep -q 'ha1 (7f:12.5 8086:6f38)' "$tmp/dump-bdx"
"$sim" destroy "$tmp/bdx" >/dev/null
rm -rf "$tmp/bdx.locks"

"$sim" create "$inst" -m e5-2620v3-2s -s "$scn/llc.scn" -l "$tmp/log.jsonl" >"$tmp/create"
expect "create names the instance" grep -q "instance: $inst" "$tmp/create"
expect "write FILTER0" "$sim" write "$inst" msr 0 0xe05 0x20000
expect "write CTL0" "$sim" write "$inst" msr 0 0xe01 0x400334
expect "advance 1ms" "$sim" advance "$inst" 1ms
expect "read: 4000 misses in 1 ms" test "$("$sim" read "$inst" msr 0 0xe08)" = 0xfa0
"$sim" dump "$inst" -S 0 cbo >"$tmp/dump"
expect "dump shows the counter" grep -q 'ctl0 0x00400334  ev 0x34 umask 0x03 .* ctr0 4000$' "$tmp/dump"
expect "dump shows the filter" grep -q 'FILTER0 0x20000' "$tmp/dump"
"$sim" log "$inst" -n 1 >"$tmp/tail"
expect "log tail is the last access" \
	grep -qx '{"op":"rd","socket":0,"space":"msr","addr":"0xe08","value":"0xfa0","result":0}' "$tmp/tail"
expect "fault rule" "$sim" fault "$inst" --space msr --addr 0xe08 --nth 1 --count 1 --error EIO
"$sim" read "$inst" msr 0 0xe08 >/dev/null 2>"$tmp/err"
expect "... the next read fails with EIO" grep -q 'UNCORE_EIO.*injected fault' "$tmp/err"
expect "... once" test "$("$sim" read "$inst" msr 0 0xe08)" = 0xfa0
"$sim" write "$inst" msr 0 0xe01 0x500334 2>"$tmp/err"
expect "a reserved bit is refused" grep -q 'UNCORE_EFAULT.*reserved bits 0x100000' "$tmp/err"
expect "destroy" "$sim" destroy "$inst"
expect "... removes the instance" test ! -e "$inst"
