#!/usr/bin/env bash
# Today's Xeons (Sapphire Rapids, Skylake-SP, ...): uncore-stat on simulated
# kernels shaped as those kernels' uncore drivers publish them
# (src/simkernel/shape_*.c), with the groups of Intel's metric files
# (metrics/<gen>.metrics, metrics/gen_perfmon_metrics.py).  -g MEM gives
# per-socket DRAM bandwidth: checked against the kernel's cas_count_read /
# cas_count_write summed over every uncore_imc_N of the socket in the same
# run, with the bytes of a count from their .scale and .unit
# (6.103515625e-5 MiB = 64 bytes), and against the shape's rates (each
# channel i of socket s reads rate x (i+1) x (s+1) per second).
# Every count and time is the kernel's virtual time
# (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP): a step of 1 s at each round of reads,
# so a run counts exactly a whole number of seconds of every rate (one a
# round of reads after the start: the stop's, each -I interval's, a read
# uncore-stat makes before the stop), and uncore-stat's seconds are those
# (the counting time of the same reads): every value below is exact,
# whatever the load on the machine.
set -u
. "$(dirname "$0")/lib.sh"
plan 53
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stat=$STAGE/bin/uncore-stat
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"

"$stat" --sim --sim-kernel spr -g list >"$tmp/list"
expect "-g list on a processor without tables: status 0" test $? -eq 0
expect "-g list: the MEM group from Intel's metric file" grep -q '^MEM  *DRAM bandwidth per socket' "$tmp/list"
expect "-g list: its members" grep -q '^  *spr_metric::DRAM_READ_BW$' "$tmp/list"
expect "-g list: LLC, UPI, IO and POWER too" test "$(grep -cE '^(LLC|UPI|IO|POWER) ' "$tmp/list")" -eq 4

# shape  read CAS/s of channel 0, socket 0  write  channels  the kernel's aliases
# (Granite Rapids: two schedulers per channel, each its own alias).
for shape in "spr 10000000 5000000 8 cas_count_read cas_count_write" \
	"skx 20000000 8000000 6 cas_count_read cas_count_write" \
	"icx 5000000 2000000 12 cas_count_read cas_count_write" \
	"gnr 16000000 6000000 12 cas_count_read_sch0,cas_count_read_sch1 cas_count_write_sch0,cas_count_write_sch1" \
	"emr 10000000 5000000 8 cas_count_read cas_count_write" \
	"srf 16000000 6000000 8 cas_count_read_sch0,cas_count_read_sch1 cas_count_write_sch0,cas_count_write_sch1"; do
	set -- $shape
	name=$1 rd=$2 wr=$3 nch=$4 rdal=$5 wral=$6
	evs=$(echo "$rdal,$wral" | sed 's/\([a-z_0-9]*\)/uncore_imc::\1/g')
	"$stat" --sim --sim-kernel "$name" --json -o "$tmp/$name.json" -g MEM -e "$evs" -- true
	expect "$name: uncore-stat --sim-kernel $name -g MEM: status 0" test $? -eq 0
	if "$PYTHON3" - "$tmp/$name.json" "$rd" "$wr" "$nch" "$rdal" "$wral" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
rd, wr, nch = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rdal, wral = sys.argv[5].split(","), sys.argv[6].split(",")
ev = [d for d in lines if "events" in d]
gr = [d for d in lines if "group" in d]
assert len(ev) == 1 and len(gr) == 1, lines
assert ev[0]["simulated"] is True and "SIMULATED kernel" in ev[0]["origin"], ev[0]
secs = ev[0]["seconds"]
assert secs >= 1 and secs == int(secs), ("whole steps of virtual time", secs)
counts = {e["name"]: e for e in ev[0]["events"]}
def per_socket(aliases, s):
    return sum(counts["uncore_imc::" + a]["sockets"][s] for a in aliases)
r = [per_socket(rdal, s) for s in (0, 1)]
w = [per_socket(wral, s) for s in (0, 1)]
# Box-summed: every channel of the socket (sum of (i+1) over nch channels).
ch = nch * (nch + 1) // 2
for s in (0, 1):
    assert r[s] == rd * ch * (s + 1) * secs, ("reads", s, r[s], rd * ch * (s + 1) * secs)
    assert w[s] == wr * ch * (s + 1) * secs, ("writes", s, w[s], wr * ch * (s + 1) * secs)
m = {x["name"]: x for x in gr[0]["metrics"]}
gen = sys.argv[1].split("/")[-1].split(".")[0] + "_metric::"
assert list(m) == [gen + "DRAM_READ_BW", gen + "DRAM_WRITE_BW", gen + "DRAM_BW"], list(m)
m = {k.replace(gen, "kernel_metric::"): v for k, v in m.items()}
bytes_per_cas = 6.103515625e-5 * 2**20  # the alias's .scale in .unit MiB
assert bytes_per_cas == 64.0
def near(a, b): return abs(a - b) <= 1e-9 * abs(b)  # exact, but for the doubles' rounding
for s in (0, 1):
    assert near(m["kernel_metric::DRAM_READ_BW"]["sockets"][s], r[s] * 64 / secs / 1e9), (s, m)
    assert near(m["kernel_metric::DRAM_WRITE_BW"]["sockets"][s], w[s] * 64 / secs / 1e9), (s, m)
    assert near(m["kernel_metric::DRAM_BW"]["sockets"][s], (r[s] + w[s]) * 64 / secs / 1e9), (s, m)
