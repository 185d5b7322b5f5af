#!/usr/bin/env python3
"""Check that the folders of src/ form layers: no include cycle between them.

Reads every #include "..." line of src/**/*.{c,h}; an include that names a
file under src/ is an arrow from the including file's folder to the included
file's folder.  Two graphs are checked: folders as they are (backend/direct,
platform/hswep, ...) and top-level folders (backend, platform, ...).  A cycle
is printed with the file and line of every arrow on it, and the exit status
is 1.  Without a cycle, the layers are printed bottom-up (each folder after
everything it includes) and the exit status is 0.

Usage: check-include-layers.py [SRC_DIR]   (default: src/ next to scripts/)"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def arrows(src):
    """{(from_folder, to_folder): "file:line"} for includes across folders."""
    found = {}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            here = os.path.relpath(root, src)
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if not os.path.isfile(os.path.join(src, target)):
                        if os.path.isfile(os.path.join(root, target)):
                            target = os.path.relpath(os.path.join(root, target), src)
                        else:
                            continue  # not ours (system, PAPI, libpfm4 headers)
                    there = os.path.dirname(target) or "."
                    if there != here:
                        where = "%s:%d" % (os.path.relpath(path, os.path.dirname(src)), lineno)
                        found.setdefault((here, there), where)
    return found


def find_cycle(edges):
    """One cycle as a list of nodes [a, b, ..., a], or None."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    state = {}  # 1: on the current path, 2: done
    path = []

    def visit(n):
        state[n] = 1
        path.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def layers(edges):
    """Folders grouped bottom-up: each group includes only earlier groups."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    out, placed = [], set()
    while len(placed) < len(graph):
        group = sorted(n for n in graph if n not in placed and graph[n] <= placed)
        out.append(group)
        placed.update(group)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    src = os.path.abspath(src)
    if not os.path.isdir(src):
        print("check-include-layers: %s is not a directory" % src, file=sys.stderr)
        return 2
    by_folder = arrows(src)
    top = {}
    for (a, b), where in by_folder.items():
        ta, tb = a.split("/")[0], b.split("/")[0]
        if ta != tb:
            top.setdefault((ta, tb), where)
    status = 0
    for title, edges in (("folders", by_folder), ("top-level folders", top)):
        cycle = find_cycle(edges)
        if cycle:
            status = 1
            print("include cycle between %s of src/: %s" % (title, " -> ".join(cycle)))
            for a, b in zip(cycle, cycle[1:]):
                print("  %s -> %s  (%s)" % (a, b, edges[(a, b)]))
            print("  fix: move the shared declaration down a layer, or the file up one")
    if status == 0:
        print("src/ layers, bottom-up (each includes only layers below it):")
        for i, group in enumerate(layers(top)):
            print("  %d: %s" % (i, " ".join(group)))
    return status


if __name__ == "__main__":
    sys.exit(main())
