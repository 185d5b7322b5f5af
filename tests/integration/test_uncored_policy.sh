#!/usr/bin/env bash
# uncored's policy (`uncored --policy FILE`, uncored(8) POLICY, README
# "uncored, the node service"), as an unprivileged user meets it: a shared
# simulated node (the built-in stream scenario: per socket 8 channels x
# 100 M reads of 64 B a second) behind `uncored --sim --policy` whose
# policy forbids the PCU box kind to everybody, with a reason, and limits
# a client to 3 events:
# * as nobody, papi_command_line hswep_unc_pcu::UNC_P_CLOCKTICKS and
#   uncore-stat -e the same are refused, saying the policy's reason and its
#   line;
# * in the same run the allowed PAPI_UNC_DRAM_RD_BYTES counts exactly
#   (102400000000 bytes over a simulated second) through the same service;
# * a CBo thread filter (:tf=1) is refused to nobody by default (root's
#   alone), and counts for root;
# * a 4th event in one client is refused with the limit;
# * a policy file with a bad line is refused at start naming the line and
#   the offending token only (never the rest of the file).
set -u
set -o pipefail
. "$(dirname "$0")/lib.sh"
plan 9
uncored=$STAGE/sbin/uncored
sim=$BUILD/bin/uncore-sim
shim=$BUILD/tests/fakes/fake_advance_at_stop.so
need "$uncored" "$sim" "$shim" || exit 0
tmp=$(mktemp -d)
chmod 755 "$tmp"
mkdir "$tmp/out" && chmod 777 "$tmp/out"
node=$tmp/node
sock=$tmp/u.sock
cleanup() {
	uncored_sim_down "$tmp"
	rm -rf "$tmp"
}
trap cleanup EXIT
PER_S=102400000000

# A bad line: refused at start, the line and its token named, the rest of
# the file (here a secret) never shown.
printf 'allow * *\nallow * imc\nnonsense-rule secret=hunter2 * imc\n' >"$tmp/bad.pol"
"$uncored" --sim e5-2699v3-2s --socket "$sock" --policy "$tmp/bad.pol" >"$tmp/bad.out" 2>&1
rc=$?
expect "a policy with a bad line is refused (status $rc): $(head -1 "$tmp/bad.out")" \
	grep -qx "uncored: policy $tmp/bad.pol line 3: a rule starts with allow, deny or limit, not 'nonsense-rule'" "$tmp/bad.out"
expect "  ... the rest of the file is not echoed, and nothing listens" \
	test $rc -eq 2 -a ! -e "$sock" -a "$(grep -c hunter2 "$tmp/bad.out")" = 0

cat >"$tmp/site.pol" <<'EOF'
# site policy: the power control unit is for the administrators' tools
deny * pcu reason PCU readings are reserved for the site's power monitoring
limit * events 3
EOF
uncored_sim_up "$tmp" --policy "$tmp/site.pol"
chmod 666 "$node" # nobody advances it
expect "uncored --sim --policy serves $sock ($(head -1 "$tmp/uncored.err"))" test -S "$sock"
export PAPI_INTEL_UNCORE_SERVICE=$sock

nobody_prefix
mine=$tmp/nobody
nobody_copies "$mine" papi_command_line uncore-stat "$sim" "$shim" ||
	{ fail "cannot copy the programs nobody runs into $mine"; exit 0; }
