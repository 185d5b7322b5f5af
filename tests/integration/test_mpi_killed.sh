#!/usr/bin/env bash
# A job that dies keeps its report (issue 29; README "MPI jobs and
# threads", "A job that dies"): build/mpitests/mpi_idle under Open MPI on
# loopback with LD_PRELOAD=libpapi_uncore_mpi.so, 4 ranks over two
# simulated nodes (ranks 0-1 node0 on machine A, 2-3 node1 on machine B;
# rank 0 counts node0's two sockets, rank 2 node1's), report parts every
# 0.1 s (PAPI_INTEL_UNCORE_MPI_INTERVAL), both backends.  On virtual time:
# both machines advance 4 ms (10,000,000 UCLK cycles a box); once the
# victim's part has those counts the victim is stopped (SIGSTOP), both
# machines advance 4 ms more, and once the other counting rank's part has
# the 8 ms the victim gets SIGKILL; Open MPI then ends the job (SIGTERM to
# the others).  The report must exist, say the job is incomplete, name the
# victim as the missing rank and its two sockets as missing, have the
# victim's node at exactly its last interval (4 ms) and the other node at
# exactly the job's 8 ms, and the CSV must agree.  Victims: rank 2 (not the
# rank that writes the report at MPI_Finalize) and rank 0 (that one).
# Also a job that ends normally: its report complete, its parts removed.
set -u
. "$(dirname "$0")/lib.sh"
plan 21
idle=$BUILD/mpitests/mpi_idle
lib=$STAGE/lib/libpapi_uncore_mpi.so
sim=$BUILD/bin/uncore-sim
need --mpi "$idle" "$lib" || exit 0
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
nodeA=$shm/papi-mpi-killed-a-$$
nodeB=$shm/papi-mpi-killed-b-$$
cleanup() {
	"$sim" destroy "$nodeA" >/dev/null 2>&1
	"$sim" destroy "$nodeB" >/dev/null 2>&1
	[ -n "${KEEP_TMP:-}" ] && cp -r "$tmp" "$KEEP_TMP"; rm -rf "$tmp"
}
trap cleanup EXIT
clocks=$SRCDIR/src/sim/scenarios/hswep-clocks.scn
UBOX=hswep_unc_ubo::UNC_U_CLOCKTICKS
CBO=hswep_unc_cbo::UNC_C_CLOCKTICKS
PER_BOX=10000000 # 4 ms of a 2.5 GHz UCLK
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL \
	PAPI_INTEL_UNCORE_MPI_TEST_NODE PAPI_INTEL_UNCORE_SIM
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_MPI_EVENTS="$UBOX;$CBO"
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
# Open MPI gives the survivors 1 s between its SIGTERM and its SIGKILL
# (odls_base_sigkill_timeout); on a loaded 2-core test machine with 4 ranks
# busy-polling that can be too short for the last part and rebuild, so the
# test gives them 10 s (what it checks is what they write, not how fast).
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
	--mca btl_tcp_if_include lo --mca plm_rsh_agent false --mca odls_base_sigkill_timeout 10)
cat >"$tmp/node.sh" <<SH
#!/bin/sh
echo \$\$ >"$tmp/pid.\$OMPI_COMM_WORLD_RANK"
if [ "\$OMPI_COMM_WORLD_RANK" -lt 2 ]; then n=0; m=$nodeA; else n=1; m=$nodeB; fi
PAPI_INTEL_UNCORE_MPI_TEST_NODE=\$n PAPI_INTEL_UNCORE_SIM=\$m exec "\$@"
SH
chmod +x "$tmp/node.sh"

fresh() {
	"$sim" destroy "$nodeA" >/dev/null 2>&1
	"$sim" destroy "$nodeB" >/dev/null 2>&1
	"$sim" create "$nodeA" -s "$clocks" >/dev/null && "$sim" create "$nodeB" -s "$clocks" >/dev/null
}
# until SECONDS COMMAND...: COMMAND succeeds within SECONDS (polled).
until_true() {
	local n=$(($1 * 20))
	shift
	for _ in $(seq "$n"); do "$@" && return 0; sleep 0.05; done
	return 1
}
# has_ubox PART NODE COUNT: the part's UBox count of the node's socket 0 is COUNT.
has_ubox() { grep -q "^V	$2	0	0	c	$3	" "$1" 2>/dev/null; }

# start_job NAME KERNEL: a 4-rank job of mpi_idle on the two simulated
# nodes, its report in $tmp/NAME.json, in the background (job=its pid);
# once every rank is ready, both nodes advance 4 ms.
start_job() {
	mkdir -p "$tmp/$1"
	"${MPIRUN[@]}" -np 4 -x PAPI_INTEL_UNCORE_SIM_KERNEL=$2 -x PAPI_INTEL_UNCORE_MPI_INTERVAL=0.1 \
		-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$1.json" -x LD_PRELOAD="$lib" \
		"$tmp/node.sh" "$idle" "$tmp/$1" >"$tmp/$1.out" 2>&1 &
	job=$!
	until_true 60 test -e "$tmp/$1/ready"
	"$sim" advance "$nodeA" 4ms >/dev/null
	"$sim" advance "$nodeB" 4ms >/dev/null
}

