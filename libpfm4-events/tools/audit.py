#!/usr/bin/env python3
"""Audit our libpfm4 event tables against the specifications in the seeds.

  python3 libpfm4-events/tools/audit.py --seeds ../shared/seeds
        [--upstream LIBPFM4_DIR] [--report FILE] [--only GEN] [--tables DIR] [-v]

Each generation is a module tools/audit_<gen>.py, either with GENERATION (a
name) and run(ctx) (hswep), or with run(seeds_dir, tables_dir) -> [(check,
ok, message)] and its own data/exceptions_<gen>.txt (skl, nhm, x7400).  The
first kind: run(ctx) -> list of Check (made with ctx.Check(name); a check collects
problem(gen, box, event, umask, what, text) and error(text)); ctx.seed(file)
gives a seed's lines, ctx.table(header, upstream=False) a parsed table
(tools/pfmtable.py), ctx.note(line) adds to the report.  A module re-reads the specification text
itself (not the generator's intermediate files), compares it with the
committed tables event by event and unit mask by unit mask, and reports each
difference as a Problem.  A problem listed in audit-exceptions.txt (each
entry with the difference, the reason and the manual's table or section)
is accepted; any other fails its check.  An exception that matches nothing
fails too, so the file cannot go stale.

With --upstream (a libpfm4 source tree, e.g. PAPI's bundled one) each module
also compares upstream's tables with the specification and with ours; those
findings are informational and go to --report.

Checks: one per event of the specification, one per event we add, one per
table for structure (tools/pfmtable.py validate()), one per PMU for its
modifiers, one for the exceptions file.  The last line printed is always
'audit: N passed, N failed'; the exit status is 1 if any check failed.
"""

import argparse
import fnmatch
import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import pfmtable  # noqa: E402


class Problem:
    """A difference between a table and the specification."""

    def __init__(self, gen, box, event, umask, what, text):
        self.gen, self.box, self.event, self.umask = gen, box, event, umask or ""
        self.what, self.text = what, text
        self.exception = None

    def target(self):
        return self.event + (":" + self.umask if self.umask else "")

    def __str__(self):
        return "%s %s %s %s: %s" % (self.gen, self.box, self.target(), self.what, self.text)


class Check:
    def __init__(self, name):
        self.name = name
        self.problems = []
        self.errors = []      # failures no exception can cover

    def problem(self, *args):
        self.problems.append(Problem(*args))

    def error(self, text):
        self.errors.append(text)

    def passed(self):
        return not self.errors and all(p.exception for p in self.problems)


class Exception_:
    def __init__(self, line, fields, text):
        self.line = line
        self.gen, self.box, self.target, self.what = fields
        self.event, _, self.umask = self.target.partition(":")
        self.difference, self.reason, self.ref = text
        self.used = 0

    def matches(self, p):
        return (self.gen == p.gen and self.box == p.box and self.what == p.what
                and fnmatch.fnmatchcase(p.event.upper(), self.event.upper())
                and fnmatch.fnmatchcase(p.umask.upper(), self.umask.upper()))


def read_exceptions(path):
    """<gen> <box> <EVENT>[:<UMASK>] <what> | <difference> | <reason> | <manual ref>"""
    out, bad = [], []
    if not os.path.exists(path):
        return out, bad
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = [x.strip() for x in s.split("|")]
            head = parts[0].split()
            if len(parts) != 4 or len(head) != 4 or not all(parts[1:]):
                bad.append("%s:%d: need '<gen> <box> <EVENT>[:<UMASK>] <what> | "
                           "<difference> | <reason> | <manual ref>'" % (path, n))
                continue
            out.append(Exception_(n, head, parts[1:]))
    return out, bad


