#!/usr/bin/env python3
"""No circle of names between the files of one folder of src/ (issue 25).

Inside a folder, file A may use what file B defines, or B what A defines,
never both ways, directly or around a longer circle: a circle means that
neither file can be read, tested or replaced without the other, so the two
are one job split in two (the "small files with one job each" of
../shared/STYLE.md turned into a tangle).  Between folders the include
layers rule (scripts/check-include-layers.py).

What a file defines and uses is read from its object file, as the linker
sees it (`nm`: the defined external names, and the undefined ones), so a
macro or a comment never counts, and a call through a header's inline
function counts where it is compiled.

Usage: check-file-circles.py OBJDIR [--src SRCDIR] [--nm NM]
OBJDIR is the build's obj/src (BUILD/obj/src), laid out as src/.  With
--src (the source tree, holding src/), an object whose source is gone (a
file removed since the build) is left out.
Exit 0 when no folder has a circle, 1 with each circle listed, with the
names that go each way between its files, 2 on a usage error.
"""
import collections
import os
import subprocess
import sys


def read_objects(objdir, nm, srcdir=None):
    """{file: (defined names, used names)}, the file named as in src/."""
    files = {}
    for root, _dirs, names in os.walk(objdir):
        for name in sorted(names):
            if not name.endswith('.o'):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, objdir)[:-2] + '.c'
            if srcdir and not os.path.exists(os.path.join(srcdir, 'src', rel)):
                continue
            out = subprocess.run([nm, path], capture_output=True, text=True, check=True).stdout
            defined, used = set(), set()
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in 'TDBRVWG':
                    defined.add(parts[2])
                elif len(parts) == 2 and parts[0] == 'U':
                    used.add(parts[1])
            files[rel] = (defined, used)
    return files


def folder_edges(files):
    """{folder: {a: {b: names a uses from b}}}, a and b in the same folder."""
    owner = {}
    for f, (defined, _used) in files.items():
        for n in defined:
            owner[n] = f
    edges = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(set)))
    for f, (_defined, used) in files.items():
        for n in used:
            g = owner.get(n)
            if g and g != f and os.path.dirname(g) == os.path.dirname(f):
                edges[os.path.dirname(f)][f][g].add(n)
    return edges


def circles(graph):
    """The strongly connected components of more than one file (Tarjan),
    each sorted, in a stable order."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = sorted(set(graph) | {g for f in graph for g in graph[f]})

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out)


def option(args, name):
    """The value of option `name`, removed from args; None when absent."""
    if name not in args:
        return None
    i = args.index(name)
    if i + 1 >= len(args):
        raise ValueError(name)
    value = args[i + 1]
    del args[i:i + 2]
    return value


USAGE = 'usage: check-file-circles.py OBJDIR [--src SRCDIR] [--nm NM]'


def main(argv):
    args = argv[1:]
    try:
        nm = option(args, '--nm') or 'nm'
        srcdir = option(args, '--src')
    except ValueError as e:
        print('%s: %s needs a value' % (USAGE, e), file=sys.stderr)
        return 2
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(USAGE + " (OBJDIR: the build's obj/src)", file=sys.stderr)
        return 2
    files = read_objects(args[0], nm, srcdir)
    if not files:
        print('check-file-circles.py: no object file under %s: build first (make)' % args[0],
              file=sys.stderr)
        return 2
    found = 0
    for folder, graph in sorted(folder_edges(files).items()):
        for comp in circles(graph):
            found += 1
            print('file circle in src/%s: %s' % (folder, ' '.join('src/' + f for f in comp)))
            for a in comp:
                for b in comp:
                    if b in graph.get(a, {}):
                        print('    src/%s uses from src/%s: %s' % (a, b, ', '.join(sorted(graph[a][b]))))
    if found:
        print('%d file circle(s): move what both sides need into a file of its own, or '
              'pass it as data or a function pointer, so that the names go one way' % found)
        return 1
    print('no file circle in any folder (%d object files)' % len(files))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
