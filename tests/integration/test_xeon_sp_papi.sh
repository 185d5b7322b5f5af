#!/usr/bin/env bash
# Today's Xeons through PAPI (issue 26): on each simulated kernel shape
# (src/simkernel/shape_*.c), the perf backend with the generation's tables
# generated from Intel's data (src/events/registry_xeon_sp.c) and presets
# (src/platform/xeon_sp.h):
#  - papi_native_avail lists every event of every box kind Intel's data has
#    for the generation (counted from the generated headers themselves);
#  - papi_avail lists the five presets;
#  - papi_command_line of each preset and of a CHA, IMC, UPI, M2M (B2CMI on
#    Granite Rapids / Sierra Forest) and IIO event, for the node, :socket=1
#    and one instance, counts exactly what the shape's scenario defines: on
#    virtual time (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1 s), instance i of
#    socket s counts rate x (i+1) x (s+1) (clocks: rate) per second; the
#    expected values are computed here from the scenario's rates;
#  - the 128 CHAs of Granite Rapids summed exactly; GNR's DRAM presets count
#    both schedulers on the old kernel too (gnr-old: its aliases know
#    scheduler 0 only);
#  - counter restrictions of Intel's data honoured when grouping.
set -u
. "$(dirname "$0")/lib.sh"
plan 201
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks TMPDIR=$tmp
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_EVENTS PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000
hdrs=$SRCDIR/libpfm4-events/events/perfmon

