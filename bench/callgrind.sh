# Sourced by the callgrind benchmarks (bench/metric.sh, bench/xeon_sp.sh):
# stops the caller with a note when valgrind is missing, and gives
# incl FILE FUNCTION: callgrind's inclusive count of a function ("file.c:fn"),
# or 0 when it did not run.
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
	echo "(valgrind is not installed: scripts/install-deps.sh installs it)"
	exit 0
fi
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v f="$2" 'index($0, f " ") || index($0, f "\t") ||
			(length($0) >= length(f) && substr($0, length($0) - length(f) + 1) == f) {
			gsub(",", "", $1); print $1; exit }' |
		grep . || echo 0
}
