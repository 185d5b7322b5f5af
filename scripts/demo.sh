#!/usr/bin/env bash
# `make demo`: what papi-uncore shows on this machine.  Until the simulator
# and the event sets land, the demo is the component listing of the staged
# PAPI: intel_uncore next to PAPI's own components, active or with the
# reason it is disabled.
set -u
stage=${1:?usage: demo.sh STAGE}
echo "== papi-uncore demo: components of the staged PAPI ($stage/bin/papi_component_avail)"
"$stage/bin/papi_component_avail" | sed -n '/^Compiled-in components/,$p'
