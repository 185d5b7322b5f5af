#!/usr/bin/env bash
# The PMPI library's report on a Sapphire Rapids job (issue 26): an
# uninstrumented program (build/mpitests/mpi_idle) under Open MPI on
# loopback with LD_PRELOAD=libpapi_uncore_mpi.so and
# PAPI_INTEL_UNCORE_MPI_EVENTS='PAPI_UNC_DRAM_RD_BYTES;PAPI_UNC_LLC_MISSES',
# 4 ranks over two nodes (ranks 0-1 node-a, 2-3 node-b:
# PAPI_INTEL_UNCORE_MPI_TEST_NODE), each rank on the simulated kernel of a
# two-socket Sapphire Rapids (PAPI_INTEL_UNCORE_SIM_KERNEL=spr,
# src/simkernel/shape_spr.c) on virtual time: 1 s between the elected
# rank's read at MPI_Init and its read at MPI_Finalize
# (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP; so no reads in between for the parts
# of the report: PAPI_INTEL_UNCORE_MPI_INTERVAL=off).  The scenario: IMC channel i of
# socket s reads 10 M CAS x (i+1) x (s+1) a second (8 channels), CHA i
# inserts 3 M IA misses x (i+1) x (s+1) (56 CHAs); so per node socket 0
# reads 10 M x 36 x 64 B = 23.04 GB and misses 3 M x 1596 = 4.788 G times,
# socket 1 twice that, and the job's total is both nodes' sums.
set -u
. "$(dirname "$0")/lib.sh"
plan 9
idle=$BUILD/mpitests/mpi_idle
lib=$STAGE/lib/libpapi_uncore_mpi.so
need --mpi "$idle" "$lib" || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR" "$tmp/job"
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE \
	PAPI_INTEL_UNCORE_MPI_TEST_NODE PAPI_EVENTS
touch "$tmp/job/go" # nothing to advance: the shape's clock is virtual
cat >"$tmp/node.sh" <<'SH'
#!/bin/sh
if [ "$OMPI_COMM_WORLD_RANK" -lt 2 ]; then n=node-a; else n=node-b; fi
PAPI_INTEL_UNCORE_MPI_TEST_NODE=$n exec "$@"
SH
chmod +x "$tmp/node.sh"
mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo \
	--mca btl_tcp_if_include lo --mca plm_rsh_agent false -np 4 \
	-x PAPI_INTEL_UNCORE_BACKEND=sim -x PAPI_INTEL_UNCORE_SIM_KERNEL=spr \
	-x PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=1000000000 -x PAPI_INTEL_UNCORE_LOCK_DIR \
	-x PAPI_INTEL_UNCORE_MPI_REPORT="$tmp/spr.json" -x PAPI_INTEL_UNCORE_MPI_INTERVAL=off \
	-x PAPI_INTEL_UNCORE_MPI_EVENTS='PAPI_UNC_DRAM_RD_BYTES;PAPI_UNC_LLC_MISSES' \
	-x LD_PRELOAD="$lib" "$tmp/node.sh" "$idle" "$tmp/job" >"$tmp/out" 2>&1
expect "2-node SPR job with the PMPI library ran (status $?)" test $? -eq 0

# The truth, computed here from the scenario's rates.
rd() { echo $((10000000 * 36 * ($1 + 1) * 64)); }  # bytes read on socket $1 of a node
llc() { echo $((3000000 * 1596 * ($1 + 1))); }    # LLC misses of socket $1
"$PYTHON3" - "$tmp/spr.json" "$(rd 0)" "$(rd 1)" "$(llc 0)" "$(llc 1)" >"$tmp/check" 2>&1 <<'PY'
import csv, json, sys
rep = json.load(open(sys.argv[1]))
rd, llc = [int(sys.argv[2]), int(sys.argv[3])], [int(sys.argv[4]), int(sys.argv[5])]
out = []
out.append("origin %s" % ("ok" if "SIMULATED kernel: Sapphire Rapids" in rep["origin"] else rep["origin"]))
out.append("events %s" % ("ok" if rep["events"] == ["PAPI_UNC_DRAM_RD_BYTES", "PAPI_UNC_LLC_MISSES"] else rep["events"]))
nodes = sorted(n["node"] for n in rep["nodes"])
out.append("nodes %s" % ("ok" if nodes == ["node-a", "node-b"] else nodes))
bad = []
for n in rep["nodes"]:
    socks = sorted(s["socket"] for s in n["sockets"])
    if socks != [0, 1]:
        bad.append("%s sockets %s" % (n["node"], socks))
    for s in n["sockets"]:
        if s["rank"] not in n["ranks"]:
            bad.append("%s socket %d counted by rank %d of another node" % (n["node"], s["socket"], s["rank"]))
        want = {"PAPI_UNC_DRAM_RD_BYTES": rd[s["socket"]], "PAPI_UNC_LLC_MISSES": llc[s["socket"]]}
        if s["values"] != want:
            bad.append("%s socket %d %s, want %s" % (n["node"], s["socket"], s["values"], want))
out.append("sockets %s" % ("ok" if not bad else "; ".join(bad)))
t = rep["total"]
out.append("total_rd %s" % t.get("PAPI_UNC_DRAM_RD_BYTES"))
out.append("total_llc %s" % t.get("PAPI_UNC_LLC_MISSES"))
rows = list(csv.DictReader(open(sys.argv[1][:-5] + ".csv")))
csvt = {r["event"]: int(r["value"]) for r in rows if r["scope"] == "total"}
out.append("csv %s" % ("ok" if csvt == t else csvt))
out.append("problems %s" % ("ok" if not rep["problems"] else rep["problems"]))
print("\n".join(out))
PY
field() { sed -n "s/^$1 //p" "$tmp/check"; }
expect "the report says the SIMULATED Sapphire Rapids kernel ($(field origin))" test "$(field origin)" = ok
expect "... and the two events as given ($(field events))" test "$(field events)" = ok
expect "... two nodes, node-a and node-b ($(field nodes))" test "$(field nodes)" = ok
expect "... each socket of each node once, by a rank of the node, with the scenario's counts (socket 0: $(rd 0) bytes, $(llc 0) misses; socket 1: $(rd 1), $(llc 1)) ($(field sockets))" \
	test "$(field sockets)" = ok
expect "total PAPI_UNC_DRAM_RD_BYTES = $(field total_rd), the scenario's 2 x ($(rd 0) + $(rd 1))" \
	test "$(field total_rd)" = $((2 * ($(rd 0) + $(rd 1))))
expect "total PAPI_UNC_LLC_MISSES = $(field total_llc), the scenario's 2 x ($(llc 0) + $(llc 1))" \
	test "$(field total_llc)" = $((2 * ($(llc 0) + $(llc 1))))
expect "the CSV beside it has the same totals ($(field csv))" test "$(field csv)" = ok
expect "no problems reported ($(field problems))" test "$(field problems)" = ok
