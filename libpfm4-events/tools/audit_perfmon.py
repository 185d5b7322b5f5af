#!/usr/bin/env python3
"""Audit the tables generated from Intel's perfmon data against that data.

  audit_perfmon.py --perfmon DIR [--tables DIR] [--only GEN] [-v]

Re-reads Intel's uncore event files itself (not through gen_perfmon.py) and
the committed headers through the C preprocessor (tools/pfmtable.py), and
checks, per generation:
  rows      every non-deprecated Intel row is in the table: PMU of its Unit,
            event = name up to the first '.', unit mask = the rest ('.' as
            '_'; DEFAULT for an undotted row of an event with dotted ones),
            with Intel's EventCode, UMask (control bits 15:8), UMaskExt (bits
            63:32), PortMask/FCMask (inside UMaskExt, or for SKX/CLX/ICX IIO at
            the kernel's ch_mask/fc_mask), Counter list, FILTER_VALUE, and the
            "[experimental]" mark exactly on the rows of *_experimental files;
  extras    nothing in the tables that no Intel row gives;
  deprecated  no deprecated row (Intel's old SKX/CLX names) is in the tables,
            and the new name each one points to is;
  structure each table passes pfmtable.validate (unit masks may use bits 63:32).
A difference is a disagreement; there is no exception list: the tables are
generated, so a disagreement is a generator bug.  The last line is
'audit-perfmon: N passed, N failed (D disagreements)'.
"""
import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import pfmtable  # noqa: E402

GENS = {"bdx": "BDX", "skx": "SKX", "clx": "CLX", "icx": "ICX", "spr": "SPR", "emr": "EMR", "gnr": "GNR",
        "srf": "SRF"}
# Intel's Unit -> libpfm4-style box suffix (libpfm4 names skx_unc_ubo, skx_unc_upi).
UNIT = {"CHA": "cha", "IIO": "iio", "IRP": "irp", "UPI LL": "upi", "M2M": "m2m", "iMC": "imc",
        "IMC": "imc", "M3UPI": "m3upi", "PCU": "pcu", "UBOX": "ubo", "M2PCIe": "m2pcie",
        "CXLCM": "cxlcm", "CXLDP": "cxldp", "MCHBM": "mchbm", "M2HBM": "m2hbm", "MDF": "mdf",
        "B2CMI": "b2cmi", "B2HOT": "b2hot", "B2UPI": "b2upi", "B2CXL": "b2cxl",
        "CHACMS": "chacms",
        # Broadwell-EP's units (the Haswell-EP tables' box names)
        "CBO": "cbo", "SBO": "sbo", "HA": "ha", "QPI LL": "qpi", "R2PCIe": "r2pcie",
        "R3QPI": "r3qpi"}
# SKX/CLX IIO: kernel skx_uncore_iio_formats_attr (ch_mask config:36-43,
# fc_mask config:44-46); ICX IIO: snr_uncore_iio_formats_attr (ch_mask
# config:36-47, fc_mask config:48-50).  From SPR on Intel's UMaskExt
# already holds both (bits 4-15 and 16-18 of config[63:32]).
PORT_FIELDS = {"skx": (36, 0xff, 44, 0x7), "clx": (36, 0xff, 44, 0x7),
               "icx": (36, 0xfff, 48, 0x7)}
FLAG_FIXED = pfmtable.INTEL_X86_FLAGS["FIXED"]
FLAG_DFL = pfmtable.INTEL_X86_FLAGS["DFL"]
MARK = "[experimental]"


def intel_rows(perfmon, gen):
    out = []
    for path in sorted(glob.glob(os.path.join(perfmon, GENS[gen], "events", "*_uncore*.json"))):
        with open(path, encoding="utf-8") as f:
            for r in json.load(f)["Events"]:
                r["_exp"] = "experimental" in os.path.basename(path)
                out.append(r)
    return out


def hexv(s):
    return int(s, 16) if s else 0


def counter_mask(s):
    s = s.strip()
    if s.upper() == "FIXED":
        return 1 << 32
    return sum(1 << int(x) for x in s.split(","))


