#!/usr/bin/env bash
# Obtain the pristine PAPI 7.0.0 source from Debian's source package and unpack
# it into DEST/papi.  Nothing else is ever downloaded.
#
# When apt has no deb-src entries and we run as root, one is derived from the
# system's own package sources (same URIs, suites, components and keyring;
# type deb-src) and written to /etc/apt/sources.list.d/papi-uncore-src.sources,
# and we say so.  Otherwise we stop and print exactly what to run.
#
# Usage: scripts/get-papi-source.sh DEST
set -euo pipefail

dest=${1:?usage: get-papi-source.sh DEST}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
say() { echo "== papi-uncore: $*"; }
die() { echo "papi-uncore: error: $*" >&2; exit 1; }

if [ -f "$dest/papi/src/papi.h" ]; then
	say "PAPI source already present in $dest/papi"
	exit 0
fi

command -v apt-get >/dev/null || die "apt-get is not available, so Debian's PAPI source package cannot be fetched.
  Fix: unpack a PAPI 7.x source tree yourself and run ./configure --with-papi-src=/path/to/papi-7.x"

added_src=/etc/apt/sources.list.d/papi-uncore-src.sources

have_source() { apt-cache showsrc papi 2>/dev/null | grep -q '^Package: papi$'; }

# Print deb-src stanzas (deb822) derived from every enabled "deb" source.
derive_deb_src() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		[ "$f" = "$added_src" ] && continue
		awk '
		function flush() {
			if (n && types ~ /(^|[ \t])deb([ \t]|$)/ && enabled !~ /^[ \t]*no/) {
				print "Types: deb-src"
				for (i = 1; i <= n; i++) print lines[i]
				print ""
			}
			n = 0; types = ""; enabled = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^#/ { next }
		/^Types:/ { types = substr($0, 7); next }
		/^Enabled:/ { enabled = substr($0, 9) }
		{ lines[++n] = $0 }
		END { flush() }' "$f"
	done
	# One-line format: "deb [options] URI suite components" -> deb822.
	local l
	for l in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$l" ] || continue
		awk '
		/^[ \t]*deb[ \t]/ {
			opts = ""; i = 2
			if ($2 ~ /^\[/) {
				while (i <= NF && $i !~ /\]$/) { opts = opts " " $i; i++ }
				opts = opts " " $i; i++
			}
			uri = $i; suite = $(i + 1); comps = ""
			for (j = i + 2; j <= NF; j++) comps = comps " " $j
			print "Types: deb-src"; print "URIs: " uri; print "Suites: " suite
			if (comps != "") print "Components:" comps
			if (match(opts, /signed-by=[^] ]*/)) print "Signed-By: " substr(opts, RSTART + 10, RLENGTH - 10)
			print ""
		}' "$l"
	done
}

if ! have_source; then
	say "looking for Debian's papi source package (apt-get update)"
	apt-get update >/dev/null 2>&1 || true
fi
if ! have_source; then
	stanzas=$(derive_deb_src)
	[ -n "$stanzas" ] || die "apt has no package sources to derive a deb-src entry from.
  Fix: add a deb-src entry for your Debian mirror, or run ./configure --with-papi-src=/path/to/papi-7.x"
	if [ "$(id -u)" != 0 ]; then
		die "apt has no deb-src entries, so 'apt-get source papi' cannot work, and adding one needs root.
  Fix (as root):
    cat > $added_src <<'END'
$stanzas
END
    apt-get update
  then run make again.  Or run ./configure --with-papi-src=/path/to/papi-7.x with a PAPI source tree you have."
	fi
	say "apt has no deb-src entries: adding $added_src, derived from your existing sources (same URIs, suites and keyring):"
	printf '%s\n' "$stanzas" | sed 's/^/    /'
	printf '# Added by papi-uncore (scripts/get-papi-source.sh) to fetch the PAPI source package.\n%s\n' "$stanzas" > "$added_src"
	apt-get update >/dev/null 2>&1 || true
fi
have_source || die "Debian's papi source package cannot be found: the package archive is not reachable or lists no 'papi' source.
  Fix: make the Debian archive reachable (check 'apt-get update'), or run
  ./configure --with-papi-src=/path/to/papi-7.x with a PAPI 7.x source tree."

dl="$dest/download"
rm -rf "$dl" && mkdir -p "$dl"
chmod 755 "$dl"
say "downloading Debian's papi source package (apt-get source --download-only papi)"
if ! (cd "$dl" && apt-get -o APT::Sandbox::User=root source --download-only papi >"$dl/apt.log" 2>&1); then
	tail -5 "$dl/apt.log" >&2
	die "'apt-get source papi' failed: the package archive is not reachable.
  Fix: make the Debian archive reachable (check 'apt-get update'), or run
  ./configure --with-papi-src=/path/to/papi-7.x with a PAPI 7.x source tree."
fi
orig=$(ls "$dl"/papi_7.*.orig.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || die "the downloaded papi source package is not PAPI 7.x (files: $(ls "$dl" | tr '\n' ' '))"
# The upstream tarball, without Debian's patches: those unbundle libpfm4,
# and we build PAPI's bundled libpfm4 with our tables (libpfm4-events/README).
say "unpacking $(basename "$orig") (upstream source, Debian patches not applied)"
rm -rf "$dest/unpack" "$dest/papi" && mkdir -p "$dest/unpack"
tar -xf "$orig" -C "$dest/unpack"
top=$(ls -d "$dest/unpack"/papi-* | head -1)
[ -f "$top/src/papi.h" ] || die "unexpected layout in $orig: no src/papi.h"
mv "$top" "$dest/papi" && rmdir "$dest/unpack"
say "PAPI source ready in $dest/papi"
