#!/usr/bin/env bash
# Replace the "## Results" section of bench/README.md with the tables of the
# last `make bench` ($BUILD/bench/results.md), unedited, so that the figures
# there are always one run's output with the commit it came from.
#   bench/update-readme.sh [RESULTS.md]   (default: build/bench/results.md)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
results=${1:-$here/../build/bench/results.md}
readme=$here/README.md
[ -s "$results" ] || { echo "update-readme: no results at $results: run make bench first" >&2; exit 2; }
head=$(head -1 "$results")
# "## papi-uncore benchmarks (commit C, DATE, N CPUs, KERNEL)"
case $head in
"## papi-uncore benchmarks (commit "*) ;;
*) echo "update-readme: $results does not start with make bench's header" >&2; exit 2 ;;
esac
case $head in
*"commit unknown"* | *"+changes"*)
	echo "update-readme: $results came from a build that is not a commit ($head): commit, then run make bench" >&2
	exit 2 ;;
esac
what=${head#"## papi-uncore benchmarks ("}
what=${what%)}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	sed '/^## Results$/q' "$readme"
	echo
	echo "Produced by \`make bench\` at $what; every figure below is that run's"
	echo "output, unedited (\`bench/update-readme.sh\` copies it here). After a change of the read path,"
	echo "commit, run \`make bench\` and \`bench/update-readme.sh\`."
	tail -n +2 "$results"
} >"$tmp"
grep -q '^## Results$' "$readme" || { echo "update-readme: $readme has no '## Results' section" >&2; exit 2; }
cat "$tmp" >"$readme"
echo "bench/README.md: results of $what"