class Gen:
    def __init__(self, gen, tables_dir):
        self.gen = gen
        self.tables = {}
        for path in sorted(glob.glob(os.path.join(tables_dir, "intel_%s_unc_*_events.h" % gen))):
            box = re.match(r"intel_%s_unc_(\w+)_events\.h" % gen, os.path.basename(path)).group(1)
            t = pfmtable.Table(path)
            self.tables[box] = t
        self.seen = set()
        self.notes = []
        self.briefs = {}

    def lookup(self, box, event, umask):
        t = self.tables.get(box)
        if t is None:
            return None, None, "no table for box %s" % box
        for ev in t.events:
            if ev["name"] == event:
                if umask is None:
                    return ev, None, None
                for u in t.umasks(ev):
                    if u["uname"] == umask:
                        return ev, u, None
                return ev, None, "no unit mask %s:%s" % (event, umask)
        return None, None, "no event %s" % event


def check_row(G, r, dotted_bases):
    """Problems (strings) of one Intel row against the tables."""
    gen = G.gen
    name = r["EventName"]
    box = UNIT.get(r["Unit"])
    if box is None:
        return ["unit %r has no box name" % r["Unit"]]
    if r.get("CounterType") == "FREERUN":
        box += "_free"
    base, dot, rest = name.partition(".")
    umask = rest.replace(".", "_") if dot else ("DEFAULT" if (box, base) in dotted_bases else None)
    # Broadwell-EP's file has no UMaskExt, PortMask, FCMask or FILTER_VALUE
    # column (absent: zero) and an ExtSel column (the control register's
    # ev_sel_ext, bit 21).
    um, ext = hexv(r["UMask"]), hexv(r.get("UMaskExt"))
    pm, fc = hexv(r.get("PortMask")), hexv(r.get("FCMask"))
    fv = hexv(r.get("FILTER_VALUE"))
    code = hexv(r["EventCode"]) | (1 << 21 if r.get("ExtSel") == "1" else 0)
    if umask is None and (um or ext or fv or (pm and gen in PORT_FIELDS and box == "iio")):
        umask = "DEFAULT"
    ev, u, err = G.lookup(box, base, umask)
    if err:
        return ["%s: %s" % (name, err)]
    G.seen.add((box, base, umask))
    p = []
    if ev.get("code", 0) != code:
        p.append("%s: code 0x%x, Intel 0x%x" % (name, ev.get("code", 0), code))
    ucode = u.get("ucode", 0) if u else 0
    want_ext = ext
    if gen in PORT_FIELDS and box == "iio" and not ext:
        ch_at, ch_m, fc_at, fc_m = PORT_FIELDS[gen]
        if ((ucode >> ch_at) & ch_m) != pm or ((ucode >> fc_at) & fc_m) != fc:
            p.append("%s: PortMask/FCMask 0x%x/0x%x in table, Intel 0x%x/0x%x"
                     % (name, (ucode >> ch_at) & ch_m, (ucode >> fc_at) & fc_m, pm, fc))
        want_ext = (pm << (ch_at - 32)) | (fc << (fc_at - 32))
    elif ext and (pm or fc) and box == "iio":
        # From SPR on, Intel repeats the masks inside UMaskExt, which is what
        # the control register gets; where the two columns disagree the
        # table follows UMaskExt and the audit notes Intel's inconsistency.
        if ((ext >> 4) & 0xfff) != pm or ((ext >> 16) & 0x7) != fc:
            G.notes.append("%s: Intel's PortMask/FCMask 0x%x/0x%x differ from its UMaskExt 0x%x "
                           "(the table has UMaskExt)" % (name, pm, fc, ext))
    if ((ucode >> 8) & 0xff) != um:
        p.append("%s: umask 0x%x, Intel 0x%x" % (name, (ucode >> 8) & 0xff, um))
    if (ucode >> 32) != want_ext:
        p.append("%s: control bits 63:32 0x%x, Intel 0x%x" % (name, ucode >> 32, want_ext))
    if ucode & ~0xffffffff0000ff00:
        p.append("%s: ucode 0x%x sets bits outside 15:8 and 63:32" % (name, ucode))
    want_ctr = counter_mask(r["Counter"])
    got_ctr = (u.get("ucntmsk") if u else 0) or ev.get("cntmsk", 0)
    if got_ctr != want_ctr:
        p.append("%s: counters 0x%x, Intel %s" % (name, got_ctr, r["Counter"]))
    if bool(ev.get("flags", 0) & FLAG_FIXED) != (r["Counter"].strip().upper() == "FIXED"):
        p.append("%s: FIXED flag disagrees with Counter %s" % (name, r["Counter"]))
    filters = [u.get("ufilters[0]", 0), u.get("ufilters[1]", 0)] if u else [0, 0]
    if fv:
        f = r["Filter"].lower()
        slot = 1 if "filter1" in f else 0 if "filter0" in f else None
        if slot is None or filters[slot] != fv or filters[1 - slot]:
            p.append("%s: filter values %s, Intel %s=0x%x" % (name, filters, r["Filter"], fv))
    elif any(filters):
        p.append("%s: filter values %s, Intel none" % (name, filters))
    desc = (u or ev).get("udesc" if u else "desc", "")
    if desc.startswith(MARK) != r["_exp"]:
        p.append("%s: description %s the experimental mark, Intel's file is %s"
                 % (name, "has" if desc.startswith(MARK) else "lacks",
                    "experimental" if r["_exp"] else "not experimental"))
    # Intel lists a few unit masks twice (CH0.ALL and CH0_ALL, same values):
    # the description must be the brief of one of them.
    G.briefs.setdefault((box, base, umask), (desc, []))[1].append(" ".join(r["BriefDescription"].split()))
    return p