class Context:
    def __init__(self, args):
        self.seeds = args.seeds
        self.tables_dir = args.tables
        self.data_dir = os.path.join(ROOT, "data")
        self.upstream = args.upstream
        self.report = []
        self._tables = {}
        self.Check = Check  # modules create their checks with ctx.Check(name)

    def table(self, filename, upstream=False):
        base = os.path.join(self.upstream, "lib", "events") if upstream else self.tables_dir
        path = os.path.join(base, filename)
        if path not in self._tables:
            self._tables[path] = pfmtable.Table(path) if os.path.exists(path) else None
        return self._tables[path]

    def seed(self, name):
        with open(os.path.join(self.seeds, name), encoding="utf-8") as f:
            return f.read().split("\n")

    def note(self, line):
        self.report.append(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", required=True, help="directory of the specification texts")
    ap.add_argument("--upstream", help="libpfm4 source tree to compare with (informational)")
    ap.add_argument("--tables", default=os.path.join(ROOT, "events"),
                    help="directory of the event-table headers to audit (default: ours)")
    ap.add_argument("--exceptions", default=os.path.join(ROOT, "audit-exceptions.txt"))
    ap.add_argument("--report", help="write the detailed report (upstream differences, accepted exceptions) here")
    ap.add_argument("--only", action="append", help="run only this generation (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list accepted differences")
    args = ap.parse_args()
    if not os.path.isdir(args.seeds):
        print("audit: no seeds directory %s" % args.seeds)
        print("audit: 0 passed, 1 failed")
        return 1
    if args.upstream and not os.path.isdir(os.path.join(args.upstream, "lib", "events")):
        print("audit: %s is not a libpfm4 tree (no lib/events)" % args.upstream)
        print("audit: 0 passed, 1 failed")
        return 1

    ctx = Context(args)
    exceptions, bad = read_exceptions(args.exceptions)
    checks = []
    c = Check("exceptions-file")
    for b in bad:
        c.error(b)
    checks_tail = [c]

    if args.upstream:
        c = Check("libpfm4-abi")
        for b in pfmtable.check_abi(args.upstream):
            c.error(b)
        checks_tail.append(c)

    modules = sorted(glob.glob(os.path.join(HERE, "audit_*.py")))
    ran = []
    for path in modules:
        modname = os.path.basename(path)[:-3]
        mod = importlib.import_module(modname)
        gen = getattr(mod, "GENERATION", None)
        if gen is None and hasattr(mod, "run") and modname != "audit_client_common":
            # The client generations' modules (skl, nhm, x7400) have the
            # interface run(seeds_dir, tables_dir) -> [(check, ok, message)]
            # and keep their exceptions in data/exceptions_<gen>.txt.
            gen = modname[len("audit_"):]
            if args.only and gen not in args.only:
                continue
            ran.append(gen)
            for name, ok, message in mod.run(args.seeds, args.tables):
                chk = Check("%s: %s" % (gen, name))
                if not ok:
                    chk.error(message)
                checks.append(chk)
            continue
        if gen is None or (args.only and gen not in args.only):
            continue
        ran.append(gen)
        checks += mod.run(ctx)

    for chk in checks:
        for p in chk.problems:
            for e in exceptions:
                if e.matches(p):
                    p.exception = e
                    e.used += 1
                    break
    stale = Check("exceptions-used")
    for e in exceptions:
        if args.only and e.gen not in args.only:
            continue
        if not e.used and e.gen in ran:
            stale.error("%s:%d: exception matches no difference (stale): %s %s %s %s"
                        % (os.path.basename(args.exceptions), e.line, e.gen, e.box, e.target, e.what))
    checks += checks_tail + [stale]

    passed = failed = 0
    accepted = []
    for chk in checks:
        if chk.passed():
            passed += 1
        else:
            failed += 1
            print("FAIL %s" % chk.name)
            for err in chk.errors:
                print("    %s" % err)
            for p in chk.problems:
                if not p.exception:
                    print("    not in %s: %s" % (os.path.basename(args.exceptions), p))
        for p in chk.problems:
            if p.exception:
                accepted.append("%s  [exception line %d: %s]" % (p, p.exception.line, p.exception.reason))
    if args.verbose:
        for a in accepted:
            print("accepted: " + a)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("# audit report (generated by libpfm4-events/tools/audit.py)\n\n")
            f.write("## Accepted differences (audit-exceptions.txt)\n\n")
            for a in accepted:
                f.write("- " + a + "\n")
            f.write("\n")
            for line in ctx.report:
                f.write(line + "\n")
    print("audit: %d accepted differences, %d exceptions, generations: %s%s"
          % (len(accepted), len(exceptions), ", ".join(ran) or "none",
             "" if args.upstream else "; no --upstream: upstream comparison skipped"))
    print("audit: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
