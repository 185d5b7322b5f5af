#!/usr/bin/env bash
# Install, from Debian's package archive, what building and testing
# papi-uncore needs and this machine lacks.  Installs nothing when all is
# present (so it also works offline).  Needs root only when it installs.
set -euo pipefail
say() { echo "== papi-uncore: $*"; }

# What each package is for:
#   build-essential  gcc, make, ld, ar (our library and PAPI)
#   autoconf         regenerating configure (make check-configure)
#   python3          event-table generators and the audit
#   patch            applying our libpfm4 patches to PAPI's libpfm4
#   ca-certificates  https package mirrors, where the sources use them
#   valgrind         callgrind instruction counts in bench/, and the memory run
#                    of make check (tests/integration/test_memory.sh)
#   clang, libclang-rt-14-dev  libFuzzer with ASan+UBSan: the fuzz targets
#                    (tests/fuzz/, make fuzz), run briefly by make check
#   libpci-dev       libpci's headers for src/access/pci_libpci.c; libpci itself
#                    (libpci3) is loaded at run time with dlopen, never linked,
#                    and without it PCI access falls back to sysfs
#   strace           make check: counts the read() calls of one PAPI_read on the
#                    perf backend (tests/integration/test_perf_backend.sh)
#   util-linux       make check: setpriv (an unprivileged PAPI client) and
#                    unshare (a build without network)
#   libpapi7.0, libpfm4  Debian's PAPI and libpfm4, never used by our build: every
#                    test runs beside them, as on HPC nodes that have them, and
#                    proves our libpapi and tools never load or call them
#                    (tests/integration/test_one_papi.sh)
#   libcap2-bin      setcap: the test that a tool given cap_perfmon loads our libpapi
#   chromium         a real browser, headless, that renders uncore-stat --plot's SVG
#                    for a screenshot test (tests/integration/test_plot.sh; about
#                    30 s to install from the archive, 3 s a screenshot)
#   man-db           man(1): the test that `man uncore-stat` works after make install
#   openmpi-bin      mpirun, for the MPI tests of the PMPI library (loopback only)
#   libopenmpi-dev   mpicc and mpi.h, to build libpapi_uncore_mpi.so and the MPI tests
#   gfortran         a .F90 program including f90papi.h (tests/integration/test_fortran.sh)
#   pkg-config       papi.pc's recipe (tests/integration/test_one_papi.sh, test_fortran.sh)
#   prometheus       a real Prometheus server (2.42) that scrapes uncored --prometheus
#                    (tests/integration/test_uncored_prometheus.sh starts the binary on
#                    loopback itself; the package's own service is never needed)
# The suite's SKIP-DEP lines name what is missing; under CI=true they fail.
packages=(build-essential autoconf python3 patch ca-certificates valgrind libpci-dev strace
	util-linux libpapi7.0 libpfm4 libcap2-bin chromium man-db clang libclang-rt-14-dev
	openmpi-bin libopenmpi-dev gfortran pkg-config prometheus)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	say "all build dependencies are installed (${packages[*]})"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "papi-uncore: error: missing packages: ${missing[*]}" >&2
	echo "  Fix: as root, run: apt-get update && apt-get install -y ${missing[*]}" >&2
	echo "  (or: sudo $0)" >&2
	exit 1
fi
say "installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || { echo "papi-uncore: error: 'apt-get update' failed: is the Debian archive reachable?" >&2; exit 1; }
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
say "installed: ${missing[*]}"