def audit_gen(perfmon, tables_dir, gen, verbose):
    """[(check name, [disagreements])] of one generation; Intel's own
    inconsistencies are printed as notes."""
    checks = []
    G = Gen(gen, tables_dir)
    rows = intel_rows(perfmon, gen)
    live = [r for r in rows if r.get("Deprecated") != "1"]
    dotted = set()
    for r in live:
        box = UNIT.get(r["Unit"], "?") + ("_free" if r.get("CounterType") == "FREERUN" else "")
        if "." in r["EventName"]:
            dotted.add((box, r["EventName"].split(".")[0]))
    problems = []
    for r in live:
        problems += check_row(G, r, dotted)
    for (box, base, umask), (desc, briefs) in sorted(G.briefs.items(), key=str):
        if not any(b in desc for b in briefs if b):
            problems.append("%s%s: description carries none of Intel's brief descriptions %s"
                            % (base, ":" + umask if umask else "", briefs))
    checks.append(("%s rows: %d Intel rows" % (gen, len(live)), problems))
    for n in G.notes:
        print("note %s: %s" % (gen, n))
    extras = []
    for box, t in G.tables.items():
        for ev in t.events:
            ums = t.umasks(ev)
            if not ums and (box, ev["name"], None) not in G.seen:
                extras.append("%s_unc_%s %s: no Intel row" % (gen, box, ev["name"]))
            for u in ums:
                if (box, ev["name"], u["uname"]) not in G.seen:
                    extras.append("%s_unc_%s %s:%s: no Intel row" % (gen, box, ev["name"], u["uname"]))
    checks.append(("%s extras: tables hold only Intel's rows" % gen, extras))
    names = {r["EventName"] for r in live}
    dep = []
    for r in rows:
        if r.get("Deprecated") != "1":
            continue
        base, _, rest = r["EventName"].partition(".")
        box = UNIT.get(r["Unit"])
        if (box, base, rest.replace(".", "_") or None) in G.seen and r["EventName"] not in names:
            dep.append("%s: deprecated, yet in the table" % r["EventName"])
        m = re.search(r"new event (\S+)", r["BriefDescription"])
        if m and m.group(1).rstrip(".") not in names:
            dep.append("%s: its replacement %s is not in Intel's live rows" % (r["EventName"], m.group(1)))
    checks.append(("%s deprecated: %d rows left out, replacements present"
                   % (gen, sum(1 for r in rows if r.get("Deprecated") == "1")), dep))
    for box, t in sorted(G.tables.items()):
        checks.append(("%s structure: %s (%d events)" % (gen, os.path.basename(t.path), len(t.events)),
                       pfmtable.validate(t, ucode_mask=0xffffffff0000ff00)))
    return checks


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perfmon", required=True, help="Intel's perfmon data (../shared/reference/intel-perfmon)")
    ap.add_argument("--tables", default=os.path.join(ROOT, "events", "perfmon"))
    ap.add_argument("--only", action="append")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.perfmon, "mapfile.csv")):
        print("audit-perfmon: %s holds no Intel perfmon data (mapfile.csv missing)" % args.perfmon)
        print("audit-perfmon: 0 passed, 1 failed (0 disagreements)")
        return 1
    passed = failed = total = 0
    for gen in GENS:
        if args.only and gen not in args.only:
            continue
        for name, problems in audit_gen(args.perfmon, args.tables, gen, args.verbose):
            total += len(problems)
            if problems:
                failed += 1
                print("FAIL %s: %d disagreements" % (name, len(problems)))
                for x in problems[:20]:
                    print("    " + x)
            else:
                passed += 1
                if args.verbose:
                    print("ok   " + name)
    print("audit-perfmon: %d passed, %d failed (%d disagreements)" % (passed, failed, total))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
