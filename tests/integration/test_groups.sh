#!/usr/bin/env bash
# Measurement groups (README "MPI jobs and threads"): "each socket once"
# holds within a group, and groups count independently.  On one shared
# simulated two-socket node (virtual clock, hswep-clocks.scn: UCLK 2.5 GHz,
# 4 ms = 10,000,000 cycles a box), an Open MPI job of 4 ranks on loopback
# (build/mpitests/mpi_ranks: every rank adds the same events) and a separate
# uncore-stat measure the same 4 ms:
# * perf backend (the simulated kernel): the job's sum over ranks and
#   uncore-stat's totals both equal the truth; within the job each socket
#   once;
# * direct backend: the job's sum equals the truth; uncore-stat, another
#   group, reads 0 and is told who programs the sockets (PID, command,
#   user, the job's group) and that uncored would let them share;
# * direct backend through uncored (stage/sbin/uncored --sim NODE, the job
#   and uncore-stat its clients, PAPI_INTEL_UNCORE_BACKEND=service): the
#   job's sum equals the truth, each socket once (the service keeps the
#   rule within the job's group), and uncore-stat counts exactly too;
# * PAPI_INTEL_UNCORE_GROUP: two uncore-stat processes (one inside the
#   other's command) in one named group count each socket once; in two
#   groups (the default: a process alone) both count it.
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 28
ranks=$BUILD/mpitests/mpi_ranks
sim=$BUILD/bin/uncore-sim
stat=$STAGE/bin/uncore-stat
uncored=$STAGE/sbin/uncored
need --mpi "$ranks" "$sim" "$stat" "$uncored" || exit 0
tmp=$(mktemp -d)
shm=$(shm_dir "$tmp")
node=$shm/papi-groups-test-$$
job_pid=
d_pid=
sock=$tmp/run/uncored.sock
cleanup() {
	[ -n "$job_pid" ] && kill -9 "$job_pid" 2>/dev/null
	[ -n "$d_pid" ] && kill "$d_pid" 2>/dev/null && wait "$d_pid" 2>/dev/null
	"$sim" destroy "$node" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
clocks=$SRCDIR/src/sim/scenarios/hswep-clocks.scn
UBOX=hswep_unc_ubo::UNC_U_CLOCKTICKS
CBO=hswep_unc_cbo::UNC_C_CLOCKTICKS
PER_BOX=10000000
unset PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_LOG PAPI_INTEL_UNCORE_SIM_KERNEL \
	PAPI_INTEL_UNCORE_MPI_TEST_NODE PAPI_INTEL_UNCORE_GROUP PAPI_INTEL_UNCORE_VERBOSE \
	PAPI_INTEL_UNCORE_LOCK_DIR PAPI_INTEL_UNCORE_SERVICE SLURM_JOB_ID SLURM_STEP_ID PMI_RANK OMPI_COMM_WORLD_RANK PMIX_NAMESPACE
export PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM=$node
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo
	--mca btl_tcp_if_include lo --mca plm_rsh_agent false)

fresh() {
	"$sim" destroy "$node" >/dev/null 2>&1
	"$sim" create "$node" -s "$clocks" >/dev/null
}

# total FILE EVENT: uncore-stat's CSV total of EVENT over every socket
total() { awk -F, -v e="$2" '$1 == "total" && $6 == e && $7 == "all" { print $8 }' "$1"; }

