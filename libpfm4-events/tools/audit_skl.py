#!/usr/bin/env python3
"""Audit of the Skylake client tables against the 6th Generation Intel Core Uncore
PMU Reference Manual (seed 001): every CBo/ARB event row (name, event code, umask,
valid counters) and every IMC counter (name, MMIO offset, width) of the manual is
compared with events/intel_skl_unc_iu_events.h, in both directions, plus the
structural validator.  Interface for the audit framework:
    run(seeds_dir, tables_dir) -> list of (check_name, ok, message)
Standalone: audit_skl.py [SEEDS_DIR [TABLES_DIR]]  (AUDIT_FLAGS=-v lists passes too)
"""
import os
import re
import sys

import pfmgen as g
import audit_client_common as ac

SEED = "001_f69aba9de51b253a.txt"
HEADER = "intel_skl_unc_iu_events.h"
EXCEPTIONS = os.path.join(g.DATA, "exceptions_skl.txt")
ARRAYS = {"intel_skl_unc_iu_cbo_pe": "evtsel", "intel_skl_unc_iu_arb_pe": "evtsel",
          "intel_skl_unc_iu_clock_pe": "evtsel", "intel_skl_unc_iu_imc_pe": "imc"}


def spec_rows(text):
    """(name, event, umask, counters) of Tables 3-1/3-2, read from the whole text.

    A row is 'UNC_X.Y 0xEE 0xUU description...' (the name may be broken by a
    space or a line break); its valid counters ('0, 1', '0' or 'Fixed') end
    the first later line that ends with one of them.
    """
    rows = []
    pat = re.compile(r"(UNC_[A-Z_ ]+\.[A-Z_\n]+?)\s+0x([0-9A-Fa-f]{2})\s+0x([0-9A-Fa-f]{2})\s")
    for m in pat.finditer(text):
        name = re.sub(r"\s+", "", m.group(1))
        tail = text[m.end():]
        c = re.search(r"(0, 1|\b0|Fixed)[ \t]*$", tail, flags=re.M)
        rows.append({"name": name, "event": int(m.group(2), 16), "umask": int(m.group(3), 16),
                     "counters": c.group(1) if c else None})
    return rows


def spec_imc(text):
    rows = [{"name": m.group(1), "offset": int(m.group(2), 16)}
            for m in re.finditer(r"^(DRAM_[A-Z_]+) BAR\+0x([0-9A-Fa-f]+)", text, flags=re.M)]
    m = re.search(r"^IMC Fixed\s*(\d)\s*(\d)\s*(\d+)\s*$", text, flags=re.M)
    width = int(m.group(3)) if m else None
    return rows, width


def run(seeds_dir, tables_dir):
    a = ac.Audit("skl")
    text = g.read_text(os.path.join(seeds_dir, SEED))
    arrays = ac.header_arrays(tables_dir, HEADER)
    for name, kind in ARRAYS.items():
        a.ok("array:%s" % name, name in arrays, "present" if name in arrays else "array missing from %s" % HEADER)
        if name in arrays:
            ac.validate_structure(a, name, arrays[name], kind, thr_bits=5)

    by_event = {}
    for name in ("intel_skl_unc_iu_cbo_pe", "intel_skl_unc_iu_arb_pe", "intel_skl_unc_iu_clock_pe"):
        for e in arrays.get(name, []):
            by_event[e["name"]] = e
    rows = spec_rows(text)
    a.ok("spec:rows", len(rows) >= 20, "%d event rows read from the manual" % len(rows))
    seen = set()
    for r in rows:
        ev, um = r["name"].split(".", 1)
        e = by_event.get(ev)
        u = next((x for x in e["umasks"] if x["uname"] == um), None) if e else None
        key = r["name"]
        if u is None:
            a.diff(key + ":missing", "manual row %s (0x%02x/0x%02x) not in our tables" % (key, r["event"], r["umask"]))
            continue
        seen.add((ev, um))
        if e["code"] != r["event"]:
            a.diff(key + ":event", "event code: manual 0x%02x, table 0x%x" % (r["event"], e["code"]))
        if umask_of(u) != r["umask"]:
            a.diff(key + ":umask", "umask: manual 0x%02x, table 0x%02x" % (r["umask"], umask_of(u)))
        if u["ucode"] >> 16:
            a.diff(key + ":extra_bits", "table adds bits 0x%x beyond the umask (threshold %d)"
                   % (u["ucode"] & ~0xffff, u["ucode"] >> 24))
        want = {"0, 1": 0x3, "0": 0x1, "Fixed": "fixed"}.get(r["counters"])
        got = u.get("ucntmsk") or e["cntmsk"]
        if want == "fixed":
            ok = bool(e.get("flags", 0) & g.SYMBOLS["INTEL_X86_FIXED"])
        else:
            ok = got == want
        if not ok:
            a.diff(key + ":counters", "valid counters: manual %r, table cntmsk 0x%x" % (r["counters"], got))
        a.ok("row:" + key, True, "event 0x%02x umask 0x%02x counters %s: compared" % (r["event"], r["umask"], r["counters"]))
    for e in by_event.values():
        for u in e["umasks"]:
            if (e["name"], u["uname"]) not in seen:
                a.diff("%s.%s:extra" % (e["name"], u["uname"]), "in our tables but not a row of the manual")

    imc, width = spec_imc(text)
    a.ok("spec:imc", len(imc) == 5 and width, "%d IMC counters, width %s read from the manual" % (len(imc), width))
    tab = {e["name"]: e for e in arrays.get("intel_skl_unc_iu_imc_pe", [])}
    for r in imc:
        e = tab.get(r["name"])
        if not e:
            a.diff(r["name"] + ":missing", "IMC counter not in our tables")
            continue
        if e["code"] & 0xffff != r["offset"]:
            a.diff(r["name"] + ":offset", "offset: manual 0x%x, table 0x%x" % (r["offset"], e["code"] & 0xffff))
        if (e["code"] >> 16) & 0xff != width:
            a.diff(r["name"] + ":width", "width: manual %s, table %d" % (width, (e["code"] >> 16) & 0xff))
        if not e.get("flags", 0) & g.SYMBOLS["INTEL_X86_FIXED"] or e["umasks"]:
            a.diff(r["name"] + ":kind", "not a plain fixed-counter event")
        a.ok("row:" + r["name"], True, "offset 0x%x width %s: compared" % (r["offset"], width))
    for n in tab:
        if n not in {r["name"] for r in imc}:
            a.diff(n + ":extra", "IMC event not in the manual")
    return a.finish(EXCEPTIONS)


def umask_of(u):
    return (u["ucode"] >> 8) & 0xff


if __name__ == "__main__":
    sys.exit(ac.main(run))
