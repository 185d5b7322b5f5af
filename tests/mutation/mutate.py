#!/usr/bin/env python3
"""Mutation testing: plant each bug of mutations.txt in a scratch copy of
the source tree, build the unit tests, and report the mutations no test
catches (survivors).  See README.md in this directory.

  mutate.py [--list FILE] [--keep] [--timeout S] [ID ...]

A unit test that runs longer than --timeout seconds (default 60, or
MUTATION_TIMEOUT) is killed and counts as catching the mutant: a planted
loop must not hang the run (a real hang fails make check the same way).

Exit status: 0 when every mutation was caught, 1 when one survived or could
not be applied or built (the list is stale), 2 on a setup error."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
KEYS = ("mutation", "why", "file", "occurrence", "from", "to", "tests")


def parse(path):
    """The blocks of the list file, as dicts; errors name the line."""
    blocks, cur = [], None
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("#"):
            continue
        if not line.strip():
            cur = None
            continue
        key, _, value = line.partition(" ")
        if key not in KEYS:
            sys.exit("%s:%d: unknown key %r (want one of %s)" % (path, no, key, ", ".join(KEYS)))
        if key == "mutation":
            cur = {"line": no}
            blocks.append(cur)
        elif cur is None:
            sys.exit("%s:%d: %s outside a mutation block" % (path, no, key))
        cur[key] = value.strip()
    for b in blocks:
        for k in ("file", "from", "to", "tests"):
            if k not in b:
                sys.exit("%s:%d: mutation %s has no %s" % (path, b["line"], b["mutation"], k))
    return blocks


def copy_tree(dst):
    """The source tree without build products, version control or stage/."""
    def ignore(d, names):
        if os.path.abspath(d) == SRC:
            return [n for n in names if n in ("build", "stage", ".git")]
        return []
    try:
        shutil.copytree(SRC, dst, symlinks=True, ignore=ignore)
    except shutil.Error as e:
        # Files that vanished during the copy (a concurrent build's
        # temporaries) do not matter; anything else does.
        real = [x for x in e.args[0] if os.path.exists(x[0])]
        if real:
            raise


class Scratch:
    def __init__(self, root, jobs, timeout):
        self.root, self.jobs, self.timeout = root, jobs, timeout
        self.logs = os.path.join(root, "mutation-logs")
        os.makedirs(self.logs, exist_ok=True)
        self.env = dict(os.environ, SRCDIR=root,
                        PAPI_INTEL_UNCORE_LOCK_DIR=os.path.join(root, "locks"))
        os.makedirs(self.env["PAPI_INTEL_UNCORE_LOCK_DIR"], exist_ok=True)
        for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
            self.env.pop(k, None)

    def binary(self, test):
        return os.path.join(self.root, "build", "tests", "unit", test)

    def build(self, tests, log):
        """Build the unit tests named (area/test_x); True on success."""
        targets = [self.binary(t) for t in tests]
        with open(log, "a") as out:
            r = subprocess.run(["make", "-s", "-C", self.root, "-j%d" % self.jobs,
                                "srcdir=" + self.root] + targets,
                               stdout=out, stderr=subprocess.STDOUT, env=self.env)
        return r.returncode == 0

    def run(self, test, log):
        """Run one unit test; True when it passed."""
        with open(log, "a") as out:
            out.write("== %s\n" % test)
            out.flush()
            try:
                r = subprocess.run([self.binary(test)], stdout=out, stderr=subprocess.STDOUT,
                                   env=self.env, timeout=self.timeout, cwd=self.root)
            except subprocess.TimeoutExpired:
                out.write("(ran past %d s: killed, counted as caught)\n" % self.timeout)
                return False
        return r.returncode == 0


def all_unit_tests(root):
    tests = []
    for area in sorted(os.listdir(os.path.join(root, "tests", "unit"))):
        d = os.path.join(root, "tests", "unit", area)
        if os.path.isdir(d):
            tests += ["%s/%s" % (area, f[:-2]) for f in sorted(os.listdir(d))
                      if f.startswith("test_") and f.endswith(".c")]
    return tests


def apply(root, m):
    """Plant mutation m: returns the file's original text, or an error."""
    path = os.path.join(root, m["file"])
    if not os.path.exists(path):
        return None, "file %s does not exist" % m["file"]
    text = open(path, encoding="utf-8").read()
    n = text.count(m["from"])
    occ = int(m.get("occurrence", "0"))
    if n == 0:
        return None, "'from' text not found in %s" % m["file"]
    if occ == 0 and n != 1:
        return None, "'from' text found %d times in %s (add: occurrence N)" % (n, m["file"])
    if occ > n:
        return None, "occurrence %d, but the text is there %d times" % (occ, n)
    at = -1
    for _ in range(max(occ, 1)):
        at = text.index(m["from"], at + 1)
    mutated = text[:at] + m["to"] + text[at + len(m["from"]):]
    with open(path, "w", encoding="utf-8") as f:
        f.write(mutated)
    return text, None