assert near(m["kernel_metric::DRAM_READ_BW"]["total"], sum(r) * 64 / secs / 1e9), m
assert near(m["kernel_metric::DRAM_BW"]["total"], (sum(r) + sum(w)) * 64 / secs / 1e9), m
assert all(x["units"] == "GB/s" for x in m.values()), m
print("   %s: socket 0 reads %.4f GB/s, socket 1 %.4f GB/s" % (sys.argv[1].split("/")[-1],
      m["kernel_metric::DRAM_READ_BW"]["sockets"][0], m["kernel_metric::DRAM_READ_BW"]["sockets"][1]))
PY
	then pass "$name: over whole seconds of virtual time, cas_count = the shape's rates x seconds and DRAM bandwidth per socket = summed cas_count x 64 bytes (.scale x MiB) / s, in GB/s"
	else fail "$name: -g MEM values (file: $(cat "$tmp/$name.json"))"; fi
done

# Text: the group's table over 1 s of virtual time; interval mode: every
# interval one step (1 s) of it, how many the wall clock's -t 0.35 gives,
# the last one marked partial, and the whole run's bandwidth from the
# summed counts over their summed time.
"$stat" --sim --sim-kernel spr -g MEM -- true 2>"$tmp/text"
expect "spr text: the MEM table, 36 x 10 M x 64 B x (1, 2, 1 + 2) = 23.04, 46.08, 69.12 GB/s over whole seconds" \
	sh -c "grep -Eq '^spr_metric::DRAM_READ_BW +GB/s +23\.04 +46\.08 +69\.12$' '$tmp/text' &&
		grep -Eq 'over [1-9][0-9]*\.000000 s:' '$tmp/text'"
"$stat" --sim --sim-kernel spr -g MEM -I 100 -t 0.35 --csv -o "$tmp/iv.csv"
expect "spr -I: status 0" test $? -eq 0
full=$(grep -c '^interval,.*,spr_metric::DRAM_READ_BW,all,.*,0$' "$tmp/iv.csv")
expect "spr -I: $full full intervals (at least one), each over 1.000000 s reading 69.12 GB/s" \
	awk -F, -v n="$full" '$1 == "interval" && $6 == "spr_metric::DRAM_READ_BW" && $7 == "all" && $11 == 0 {
		k++; if ($3 != "1.000000" || $8 != "69.12") bad = 1 } END { exit !(n >= 1 && k == n && !bad) }' "$tmp/iv.csv"
expect "spr -I: the last interval marked partial, over whole seconds reading 69.12 GB/s" \
	grep -Eq '^interval,[^,]*,[1-9][0-9]*\.000000,metric,MEM,spr_metric::DRAM_READ_BW,all,69\.12,GB/s,1,1$' "$tmp/iv.csv"
expect "spr -I: the whole run over the intervals' seconds together, 69.12 GB/s" \
	awk -F, '$6 == "spr_metric::DRAM_READ_BW" && $7 == "all" && $1 == "interval" { sum += $3 }
		$6 == "spr_metric::DRAM_READ_BW" && $7 == "all" && $1 == "total" { t = $3; v = $8 }
		END { exit !(sum >= 2 && t == sum && v == "69.12") }' "$tmp/iv.csv"

# Through PAPI: the box-summed alias with its scale and unit in the description.
PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=spr "$STAGE/bin/papi_native_avail" \
	-e intel_uncore:::uncore_imc::cas_count_read >"$tmp/native" 2>&1
expect "papi_native_avail: uncore_imc::cas_count_read, summed over the 8 channels, 6.103515625e-5 MiB a count" \
	grep -q 'counts in units of 6.103515625e-5 MiB; summed over every uncore_imc_<N>' "$tmp/native"

# A wrong shape name says which there are.
"$stat" --sim --sim-kernel cpx -g MEM -- true 2>"$tmp/err"
expect "--sim-kernel cpx: status 2" test $? -eq 2
expect "... naming the shapes" grep -q 'use perf .*, none, spr, skx, icx, gnr, emr, srf or gnr-old' "$tmp/err"

# --explain -g MEM: the terms as this kernel names them, and the bytes of a count.
"$stat" --sim --sim-kernel gnr --explain -g MEM >"$tmp/explain"
expect "--explain -g MEM on gnr: status 0" test $? -eq 0
expect "--explain -g MEM on gnr: both schedulers' raw events, 64 bytes a count (Intel's formula)" \
	grep -q 'IMC:UNC_M_CAS_COUNT_SCH0.RD + IMC:UNC_M_CAS_COUNT_SCH1.RD) \* 64' "$tmp/explain"