for kernel in perf none uncored; do
	label=$kernel
	[ $kernel = none ] && label=direct
	export PAPI_INTEL_UNCORE_SIM_KERNEL=$kernel PAPI_INTEL_UNCORE_BACKEND=sim
	[ $kernel = uncored ] && export PAPI_INTEL_UNCORE_SIM_KERNEL=none
	fresh || { fail "cannot create the simulated node $node"; exit 0; }
	if [ $kernel = uncored ]; then
		# The service owns the node (direct backend); the job and
		# uncore-stat are its clients.
		"$uncored" --sim "$node" --socket "$sock" 2>"$tmp/uncored.err" &
		d_pid=$!
		for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
		expect "uncored: serves the node ($(head -1 "$tmp/uncored.err"))" test -S "$sock"
		export PAPI_INTEL_UNCORE_BACKEND=service PAPI_INTEL_UNCORE_SERVICE=$sock
	fi
	d=$tmp/$label
	mkdir -p "$d"
	"${MPIRUN[@]}" -np 4 -x PAPI_INTEL_UNCORE_SIM_KERNEL -x PAPI_INTEL_UNCORE_SIM -x PAPI_INTEL_UNCORE_BACKEND \
		${PAPI_INTEL_UNCORE_SERVICE:+-x PAPI_INTEL_UNCORE_SERVICE} \
		"$ranks" "$d" "$UBOX" "$CBO" >"$d/job.out" 2>&1 &
	job_pid=$!
	for _ in $(seq 600); do [ -e "$d/ready" ] && break; kill -0 $job_pid 2>/dev/null || break; sleep 0.05; done
	expect "$label: the job's 4 ranks are counting" test -e "$d/ready"
	if [ $kernel = uncored ]; then
		"$uncored" --status --socket "$sock" >"$d/status" 2>&1
		expect "uncored: the job's ranks are its clients, 2 events each ($(cat "$d/status"))" \
			grep -q "^clients 5 events 8 " "$d/status"
	fi
	# The other group: uncore-stat over the simulated 4 ms, while the job counts.
	"$stat" --csv -o "$d/stat.csv" -e "$UBOX" -e "$CBO" -- "$sim" advance "$node" 4ms 2>"$d/stat.err"
	expect "$label: uncore-stat ran beside the job (status $?)" test -s "$d/stat.csv"
	touch "$d/go"
	wait $job_pid
	rc=$?
	job_pid=
	expect "$label: the job ran (status $rc)" test $rc -eq 0
	expect "$label: the job's sum over ranks of $UBOX = $((2 * PER_BOX)), each socket once ($(grep "^sum $UBOX" "$d/job.out"))" \
		grep -qx "sum $UBOX $((2 * PER_BOX))" "$d/job.out"
	expect "$label: the job's sum over ranks of $CBO = $((36 * PER_BOX))" \
		grep -qx "sum $CBO $((36 * PER_BOX))" "$d/job.out"
	u=$(total "$d/stat.csv" "$UBOX") c=$(total "$d/stat.csv" "$CBO")
	if [ $kernel != none ]; then
		expect "$label: uncore-stat, another group, counts exactly too ($UBOX $u, $CBO $c)" \
			test "$u $c" = "$((2 * PER_BOX)) $((36 * PER_BOX))"
		[ "$u $c" = "$((2 * PER_BOX)) $((36 * PER_BOX))" ] || sed 's/^/   said: /' "$d/stat.err"
	else
		expect "direct: uncore-stat, another group, reads 0 on the job's sockets ($u $c)" test "$u $c" = "0 0"
		sed 's/^/   said: /' "$d/stat.err"
		# (the ranks race for the sockets: one may take socket 0 and
		# another socket 1, each named then on its own)
		expect "direct: ... and is told the job's PID and command" \
			grep -Eq "sockets 0, 1 counted by PID [0-9]+ \(mpi_ranks\), read 0 here|socket 0 counted by PID [0-9]+.*, reads 0 here; socket 1 counted by PID [0-9]+" "$d/stat.err"
		expect "direct: ... its user and group, and that uncored lets groups share" \
			grep -Eq "(sockets 0, 1 are|socket [01] is) programmed by PID [0-9]+ \(mpi_ranks\), user $(id -un), measurement group openmpi:[0-9]+: .*uncored.* lets groups share it" "$d/stat.err"
	fi
	[ "$(grep -c "^sum " "$d/job.out")" = 2 ] || sed 's/^/   job: /' "$d/job.out"
done
kill "$d_pid"
wait "$d_pid"
expect "uncored: stops on SIGTERM (status $?)" test ! -e "$sock"
d_pid=
unset PAPI_INTEL_UNCORE_SERVICE

# Named groups, perf backend: an uncore-stat inside another's command.
export PAPI_INTEL_UNCORE_SIM_KERNEL=perf PAPI_INTEL_UNCORE_BACKEND=sim
fresh
cat >"$tmp/inner.sh" <<SH
#!/bin/sh
exec "$stat" --csv -o "$tmp/inner.csv" -e "$UBOX" -- "$sim" advance "$node" 4ms 2>"$tmp/inner.err"
SH
chmod +x "$tmp/inner.sh"
PAPI_INTEL_UNCORE_GROUP=site "$stat" --csv -o "$tmp/outer.csv" -e "$UBOX" -- env PAPI_INTEL_UNCORE_GROUP=site "$tmp/inner.sh"
expect "one named group: the first process counts each socket ($(total "$tmp/outer.csv" "$UBOX"))" \
	test "$(total "$tmp/outer.csv" "$UBOX")" = $((2 * PER_BOX))
expect "one named group: the second reads 0 ($(total "$tmp/inner.csv" "$UBOX"))" test "$(total "$tmp/inner.csv" "$UBOX")" = 0
expect "  ... told who counts" grep -q "sockets 0, 1 counted by PID [0-9]* (uncore-stat), read 0 here" "$tmp/inner.err"
fresh
PAPI_INTEL_UNCORE_GROUP=site "$stat" --csv -o "$tmp/outer.csv" -e "$UBOX" -- env PAPI_INTEL_UNCORE_GROUP=user-check "$tmp/inner.sh"
expect "two named groups: both count each socket ($(total "$tmp/outer.csv" "$UBOX") $(total "$tmp/inner.csv" "$UBOX"))" \
	test "$(total "$tmp/outer.csv" "$UBOX") $(total "$tmp/inner.csv" "$UBOX")" = "$((2 * PER_BOX)) $((2 * PER_BOX))"
"$sim" destroy "$node" >/dev/null 2>&1
expect "destroying the node removes the groups' lock files with it" test ! -e "$node.locks"
