#!/usr/bin/env python3
"""Xeon uncore tables from Intel's perfmon event data (BDX, SKX .. SRF).

  gen_perfmon.py [--check] [--perfmon DIR]

Reads Intel's uncore event files (<GEN>/events/*_uncore.json and
*_uncore_experimental.json of ../shared/reference/intel-perfmon, Intel's
perfmon repository at the commit its README names, BSD-3-Clause) and
writes one libpfm4-format header per box kind and generation,
events/perfmon/intel_<gen>_unc_<box>_events.h (array intel_<gen>_unc_<box>_pe).
--check compares the committed headers with what would be generated.

How Intel's rows become table rows (the contract the audit,
tools/audit_perfmon.py, checks independently):
  * PMU: <gen>_unc_<box>, box from Intel's "Unit" (BOX_OF below, libpfm4's
    names: CHA -> cha, "UPI LL" -> upi, iMC/IMC -> imc, UBOX -> ubo, ...);
    rows whose CounterType is FREERUN go to <gen>_unc_<box>_free.
  * Event: Intel's EventName up to the first '.'; unit mask: the rest with
    '.' written '_' (UNC_CHA_TOR_INSERTS.IA_MISS -> UNC_CHA_TOR_INSERTS:IA_MISS;
    the parser takes Intel's dotted name as an alias).  A row without a dot
    whose event also has dotted rows becomes unit mask DEFAULT (DFL).
  * code = EventCode, with Intel's ExtSel (BDX: the extra select bit of the
    QPI events) at bit 21, where the Haswell-EP-style control register has
    ev_sel_ext (the hswep tables' convention); every unit mask is a whole value (NCOMBO) and its ucode
    is the image of the control register: UMask << 8 | UMaskExt << 32, plus,
    where Intel gives them outside UMaskExt (SKX/CLX/ICX IIO), PortMask at the
    kernel's ch_mask and FCMask at its fc_mask (IIO_PORT below).
  * cntmsk: Intel's Counter list (bit i = counter i; FIXED -> bit 32 and the
    FIXED flag; free-running counters: bit <counter index>); an event's cntmsk
    is the union of its unit masks', a unit mask narrower than that carries
    ucntmsk.
  * Intel's FILTER_VALUE goes to ufilters[n] of the filter its Filter column
    names (SKX/CLX CHA "Filter1"/"CHAFilter1": n = 1; "CHAFilter0": n = 0).
  * Deprecated rows (SKX/CLX UNC_C_*/UNC_H_* naming the new event) are left out.
  * Descriptions: Intel's BriefDescription; rows from *_experimental.json
    start with "[experimental] ".
"""
import glob
import json
import os
import sys

import pfmgen as g

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(g.ROOT, "events", "perfmon")
COMMIT = "6dadedf3aa483393943e044ba5ec88a4507cd040"

# generation -> (directory in intel-perfmon, processor)
GENERATIONS = {
    "bdx": ("BDX", "Xeon E5/E7 v4 (Broadwell-EP), CPUID 6/0x4f"),
    "skx": ("SKX", "Xeon Scalable (Skylake-SP), CPUID 6/0x55 steppings 0-4"),
    "clx": ("CLX", "2nd gen Xeon Scalable (Cascade Lake), CPUID 6/0x55 steppings 5-15"),
    "icx": ("ICX", "3rd gen Xeon Scalable (Ice Lake-SP), CPUID 6/0x6a, 0x6c"),
    "spr": ("SPR", "4th gen Xeon Scalable (Sapphire Rapids), CPUID 6/0x8f"),
    "emr": ("EMR", "5th gen Xeon Scalable (Emerald Rapids), CPUID 6/0xcf"),
    "gnr": ("GNR", "Xeon 6 P-core (Granite Rapids), CPUID 6/0xad, 0xae"),
    "srf": ("SRF", "Xeon 6 E-core (Sierra Forest), CPUID 6/0xaf"),
}

# Generations whose units are Haswell-EP's boxes (the same registers, PCI
# functions and modifiers: HSX PMON manual), listed for the event registry
# by intel_hswep_cousins.h (events/registry_hswep.c: HSWEP_COUSIN).
HSWEP_COUSINS = ("bdx",)
HSWEP_BOXES = ("ubo", "cbo", "sbo", "ha", "imc", "irp", "pcu", "qpi", "r2pcie", "r3qpi")

