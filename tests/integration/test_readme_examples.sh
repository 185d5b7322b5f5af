#!/usr/bin/env bash
# Every example of the READMEs runs (issue 31): each command of their code
# blocks (readme_examples.py finds them: our tools and PAPI's, on the
# simulator as written) exits 0 in a scratch directory, or, where the README
# shows an error after it, prints that error; every event name they give
# (ours, perf's PMU/.../, Intel's EVENT.UMASK) counts on one of the
# simulated machines: the Haswell-EP simulator through the direct backend or
# a simulated perf kernel, or the kernel PMUs of a Sapphire Rapids (with
# uncore-stat; a metric's :int or :amount form with papi_command_line).
set -u
. "$(dirname "$0")/lib.sh"
# One check for each list, and one for each command and event in it (their
# number follows from the READMEs: readme_examples.py lists them).
plan 2
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"; rm -f /tmp/demo.jsonl' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
chmod 1777 "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_BACKEND PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
docs=(README.md utils/uncore-stat/README.md utils/uncore-sim/README.md components/intel_uncore/README.md)

# The commands, run where a user would: stage/ and src/ as in the tree.
work=$tmp/work
mkdir -p "$work/src/sim"
ln -s "$STAGE" "$work/stage"
ln -s "$SRCDIR/src/sim/scenarios" "$work/src/sim/scenarios"
(cd "$SRCDIR" && "${PYTHON3:-python3}" tests/integration/readme_examples.py commands "${docs[@]}") >"$tmp/commands"
plan "$(wc -l <"$tmp/commands")"
expect "the READMEs have example commands ($(wc -l <"$tmp/commands"))" test "$(wc -l <"$tmp/commands")" -ge 15
n=0
while IFS=$'\t' read -r where cmd shown; do
	n=$((n + 1))
	run=(env PATH="$STAGE/bin:$PATH" PAPI_INTEL_UNCORE_BACKEND=sim)
	case $shown in
	"PAPI Error: intel_uncore is disabled: perf backend: permission denied"*)
		# Shown for a user without the rights: run it as one.
		if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null ||
			[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
			skip "$where: '$cmd': needs root (to become an unprivileged user) and perf_event_paranoid > 0"
			continue
		fi
		# nobody runs copies of the command's programs and of libpapi in
		# $tmp (mode 755): the clone may be in a directory nobody cannot
		# enter (a 0700 home, mktemp -d).
		mine=$tmp/nobody.$n
		mkdir -p "$mine/bin" "$mine/lib"
		cp -P "$STAGE"/lib/libpapi.so* "$mine/lib/"
		for w in $cmd; do
			if [ -f "$STAGE/bin/$w" ]; then cp "$STAGE/bin/$w" "$mine/bin/"; fi
		done
		chmod -R a+rX "$mine"
		run=(setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$mine/bin:$PATH"
			LD_LIBRARY_PATH="$mine/lib" PAPI_INTEL_UNCORE_BACKEND=perf)
		;;
	esac
	(cd "$work" && "${run[@]}" sh -c "$cmd" </dev/null >"$tmp/out.$n" 2>&1)
	rc=$?
	if [ -n "$shown" ]; then
		want=${shown%%...*}
		expect "$where: '$cmd' prints what the README shows ('${want:0:100}')" grep -qF -- "$want" "$tmp/out.$n"
	else
		expect "$where: '$cmd' runs (status $rc$([ $rc -ne 0 ] && echo ": $(head -c 200 "$tmp/out.$n")"))" test $rc -eq 0
	fi
done <"$tmp/commands"

# The event names: each counts somewhere.
(cd "$SRCDIR" && "${PYTHON3:-python3}" tests/integration/readme_examples.py events "${docs[@]}") | sort -t$'\t' -k2,2 -u >"$tmp/events"
plan "$(wc -l <"$tmp/events")"
expect "the READMEs name events ($(wc -l <"$tmp/events"))" test "$(wc -l <"$tmp/events")" -ge 20
machines=("--sim" "--sim --sim-kernel perf" "--sim --sim-kernel spr" "--sim --sim-model i7-6700k"
	"--sim --sim-model x5570-2s" "--sim --sim-model x7460-4s")
while IFS=$'\t' read -r where ev; do
	ok=
	for m in "${machines[@]}"; do
		# shellcheck disable=SC2086 # the machine's options
		if "$STAGE/bin/uncore-stat" $m --no-per-socket -e "$ev" -t 0.02 >"$tmp/ev" 2>&1; then
			ok=$m
			break
		fi
	done
	# A metric's other forms (:int, :amount) are PAPI events, which
	# uncore-stat shows per socket itself: through PAPI's own tool.
	if [ -z "$ok" ] && PAPI_INTEL_UNCORE_BACKEND=sim "$STAGE/bin/papi_command_line" "$ev" >"$tmp/pcl" 2>&1 &&
		grep -qF "$ev : " "$tmp/pcl"; then
		ok="papi_command_line on the simulator"
	fi
	expect "$where: $ev counts (${ok:-on no simulated machine: $(head -c 200 "$tmp/ev")})" test -n "$ok"
done <"$tmp/events"
