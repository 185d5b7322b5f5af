#!/usr/bin/env python3
"""Refuse a platform test outside src/platform/ (issue 25).

A generation is one object, struct uncore_platform (src/platform/platform.h,
one file each in src/platform/<gen>/); every other layer reads that object
and never asks which processor it is on.  This finds, in the library, the
front-end, the tools and the MPI library (src/ but src/platform/,
components/intel_uncore/*.c, utils/, mpi/), with comments removed:

  id      a generation's enum constant (UNCORE_PLATFORM_*): outside
          src/platform/ a generation is its object, never its number;
  name    a generation's name as a string in a comparison (strcmp(p, "hswep"),
          == "skl") or returned as a default (return "hswep");
  object  a comparison with a generation's object (== &uncore_platform_skl);
  flag    a condition on a variable named after a generation or a family of
          them (if (skl), msr_only ? ...): a platform test by another name.

and in the shell scripts that read the platform object through `uncore-sim
platform` (SHELL_SCRIPTS: scripts/first-machine.sh), with comments removed:

  shell   a case arm or a test comparison naming a generation
          (case $p in hswep) ..., [ "$p" = skl ]): the script follows the
          facts the object prints, never its name.

The generations' names are read from src/platform/<gen>/*.c.  Each finding
is printed as file:line: kind: text; the exit status is 1 when there is one.

Usage: check-platform-tests.py [ROOT]   (default: the checkout above scripts/)"""
import os
import re
import sys


def object_macros(pdir):
    """The macros of src/platform/*.h that make a platform object and
    name it after one of their parameters (XSP_PLATFORM(spr, ...):
    `.name = #gen`): {macro: the parameter's position}."""
    macros = {}
    for f in sorted(os.listdir(pdir)):
        if not f.endswith(".h"):
            continue
        text = open(os.path.join(pdir, f), encoding="utf-8").read().replace("\\\n", " ")
        for m in re.finditer(r"#define (\w+)\(([^)]*)\)(.*)", text):
            params = [p.strip() for p in m.group(2).split(",")]
            body = m.group(3)
            n = re.search(r'\.name = #(\w+)', body)
            if "struct uncore_platform" in body and n and n.group(1) in params:
                macros[m.group(1)] = params.index(n.group(1))
    return macros


def generation_names(root):
    names = set()
    pdir = os.path.join(root, "src", "platform")
    macros = object_macros(pdir)
    for gen in sorted(os.listdir(pdir)):
        gdir = os.path.join(pdir, gen)
        if not os.path.isdir(gdir):
            continue
        for f in sorted(os.listdir(gdir)):
            if not f.endswith(".c"):
                continue
            text = open(os.path.join(gdir, f), encoding="utf-8").read()
            for obj in re.finditer(r"const struct uncore_platform \w+ = \{(.*?)\n\};", text, re.S):
                m = re.search(r'\.name = "(\w+)"', obj.group(1))
                if m:
                    names.add(m.group(1))
            # The objects a macro makes (today's Xeons: XSP_PLATFORM).
            for mac, pos in macros.items():
                for call in re.finditer(r"^%s\(([^)]*)\)" % mac, text, re.M):
                    args = [a.strip() for a in call.group(1).split(",")]
                    if pos < len(args) and re.fullmatch(r"\w+", args[pos]):
                        names.add(args[pos])
    return names


def strip_comments(text):
    """Comments become blanks (newlines kept, so line numbers hold)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"',
                  lambda m: m.group(0) if m.group(0).startswith('"') else blank(m), text, flags=re.S)


def files(root):
    for top in ("src", "components/intel_uncore", "utils", "mpi"):
        base = os.path.join(root, top)
        for d, subdirs, fs in os.walk(base):
            rel = os.path.relpath(d, root)
            if rel == os.path.join("src", "platform") or rel.startswith(os.path.join("src", "platform") + os.sep):
                subdirs[:] = []
                continue
            if rel.startswith(os.path.join("components", "intel_uncore", "tests")):
                subdirs[:] = []
                continue
            subdirs.sort()
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    yield os.path.join(d, f)


SHELL_SCRIPTS = ("scripts/first-machine.sh",)


def shell_lines(root):
    """(path, lineno, line) of each shell script, comments and quoted
    strings' contents removed (a message may name a generation)."""
    for rel in SHELL_SCRIPTS:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        for lineno, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            line = re.sub(r"(^|\s)#.*$", r"\1", line.rstrip("\n"))
            yield rel, lineno, line


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, ".."))
    names = generation_names(root)
    if not names:
        print("check-platform-tests: no generation objects found under src/platform/")
        return 2
    alt = "|".join(sorted(names, key=len, reverse=True))
    rules = [
        ("id", re.compile(r"\bUNCORE_PLATFORM_[A-Z0-9_]+\b")),
        ("name", re.compile(r'\b(?:str\w*cmp|strcasecmp)\s*\([^;]*"(?:%s)"|[!=]=\s*"(?:%s)"|"(?:%s)"\s*[!=]=|\breturn\s+"(?:%s)"' % (alt, alt, alt, alt), re.I)),
        ("object", re.compile(r"[!=]=\s*&?\s*uncore_platform_\w+\b|\buncore_platform_\w+\s*[!=]=")),
        ("flag", re.compile(r"(?:\bif\s*\(|\bwhile\s*\(|\?|&&|\|\|)[^;{]*\b(?:is_)?(?:%s|msr_only)\b(?!\s*[(\[.]|->|_)" % alt)),
    ]
    found = 0
    word = r"[\"']?(?:%s)[\"']?" % alt
    shell = re.compile(r"(?:(?:^|\bin|;;)\s*\(?\s*%s(?:\s*\|\s*[^)\s]+)*\s*\))"
                       r"|(?:\s(?:!=|==?)\s+%s(?=[\s\]);]|$))"
                       r"|(?:\s%s\s+(?:!=|==?)\s)" % (word, word, word))
    for rel, lineno, line in shell_lines(root):
        if shell.search(line):
            found += 1
            print("%s:%d: shell: %s" % (rel, lineno, line.strip()))
    for path in files(root):
        text = strip_comments(open(path, encoding="utf-8", errors="replace").read())
        for lineno, line in enumerate(text.split("\n"), 1):
            bare = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
            for kind, rx in rules:
                if rx.search(line if kind == "name" else bare):
                    found += 1
                    print("%s:%d: %s: %s" % (os.path.relpath(path, root), lineno, kind, line.strip()))
    if found:
        print("%d platform test(s) outside src/platform/: read the platform object "
              "(src/platform/platform.h) instead" % found)
        return 1
    print("no platform test outside src/platform/ (generations: %s)" % ", ".join(sorted(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