for kernel in none perf; do
	for victim in 2 0; do
		other=$((2 - victim)) # the other counting rank
		vnode=node$((victim / 2)) onode=node$((other / 2))
		name=killed-$kernel-rank$victim
		fresh || { fail "cannot create simulated machines"; exit 0; }
		rm -f "$tmp"/pid.*
		json=$tmp/$name.json parts=$tmp/$name.json.parts
		start_job "$name" "$kernel"
		until_true 30 has_ubox "$parts/rank-$victim" $vnode $PER_BOX
		vpid=$(cat "$tmp/pid.$victim" 2>/dev/null)
		kill -STOP "$vpid"
		"$sim" advance "$nodeA" 4ms >/dev/null
		"$sim" advance "$nodeB" 4ms >/dev/null
		until_true 30 has_ubox "$parts/rank-$other" $onode $((2 * PER_BOX))
		kill -KILL "$vpid"
		wait $job
		status=$?
		expect "$name: the job ended with rank $victim killed (mpirun status $status)" test $status -ne 0
		"$PYTHON3" - "$json" "$victim" "$vnode" "$onode" "$PER_BOX" <<'PY' >"$tmp/$name.check" 2>&1
import csv, json, sys
rep = json.load(open(sys.argv[1]))
victim, vnode, onode, per_box = int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
ubox, cbo = "hswep_unc_ubo::UNC_U_CLOCKTICKS", "hswep_unc_cbo::UNC_C_CLOCKTICKS"
bad = []
if rep["complete"] is not False:
    bad.append("complete: %r" % rep["complete"])
mr = [(m["rank"], m["node"]) for m in rep["missing"]["ranks"]]
if mr != [(victim, vnode)]:
    bad.append("missing ranks %s, want [(%d, %s)]" % (mr, victim, vnode))
ms = sorted((m["node"], m["socket"], m["rank"]) for m in rep["missing"]["sockets"])
if ms != [(vnode, 0, victim), (vnode, 1, victim)]:
    bad.append("missing sockets %s" % ms)
want = {vnode: 1, onode: 2}  # intervals of 4 ms counted
for n in rep["nodes"]:
    for s in n["sockets"]:
        k = want.get(n["node"], 0)
        w = {ubox: k * per_box, cbo: 18 * k * per_box}
        if s["values"] != w:
            bad.append("%s socket %d: %s, want %s" % (n["node"], s["socket"], s["values"], w))
if sorted(n["node"] for n in rep["nodes"]) != sorted(want):
    bad.append("nodes %s" % [n["node"] for n in rep["nodes"]])
tw = {ubox: 2 * 3 * per_box, cbo: 2 * 3 * 18 * per_box}
if rep["total"] != tw:
    bad.append("total %s, want %s" % (rep["total"], tw))
if "SIMULATED" not in rep["origin"]:
    bad.append("origin %r" % rep["origin"])
rows = list(csv.DictReader(open(sys.argv[1][:-5] + ".csv")))
miss = sorted((r["node"], r["socket"], r["rank"]) for r in rows if r["scope"] == "missing")
wm = sorted([(vnode, "0", str(victim)), (vnode, "1", str(victim)), (vnode, "", str(victim))])
if miss != wm:
    bad.append("CSV missing rows %s, want %s" % (miss, wm))
tot = {r["event"]: int(r["value"]) for r in rows if r["scope"] == "total"}
if tot != tw:
    bad.append("CSV totals %s" % tot)
print("\n".join(bad) if bad else "ok")
PY
		expect "$name: the report names rank $victim and its 2 sockets missing, node $vnode at its last interval, $onode exact ($(head -3 "$tmp/$name.check" | tr '\n' ' '))" \
			test "$(cat "$tmp/$name.check")" = ok
		states=$("$PYTHON3" -c '
import json, sys
print(" ".join(sorted(str(m["rank"]) for m in json.load(open(sys.argv[1]))["missing"]["ranks"])))' "$json" 2>&1)
		expect "$name: only rank $victim is missing, the survivors ended by signal (missing: $states)" test "$states" = "$victim"
	done

	# A job that ends normally: the report complete, no parts left.
	fresh
	name=normal-$kernel
	json=$tmp/$name.json
	start_job "$name" "$kernel"
	until_true 30 has_ubox "$json.parts/rank-2" node1 $PER_BOX
	touch "$tmp/$name/go"
	wait $job
	expect "$name: the job ran (status $?)" test -s "$json"
	got=$("$PYTHON3" -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["complete"], r["missing"], r["total"]["hswep_unc_ubo::UNC_U_CLOCKTICKS"])' "$json" 2>&1)
	expect "$name: complete, nothing missing, UBox total $((4 * PER_BOX)) ($got)" \
		test "$got" = "True {'ranks': [], 'sockets': []} $((4 * PER_BOX))"
	expect "$name: the parts are removed at the job's end" test ! -e "$json.parts"
	expect "$name: no missing rows in the CSV" test "$(grep -c '^missing,' "${json%.json}.csv")" -eq 0
done

# The interval's setting: a value that is not one is said in the report.
fresh
name=bad-interval
mkdir -p "$tmp/$name"
touch "$tmp/$name/go"
"${MPIRUN[@]}" -np 2 -x PAPI_INTEL_UNCORE_SIM="$nodeA" -x PAPI_INTEL_UNCORE_MPI_INTERVAL=0x10 \
	-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/$name.json" -x LD_PRELOAD="$lib" "$idle" "$tmp/$name" \
	>"$tmp/$name.out" 2>&1
expect "$name: PAPI_INTEL_UNCORE_MPI_INTERVAL=0x10 is refused in the report's problems" \
	grep -q 'PAPI_INTEL_UNCORE_MPI_INTERVAL: not seconds (decimal' "$tmp/$name.json"
