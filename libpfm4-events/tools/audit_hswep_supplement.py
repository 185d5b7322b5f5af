#!/usr/bin/env python3
"""Audit the Haswell-EP supplement table against Intel's HSX and BDX event data.

  audit_hswep_supplement.py --perfmon DIR [--tables DIR] [-v]

Reads Intel's files itself (not through gen_hswep_supplement.py) and the
committed headers through the C preprocessor (tools/pfmtable.py): the
supplement, events/supplement/intel_hswep_unc_supp_events.h, and the
manual's tables, events/intel_hswep_unc_<box>_events.h (--tables DIR: a
directory holding both, laid out as libpfm4-events/events/).  Checks:
  rows      every supplement event is an event of Intel's HSX file, in the
            array of its Unit, with Intel's EventCode and ExtSel (bit 21),
            every unit mask Intel gives it and no other (UMask at bits 15:8),
            Intel's Counter list, and the mark "[not in the manual; Intel's
            event data]" at the start of its description and of each unit
            mask's;
  bdx       the same event in Intel's BDX file has the same code, ExtSel and
            unit masks;
  apart     no supplement event is in the manual's tables, by name or by event
            select (EventCode with ExtSel) in its box;
  complete  every HSX event that the manual's tables lack by name and by
            select is in the supplement;
  structure each array passes pfmtable.validate.
The last line is 'audit-hswep-supplement: N passed, N failed (D disagreements)'.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import pfmtable  # noqa: E402

MARK = "[not in the manual; Intel's event data]"
EXT = 1 << 21
# Intel's Unit -> (box file suffix, array letter).
UNIT = {"UBOX": ("ubo", "u"), "CBO": ("cbo", "c"), "SBO": ("sbo", "s"), "HA": ("ha", "h"),
        "iMC": ("imc", "m"), "IRP": ("irp", "i"), "PCU": ("pcu", "p"), "QPI LL": ("qpi", "q"),
        "R2PCIe": ("r2pcie", "r2"), "R3QPI": ("r3qpi", "r3")}


def intel(perfmon, gen, name):
    with open(os.path.join(perfmon, gen, "events", name), encoding="utf-8") as f:
        rows = json.load(f)["Events"]
    out = {}
    for r in rows:
        if r.get("Deprecated") == "1":
            continue
        out.setdefault((r["Unit"], r["EventName"].split(".", 1)[0].upper()), []).append(r)
    return out


def sel(r):
    return int(r["EventCode"], 16) | (EXT if r["ExtSel"] == "1" else 0)


def counters(r):
    m = 0
    for c in r["Counter"].split(","):
        m |= 1 << int(c)
    return m


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--perfmon", required=True)
    ap.add_argument("--tables", default=os.path.join(ROOT, "events"))
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args(argv)
    hsx = intel(a.perfmon, "HSX", "haswellx_uncore.json")
    bdx = intel(a.perfmon, "BDX", "broadwellx_uncore.json")
    passed, failed = 0, []

    def check(ok, what):
        nonlocal passed
        if ok:
            passed += 1
            if a.v:
                print("PASS " + what)
        else:
            failed.append(what)
            print("FAIL " + what)

    manual = {}
    for box, letter in UNIT.values():
        t = pfmtable.Table(os.path.join(a.tables, "intel_hswep_unc_%s_events.h" % box),
                           "intel_hswep_unc_%s_pe" % letter)
        manual[letter] = ({e["name"].upper() for e in t.events},
                          {e["code"] & (0xff | EXT) for e in t.events})
    supp_path = os.path.join(a.tables, "supplement", "intel_hswep_unc_supp_events.h")
    supp = pfmtable.Table(supp_path, "intel_hswep_unc_q_supp_pe")
    arrays = {n: supp.arrays[n] for n, k in supp.kinds.items() if k == "intel_x86_entry_t"}
    seen = set()
    for arr, events in sorted(arrays.items()):
        m = re.fullmatch(r"intel_hswep_unc_(\w+?)_supp_pe", arr)
        check(m is not None and m.group(1) in manual, "%s: an array of a Haswell-EP box" % arr)
        if not m or m.group(1) not in manual:
            continue
        letter = m.group(1)
        unit = [u for u, (_, l) in UNIT.items() if l == letter][0]
        probs = pfmtable.validate(pfmtable.Table(supp_path, arr))
        check(not probs, "%s: libpfm4 table structure%s" % (arr, ": " + "; ".join(probs[:3]) if probs else ""))
        for ev in events:
            name = ev["name"]
            seen.add((unit, name.upper()))
            rows = hsx.get((unit, name.upper()))
            check(rows is not None, "%s: in Intel's HSX data under Unit %s" % (name, unit))
            if not rows:
                continue
            check(ev["code"] == sel(rows[0]),
                  "%s: code 0x%x is Intel's EventCode %s with ExtSel %s" % (
                      name, ev["code"], rows[0]["EventCode"], rows[0]["ExtSel"]))
            want_cnt = 0
            for r in rows:
                want_cnt |= counters(r)
            check(ev["cntmsk"] == want_cnt, "%s: counters 0x%x are Intel's (0x%x)" % (
                name, ev["cntmsk"], want_cnt))
            check(ev["desc"].startswith(MARK), "%s: description marked %s" % (name, MARK))
            want = {(r["EventName"].split(".", 1)[1].upper() if "." in r["EventName"] else ""):
                    int(r["UMask"], 16) << 8 for r in rows}
            have = {u["uname"]: u["ucode"] for u in supp.umasks(ev)} or {"": 0}
            check(have == want, "%s: unit masks %s are Intel's %s" % (
                name, sorted((k, hex(v)) for k, v in have.items()),
                sorted((k, hex(v)) for k, v in want.items())))
            check(all(u["udesc"].startswith(MARK) for u in supp.umasks(ev)),
                  "%s: every unit mask description marked" % name)
            other = bdx.get((unit, name.upper()))
            check(other is not None and {sel(r) for r in other} == {ev["code"]} and
                  {(r["EventName"].split(".", 1)[1].upper() if "." in r["EventName"] else ""):
                   int(r["UMask"], 16) << 8 for r in other} == want,
                  "%s: the same code and unit masks in Intel's BDX data" % name)
            names, sels = manual[letter]
            check(name.upper() not in names and (ev["code"] & (0xff | EXT)) not in sels,
                  "%s: not in the manual's table of its box, by name or event select" % name)
    for (unit, name), rows in sorted(hsx.items()):
        names, sels = manual[UNIT[unit][1]]
        if name in names or sel(rows[0]) in sels:
            continue
        check((unit, name) in seen, "%s (HSX %s): missing from the manual's tables and from "
              "the supplement" % (name, unit))
    n = sum(len(v) for v in arrays.values())
    print("supplement: %d events in %d arrays" % (n, len(arrays)))
    print("audit-hswep-supplement: %d passed, %d failed (%d disagreements)" % (
        passed, len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
