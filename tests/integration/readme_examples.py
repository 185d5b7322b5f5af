#!/usr/bin/env python3
"""The examples of the READMEs, for test_readme_examples.sh.

usage: readme_examples.py commands|events FILE...

commands: each command line of a fenced code block that runs one of our
tools or PAPI's (stage/bin/..., uncore-sim, uncore-stat, papi_*), with a
leading "$ " and a trailing "# comment" removed, as "FILE:LINE<TAB>COMMAND
<TAB>OUTPUT", OUTPUT being the first line the README shows after it when
that is an error message ("intel_uncore: ...", "PAPI Error: ..."), else
empty.  Lines with a
placeholder (EVENT, ./app, ...) are left out.
events: every event name (PMU::EVENT..., perf's PMU/.../, Intel's
EVENT.UMASK) in backquotes or at the start of a line of a code block, as
"FILE:LINE<TAB>NAME", placeholders (N, S) and paths of the tree left out
(run it from the source root)."""
import os
import re
import sys

mode, files = sys.argv[1], sys.argv[2:]
TOOL = re.compile(r"^(\$ )?((?:[A-Z_]+=\S+ )*)(stage/bin/\S+|uncore-sim|uncore-stat|papi_[a-z_]+)(?=\s|$)")
SHOWN_ERROR = ("intel_uncore:", "PAPI Error:", "uncore-sim: ", "uncore-stat: ")
PLACEHOLDER = re.compile(r"\bEVENT\b|\./app|\.\.\.|<|\bCMD\b|\bFILE\b")
EVENT = re.compile(r"^[a-z][a-z0-9_]*::[A-Za-z0-9_][A-Za-z0-9_:=,.]*$"  # ours
                   r"|^[a-z][a-z0-9_]*/[A-Za-z0-9,.]*[_=][A-Za-z0-9_=,.]*/(:[a-z]+=?[0-9]+)?$"  # perf's
                   r"|^UNC_[A-Z0-9_]+\.[A-Z0-9_]+$")  # Intel's

for path in files:
    lines = open(path, encoding="utf-8").read().splitlines()
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if mode == "commands" and fenced:
            m = TOOL.match(line)
            if not m:
                continue
            cmd = re.sub(r"\s+#.*$", "", line[2:] if line.startswith("$ ") else line).strip()
            if PLACEHOLDER.search(cmd):
                continue
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            shown = nxt if nxt.startswith(SHOWN_ERROR) else ""
            print("%s:%d\t%s\t%s" % (path, i + 1, cmd, shown))
        elif mode == "events":
            names = re.findall(r"`([^`\s]+)`", line) if not fenced else line.split()[:1]
            for n in names:
                if not EVENT.match(n) or os.path.exists(n) or re.search(r"[:=]N\b|=S\b|_N\b|^pmu::|^kernel_metric::", n):
                    continue
                print("%s:%d\t%s" % (path, i + 1, n))