def restore(root, m, text):
    with open(os.path.join(root, m["file"]), "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", default=os.path.join(HERE, "mutations.txt"))
    ap.add_argument("--keep", action="store_true", help="keep the scratch tree")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("MUTATION_TIMEOUT", "60")),
                    help="seconds a unit test may run before it is killed (caught)")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    muts = parse(args.list)
    if args.ids:
        unknown = set(args.ids) - {m["mutation"] for m in muts}
        if unknown:
            sys.exit("no such mutation: %s" % ", ".join(sorted(unknown)))
        muts = [m for m in muts if m["mutation"] in args.ids]
    if not os.path.exists(os.path.join(SRC, "Makefile")):
        print("mutation: %s is not configured: run ./configure first" % SRC, file=sys.stderr)
        return 2

    root = tempfile.mkdtemp(prefix="papi-uncore-mutation-")
    t0 = time.time()
    try:
        copy_tree(os.path.join(root, "tree"))
        sc = Scratch(os.path.join(root, "tree"), args.jobs, args.timeout)
        everything = all_unit_tests(sc.root)
        base_log = os.path.join(sc.logs, "baseline.log")
        print("mutation: scratch tree %s; baseline: building and running %d unit tests"
              % (sc.root, len(everything)), flush=True)
        if not sc.build(everything, base_log):
            print("mutation: the unmutated tree does not build (log: %s)" % base_log)
            return 2
        bad = [t for t in everything if not sc.run(t, base_log)]
        if bad:
            print("mutation: unit tests fail without a mutation: %s (log: %s)"
                  % (", ".join(bad), base_log))
            return 2
        killed, survived, errors = [], [], []
        for m in muts:
            mid = m["mutation"]
            log = os.path.join(sc.logs, mid + ".log")
            text, err = apply(sc.root, m)
            if err:
                errors.append(mid)
                print("ERROR %s: %s (list line %d)" % (mid, err, m["line"]), flush=True)
                continue
            try:
                hints = m["tests"].split()
                missing = [t for t in hints if t not in everything]
                if missing:
                    errors.append(mid)
                    print("ERROR %s: no unit test %s (list line %d)"
                          % (mid, ", ".join(missing), m["line"]), flush=True)
                    continue
                if not sc.build(hints, log):
                    errors.append(mid)
                    print("ERROR %s: the mutant does not build (log: %s)" % (mid, log),
                          flush=True)
                    continue
                by = next((t for t in hints if not sc.run(t, log)), None)
                if by is None:
                    # Not where expected: the whole unit suite.
                    rest = [t for t in everything if t not in hints]
                    if not sc.build(rest, log):
                        errors.append(mid)
                        print("ERROR %s: the mutant does not build (log: %s)" % (mid, log),
                              flush=True)
                        continue
                    by = next((t for t in rest if not sc.run(t, log)), None)
                if by:
                    killed.append(mid)
                    print("killed   %-36s by %s" % (mid, by), flush=True)
                else:
                    survived.append(mid)
                    print("SURVIVED %-36s %s (%s:%s)" % (mid, m.get("why", ""), m["file"],
                                                        m["line"]), flush=True)
            finally:
                restore(sc.root, m, text)
        print("\nmutation: %d mutations: %d killed, %d survived, %d errors (%.0f s)"
              % (len(muts), len(killed), len(survived), len(errors), time.time() - t0))
        if survived:
            print("survivors: %s" % " ".join(survived))
        return 1 if survived or errors else 0
    finally:
        if args.keep:
            print("mutation: scratch tree kept in %s" % root)
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
