#!/usr/bin/env bash
# Faults through PAPI on the simulator (build/itests/papi_faults, from
# tests/integration/papi/papi_faults.c): a vanished device is PAPI_ESYS, a
# failed freeze in PAPI_stop loses no count, a failed unfreeze on one
# socket costs the other nothing.  The full matrix (start/read/stop x
# MSR/PCI/MMIO x EIO/EACCES/ENODEV x transient/persistent) is the unit test
# tests/unit/eventset/test_fault_matrix.c.
set -u
. "$(dirname "$0")/lib.sh"
plan 11
bin=$BUILD/itests/papi_faults
need "$bin" || exit 0
export SRCDIR
"$bin"
rc=$?
[ "$rc" -eq 0 ] || fail "papi_faults exited with status $rc"
