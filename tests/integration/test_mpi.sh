#!/usr/bin/env bash
# MPI jobs with Debian's Open MPI on loopback (README "MPI jobs and threads"),
# on shared simulated machines standing for nodes, both backends:
# * an uninstrumented program (build/mpitests/mpi_idle) with
#   LD_PRELOAD=libpapi_uncore_mpi.so, 4 and 8 ranks on one simulated
#   two-socket node, and 4 ranks over two simulated nodes (two machines; the
#   node override PAPI_INTEL_UNCORE_MPI_TEST_NODE): the report's "total" of
#   each event equals the simulator's truth for the interval (the script
#   advances every machine by 4 ms of simulated time between MPI_Init and
#   MPI_Finalize: UCLK 2.5 GHz, so 10,000,000 cycles a box), each socket
#   of each node is counted by exactly one elected rank, the CSV beside it
#   agrees, and the region "wait" is reported;
# * an instrumented program (build/mpitests/mpi_ranks) whose every rank adds
#   the same events: the sum over ranks equals the truth (each socket once);
# * a job with 1 s of stream inside a region and 1 s idle after it, both
#   backends: the job's rate is over its 2 s (each read weighted by its
#   COUNTING_TIME), the region's counts and amounts exact, its rates none;
# * the installed library: `make install prefix=<tmp>`, then 4 ranks with
#   LD_PRELOAD=<prefix>/lib/libpapi_uncore_mpi.so, both backends: the report
#   equals the truth, and every rank loaded <prefix>/lib/libpapi.so.7.0 (the
#   loader's own record, LD_DEBUG=files), not the staged one nor Debian's;
# * an application linked with Debian's libpapi.so.7.0 (same soname, no
#   intel_uncore) and the library preloaded: the job completes, and the
#   report's "problems" names the libpapi that was loaded;
# * events named as perf and Intel spell them.
set -u
. "$(dirname "$0")/lib.sh"
plan 51
idle=$BUILD/mpitests/mpi_idle
ranks=$BUILD/mpitests/mpi_ranks
lib=$STAGE/lib/libpapi_uncore_mpi.so
sim=$BUILD/bin/uncore-sim
need --mpi "$idle" "$ranks" "$lib" || exit 0
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
nodeA=$shm/papi-mpi-test-a-$$
nodeB=$shm/papi-mpi-test-b-$$
cleanup() {
	"$sim" destroy "$nodeA" >/dev/null 2>&1
	"$sim" destroy "$nodeB" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
clocks=$SRCDIR/src/sim/scenarios/hswep-clocks.scn
UBOX=hswep_unc_ubo::UNC_U_CLOCKTICKS
CBO=hswep_unc_cbo::UNC_C_CLOCKTICKS
# 4 ms of a 2.5 GHz UCLK: 10,000,000 cycles per box; per node 2 sockets,
# 1 UBox and 18 CBos each (model e5-2699v3-2s, uncore-sim models -v).
PER_BOX=10000000
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL \
	PAPI_INTEL_UNCORE_MPI_TEST_NODE
export PAPI_INTEL_UNCORE_BACKEND=sim
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
	--mca btl_tcp_if_include lo --mca plm_rsh_agent false)

fresh() {
	"$sim" destroy "$nodeA" >/dev/null 2>&1
	"$sim" destroy "$nodeB" >/dev/null 2>&1
	"$sim" create "$nodeA" -s "$clocks" >/dev/null && "$sim" create "$nodeB" -s "$clocks" >/dev/null
}

