#!/bin/sh
# Rewrite PAPI's papi.pc for where our libpapi lives: prefix=PREFIX, and a
# run path to PREFIX/lib in the link line, so that a program built with
# `pkg-config --libs papi` loads this libpapi.so.7.0 and not a system PAPI
# of the same soname (Debian's libpapi7.0 in /lib/x86_64-linux-gnu), which
# the loader would find first without one.  A prefix whose lib is searched
# by default (/usr) gets no run path: nothing would come before it.
#
# Usage: papi-pc.sh PC_FILE PREFIX
set -eu
pc=$(readlink -f "${1:?papi.pc}")
prefix=${2:?prefix}
case "$prefix" in
/usr | /usr/ | /) rpath= ;;
*) rpath=' -Wl,-rpath,${libdir}' ;;
esac
sed -i -e "s|^prefix=.*|prefix=$prefix|" \
	-e "s|^Libs:.*|Libs: -L\${libdir}$rpath -lpapi|" "$pc"
grep -q "^Libs: -L\${libdir}$rpath -lpapi\$" "$pc" || { echo "papi-pc.sh: no Libs line rewritten in $pc" >&2; exit 1; }
