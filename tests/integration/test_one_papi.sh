#!/usr/bin/env bash
# One PAPI, never mixed with a system PAPI or libpfm4 (issue 12): libpapi
# exports no libpfm4 symbol and binds its calls to the embedded copy even
# when a system libpfm.so.4 is loaded first; our tools find our libpapi by an
# absolute RUNPATH, also when given cap_perfmon (the loader then ignores
# $ORIGIN and LD_LIBRARY_PATH) next to Debian's libpapi.so.7.0 of the same
# soname; `make install` writes a papi.pc and RUNPATHs for its prefix and
# `make uninstall` removes exactly what it installed.
set -u
. "$(dirname "$0")/lib.sh"
plan 28
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export PAPI_INTEL_UNCORE_LOCK_DIR=$tmp/locks
mkdir -p "$PAPI_INTEL_UNCORE_LOCK_DIR"
chmod 1777 "$PAPI_INTEL_UNCORE_LOCK_DIR"
scn=$SRCDIR/src/sim/scenarios/demo-stream.scn
event=hswep_unc_imc::UNC_M_CAS_COUNT:RD

lib=$STAGE/lib/libpapi.so
exported=$(nm -D --defined-only "$lib" | awk '$3 ~ /^pfm_/' | wc -l)
undefined=$(nm -D --undefined-only "$lib" | grep -c 'pfm_')
expect "libpapi.so exports no pfm_ symbol ($exported exported)" test "$exported" -eq 0
expect "libpapi.so imports no pfm_ symbol ($undefined imported)" test "$undefined" -eq 0
expect "libpapi.so needs no libpfm.so" sh -c "! readelf -d '$lib' | grep -q 'NEEDED.*libpfm'"
expect "libpapi.so has no RUNPATH (it needs only libc)" sh -c "! readelf -d '$lib' | grep -q 'RUNPATH\|RPATH'"

# Debian's packages, installed by scripts/install-deps.sh so that every test
# runs beside them.  Missing on a developer's machine: say so (CI must have them).
sys_papi=$(ls /usr/lib/*/libpapi.so.7.0 2>/dev/null | head -1)
sys_pfm=$(ls /usr/lib/*/libpfm.so.4 2>/dev/null | head -1)
if [ -z "$sys_papi" ] || [ -z "$sys_pfm" ]; then
	if [ "${CI:-}" = true ]; then
		fail "Debian's libpapi7.0 and libpfm4 are not installed (scripts/install-deps.sh installs them)"
	else
		echo "SKIP beside a system PAPI: Debian's libpapi7.0/libpfm4 are not installed (scripts/install-deps.sh installs them)"
	fi
else
	pass "Debian's $sys_papi and $sys_pfm are installed"
fi

# A system libpfm.so.4 loaded first takes no call of ours.
if [ -n "$sys_pfm" ]; then
	plan 2
	LD_PRELOAD=$sys_pfm LD_DEBUG=bindings LD_DEBUG_OUTPUT=$tmp/bind \
		"$STAGE/bin/uncore-stat" --sim --sim-scenario "$scn" -e "$event" -- true >"$tmp/pre.out" 2>&1
	rc=$?
	expect "uncore-stat counts with a system libpfm.so.4 preloaded" test $rc -eq 0
	taken=$(cat "$tmp"/bind.* 2>/dev/null | grep 'binding file [^ ]*libpapi' | grep 'normal symbol `pfm_' | grep -c 'libpfm.so.4')
	expect "no pfm_ call is bound to the system libpfm.so.4 ($taken bindings)" test "$taken" -eq 0
fi

runpath() { readelf -d "$1" | sed -n 's/.*RUNPATH.*\[\(.*\)\]/\1/p'; }
expect "staged uncore-stat's RUNPATH is $STAGE/lib" test "$(runpath "$STAGE/bin/uncore-stat")" = "$STAGE/lib"