# The formats are the driver's: Intel's UNC_CHA_TOR_INSERTS.IA_MISS (event
# 0x35, UMask 0x01, UMaskExt 0xc001fe) through the SPR CHA's umask field
# config:8-15,32-63 (value 0xc001fe01) counts what the shape's scenario
# gives CHA 5: 3 M x 6 x (socket + 1) a second; on ICX the same event through
# umask config:8-15,32-57; on SKX the UPI data flits (event 0x02, umask 0x0f)
# of link 2, 50 M x 3 x (socket + 1); summed over a family of more than 32
# PMUs, every one: the 128 CHAs of a Granite Rapids socket, 3 M x (1 + ... +
# 128) = 24.768 G a second on socket 0, the 56 of a Sapphire Rapids 4.788 G.
for row in "spr uncore_cha_5::event=0x35:umask=0xc001fe01 18000000" \
	"icx uncore_cha_5::event=0x35:umask=0xc001fe01 18000000" \
	"skx uncore_upi_2::event=0x2:umask=0xf 150000000" \
	"gnr uncore_cha_127::event=0x35:umask=0xc001fe01 384000000" \
	"srf uncore_cha_143::event=0x35:umask=0xc001fe01 432000000" \
	"gnr uncore_cha::event=0x35:umask=0xc001fe01 24768000000" \
	"spr uncore_cha::event=0x35:umask=0xc001fe01 4788000000"; do
	set -- $row
	"$stat" --sim --sim-kernel "$1" --json -o "$tmp/raw-$1.json" -e "$2" -- true
	expect "$1: $2 counts: status 0" test $? -eq 0
	if "$PYTHON3" - "$tmp/raw-$1.json" "$3" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
ev = [d for d in ev if "events" in d][0]
rate, secs = int(sys.argv[2]), ev["seconds"]
assert secs >= 1 and secs == int(secs), ("whole steps of virtual time", secs)
e = ev["events"][0]
for s in (0, 1):
    assert e["sockets"][s] == rate * (s + 1) * secs, (s, e, rate * (s + 1) * secs)
PY
	then pass "$1: $2 counts exactly the scenario's rate x (socket + 1) x seconds on each socket"
	else fail "$1: $2 (file: $(cat "$tmp/raw-$1.json"))"; fi
done

# A kernel metric named with -e is shown as a metric too.
"$stat" --sim --sim-kernel spr --csv -o "$tmp/e.csv" -e spr_metric::DRAM_BW -- true
expect "-e spr_metric::DRAM_BW: status 0" test $? -eq 0
expect "... a GB/s row per socket and for the node: 36 x 15 M x 64 B x (1 + 2) = 103.68 GB/s" \
	grep -Eq '^total,[^,]*,[1-9][0-9]*\.000000,metric,-e,spr_metric::DRAM_BW,all,103\.68,GB/s,1,0$' "$tmp/e.csv"

# Intel's metrics on the shapes' scenarios (rates: src/simkernel/shape_*.c),
# socket 0, exactly (as printed: six significant digits): Granite Rapids on the old kernel
# (aliases of scheduler 0 only) gets the whole bandwidth from the raw
# encodings of both schedulers, (10 + 6) M x 78 x 64 B = 79.872 GB/s; on
# Sapphire Rapids the LLC miss latency is 150 M / 1 M cycles at 2 GHz =
# 75 ns, UPI 60 M x 10 x 64 / 9 B = 4.2667 GB/s, IO reads (PCIRDCUR) 500 k
# x 1596 x 64 B = 51.072 GB/s, IO writes (ITOM + ITOMCACHENEAR) 350 k x
# 1596 x 64 B = 35.7504 GB/s, the uncore clock 2000 MHz.
"$stat" --sim --sim-kernel gnr-old --csv -o "$tmp/old.csv" -g MEM -- true
expect "gnr-old -g MEM: status 0" test $? -eq 0
# (LLC and IO together would need six CHA counters of four: the set would
# take turns, and one read at the end would not have counted every term.)
"$stat" --sim --sim-kernel spr --csv -o "$tmp/all.csv" -g MEM -g UPI -g IO -- true
expect "spr -g MEM -g UPI -g IO: status 0" test $? -eq 0
"$stat" --sim --sim-kernel spr --csv -o "$tmp/llc.csv" -g LLC -g POWER -- true
expect "spr -g LLC -g POWER: status 0" test $? -eq 0
while read -r file metric want; do
	got=$(awk -F, -v m="$metric" '$1 == "total" && $6 == m && $7 == "0" { print $8 }' "$tmp/$file")
	expect "$file: $metric socket 0 = ${got:-nothing}, the scenario's $want" test "${got:-}" = "$want"
done <<'ROWS'
old.csv gnr_metric::DRAM_READ_BW 79.872
all.csv spr_metric::DRAM_READ_BW 23.04
all.csv spr_metric::DRAM_WRITE_BW 11.52
llc.csv spr_metric::LLC_MISS_LATENCY 75
all.csv spr_metric::UPI_DATA_BW 4.26667
all.csv spr_metric::IO_READ_BW 51.072
all.csv spr_metric::IO_WRITE_BW 35.7504
llc.csv spr_metric::UNCORE_FREQ 2000
ROWS