sim=$mine/bin/uncore-sim
shim=$mine/bin/${shim##*/}
as_nobody() { "${NOBODY[@]}" env LD_LIBRARY_PATH="$mine/lib" "$@"; }
who=$(as_nobody id -un)
reason="uncored policy ($tmp/site.pol line 2): PCU readings are reserved for the site's power monitoring"

# papi_command_line: the forbidden event refused with the reason, the
# allowed one (in its own run) exact.
as_nobody env PAPI_INTEL_UNCORE_VERBOSE=1 "$mine/bin/papi_command_line" hswep_unc_pcu::UNC_P_CLOCKTICKS \
	>"$tmp/pcl_pcu.out" 2>&1
expect "papi_command_line hswep_unc_pcu::UNC_P_CLOCKTICKS as $who: refused with the policy's reason" \
	grep -qF "$reason" "$tmp/pcl_pcu.out"
grep -qF "$reason" "$tmp/pcl_pcu.out" || sed 's/^/   /' "$tmp/pcl_pcu.out"
as_nobody env UNCORE_FAKE_BEFORE_STOP="$sim advance $node 1s" LD_PRELOAD="$shim" \
	"$mine/bin/papi_command_line" PAPI_UNC_DRAM_RD_BYTES >"$tmp/pcl.out" 2>&1
got=$(sed -n 's/^PAPI_UNC_DRAM_RD_BYTES :[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/pcl.out")
expect "papi_command_line PAPI_UNC_DRAM_RD_BYTES as $who through the same service = ${got:-nothing}, the scenario's $PER_S" \
	test "${got:-x}" = "$PER_S"

as_nobody "$mine/bin/uncore-stat" --csv -o "$tmp/out/pcu.csv" -e hswep_unc_pcu::UNC_P_CLOCKTICKS \
	-- "$sim" advance "$node" 1s >"$tmp/stat_pcu.out" 2>&1
rc=$?
expect "uncore-stat -e hswep_unc_pcu::UNC_P_CLOCKTICKS as $who: refused (status $rc) with the policy's reason" \
	grep -qF "$reason" "$tmp/stat_pcu.out"
grep -qF "$reason" "$tmp/stat_pcu.out" || sed 's/^/   /' "$tmp/stat_pcu.out"

as_nobody "$mine/bin/uncore-stat" --csv -o "$tmp/out/tf.csv" -e "hswep_unc_cbo::UNC_C_RXR_INSERTS:IRQ:tf=1" \
	-- "$sim" advance "$node" 1ms >"$tmp/stat_tf.out" 2>&1
expect "a CBo thread filter as $who: refused by default ($(grep -o "core or thread filters are root's alone" "$tmp/stat_tf.out" | head -1))" \
	grep -q "core or thread filters are root's alone" "$tmp/stat_tf.out"
grep -q "root's alone" "$tmp/stat_tf.out" || sed 's/^/   /' "$tmp/stat_tf.out"

as_nobody "$mine/bin/uncore-stat" --csv -o "$tmp/out/four.csv" -e hswep_unc_ubo::UNC_U_CLOCKTICKS \
	-e hswep_unc_imc::UNC_M_CAS_COUNT:RD -e hswep_unc_imc::UNC_M_CAS_COUNT:WR \
	-e hswep_unc_cbo::UNC_C_CLOCKTICKS -- "$sim" advance "$node" 1ms >"$tmp/stat4.out" 2>&1
expect "a 4th event in one client: refused with the policy's limit" \
	grep -qF "uncored policy ($tmp/site.pol line 3): a client of user $(as_nobody id -u) counts at most 3 events" "$tmp/stat4.out"
grep -qF "counts at most 3" "$tmp/stat4.out" || sed 's/^/   /' "$tmp/stat4.out"

# Root (the test's own user when it is root) may use the thread filter.
if [ "$(id -u)" = 0 ]; then
	"$STAGE/bin/uncore-stat" --csv -o "$tmp/out/tf_root.csv" -e "hswep_unc_cbo::UNC_C_RXR_INSERTS:IRQ:tf=1" \
		-- "$sim" advance "$node" 1ms >"$tmp/stat_tf_root.out" 2>&1
	expect "the same thread filter as root: counted (status $?)" \
		grep -q "hswep_unc_cbo::UNC_C_RXR_INSERTS:IRQ:tf=1" "$tmp/out/tf_root.csv"
else
	skip "the thread filter as root: the test does not run as root"
fi