# With cap_perfmon, as an unprivileged user: the loader runs in secure mode.
# nobody reads what it needs from $tmp (mode 755) and the scenario built
# into the library (by name): the clone may be in a directory nobody
# cannot enter (a 0700 home, mktemp -d).
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
capped_counts() { # program: counts DRAM reads on the simulator, as nobody, with cap_perfmon
	cp "$1" "$tmp/capped" && chmod 755 "$tmp/capped" && setcap cap_perfmon+ep "$tmp/capped" &&
		as_nobody env PAPI_INTEL_UNCORE_LOCK_DIR="$PAPI_INTEL_UNCORE_LOCK_DIR" \
			"$tmp/capped" --sim --sim-scenario demo-stream -e "$event" -- true >"$tmp/capped.out" 2>&1 &&
		grep -q "^$event" "$tmp/capped.out"
}
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	! as_nobody test -r "$STAGE/lib/libpapi.so.7.0"; then
	# The staged binary finds libpapi in $STAGE/lib, which nobody cannot
	# reach here; the installed copy below (RUNPATH <prefix>/lib, in $tmp)
	# is checked the same way.
	skip "staged uncore-stat with cap_perfmon, run by nobody: nobody cannot reach $STAGE/lib (the clone is in a private directory); the installed copy is checked instead"
elif [ "$(id -u)" = 0 ] && command -v setcap >/dev/null && command -v setpriv >/dev/null; then
	if capped_counts "$STAGE/bin/uncore-stat"; then
		pass "uncore-stat with cap_perfmon, run by nobody, loads our libpapi (counts $event on the simulator)"
	else
		fail "uncore-stat with cap_perfmon, run by nobody, did not count:"
		cat "$tmp/capped.out"
	fi
else
	skip "cap_perfmon: needs root, setcap and setpriv"
fi

