#!/usr/bin/env bash
# PAPI's own utilities, from stage/, as real clients of the component:
# intel_uncore is compiled in next to perf_event, and when it is disabled its
# reason says what is missing and what to do.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$STAGE/bin/papi_component_avail" >"$tmp/avail" 2>&1
expect "papi_component_avail runs" test $? -eq 0
expect "intel_uncore is compiled in" grep -q '^Name: *intel_uncore ' "$tmp/avail"
expect "perf_event is still compiled in" grep -q '^Name: *perf_event ' "$tmp/avail"
expect "perf_event_uncore is still compiled in" grep -q '^Name: *perf_event_uncore ' "$tmp/avail"

# Either active, or disabled with an actionable reason (names the CPU or the
# device and a fix): never a bare "disabled".
reason=$(sed -n '/^Name: *intel_uncore /{n;p}' "$tmp/avail" | sed -n 's/.*Disabled: //p')
if grep -A30 '^Active components' "$tmp/avail" | grep -q '^Name: *intel_uncore '; then
	pass "intel_uncore is active"
elif [ -n "$reason" ] && echo "$reason" | grep -q -E 'model|/dev/|PAPI_INTEL_UNCORE_BACKEND|modprobe|driver'; then
	pass "intel_uncore disabled with an actionable reason: $reason"
else
	fail "intel_uncore neither active nor disabled with a useful reason (got: '$reason')"
fi

# An invalid override is reported as such.
PAPI_INTEL_UNCORE_BACKEND=bogus "$STAGE/bin/papi_component_avail" >"$tmp/bogus" 2>&1
expect "an invalid PAPI_INTEL_UNCORE_BACKEND is named in the reason" \
	grep -q 'PAPI_INTEL_UNCORE_BACKEND=bogus is invalid' "$tmp/bogus"

"$STAGE/bin/papi_native_avail" >"$tmp/native" 2>&1
expect "papi_native_avail runs" test $? -eq 0
"$STAGE/bin/papi_version" >"$tmp/version" 2>&1
expect "staged PAPI is version 7" grep -q 'PAPI Version: *7\.' "$tmp/version"
expect "libpapi.so is staged" test -e "$STAGE/lib/libpapi.so"
expect "papi.h is staged" test -f "$STAGE/include/papi.h"