BOX_OF = {
    "CHA": "cha", "IIO": "iio", "IRP": "irp", "UPI LL": "upi", "M2M": "m2m",
    "iMC": "imc", "IMC": "imc", "M3UPI": "m3upi", "PCU": "pcu", "UBOX": "ubo",
    "M2PCIe": "m2pcie", "CXLCM": "cxlcm", "CXLDP": "cxldp", "MCHBM": "mchbm",
    "M2HBM": "m2hbm", "MDF": "mdf", "B2CMI": "b2cmi", "B2HOT": "b2hot",
    "B2UPI": "b2upi", "B2CXL": "b2cxl", "CHACMS": "chacms",
    # Broadwell-EP's units, named as the Haswell-EP tables name them.
    "CBO": "cbo", "SBO": "sbo", "HA": "ha", "QPI LL": "qpi", "R2PCIe": "r2pcie",
    "R3QPI": "r3qpi",
}

# IIO channel and function masks given in Intel's PortMask/FCMask columns
# only (not inside UMaskExt): their positions in the control register, from
# the kernel's format files (uncore_snbep.c: skx_uncore_iio_formats_attr
# ch_mask config:36-43, fc_mask config:44-46; snr_uncore_iio_formats_attr,
# used by icx_uncore_iio, ch_mask config:36-47, fc_mask config:48-50).
IIO_PORT = {
    "skx": (36, 8, 44, 3),
    "clx": (36, 8, 44, 3),
    "icx": (36, 12, 48, 3),
}

EXT_SEL = 1 << 21
ATTRS = "_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_I | _SNBEP_UNC_ATTR_T8"
# The Haswell-EP UBox and PCU have a 5-bit threshold (HSX Tables 2-6 and
# 2-157: thresh 28:24), as the Haswell-EP tables say (T5).
ATTRS_T5 = "_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_I | _SNBEP_UNC_ATTR_T5"


def attrs_of(gen, box):
    return ATTRS_T5 if gen in HSWEP_COUSINS and box in ("ubo", "pcu") else ATTRS
EXPERIMENTAL = "[experimental] "


def perfmon_dir(argv):
    if "--perfmon" in argv:
        return argv[argv.index("--perfmon") + 1]
    return os.environ.get("PERFMON_DIR", os.path.join(g.ROOT, "..", "..", "shared", "reference",
                                                     "intel-perfmon"))


def load_rows(root, gen):
    """Intel's rows of one generation, non-experimental file first."""
    d = GENERATIONS[gen][0]
    rows, headers = [], []
    files = sorted(glob.glob(os.path.join(root, d, "events", "*_uncore*.json")),
                   key=lambda p: ("experimental" in p, p))
    if not files:
        raise SystemExit("gen_perfmon: no uncore event files under %s/%s/events" % (root, d))
    for path in files:
        exp = "experimental" in os.path.basename(path)
        data = g.load_json(path)
        headers.append((os.path.basename(path), data["Header"].get("Version", "?")))
        for r in data["Events"]:
            r = dict(r)
            # Broadwell-EP's file predates these columns: absent is zero.
            for col in ("UMaskExt", "PortMask", "FCMask", "FILTER_VALUE"):
                r.setdefault(col, "0x0")
            r["_experimental"] = exp
            r["_file"] = os.path.basename(path)
            rows.append(r)
    return rows, headers


def counters(r):
    c = r["Counter"].strip()
    if c.upper() == "FIXED":
        return 1 << 32, True
    m = 0
    for part in c.split(","):
        m |= 1 << int(part.strip())
    return m, False


def ucode_of(gen, r):
    um, ext = int(r["UMask"], 16), int(r["UMaskExt"], 16)
    code = (um << 8) | (ext << 32)
    pm, fc = int(r["PortMask"], 16), int(r["FCMask"], 16)
    if (pm or fc) and gen in IIO_PORT and BOX_OF[r["Unit"]] == "iio" and not ext:
        ch_at, ch_w, fc_at, fc_w = IIO_PORT[gen]
        if pm >> ch_w or fc >> fc_w:
            raise SystemExit("%s %s: PortMask/FCMask wider than the kernel's fields" % (gen, r["EventName"]))
        code |= (pm << ch_at) | (fc << fc_at)
    return code


def filter_slot(r):
    f = r["Filter"].lower()
    if "filter1" in f:
        return 1
    if "filter0" in f:
        return 0
    return None


def describe(r):
    d = " ".join(r["BriefDescription"].split()) or r["EventName"]
    if r["Filter"] not in ("na", ""):
        d += " (filter: %s)" % r["Filter"]
    return (EXPERIMENTAL if r["_experimental"] else "") + d


