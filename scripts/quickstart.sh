#!/usr/bin/env bash
# The README's first command: install what is missing, configure, build
# PAPI with the intel_uncore component into stage/, and run the demo.
# Extra arguments go to ./configure (e.g. --with-papi-src=DIR, --prefix=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "== papi-uncore: $*"; }
say "step 1/4: build dependencies"
scripts/install-deps.sh
if [ ! -f Makefile ] || [ $# -gt 0 ]; then
	say "step 2/4: ./configure $*"
	./configure "$@"
else
	say "step 2/4: already configured (./config.status --config shows how)"
fi
say "step 3/4: make (our library, PAPI with intel_uncore, utilities -> stage/)"
make -j"$(nproc)"
say "step 4/4: make demo"
make demo
say "done.  Next: make check (the whole test suite)"