# make install / make uninstall into a fresh prefix.
prefix=$tmp/prefix
if make -s -C "$SRCDIR" install prefix="$prefix" >"$tmp/install.log" 2>&1; then
	pass "make install prefix=$prefix"
	pc=$prefix/lib/pkgconfig/papi.pc
	expect "papi.pc names the prefix" grep -qx "prefix=$prefix" "$pc"
	expect "papi.pc names nothing of the build tree" sh -c "! grep -q '$SRCDIR' '$pc'"
	expect "installed uncore-stat's RUNPATH is $prefix/lib" test "$(runpath "$prefix/bin/uncore-stat")" = "$prefix/lib"
	loaded=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/uncore-stat" | sed -n 's/.*libpapi.so.7.0 => \([^ ]*\).*/\1/p')
	expect "installed uncore-stat loads $prefix/lib/libpapi.so.7.0 (ldd: $loaded)" test "$loaded" = "$prefix/lib/libpapi.so.7.0"
	expect "installed papi_component_avail lists intel_uncore" bash -o pipefail -c \
		"PAPI_INTEL_UNCORE_BACKEND=sim '$prefix/bin/papi_component_avail' | grep intel_uncore >/dev/null"
	# The README's recipe ("Pointing an existing tool at this build"): a
	# program built with the installed papi.pc loads our libpapi beside
	# Debian's and counts an uncore event.
	expect "papi.pc's link line has a run path to $prefix/lib" bash -o pipefail -c \
		"PKG_CONFIG_PATH='$prefix/lib/pkgconfig' pkg-config --libs papi | grep -- '-Wl,-rpath,$prefix/lib' >/dev/null"
	if PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc -o "$tmp/count_event" "$SRCDIR/tests/integration/recipe/count_event.c" \
		$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs papi) >"$tmp/cc.log" 2>&1; then
		plan 2
		pass "a program builds with PKG_CONFIG_PATH=$prefix/lib/pkgconfig and pkg-config --cflags --libs papi"
		loaded=$(env -u LD_LIBRARY_PATH ldd "$tmp/count_event" | sed -n 's/.*libpapi.so.7.0 => \([^ ]*\).*/\1/p')
		expect "it loads $prefix/lib/libpapi.so.7.0 (ldd: $loaded)" test "$loaded" = "$prefix/lib/libpapi.so.7.0"
		env -u LD_LIBRARY_PATH PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_SCENARIO="$scn" \
			"$tmp/count_event" "$event" >"$tmp/count.out" 2>&1
		rc=$?
		expect "it counts $event on the simulator ($(cat "$tmp/count.out"))" test $rc -eq 0
		if [ -n "$sys_papi" ]; then
			plan 2
			# Made to load Debian's libpapi (LD_LIBRARY_PATH comes before a
			# run path): PAPI_library_init says so through PAPI's error channel.
			LD_LIBRARY_PATH=$(dirname "$sys_papi") PAPI_VERBOSE=1 \
				"$tmp/count_event" "$event" >"$tmp/other.out" 2>&1
			expect "with Debian's libpapi loaded, PAPI_library_init names it" \
				grep -q "PAPI Error: this program was built with papi-uncore's papi.h, but the libpapi it loaded ($(readlink -f "$sys_papi")) has no intel_uncore component" "$tmp/other.out"
			LD_LIBRARY_PATH=$(dirname "$sys_papi") "$tmp/count_event" "$event" >"$tmp/quiet.out" 2>&1
			expect "... and only with PAPI's verbose errors on" sh -c "! grep -q 'papi-uncore' '$tmp/quiet.out'"
		fi
	else
		fail "the README's recipe does not build a program:"
		cat "$tmp/cc.log"
	fi
	# The manual pages, as a user reads them once the prefix is on MANPATH.
	for page in uncore-stat uncore-sim uncore-msr-allowlist "7 intel_uncore" "8 uncored"; do
		# shellcheck disable=SC2086 # "7 intel_uncore" is a section and a name
		MANPATH=$prefix/share/man MANWIDTH=80 man $page >"$tmp/man.txt" 2>"$tmp/man.err"
		expect "man $page works after make install (${page##* } in its NAME)" \
			grep -q "^ *${page##* } *- " "$tmp/man.txt"
	done
	for t in uncore-stat uncore-sim uncore-msr-allowlist; do
		expect "installed $t --version" bash -o pipefail -c "'$prefix/bin/$t' --version | grep '^$t (papi-uncore) ' >/dev/null"
	done
	expect "installed sbin/uncored --version" bash -o pipefail -c "'$prefix/sbin/uncored' --version | grep '^uncored (papi-uncore) ' >/dev/null"
	expect "uncored's systemd unit is installed, starting $prefix/sbin/uncored" \
		grep -q "^ExecStart=$prefix/sbin/uncored " "$prefix/lib/systemd/system/uncored.service"
	expect "the bash completion of uncore-stat is installed" \
		test -f "$prefix/share/bash-completion/completions/uncore-stat"
	if [ "$(id -u)" = 0 ] && command -v setcap >/dev/null && command -v setpriv >/dev/null; then
		plan 1
		chmod -R a+rX "$prefix"
		expect "installed uncore-stat with cap_perfmon, run by nobody, loads our libpapi" \
			capped_counts "$prefix/bin/uncore-stat"
	fi
	if make -s -C "$SRCDIR" uninstall prefix="$prefix" >"$tmp/uninstall.log" 2>&1; then
		left=$(find "$prefix" -mindepth 1 2>/dev/null | wc -l)
		expect "make uninstall removes every installed file ($left left)" test "$left" -eq 0
	else
		fail "make uninstall prefix=$prefix"
		tail -5 "$tmp/uninstall.log"
	fi
	mkdir -p "$prefix/keep" && touch "$prefix/keep/mine"
	make -s -C "$SRCDIR" install prefix="$prefix" >/dev/null 2>&1 &&
		make -s -C "$SRCDIR" uninstall prefix="$prefix" >/dev/null 2>&1
	expect "make uninstall leaves files it did not install" test -f "$prefix/keep/mine"
else
	fail "make install prefix=$prefix"
	tail -20 "$tmp/install.log"
fi
