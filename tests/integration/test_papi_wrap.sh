#!/usr/bin/env bash
# Wrap safety through PAPI with the default settings (build/itests/
# papi_wrap, from tests/integration/papi/papi_wrap.c): 15 simulated minutes
# of R3QPI RxR_OCCUPANCY_VN1 at 32 per cycle, no PAPI_read, exact total.
set -u
. "$(dirname "$0")/lib.sh"
plan 1
bin=$BUILD/itests/papi_wrap
need "$bin" || exit 0
export SRCDIR
"$bin"
rc=$?
[ "$rc" -eq 0 ] || fail "papi_wrap exited with status $rc"
