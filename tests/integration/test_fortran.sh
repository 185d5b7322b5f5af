#!/usr/bin/env bash
# A Fortran program as the README says to write one: a free-form .F90 file
# that includes f90papi.h (fpapi.h is fixed form: a .F90 file including it
# does not compile), built with gfortran -cpp and the staged papi.pc, counts
# an uncore event on the simulator.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
unset PAPI_INTEL_UNCORE_SIM PAPI_INTEL_UNCORE_SIM_SCENARIO PAPI_INTEL_UNCORE_SIM_KERNEL
if ! command -v gfortran >/dev/null; then
	plan 1
	skip_dep "Fortran: gfortran is not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
plan 2
src=$SRCDIR/tests/integration/fortran/count.F90
# shellcheck disable=SC2046 # pkg-config's words
if gfortran -cpp -o "$tmp/count" "$src" $(PKG_CONFIG_PATH=$STAGE/lib/pkgconfig pkg-config --cflags --libs papi) \
	>"$tmp/cc" 2>&1; then
	plan 1
	pass "a .F90 program including f90papi.h builds with gfortran -cpp and pkg-config --cflags --libs papi"
	PAPI_INTEL_UNCORE_BACKEND=sim "$tmp/count" >"$tmp/out" 2>&1
	rc=$?
	expect "it counts hswep_unc_imc::UNC_M_CAS_COUNT:RD on the simulator ($(head -c 200 "$tmp/out"))" \
		sh -c "test $rc -eq 0 && grep -Eq '^hswep_unc_imc::UNC_M_CAS_COUNT:RD [1-9][0-9]*$' '$tmp/out'"
else
	fail "a .F90 program including f90papi.h does not build:"
	cat "$tmp/cc"
fi
sed 's/f90papi\.h/fpapi.h/' "$src" >"$tmp/fixed.F90"
expect "the same program including fpapi.h (fixed form) does not compile, as the README warns" \
	sh -c "! gfortran -cpp -fsyntax-only -I'$STAGE/include' '$tmp/fixed.F90' >/dev/null 2>&1"