def common_desc(base, rows):
    descs = [" ".join(r["BriefDescription"].split()) for r in rows]
    if len(descs) == 1:
        return descs[0] or base
    pre = os.path.commonprefix(descs)
    cut = max(pre.rfind(" : "), pre.rfind(": "))
    if cut >= 8:
        return pre[:cut].strip()
    # Whole words only: the prefix ends where no description goes on with a letter.
    if not all(len(d) == len(pre) or not d[len(pre)].isalnum() for d in descs):
        pre = pre[:pre.rfind(" ")] if " " in pre else ""
    pre = pre.strip().rstrip(":-,(;").strip()
    if len(pre) >= 6:
        return "%s (%d unit masks)" % (pre, len(rows))
    return "%s (%d unit masks; see each)" % (base, len(rows))


def dedupe(pmu, base, ums):
    """Intel lists a few unit masks twice, once with a second dot
    (SPR/EMR UNC_M2HBM_IMC_READS.CH0.ALL and .CH0_ALL): the same name here.
    Identical encodings are kept once; different ones would be an error."""
    out, seen = [], {}
    for u in ums:
        key = (u["ucode"], u.get("ucntmsk"), tuple(sorted(u.get("ufilters", {}).items())))
        if u["uname"] in seen:
            if seen[u["uname"]] != key:
                raise SystemExit("%s %s:%s: two encodings under one name" % (pmu, base, u["uname"]))
            continue
        seen[u["uname"]] = key
        out.append(u)
    return out


def build_gen(root, gen):
    rows, headers = load_rows(root, gen)
    boxes = {}       # pmu -> {base: [rows]} in first-seen order
    skipped = 0
    for r in rows:
        if r.get("Deprecated") == "1":
            skipped += 1
            continue
        box = BOX_OF[r["Unit"]]
        if r.get("CounterType") == "FREERUN":
            box += "_free"
        base = r["EventName"].split(".", 1)[0]
        boxes.setdefault(box, {}).setdefault(base, []).append(r)
    out = []
    for box, events in sorted(boxes.items()):
        pmu = "%s_unc_%s" % (gen, box)
        evs = []
        for base, erows in events.items():
            codes = {int(r["EventCode"], 16) | (EXT_SEL if r.get("ExtSel") == "1" else 0)
                     for r in erows}
            if len(codes) != 1:
                raise SystemExit("%s %s: event codes %s under one name" % (pmu, base, sorted(codes)))
            ev = {"name": base, "code": codes.pop(), "modmsk": [attrs_of(gen, box)]}
            fixed = False
            masks = []
            for r in erows:
                m, fx = counters(r)
                fixed |= fx
                masks.append(m)
            ev["cntmsk"] = 0
            for m in masks:
                ev["cntmsk"] |= m
            if fixed:
                ev["flags"] = ["INTEL_X86_FIXED"]
                ev["modmsk"] = []
            if box.endswith("_free"):
                ev["modmsk"] = []
            dotted = ["." in r["EventName"] for r in erows]
            nonzero = any(ucode_of(gen, r) or int(r["FILTER_VALUE"], 16) for r in erows)
            if not any(dotted) and len(erows) == 1 and not nonzero:
                ev["desc"] = describe(erows[0])
            else:
                ev["desc"] = common_desc(base, erows)
                if all(r["_experimental"] for r in erows) and not ev["desc"].startswith(EXPERIMENTAL):
                    ev["desc"] = EXPERIMENTAL + ev["desc"]
                ums = []
                for r, m in zip(erows, masks):
                    name = r["EventName"].split(".", 1)[1].replace(".", "_") if "." in r["EventName"] else "DEFAULT"
                    u = {"uname": name, "udesc": describe(r), "ucode": ucode_of(gen, r),
                         "uflags": ["INTEL_X86_NCOMBO"]}
                    if len(erows) == 1 or name == "DEFAULT":
                        u["uflags"].append("INTEL_X86_DFL")
                    if m != ev["cntmsk"]:
                        u["ucntmsk"] = m
                    fv, slot = int(r["FILTER_VALUE"], 16), filter_slot(r)
                    if fv:
                        if slot is None:
                            raise SystemExit("%s %s: FILTER_VALUE without a filter" % (pmu, r["EventName"]))
                        u["ufilters"] = {slot: fv}
                    ums.append(u)
                ev["umasks"] = dedupe(pmu, base, ums)
            evs.append(ev)
        path = os.path.join(OUT, "intel_%s_unc_%s_events.h" % (gen, box))
        nexp = sum(1 for e in events.values() for r in e if r["_experimental"])
        comment = [
            "%s uncore events, PMU %s, for the %s." % (box.upper(), pmu, GENERATIONS[gen][1]),
            "GENERATED by libpfm4-events/tools/gen_perfmon.py from Intel's perfmon event data:",
            "%s/events/%s (Intel perfmon commit %s)." % (
                GENERATIONS[gen][0], ", ".join("%s V%s" % h for h in headers), COMMIT),
            "Event codes, unit masks and counter restrictions are Intel's; descriptions are",
            "Intel's BriefDescription text (Copyright (c) Intel Corporation, BSD-3-Clause:",
            "libpfm4-events/data/intel-perfmon-LICENSE).  %d events, %d rows, %d of them" % (
                len(evs), sum(len(e) for e in events.values()), nexp),
            "experimental (marked \"[experimental]\").  Do not edit: regenerate.",
        ]
        guard = "__INTEL_%s_UNC_%s_EVENTS_H__" % (gen.upper(), box.upper())
        tables = [{"array": "intel_%s_unc_%s_pe" % (gen, box), "prefix": "%s_unc_%s" % (gen, box),
                   "events": evs}]
        out.append((path, g.emit_header(path, guard, comment, tables)))
    return out