# ---- papi_native_avail: every box kind of Intel's data, every event ----------
for shape in skx icx spr emr gnr srf; do
	gen=$shape
	PAPI_INTEL_UNCORE_SIM_KERNEL=$shape "$STAGE/bin/papi_native_avail" >"$tmp/native" 2>&1
	missing="" wrong=""
	for h in "$hdrs"/intel_${gen}_unc_*_events.h; do
		kind=${h#"$hdrs/intel_${gen}_unc_"}
		kind=${kind%_events.h}
		want=$(grep -c '^{ \.name' "$h")
		got=$(grep -oE "^\| intel_uncore:::${gen}_unc_${kind}::[A-Za-z0-9_]+ " "$tmp/native" | sort -u | wc -l)
		[ "$got" -gt 0 ] || missing="$missing $kind"
		[ "$got" -eq "$want" ] || wrong="$wrong $kind($got of $want)"
	done
	expect "$shape: papi_native_avail lists every box kind of Intel's $gen data${missing:+ (missing:$missing)}" \
		test -z "$missing"
	expect "$shape: ... with every event of each${wrong:+ (differ:$wrong)}" test -z "$wrong"
done

# ---- papi_avail: the presets ---------------------------------------------------
for shape in skx icx spr emr gnr gnr-old srf; do
	PAPI_INTEL_UNCORE_SIM_KERNEL=$shape "$STAGE/bin/papi_avail" >"$tmp/avail" 2>&1
	for p in PAPI_UNC_DRAM_RD_BYTES PAPI_UNC_DRAM_WR_BYTES PAPI_UNC_LLC_MISSES \
		PAPI_UNC_UPI_DATA_BYTES PAPI_UNC_CLOCKTICKS; do
		if [ "$shape" = gnr-old ] && [ "$p" = PAPI_UNC_UPI_DATA_BYTES ]; then
			# That kernel has no UPI PMUs: the preset is absent, not zero.
			expect "gnr-old: papi_avail does not list $p (no UPI PMU on that kernel)" \
				sh -c "! grep -qE '^$p *0x[0-9a-f]+ +Yes' '$tmp/avail'"
			continue
		fi
		expect "$shape: papi_avail lists $p as available" grep -qE "^$p *0x[0-9a-f]+ +Yes" "$tmp/avail"
	done
done

# ---- papi_command_line: exact counts -------------------------------------------
# shape  event  rate/s  instances  uniform  factor  [instance]
# (rate: of instance 0 on socket 0; the sum over a family is rate x
# (1 + ... + n) x (1 + 2) over two sockets; a uniform clock counts rate on
# each instance; factor: a preset's bytes per count, "64/9" for UPI.)
cat >"$tmp/rows" <<'ROWS'
skx PAPI_UNC_DRAM_RD_BYTES 20000000 6 0 64
skx PAPI_UNC_DRAM_WR_BYTES 8000000 6 0 64
skx PAPI_UNC_LLC_MISSES 3000000 28 0 1
skx PAPI_UNC_UPI_DATA_BYTES 50000000 3 0 64/9
skx PAPI_UNC_CLOCKTICKS 2400000000 1 1 1
skx skx_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 28 0 1
skx skx_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS_DRD 1000000 28 0 1
skx skx_unc_imc::UNC_M_CAS_COUNT:RD 20000000 6 0 1
skx skx_unc_upi::UNC_UPI_TxL_FLITS.ALL_DATA 50000000 3 0 1
skx skx_unc_m2m::UNC_M2M_CLOCKTICKS 2400000000 2 1 1
skx skx_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0 2000000 6 0 1
skx skx_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 28 0 1 5
icx PAPI_UNC_DRAM_RD_BYTES 5000000 12 0 64
icx PAPI_UNC_DRAM_WR_BYTES 2000000 12 0 64
icx PAPI_UNC_LLC_MISSES 3000000 40 0 1
icx PAPI_UNC_UPI_DATA_BYTES 60000000 3 0 64/9
icx PAPI_UNC_CLOCKTICKS 2400000000 1 1 1
icx icx_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS_DRD 1000000 40 0 1
icx icx_unc_cha::UNC_CHA_TOR_INSERTS.IO_PCIRDCUR 500000 40 0 1
icx icx_unc_cha::UNC_CHA_TOR_INSERTS.IO_MISS_PCIRDCUR 300000 40 0 1
icx icx_unc_imc::UNC_M_CAS_COUNT.WR 2000000 12 0 1
icx icx_unc_upi::UNC_UPI_RxL_FLITS.ALL_DATA 45000000 3 0 1
icx icx_unc_m2m::UNC_M2M_CLOCKTICKS 2400000000 4 1 1
icx icx_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0 1000000 6 0 1
icx icx_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 40 0 1 39
spr PAPI_UNC_DRAM_RD_BYTES 10000000 8 0 64
spr PAPI_UNC_DRAM_WR_BYTES 5000000 8 0 64
spr PAPI_UNC_LLC_MISSES 3000000 56 0 1
spr PAPI_UNC_UPI_DATA_BYTES 60000000 4 0 64/9
spr PAPI_UNC_CLOCKTICKS 2000000000 1 1 1
spr spr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 56 0 1
spr spr_unc_cha::UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD 150000000 56 0 1
spr spr_unc_cha::UNC_CHA_TOR_INSERTS.IO_ITOMCACHENEAR 100000 56 0 1
spr spr_unc_imc::UNC_M_CAS_COUNT.RD 10000000 8 0 1
spr spr_unc_upi::UNC_UPI_TxL_FLITS.ALL_DATA 60000000 4 0 1
spr spr_unc_m2m::UNC_M2M_CLOCKTICKS 2000000000 4 1 1
spr spr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS 2000000 12 0 1
spr spr_unc_pcu::UNC_P_CLOCKTICKS 1000000000 1 1 1
spr spr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 56 0 1 5
emr PAPI_UNC_DRAM_RD_BYTES 10000000 8 0 64
emr PAPI_UNC_DRAM_WR_BYTES 5000000 8 0 64
emr PAPI_UNC_LLC_MISSES 3000000 64 0 1
emr PAPI_UNC_UPI_DATA_BYTES 60000000 4 0 64/9
emr PAPI_UNC_CLOCKTICKS 2000000000 1 1 1
emr emr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 64 0 1
emr emr_unc_imc::UNC_M_CAS_COUNT.WR 5000000 8 0 1
emr emr_unc_upi::UNC_UPI_TxL_FLITS.ALL_DATA 60000000 4 0 1
emr emr_unc_m2m::UNC_M2M_CLOCKTICKS 2000000000 4 1 1
emr emr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.ALL_PARTS 1000000 12 0 1
emr emr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 64 0 1 63
gnr PAPI_UNC_DRAM_RD_BYTES 16000000 12 0 64
gnr PAPI_UNC_DRAM_WR_BYTES 6000000 12 0 64
gnr PAPI_UNC_LLC_MISSES 3000000 128 0 1
gnr PAPI_UNC_UPI_DATA_BYTES 60000000 6 0 64/9
gnr PAPI_UNC_CLOCKTICKS 2000000000 1 1 1
gnr gnr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 128 0 1
gnr gnr_unc_cha::UNC_CHA_TOR_INSERTS.IO_PCIRDCUR 500000 128 0 1
gnr gnr_unc_imc::UNC_M_CAS_COUNT_SCH1.RD 6000000 12 0 1
gnr gnr_unc_upi::UNC_UPI_TxL_FLITS.ALL_DATA 60000000 6 0 1
gnr gnr_unc_b2cmi::UNC_B2CMI_CLOCKTICKS 2000000000 12 1 1
gnr gnr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS 2000000 12 0 1
gnr gnr_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 128 0 1 127
gnr-old PAPI_UNC_DRAM_RD_BYTES 16000000 12 0 64
gnr-old PAPI_UNC_DRAM_WR_BYTES 6000000 12 0 64
gnr-old PAPI_UNC_LLC_MISSES 3000000 128 0 1
gnr-old PAPI_UNC_CLOCKTICKS 2000000000 1 1 1
gnr-old gnr_unc_imc::UNC_M_CAS_COUNT_SCH1.WR 2000000 12 0 1
srf PAPI_UNC_DRAM_RD_BYTES 16000000 8 0 64
srf PAPI_UNC_DRAM_WR_BYTES 6000000 8 0 64
srf PAPI_UNC_LLC_MISSES 3000000 144 0 1
srf PAPI_UNC_UPI_DATA_BYTES 60000000 4 0 64/9
srf PAPI_UNC_CLOCKTICKS 2000000000 1 1 1
srf srf_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 144 0 1
srf srf_unc_imc::UNC_M_CAS_COUNT_SCH0.RD 10000000 8 0 1
srf srf_unc_upi::UNC_UPI_RxL_FLITS.ALL_DATA 45000000 4 0 1
srf srf_unc_b2cmi::UNC_B2CMI_CLOCKTICKS 2000000000 8 1 1
srf srf_unc_iio::UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS 2000000 12 0 1
srf srf_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS 3000000 144 0 1 143
ROWS
# The expected counts of each row, in one pass (a python start per name cost
# most of this script's time under load): the row's names, then their counts,
# (node|socket1) over (all instances|one).
"$PYTHON3" - "$tmp/rows" >"$tmp/wants" <<'PY'
import sys
def want(rate, n, uniform, factor, socks, inst):
    count = sum(rate * (1 if uniform else (i + 1) * (s + 1)) for i in inst for s in socks)
    num, _, den = factor.partition("/")
    return count * int(num) // int(den or 1)
for line in open(sys.argv[1]):
    f = line.split()
    shape, name, rate, n, uniform, factor = f[0], f[1], int(f[2]), int(f[3]), f[4] == "1", f[5]
    if len(f) > 6:
        # An instance row: no preset here, the PMU's own instance suffix.
        pmu, _, ev = name.partition("::")
        names = ["%s%s::%s" % (pmu, f[6], ev)]
        wants = [want(rate, n, uniform, factor, [0, 1], [int(f[6])])]
    else:
        names = [name, name + ":socket=1"]
        wants = [want(rate, n, uniform, factor, s, range(n)) for s in ([0, 1], [1])]
    print(shape, " ".join(names), "|", " ".join(map(str, wants)))
PY
# The presets' instance rows have no instance column (a preset names its
# own instances); a preset's CLOCKTICKS is CHA 0 of each socket.
while read -r line; do
	shape=${line%% *}
	names=${line#* }
	names=${names%% |*}
	wants=${line#*| }
	PAPI_INTEL_UNCORE_SIM_KERNEL=$shape "$STAGE/bin/papi_command_line" $names >"$tmp/cl" 2>&1
	set -- $wants
	for nm in $names; do
		got=$(grep -F "$nm : " "$tmp/cl" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
		expect "$shape: papi_command_line $nm = ${got:-nothing}, the scenario's $1" \
			test "${got:-x}" = "$1"
		shift
	done
done <"$tmp/wants"

# ---- the Skylake-SP CHA filter selects only the events the kernel's
# extra_regs list (TOR inserts/occupancy, LLC lookups): CHA clockticks
# beside a filtered TOR event counts whatever filter the box holds
# (2.4 G x 28 CHAs x 2 sockets), the TOR event its filtered rate
# (1 M x (1 + ... + 28) x (1 + 2)).
PAPI_INTEL_UNCORE_SIM_KERNEL=skx "$STAGE/bin/papi_command_line" skx_unc_cha::UNC_CHA_CLOCKTICKS \
	skx_unc_cha::UNC_CHA_TOR_INSERTS.IA_MISS_DRD >"$tmp/filt" 2>&1
for row in "UNC_CHA_CLOCKTICKS $((2400000000 * 28 * 2))" "UNC_CHA_TOR_INSERTS.IA_MISS_DRD $((1000000 * 406 * 3))"; do
	set -- $row
	got=$(grep -F "skx_unc_cha::$1 : " "$tmp/filt" | sed 's/.*:[[:space:]]*\([0-9]*\).*/\1/')
	expect "skx: skx_unc_cha::$1 beside the other in one set = ${got:-nothing}, the scenario's $2" \
		test "${got:-x}" = "$2"
done

# ---- counter restrictions: three IIO events limited to counters 0-1 (Intel's
# data: Counter "0,1") in one box: the third is refused, naming the others.
PAPI_INTEL_UNCORE_SIM_KERNEL=spr PAPI_INTEL_UNCORE_VERBOSE=1 "$STAGE/bin/papi_command_line" \
	spr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU:MEM_READ_PART0 \
	spr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU:PEER_WRITE_PART0 \
	spr_unc_iio::UNC_IIO_DATA_REQ_OF_CPU:MEM_WRITE_PART0 >"$tmp/restr" 2>&1
expect "spr: a third IIO event for counters 0,1 is refused by its counter restriction" \
	grep -q 'MEM_WRITE_PART0: counter restriction: .* can only use counters 0,1 of spr_unc_iio0' "$tmp/restr"
expect "spr: ... and the two that fit count (MEM_READ_PART0 = 2 M x 78 x 3)" \
	grep -q 'UNC_IIO_DATA_REQ_OF_CPU:MEM_READ_PART0 : 	468000000' "$tmp/restr"
