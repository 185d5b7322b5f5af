#!/usr/bin/env python3
"""Line coverage of src/ from a --coverage build (make coverage).

  report.py --objects DIR --src SRCDIR [--min PCT] [--all-functions PATH]...
            [--files]

Runs gcov (JSON output) on every .gcno under DIR (an object never run
counts all its lines as not run), merges the lines and functions of each
source file under SRCDIR/src/ (headers' inline functions appear in several
objects: a line is run when any object ran it), prints the coverage of each
folder of src/ and the total, the functions never run, and fails when the
total is under --min percent or a function under an --all-functions path
(a file, or a folder ending in /) never ran."""
import argparse
import json
import os
import subprocess
import sys


def gcov_json(gcno):
    """gcov's JSON for one object (its .gcda beside it, or none)."""
    r = subprocess.run(["gcov", "--json-format", "--stdout", gcno], cwd=os.path.dirname(gcno),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    docs = []
    for line in r.stdout.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line.startswith("{"):
            docs.append(json.loads(line))
    if not docs:
        sys.exit("report.py: gcov gave nothing for %s" % gcno)
    return docs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objects", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--min", type=float, default=0.0)
    ap.add_argument("--all-functions", action="append", default=[])
    ap.add_argument("--files", action="store_true", help="print each file's coverage")
    ap.add_argument("--summary", help="what ran, for the total line; without --min or --all-functions only that line")
    args = ap.parse_args()
    src = os.path.realpath(args.src)
    top = os.path.join(src, "src") + os.sep

    lines = {}   # file -> {line: count}
    funcs = {}   # (file, line, name) -> count
    gcnos = []
    for d, _, names in os.walk(os.path.join(os.path.abspath(args.objects), "src")):
        gcnos += [os.path.join(d, n) for n in names if n.endswith(".gcno")]
    if not gcnos:
        sys.exit("report.py: no .gcno under %s/src: build with --coverage first" % args.objects)
    for gcno in sorted(gcnos):
        for doc in gcov_json(gcno):
            cwd = doc.get("current_working_directory", "")
            for f in doc["files"]:
                path = os.path.realpath(os.path.join(cwd, f["file"]))
                if not path.startswith(top):
                    continue
                rel = os.path.relpath(path, src)
                ls = lines.setdefault(rel, {})
                for ln in f["lines"]:
                    n = ln["line_number"]
                    ls[n] = max(ls.get(n, 0), ln["count"])
                for fn in f["functions"]:
                    key = (rel, fn["start_line"], fn.get("demangled_name", fn["name"]))
                    funcs[key] = max(funcs.get(key, 0), fn["execution_count"])

    by_dir = {}
    for rel, ls in lines.items():
        d = os.path.dirname(rel)
        run = sum(1 for c in ls.values() if c > 0)
        t = by_dir.setdefault(d, [0, 0])
        t[0] += run
        t[1] += len(ls)
        if args.files:
            print("   %-48s %6.1f %% (%d/%d)" % (rel, 100.0 * run / max(len(ls), 1), run, len(ls)))
    total_run = sum(v[0] for v in by_dir.values())
    total = sum(v[1] for v in by_dir.values())
    pct = 100.0 * total_run / total
    what = args.summary or "the tests"
    if args.summary and args.min == 0 and not args.all_functions:
        print("== coverage: %.1f %% of the lines of src/ run by %s (%d of %d)"
              % (pct, what, total_run, total))
        return 0
    for d in sorted(by_dir):
        r, t = by_dir[d]
        print("   %-32s %6.1f %% of %5d lines" % (d + "/", 100.0 * r / t, t))
    print("== coverage: %.1f %% of the lines of src/ run by %s (%d of %d)" % (pct, what, total_run, total))

    bad = []
    for path in args.all_functions:
        never = sorted((f, l, n) for (f, l, n), c in funcs.items()
                       if c == 0 and (f == path or (path.endswith("/") and f.startswith(path))))
        seen = any(f == path or (path.endswith("/") and f.startswith(path)) for f, _, _ in funcs)
        if not seen:
            bad.append("no function of %s was compiled" % path)
        for f, l, n in never:
            bad.append("%s:%d: %s never ran" % (f, l, n))
    for b in bad:
        print("FAIL %s" % b)
    if pct < args.min:
        print("FAIL coverage %.1f %% is under the floor of %.1f %%" % (pct, args.min))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
