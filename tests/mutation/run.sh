#!/usr/bin/env bash
# Mutation testing (README.md here): plant each bug of mutations.txt in a
# scratch copy of the tree and report the ones no unit test catches.
#   tests/mutation/run.sh [--keep] [--list FILE] [ID ...]     (make mutation)
set -euo pipefail
exec "${PYTHON3:-python3}" "$(dirname "$0")/mutate.py" "$@"