def index_header(files):
    """intel_perfmon_tables.h: includes every header and lists its PMUs as an
    X-macro, PERFMON_PMUS(X) -> X(gen, box, array) per PMU, for the C side."""
    lines = ["/*",
             " * Every table generated from Intel's perfmon data (gen_perfmon.py), for C code",
             " * that includes them all: PERFMON_PMUS(X) expands X(gen, box, array) once per",
             " * PMU <gen>_unc_<box>.  GENERATED: do not edit.",
             " */",
             "#ifndef __INTEL_PERFMON_TABLES_H__",
             "#define __INTEL_PERFMON_TABLES_H__", ""]
    entries = []
    for path, _ in files:
        name = os.path.basename(path)
        lines.append('#include "events/perfmon/%s"' % name)
        gen, box = name[len("intel_"):-len("_events.h")].split("_unc_", 1)
        entries.append("\tX(%s, %s, intel_%s_unc_%s_pe)" % (gen, box, gen, box))
    lines += ["", "#define PERFMON_PMUS(X) \\"]
    lines += [e + (" \\" if i + 1 < len(entries) else "") for i, e in enumerate(entries)]
    lines += ["", "#endif", ""]
    return os.path.join(OUT, "intel_perfmon_tables.h"), "\n".join(lines)


def cousins_header(files):
    """intel_hswep_cousins.h: the tables of the generations on Haswell-EP's
    boxes and PERFMON_HSWEP_COUSINS(X) -> X(gen) per generation."""
    lines = ["/*",
             " * The generations whose units are Haswell-EP's boxes, with their tables",
             " * (gen_perfmon.py HSWEP_COUSINS): PERFMON_HSWEP_COUSINS(X) expands X(gen)",
             " * once per generation.  GENERATED: do not edit.",
             " */",
             "#ifndef __INTEL_HSWEP_COUSINS_H__",
             "#define __INTEL_HSWEP_COUSINS_H__", ""]
    names = {os.path.basename(p) for p, _ in files}
    for gen in HSWEP_COUSINS:
        for box in HSWEP_BOXES:
            name = "intel_%s_unc_%s_events.h" % (gen, box)
            if name not in names:
                raise SystemExit("gen_perfmon: %s, a Haswell-EP cousin, has no %s table" % (gen, box))
            lines.append('#include "events/perfmon/%s"' % name)
    lines += ["", "#define PERFMON_HSWEP_COUSINS(X) %s" % " ".join("X(%s)" % g for g in HSWEP_COUSINS),
              "", "#endif", ""]
    return os.path.join(OUT, "intel_hswep_cousins.h"), "\n".join(lines)


def build(root):
    out = []
    for gen in GENERATIONS:
        out += build_gen(root, gen)
    return out + [index_header(out), cousins_header(out)]


def main(argv):
    root = perfmon_dir(argv)
    if not os.path.isdir(root):
        print("gen_perfmon: no Intel perfmon data at %s (--perfmon DIR)" % root)
        return 1
    os.makedirs(OUT, exist_ok=True)
    check = "--check" in argv
    files = build(root)
    ok = True
    for path, text in files:
        ok &= g.write_or_check(path, text, check)
    want = {os.path.basename(p) for p, _ in files}
    for stale in sorted(set(os.listdir(OUT)) - want):
        if stale.endswith(".h"):
            if check:
                print("DIFFERS: %s is not produced by the generator (stale)" % stale)
                ok = False
            else:
                os.remove(os.path.join(OUT, stale))
                print("removed %s" % stale)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