# run NAME NP PROGRAM ARGS...: run the job in the background, advance every
# machine by 4 ms once all ranks are past MPI_Init, let it finish.
run() {
	local name=$1 np=$2
	shift 2
	rm -rf "$tmp/$name"
	mkdir -p "$tmp/$name"
	"${MPIRUN[@]}" -np "$np" "$@" >"$tmp/$name.out" 2>&1 &
	local pid=$!
	for _ in $(seq 600); do [ -e "$tmp/$name/ready" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
	"$sim" advance "$nodeA" 4ms >/dev/null
	"$sim" advance "$nodeB" 4ms >/dev/null
	touch "$tmp/$name/go"
	wait $pid
}

# check_report NAME NODES: the JSON report against the truth.
check_report() {
	local name=$1 nodes=$2 json=$tmp/$1.json
	expect "$name: the job ran (status $3)" test "$3" -eq 0
	"$PYTHON3" - "$json" "$nodes" "$PER_BOX" <<'PY' >"$tmp/$name.check" 2>&1
import json, sys, csv
rep = json.load(open(sys.argv[1]))
nodes, per_box = int(sys.argv[2]), int(sys.argv[3])
ubox, cbo = "hswep_unc_ubo::UNC_U_CLOCKTICKS", "hswep_unc_cbo::UNC_C_CLOCKTICKS"
want = {ubox: nodes * 2 * per_box, cbo: nodes * 2 * 18 * per_box}
bad = []
for ev, w in want.items():
    if rep["total"].get(ev) != w:
        bad.append("total %s = %s, want %d" % (ev, rep["total"].get(ev), w))
if len(rep["nodes"]) != nodes:
    bad.append("%d nodes in the report, want %d" % (len(rep["nodes"]), nodes))
for n in rep["nodes"]:
    socks = sorted(s["socket"] for s in n["sockets"])
    if socks != [0, 1]:
        bad.append("node %s: sockets %s, want each of 0 and 1 once" % (n["node"], socks))
    for s in n["sockets"]:
        if s["rank"] not in n["ranks"]:
            bad.append("node %s socket %d: rank %d is not on the node" % (n["node"], s["socket"], s["rank"]))
        if s["values"][ubox] != per_box or s["values"][cbo] != 18 * per_box:
            bad.append("node %s socket %d: %s" % (n["node"], s["socket"], s["values"]))
if "SIMULATED" not in rep["origin"]:
    bad.append("origin does not say SIMULATED: %s" % rep["origin"])
rows = list(csv.DictReader(open(sys.argv[1][:-5] + ".csv")))
tot = {r["event"]: int(r["value"]) for r in rows if r["scope"] == "total"}
if tot != want:
    bad.append("CSV totals %s, want %s" % (tot, want))
print("\n".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
PY
	expect "$name: report total = the simulator's truth, each socket of each node once ($(head -1 "$tmp/$name.check"))" \
		test "$(head -1 "$tmp/$name.check")" = ok
}

export PAPI_INTEL_UNCORE_MPI_EVENTS="$UBOX;$CBO"
for kernel in none perf; do
	backend=direct
	[ $kernel = perf ] && backend="perf (simulated kernel)"
	for np in 4 8; do
		fresh || { fail "cannot create simulated machines"; exit 0; }
		name=preload-$kernel-$np
		run $name $np -x PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel -x PAPI_INTEL_UNCORE_SIM="$nodeA" \
			-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" -x LD_PRELOAD="$lib" "$idle" "$tmp/$name"
		check_report $name 1 $?
		echo "   ($backend, $np ranks)"
	done
	# Two nodes: ranks 0-1 on machine A, 2-3 on machine B; named by number
	# (node0, node1) on one backend, by any string on the other.
	fresh
	if [ $kernel = none ]; then name0=0 name1=1 want_nodes="node0 node1"; else name0=rack-a name1=rack-b want_nodes="rack-a rack-b"; fi
	name=twonodes-$kernel
	cat >"$tmp/node.sh" <<SH
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" -lt 2 ]; then n=$name0; m=$nodeA; else n=$name1; m=$nodeB; fi
PAPI_INTEL_UNCORE_MPI_TEST_NODE=\$n PAPI_INTEL_UNCORE_SIM=\$m exec "\$@"
SH
	chmod +x "$tmp/node.sh"
	run $name 4 -x PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel -x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" \
		-x LD_PRELOAD="$lib" "$tmp/node.sh" "$idle" "$tmp/$name" regions
	check_report $name 2 $?
	nodes=$("$PYTHON3" -c 'import json,sys; print(" ".join(sorted(n["node"] for n in json.load(open(sys.argv[1]))["nodes"])))' "$tmp/$name.json" 2>&1)
	expect "$name: PAPI_INTEL_UNCORE_MPI_TEST_NODE=$name0/$name1 makes the nodes $want_nodes ($nodes)" test "$nodes" = "$want_nodes"
	expect "$name: the region \"wait\" has a row per node and socket" \
		test "$("$PYTHON3" -c 'import json,sys; print(len([r for r in json.load(open(sys.argv[1]))["regions"] if r["region"] == "wait"]))' "$tmp/$name.json")" = 4

	# Every rank adds the same events: the sum over ranks counts each socket once.
	unset PAPI_INTEL_UNCORE_MPI_EVENTS
	fresh
	name=instrumented-$kernel
	run $name 4 -x PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel -x PAPI_INTEL_UNCORE_SIM="$nodeA" \
		"$ranks" "$tmp/$name" "$UBOX" "$CBO"
	expect "$name: 4 ranks, each adding the same events, ran (status $?)" grep -q "^sum $UBOX" "$tmp/$name.out"
	expect "$name: sum over ranks of $UBOX = $((2 * PER_BOX)), each socket once" \
		grep -qx "sum $UBOX $((2 * PER_BOX))" "$tmp/$name.out"
	expect "$name: sum over ranks of $CBO = $((36 * PER_BOX))" grep -qx "sum $CBO $((36 * PER_BOX))" "$tmp/$name.out"
	export PAPI_INTEL_UNCORE_MPI_EVENTS="$UBOX;$CBO"
done

# Events as perf and Intel spell them (src/events/spelling.h): the same
# truth, keyed by the names as given.
fresh
name=spellings
UBOX_PERF=hswep_unc_ubo/UNC_U_CLOCKTICKS/
CBO_RAW=uncore_cbox/event=0x0/
run $name 2 -x PAPI_INTEL_UNCORE_SIM="$nodeA" -x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" \
	-x PAPI_INTEL_UNCORE_MPI_EVENTS="$UBOX_PERF;$CBO_RAW" -x LD_PRELOAD="$lib" "$idle" "$tmp/$name"
got=$("$PYTHON3" -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print(t.get(sys.argv[2]), t.get(sys.argv[3]))' \
	"$tmp/$name.json" "$UBOX_PERF" "$CBO_RAW" 2>&1)
expect "$name: $UBOX_PERF and $CBO_RAW count the truth ($got; want $((2 * PER_BOX)) $((36 * PER_BOX)))" \
	test "$got" = "$((2 * PER_BOX)) $((36 * PER_BOX))"

# A job whose last region ended before the job did (issue 27): the job's
# value of a rate is over the whole job, not the part after the last region
# read.  Per node (stream.scn) 1.6e9 CAS reads and 8e8 writes per second:
# 1 s of stream inside the region "first", then 1 s idle (idle.scn) outside
# it; the job's DRAM_BW is half the stream's 153.6 GB/s, its amount and
# counts those of the stream second, as are the region's.
scn=$SRCDIR/src/sim/scenarios
RD=1600000000 WR=800000000
BYTES=$(((RD + WR) * 64))
RATE_EVENTS="hswep_metric::DRAM_BW;hswep_metric::DRAM_BW:int;hswep_metric::DRAM_BW:amount:int;hswep_unc_imc::UNC_M_CAS_COUNT:RD"
await() { # FILE PID: FILE exists, or the job ended
	for _ in $(seq 600); do [ -e "$1" ] && return 0; kill -0 "$2" 2>/dev/null || return 1; sleep 0.05; done
	return 1
}
for kernel in none perf; do
	"$sim" destroy "$nodeA" >/dev/null 2>&1
	"$sim" create "$nodeA" -s "$scn/stream.scn" >/dev/null || { fail "cannot create a simulated machine"; break; }
	name=rate-after-region-$kernel
	rm -rf "$tmp/$name"
	mkdir -p "$tmp/$name"
	"${MPIRUN[@]}" -np 2 -x PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel -x PAPI_INTEL_UNCORE_SIM="$nodeA" \
		-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" -x PAPI_INTEL_UNCORE_MPI_EVENTS="$RATE_EVENTS" \
		-x LD_PRELOAD="$lib" "$idle" "$tmp/$name" two >"$tmp/$name.out" 2>&1 &
	pid=$!
	await "$tmp/$name/ready" $pid && "$sim" advance "$nodeA" 1s >/dev/null
	touch "$tmp/$name/go"
	await "$tmp/$name/ready2" $pid && "$sim" scenario "$nodeA" "$scn/idle.scn" >/dev/null &&
		"$sim" advance "$nodeA" 1s >/dev/null
	touch "$tmp/$name/go2"
	wait $pid
	expect "$name: the job ran (status $?)" test -s "$tmp/$name.json"
	"$PYTHON3" - "$tmp/$name.json" "$name" "$RD" "$BYTES" <<'PY'
import json, sys
rep, label, rd, nbytes = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
bw, bwi, amt, cas = ("hswep_metric::DRAM_BW", "hswep_metric::DRAM_BW:int",
                     "hswep_metric::DRAM_BW:amount:int", "hswep_unc_imc::UNC_M_CAS_COUNT:RD")
# The job's 2 s: the stream second's bytes over 2 s (GB/s; MB/s), its bytes, its reads.
want = {bw: nbytes / 2 / 1e9, bwi: nbytes // 2 // 10**6, amt: nbytes, cas: rd}
tot = rep["total"]
for ev, w in want.items():
    got = tot.get(ev)
    ok = isinstance(got, (int, float)) and (got == w if isinstance(w, int) else abs(got - w) <= 1e-9 * w)
    print("%s %s: job total %s = %r (want %r)" % ("PASS" if ok else "FAIL", label, ev, got, w))
for n in rep["nodes"]:
    for s in n["sockets"]:
        got = s["values"].get(bwi)
        print("%s %s: socket %d: %s = %r over the job (want %d)" %
              ("PASS" if got == want[bwi] // 2 else "FAIL", label, s["socket"], bwi, got, want[bwi] // 2))
# The region: counts and amounts differenced (half each socket); no rate row.
reg = [r for r in rep["regions"] if r["region"] == "first"]
for ev, w in ((cas, rd // 2), (amt, nbytes // 2)):
    got = sorted(r["values"].get(ev) for r in reg) if reg else None
    print("%s %s: region \"first\": %s per socket = %s (want [%d, %d])" %
          ("PASS" if got == [w, w] else "FAIL", label, ev, got, w, w))
rates = [r["values"].get(ev) for r in reg for ev in (bw, bwi)]
print("%s %s: the region's rates have no value (a rate is not a difference): %s" %
      ("PASS" if reg and rates == [None] * len(rates) else "FAIL", label, rates))
PY
	[ $? -eq 0 ] || fail "$name: the report could not be checked ($(tail -3 "$tmp/$name.out"))"
done

# The installed library, as a user's job loads it: in an environment
# without the LD_LIBRARY_PATH a test run may set (make coverage's points
# at its own libpapi.so, which would be loaded in place of the installed one).
prefix=$tmp/prefix
if make -s -C "$SRCDIR" install prefix="$prefix" >"$tmp/install.log" 2>&1; then
	ilib=$prefix/lib/libpapi_uncore_mpi.so
	loaded=$(env -u LD_LIBRARY_PATH ldd "$ilib" | sed -n 's/.*libpapi.so.7.0 => \([^ ]*\).*/\1/p')
	expect "installed libpapi_uncore_mpi.so finds $prefix/lib/libpapi.so.7.0 (ldd: $loaded)" \
		test "$loaded" = "$prefix/lib/libpapi.so.7.0"
	for kernel in none perf; do
		fresh || { fail "cannot create simulated machines"; break; }
		name=installed-$kernel
		mkdir -p "$tmp/ld-$name"
		(unset LD_LIBRARY_PATH
		 run $name 4 -x PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel -x PAPI_INTEL_UNCORE_SIM="$nodeA" \
			-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" -x LD_PRELOAD="$ilib" \
			-x LD_DEBUG=files -x LD_DEBUG_OUTPUT="$tmp/ld-$name/ld" "$idle" "$tmp/$name")
		check_report $name 1 $?
		inits=$(cat "$tmp/ld-$name"/ld.* 2>/dev/null | sed -n 's/.*calling init: \(.*libpapi\.so[^ ]*\)$/\1/p' | sort | uniq -c)
		ours=$(cat "$tmp/ld-$name"/ld.* 2>/dev/null | grep -c "calling init: $prefix/lib/libpapi.so.7.0$")
		expect "$name: each of the 4 ranks initialised $prefix/lib/libpapi.so.7.0 and no other libpapi ($(echo $inits))" \
			test "$ours" -eq 4 -a "$(echo "$inits" | wc -l)" -eq 1
	done
	make -s -C "$SRCDIR" uninstall prefix="$prefix" >/dev/null 2>&1
else
	fail "make install prefix=$prefix"
	tail -20 "$tmp/install.log"
fi

# An application linked with Debian's PAPI: the soname is taken before ours.
deb=$(ls /usr/lib/*/libpapi.so.7.0 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	skip_dep "application linked with Debian's PAPI: libpapi7.0 is not installed (scripts/install-deps.sh installs it)"
elif mpicc -O1 -I"$SRCDIR/mpi" "$SRCDIR/tests/integration/mpi/mpi_idle.c" -Wl,--no-as-needed "$deb" \
	-o "$tmp/idle_debian" >"$tmp/cc-debian.log" 2>&1; then
	plan 1
	fresh
	name=debian-papi
	# As a user runs it: Debian's libpapi by its soname, not one an
	# LD_LIBRARY_PATH of the test run would put first.
	(unset LD_LIBRARY_PATH
	 run $name 2 -x PAPI_INTEL_UNCORE_SIM="$nodeA" -x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" \
		-x LD_PRELOAD="$lib" "$tmp/idle_debian" "$tmp/$name")
	expect "$name: a job whose application loads $deb completes (status $?)" test -s "$tmp/$name.json"
	said=$("$PYTHON3" - "$tmp/$name.json" "$deb" <<'PY' 2>&1
import json, os, re, sys
probs = [p["problem"] for p in json.load(open(sys.argv[1]))["problems"]]
m = [re.search(r"loaded in this process \(([^)]*)\) has no intel_uncore component", p) for p in probs]
ok = any(x and os.path.realpath(x.group(1)) == os.path.realpath(sys.argv[2]) for x in m)
print(("ok: " if ok else "") + " | ".join(probs))
PY
)
	expect "$name: the report's problems name the libpapi loaded ($said)" test "${said#ok: }" != "$said"
else
	fail "cannot build mpi_idle against $deb"
	cat "$tmp/cc-debian.log"
fi
