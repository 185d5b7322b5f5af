#!/usr/bin/env python3
"""Count the start path from a trace of bench/trace/trace_start (issue 25).

  trace_start.py TRACE SRCDIR [--list]

TRACE holds 'E lib offset' (enter) and 'X lib offset' (exit) lines of the
instrumented library and 'P add|start|end' phase marks.  Each function is
named, with its source file, by addr2line.  For each phase and both together:
  files   distinct source files of ours the path runs in (the PAPI front-end,
          components/intel_uncore/intel_uncore.c, counted once: every call
          into the library with nothing of ours on the stack comes from it);
  calls   cross-file calls (caller's file != callee's);
  back    cross-file calls into a file the path had already been in;
  sched   calls of uncore_schedule (plan/sched.c);
  allow   allowlists built (uncore_allowlist_create, access/allowlist.c);
and the distinct cross-file call edges (caller function -> callee function),
which a loop does not multiply.
The simulator (src/sim/) stands for the hardware: a call into it is a
register access, not part of the path; what runs inside it is not counted.
A static inline function of a header (compiled out of line here, at -O0)
counts as part of its caller's file, as at -O2 it is; --headers counts the
headers as files of their own instead.
--list prints the files in first-visit order with their back-calls;
--calls prints every cross-file call in order, indented by depth, a call
back into a file already left marked '<'."""
import collections
import os
import subprocess
import sys

FRONT = "components/intel_uncore/intel_uncore.c"


def names(srcdir, lib, offsets):
    out = subprocess.run(["addr2line", "-f", "-e", lib] + offsets, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    res = {}
    root = os.path.realpath(srcdir) + os.sep
    for off, (fn, loc) in zip(offsets, zip(out[0::2], out[1::2])):
        path = loc.rsplit(":", 1)[0]
        real = os.path.realpath(path) if path.startswith("/") else path
        res[off] = (fn, real[len(root):] if real.startswith(root) else real)
    return res


def main(argv):
    trace, srcdir = argv[1], argv[2]
    lines = [l.split() for l in open(trace)]
    by_lib = collections.defaultdict(set)
    for l in lines:
        if l[0] in "EX":
            by_lib[l[1]].add(l[2])
    sym = {}
    for lib, offs in by_lib.items():
        offs = sorted(offs)
        for off, v in names(srcdir, lib, offs).items():
            sym[(lib, off)] = v
    headers = "--headers" in argv
    phase = None
    hw_depth = 0
    stats = collections.OrderedDict()
    order, backs = [FRONT], collections.Counter()
    visited = {FRONT}
    stack = []
    fstack = []  # the functions, for distinct call edges
    edges, back_edges = set(), set()
    for l in lines:
        if l[0] == "P":
            phase = l[1]
            stats.setdefault(phase, collections.Counter())
            stack = []
            continue
        fn, f = sym[(l[1], l[2])]
        if hw_depth:  # inside the simulator: the hardware
            hw_depth += 1 if l[0] == "E" else -1
            continue
        if l[0] == "E" and f.startswith("src/sim/"):
            hw_depth = 1
            stats[phase]["hw"] += 1
            continue
        if l[0] == "X":
            if stack:
                stack.pop()
                fstack.pop()
            continue
        if f.endswith(".h") and not headers:
            f = stack[-1] if stack else FRONT
        s = stats[phase]
        s["files:" + f] = 1
        caller = stack[-1] if stack else FRONT
        if caller != f:
            s["calls"] += 1
            edge = (fstack[-1] if fstack else "(front-end)", fn)
            edges.add(edge)
            if "--calls" in argv:
                print("%s%s%s %s (%s)" % (phase[0], "<" if f in visited else " ",
                                          "  " * len(stack), fn, f))
            if f in visited:
                s["back"] += 1
                backs["%s -> %s" % (caller, f)] += 1
                back_edges.add(edge)
        if f not in visited:
            visited.add(f)
            order.append(f)
        if fn == "uncore_schedule":
            s["sched"] += 1
        if fn == "uncore_allowlist_create":
            s["allow"] += 1
        stack.append(f)
        fstack.append(fn)
    total = collections.Counter()
    for p, s in stats.items():
        if p == "end":
            continue
        total.update(s)
        nfiles = len({k for k in s if k.startswith("files:")} | {"files:" + FRONT})
        print("%-6s files %3d  cross-file calls %4d  back into a file already left %4d  "
              "schedules %d  allowlists built %d  register accesses %d"
              % (p, nfiles, s["calls"], s["back"], s["sched"], s["allow"], s["hw"]))
    nfiles = len({k for k in total if k.startswith("files:")} | {"files:" + FRONT})
    print("total  files %3d  cross-file calls %4d  back into a file already left %4d  "
          "schedules %d  allowlists built %d  register accesses %d"
          % (nfiles, total["calls"], total["back"], total["sched"], total["allow"], total["hw"]))
    print("distinct cross-file call edges (caller function -> callee function) %d, %d of them "
          "back into a file already left" % (len(edges), len(back_edges)))
    if "--list" in argv:
        print("files in first-visit order:")
        for f in order:
            print("  " + f)
        print("calls back into a file already left, by edge:")
        for e, n in backs.most_common():
            print("  %4d  %s" % (n, e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
