#!/usr/bin/env bash
# Integration test of the client-uncore PMUs (Skylake client, Nehalem guide events,
# Xeon 7100/7400 L3) in the libpfm4 of the staged PAPI: builds
# libpfm4_client_check.c against $STAGE's perfmon headers and libpfm.a, then, with
# LIBPFM_ENCODE_INACTIVE=1 (no such hardware here), checks that every PMU lists its
# events and passes pfm_pmu_validate(), and that every golden row encodes as stated.
# Env: SRCDIR (source tree), STAGE (staged PAPI), BUILD (build directory).
set -u
SRCDIR=${SRCDIR:?}
STAGE=${STAGE:?}
BUILD=${BUILD:?}
CC=${CC:-cc}
. "$(dirname "$0")/lib.sh"
plan 176

fail() { echo "FAIL $*"; exit 1; }

inc=$STAGE/include
lib=$STAGE/lib/libpfm.a
[ -f "$inc/perfmon/pfmlib.h" ] || fail "libpfm4 header missing: $inc/perfmon/pfmlib.h (was PAPI staged?)"
[ -f "$lib" ] || fail "libpfm4 library missing: $lib (was PAPI staged?)"
grep -q PFM_PMU_INTEL_SKL_UNC_IU_CBO0 "$inc/perfmon/pfmlib.h" ||
	fail "staged pfmlib.h has no client-uncore PMU ids: libpfm4-events/patches/20-register-client-pmus.patch not applied"

out=$BUILD/tests/integration
mkdir -p "$out"
bin=$out/libpfm4_client_check
"$CC" -std=gnu11 -Wall -Wextra -Werror -I"$inc" "$SRCDIR/tests/integration/libpfm4_client_check.c" \
	"$lib" -o "$bin" 2>"$out/libpfm4_client_check.build.log" ||
	{ cat "$out/libpfm4_client_check.build.log"; fail "cannot build libpfm4_client_check"; }
echo "PASS build libpfm4_client_check against $lib"

golden=$SRCDIR/libpfm4-events/golden
LIBPFM_ENCODE_INACTIVE=1 "$bin" "$golden/skl.txt" "$golden/nhm.txt" "$golden/x7400.txt"
