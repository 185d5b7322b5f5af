#!/usr/bin/env bash
# The Haswell-EP PMUs through the staged PAPI's libpfm4 ($STAGE/include,
# $STAGE/lib/libpfm.a, built from PAPI's bundled libpfm4 with libpfm4-events/
# applied): every hswep_unc_* PMU lists as many events as our table has and
# passes libpfm4's table validation, and every row of
# libpfm4-events/golden/hswep.txt encodes as it says (LIBPFM_ENCODE_INACTIVE=1,
# so no Haswell-EP is needed).
set -u
. "$(dirname "$0")/lib.sh"
plan 197
py=${PYTHON3:-python3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

lib=$STAGE/lib/libpfm.a
if [ ! -f "$STAGE/include/perfmon/pfmlib.h" ] || [ ! -f "$lib" ]; then
	fail "libpfm4 not staged ($STAGE/include/perfmon/pfmlib.h, $lib): run make"
	exit 0
fi
bin=$tmp/libpfm4_hswep_check
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$STAGE/include" "$here/libpfm4_hswep_check.c" \
	"$lib" -lm -o "$bin" >"$tmp/cc.log" 2>&1; then
	fail "libpfm4_hswep_check does not build against the staged libpfm4"
	cat "$tmp/cc.log"
	exit 0
fi

# PMU=NEVENTS for every instance, counted from our committed tables.
counts=$("$py" - "$SRCDIR/libpfm4-events" <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import pfmtable
pmus = {"ubo": ["hswep_unc_ubo"], "cbo": ["hswep_unc_cbo%d" % i for i in range(18)],
        "sbo": ["hswep_unc_sbo%d" % i for i in range(4)], "ha": ["hswep_unc_ha0", "hswep_unc_ha1"],
        "imc": ["hswep_unc_imc%d" % i for i in range(8)], "irp": ["hswep_unc_irp"],
        "pcu": ["hswep_unc_pcu"], "qpi": ["hswep_unc_qpi0", "hswep_unc_qpi1"],
        "r2pcie": ["hswep_unc_r2pcie"], "r3qpi": ["hswep_unc_r3qpi%d" % i for i in range(3)]}
for box, names in pmus.items():
    t = pfmtable.Table(os.path.join(sys.argv[1], "events", "intel_hswep_unc_%s_events.h" % box))
    for n in names:
        print("%s=%d" % (n, len(t.events)))
EOF
) || { fail "cannot count the events of libpfm4-events/events/*.h"; exit 0; }

# shellcheck disable=SC2086
LIBPFM_ENCODE_INACTIVE=1 "$bin" "$SRCDIR/libpfm4-events/golden/hswep.txt" $counts
