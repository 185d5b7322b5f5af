"""Shared parts of the client-uncore audits (audit_skl.py, audit_nhm.py, audit_x7400.py).

Each audit compares a specification text with the committed header and returns
a list of (check_name, ok, message).  A difference is reported under a key; a
key listed in the generation's reviewed exceptions file (data/exceptions_<gen>.txt,
'key | reason' per line) passes with its reason, and an exception that no longer
matches any difference fails, so the file stays short and true.  This module
also holds the structural validator every table goes through.
"""
import os
import re
import sys

import pfmgen as g

FLAG = g.SYMBOLS


class Audit:
    def __init__(self, gen):
        self.gen = gen
        self.results = []
        self.diffs = {}          # key -> message

    def ok(self, name, cond, msg=""):
        self.results.append(("%s:%s" % (self.gen, name), bool(cond), msg))

    def diff(self, key, msg):
        """A difference between the specification and our table."""
        self.diffs["%s:%s" % (self.gen, key)] = msg

    def finish(self, exceptions_path):
        excepted = load_exceptions(exceptions_path)
        for key, msg in sorted(self.diffs.items()):
            if key in excepted:
                self.results.append((key, True, "excepted: %s (reason: %s)" % (msg, excepted[key])))
            else:
                self.results.append((key, False, msg + " (not in %s)" % os.path.basename(exceptions_path)))
        for key, reason in sorted(excepted.items()):
            if key not in self.diffs:
                self.results.append((key, False, "stale exception: no such difference any more (%s)" % reason))
        return self.results


def load_exceptions(path):
    out = {}
    if not os.path.exists(path):
        return out
    for no, line in enumerate(g.read_text(path).splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, reason = line.partition("|")
        if not sep or not reason.strip():
            raise SystemExit("%s:%d: an exception needs 'key | reason'" % (path, no))
        out[key.strip()] = reason.strip()
    return out


def umask_value(u):
    return (u["ucode"] >> 8) & 0xff


def validate_structure(a, array, events, kind, thr_bits=None):
    """Structural checks of one entry array (libpfm4's own rules plus ours).

    kind: 'evtsel' (event select PMUs), 'imc' (free-running counters),
    'x7400' (32-bit control field).
    """
    tag = "structure:%s" % array
    problems = []
    names = [e["name"] for e in events]
    if len(set(names)) != len(names):
        problems.append("duplicate event names")
    codes = {}
    for e in events:
        en = e["name"]
        if not e.get("desc", "").strip():
            problems.append("%s: empty description" % en)
        if not e.get("cntmsk"):
            problems.append("%s: cntmsk 0" % en)
        if "??" in e.get("desc", ""):
            problems.append("%s: '??' in description" % en)
        key = (e["code"], e.get("cntmsk"))
        if key in codes:
            problems.append("%s and %s have the same code" % (codes[key], en))
        codes[key] = en
        flags = e.get("flags", 0)
        modmsk = e.get("modmsk", 0)
        ums = e["umasks"]
        if flags & FLAG["INTEL_X86_FIXED"] and modmsk:
            problems.append("%s: a fixed-counter event takes no modifiers" % en)
        if kind == "evtsel" and e["code"] > 0xff:
            problems.append("%s: code 0x%x wider than EVENT 7:0" % (en, e["code"]))
        if kind == "x7400" and e["code"] >> 32:
            problems.append("%s: code outside the 32-bit control field" % en)
        if not ums:
            if e.get("ngrp") or e.get("numasks"):
                problems.append("%s: ngrp/numasks without unit masks" % en)
            continue
        if e.get("numasks") != "LIBPFM_ARRAY_SIZE(%s)" % e.get("umasks_name"):
            problems.append("%s: numasks is not LIBPFM_ARRAY_SIZE of its unit mask array" % en)
        ngrp = 1 + max(u.get("grpid", 0) for u in ums)
        if e.get("ngrp") != ngrp:
            problems.append("%s: ngrp %s, unit masks use %d groups" % (en, e.get("ngrp"), ngrp))
        if ngrp >= 8:
            problems.append("%s: %d groups, libpfm4 allows at most 7" % (en, ngrp))
        unames = [u["uname"] for u in ums]
        if len(set(unames)) != len(unames):
            problems.append("%s: duplicate unit mask names" % en)
        if len(ums) == 1 and not ums[0].get("uflags", 0) & FLAG["INTEL_X86_DFL"]:
            problems.append("%s: a single unit mask must be the default" % en)
        for grp in range(ngrp):
            gu = [u for u in ums if u.get("grpid", 0) == grp]
            if not gu:
                problems.append("%s: group %d is empty" % (en, grp))
            dfl = [u for u in gu if u.get("uflags", 0) & FLAG["INTEL_X86_DFL"]]
            if len(dfl) > 1:
                problems.append("%s: group %d has %d defaults" % (en, grp, len(dfl)))
            free = [u for u in gu if not u.get("uflags", 0) & FLAG["INTEL_X86_NCOMBO"]]
            for i, u in enumerate(free):
                for v in free[i + 1:]:
                    if u["ucode"] & v["ucode"]:
                        problems.append("%s: combinable %s and %s overlap" % (en, u["uname"], v["uname"]))
        for u in ums:
            un = "%s:%s" % (en, u["uname"])
            if not u.get("udesc", "").strip() or "??" in u.get("udesc", ""):
                problems.append("%s: empty description or '??'" % un)
            if u.get("modhw", 0) & ~modmsk:
                problems.append("%s: hardwired modifier not among the event's modifiers" % un)
            if u.get("ucntmsk", 0) & ~e["cntmsk"]:
                problems.append("%s: ucntmsk outside cntmsk" % un)
            if kind == "evtsel":
                rest = u["ucode"] & ~0xff00
                thr = rest >> 24
                if rest & ~(((1 << thr_bits) - 1) << 24):
                    problems.append("%s: ucode bits outside UMASK and THR" % un)
                if thr and not u.get("modhw", 0) & FLAG["_NHM_UNC_ATTR_C"]:
                    problems.append("%s: threshold in ucode but 'c' not hardwired" % un)
            if kind == "x7400" and (u["ucode"] >> 32 or u["ucode"] & e["code"]):
                problems.append("%s: ucode outside the control field or overlapping the code" % un)
    a.ok(tag, not problems, "; ".join(problems) if problems else "%d events consistent" % len(events))


def header_arrays(tables_dir, header):
    path = os.path.join(tables_dir, header)
    arrays = g.read_header(path)
    return arrays


def main(run, argv=None):
    argv = sys.argv[1:] if argv is None else argv
    seeds = argv[0] if len(argv) > 0 else os.environ.get("SEEDS_DIR", "/work/shared/seeds")
    tables = argv[1] if len(argv) > 1 else g.EVENTS
    results = run(seeds, tables)
    bad = 0
    for name, ok, msg in results:
        if not ok:
            bad += 1
        if not ok or "-v" in os.environ.get("AUDIT_FLAGS", "") or msg.startswith("excepted"):
            print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg))
    print("%d checks, %d failed" % (len(results), bad))
    return 1 if bad else 0
