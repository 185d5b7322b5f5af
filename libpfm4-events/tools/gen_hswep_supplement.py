#!/usr/bin/env python3
"""The Haswell-EP supplement: events Intel's event data lists and the manual omits.

  gen_hswep_supplement.py [--check] [--perfmon DIR]

Intel's Haswell-EP uncore event file (HSX/events/haswellx_uncore.json of
../shared/reference/intel-perfmon, Intel's perfmon repository at the commit
gen_perfmon.py names, BSD-3-Clause) lists 45 events that the uncore manual
(331051-002, the source of events/intel_hswep_unc_*_events.h) does not:
Intel's row for an event whose name no manual event of its box has, and
whose event select (EventCode with ExtSel) no manual event of its box uses
either (that one is another name of a manual event: PCU
UFS_TRANSITIONS_NO_CHANGE is the manual's UFS_TRANSITIONS_RING_GV, 0x79).
Each is cross-checked with Intel's Broadwell-EP file
(BDX/events/broadwellx_uncore.json): the same event code, extended select
bit and unit masks there, or the generator stops.

It writes a separate table, never merged into the manual's:
  events/supplement/intel_hswep_unc_supp_events.h  one array per box,
      intel_hswep_unc_<letter>_supp_pe (libpfm4 format, not copied into
      libpfm4's tree); every description starts with SUPP_TAG.
  maxinc/intel_hswep_unc_supp_maxinc.h  the max increment per cycle, parallel:
      Intel's data gives none, so the box's largest manual value stands in
      (as gen_hswep.py does where the manual gives none): an overestimate
      only makes the poller read more often.

How Intel's rows become rows (the audit, audit_hswep_supplement.py, checks
the header against both files independently):
  * event name: Intel's up to the first '.', in capitals as the manual's
    tables write them (UNC_Q_RxL_FLITS_G0 -> UNC_Q_RXL_FLITS_G0); unit mask:
    the rest (IDLE); code: EventCode, with ExtSel as bit 21 (ev_sel_ext,
    HSX PMON Table 2-169), ucode UMask << 8; every unit mask a whole value
    (NCOMBO: Intel's data says nothing of combining them), the only one of an
    event its default.
  * cntmsk: Intel's Counter list; modifiers: edge, invert and threshold
    only (the box's threshold width), none of the box's filters: Intel gives
    these events no filter value.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pfmgen as g  # noqa: E402
import gen_perfmon  # noqa: E402

SUPP_TAG = "[not in the manual; Intel's event data] "
OUT_EVENTS = os.path.join(g.ROOT, "events", "supplement", "intel_hswep_unc_supp_events.h")
OUT_MAXINC = os.path.join(g.ROOT, "maxinc", "intel_hswep_unc_supp_maxinc.h")
MANUAL_MAXINC = os.path.join(g.ROOT, "maxinc", "intel_hswep_unc_maxinc.h")

# Intel's Unit -> (our box, array letter, event name prefix, modifiers).
BOXES = {
    "UBOX": ("ubo", "u", "UNC_U_", ["_SNBEP_UNC_ATTR_E", "_SNBEP_UNC_ATTR_I", "_SNBEP_UNC_ATTR_T5"]),
    "CBO": ("cbo", "c", "UNC_C_", None),
    "SBO": ("sbo", "s", "UNC_S_", None),
    "HA": ("ha", "h", "UNC_H_", None),
    "iMC": ("imc", "m", "UNC_M_", None),
    "IRP": ("irp", "i", "UNC_I_", None),
    "PCU": ("pcu", "p", "UNC_P_", ["_SNBEP_UNC_ATTR_E", "_SNBEP_UNC_ATTR_I", "_SNBEP_UNC_ATTR_T5"]),
    "QPI LL": ("qpi", "q", "UNC_Q_", None),
    "R2PCIe": ("r2pcie", "r2", "UNC_R2_", None),
    "R3QPI": ("r3qpi", "r3", "UNC_R3_", None),
}
DEFAULT_MODS = ["_SNBEP_UNC_ATTR_E", "_SNBEP_UNC_ATTR_I", "_SNBEP_UNC_ATTR_T8"]
EV_SEL_EXT = 1 << 21


def intel_file(root, gen):
    name = {"HSX": "haswellx_uncore.json", "BDX": "broadwellx_uncore.json"}[gen]
    path = os.path.join(root, gen, "events", name)
    data = g.load_json(path)
    return data["Header"], data["Events"]


def by_event(rows):
    """(unit, event name) -> rows, in Intel's order."""
    out = {}
    for r in rows:
        if r.get("Deprecated") == "1":
            continue
        out.setdefault((r["Unit"], r["EventName"].split(".", 1)[0]), []).append(r)
    return out


def select(r):
    return int(r["EventCode"], 16) | (EV_SEL_EXT if r["ExtSel"] == "1" else 0)


def manual_events():
    """box -> (set of upper-case names, set of event selects) of the manual's
    tables (the committed events/intel_hswep_unc_<box>_events.h)."""
    out = {}
    for unit, (box, letter, _, _) in BOXES.items():
        text = g.read_text(os.path.join(g.EVENTS, "intel_hswep_unc_%s_events.h" % box))
        body = text[text.index("intel_hswep_unc_%s_pe[] = {" % letter):]
        names, sels = set(), set()
        for m in re.finditer(r'\{ \.name = "(\w+)",.*?\.code = ([^,\n]+),', body, re.S):
            names.add(m.group(1).upper())
            expr = m.group(2).split("/*")[0].replace("1U", "1")
            if not re.fullmatch(r"[0-9a-fA-Fx|()<> ]+", expr):
                raise SystemExit("gen_hswep_supplement: cannot read code %r of %s" % (expr, m.group(1)))
            sels.add(eval(expr) & (0xff | EV_SEL_EXT))  # noqa: S307 (digits and | << only)
        out[box] = (names, sels)
    return out


def manual_box_max():
    """letter -> the largest max increment of the box's manual events."""
    text = g.read_text(MANUAL_MAXINC)
    out = {}
    for m in re.finditer(r"intel_hswep_unc_(\w+?)_maxinc\[\] = \{(.*?)\};", text, re.S):
        out[m.group(1)] = max(int(v) for v in re.findall(r"^\s*(\d+),", m.group(2), re.M))
    return out


def unit_masks(rows):
    return {(r["EventName"].split(".", 1)[1] if "." in r["EventName"] else ""): int(r["UMask"], 16)
            for r in rows}


def supplement(root):
    """[(unit, name, rows)] of the events the manual omits, BDX-checked."""
    hsx_header, hsx = intel_file(root, "HSX")
    bdx_header, bdx = intel_file(root, "BDX")
    hsx_ev, bdx_ev = by_event(hsx), by_event(bdx)
    manual = manual_events()
    out = []
    for (unit, name), rows in hsx_ev.items():
        box = BOXES[unit][0]
        names, sels = manual[box]
        sel = {select(r) for r in rows}
        if len(sel) != 1:
            raise SystemExit("gen_hswep_supplement: %s has event selects %s" % (name, sorted(sel)))
        if name.upper() in names or sel & sels:
            continue
        other = bdx_ev.get((unit, name))
        if not other:
            raise SystemExit("gen_hswep_supplement: %s is not in Intel's Broadwell-EP data" % name)
        if {select(r) for r in other} != sel or unit_masks(other) != unit_masks(rows):
            raise SystemExit("gen_hswep_supplement: %s differs in Intel's Broadwell-EP data" % name)
        out.append((unit, name, rows))
    return out, (hsx_header, bdx_header)


def describe(r):
    d = " ".join(r["BriefDescription"].split()) or r["EventName"]
    if r["Filter"] not in ("na", ""):
        d += " (Intel: needs %s, which the manual does not describe)" % r["Filter"]
    return SUPP_TAG + d


def build(root):
    events, headers = supplement(root)
    box_max = manual_box_max()
    per_box = {}
    for unit, name, rows in events:
        box, letter, _, mods = BOXES[unit]
        ev = {"name": name.upper(), "code": select(rows[0]), "modmsk": mods or DEFAULT_MODS,
              "cntmsk": 0}
        for r in rows:
            ev["cntmsk"] |= gen_perfmon.counters(r)[0]
        dotted = ["." in r["EventName"] for r in rows]
        if not any(dotted):
            if len(rows) != 1 or int(rows[0]["UMask"], 16):
                raise SystemExit("gen_hswep_supplement: %s has a unit mask without a name" % name)
            ev["desc"] = describe(rows[0])
        else:
            if not all(dotted):
                raise SystemExit("gen_hswep_supplement: %s mixes named and unnamed rows" % name)
            ev["desc"] = SUPP_TAG + gen_perfmon.common_desc(name, rows)
            ev["umasks"] = []
            for r in rows:
                u = {"uname": r["EventName"].split(".", 1)[1].upper().replace(".", "_"),
                     "udesc": describe(r), "ucode": int(r["UMask"], 16) << 8,
                     "uflags": ["INTEL_X86_NCOMBO"] + (["INTEL_X86_DFL"] if len(rows) == 1 else [])}
                ev["umasks"].append(u)
        per_box.setdefault(letter, []).append(ev)
    order = [v[1] for v in BOXES.values()]
    letters = [l for l in order if l in per_box]
    for l in letters:
        per_box[l].sort(key=lambda e: e["name"])
    n = sum(len(v) for v in per_box.values())
    src = "HSX/events/haswellx_uncore.json V%s and BDX/events/broadwellx_uncore.json V%s" % (
        headers[0].get("Version", "?"), headers[1].get("Version", "?"))
    comment = [
        "Haswell-EP uncore events that Intel's event data lists and the uncore manual",
        "(331051-002) omits: a SUPPLEMENT to intel_hswep_unc_<box>_events.h, kept apart.",
        "GENERATED by libpfm4-events/tools/gen_hswep_supplement.py from Intel's perfmon",
        "data, %s" % src,
        "(Intel perfmon commit %s), each event also in the Broadwell-EP file with" % gen_perfmon.COMMIT,
        "the same code and unit masks.  %d events; descriptions are Intel's" % n,
        "BriefDescription (Copyright (c) Intel Corporation, BSD-3-Clause:",
        "libpfm4-events/data/intel-perfmon-LICENSE), each starting \"%s\"." % SUPP_TAG.strip(),
        "Not copied into libpfm4's tree: papi-uncore's own table.  Do not edit: regenerate.",
    ]
    tables = [{"array": "intel_hswep_unc_%s_supp_pe" % l, "prefix": "hswep_unc_%s_supp" % l,
               "events": per_box[l]} for l in letters]
    guard = "__INTEL_HSWEP_UNC_SUPP_EVENTS_H__"
    files = [(OUT_EVENTS, g.emit_header(OUT_EVENTS, guard, comment, tables))]
    mi = ["/*",
          " * The max increment per cycle of each supplement event",
          " * (events/supplement/intel_hswep_unc_supp_events.h), arrays parallel to its",
          " * intel_hswep_unc_<letter>_supp_pe.  Intel's data gives none: the box's largest",
          " * manual value (maxinc/intel_hswep_unc_maxinc.h) stands in, an overestimate that",
          " * only makes the poller read more often.  GENERATED by",
          " * libpfm4-events/tools/gen_hswep_supplement.py.  Do not edit; regenerate.",
          " */",
          "#ifndef INTEL_HSWEP_UNC_SUPP_MAXINC_H",
          "#define INTEL_HSWEP_UNC_SUPP_MAXINC_H",
          "",
          "#include <stdint.h>",
          ""]
    for l in letters:
        mi.append("static const uint16_t intel_hswep_unc_%s_supp_maxinc[] = {" % l)
        for ev in per_box[l]:
            mi.append("\t%d, /* %s */" % (box_max[l], ev["name"]))
        mi += ["};", ""]
    mi.append("#endif")
    files.append((OUT_MAXINC, "\n".join(mi) + "\n"))
    return files


def main(argv):
    root = gen_perfmon.perfmon_dir(argv)
    if not os.path.isdir(root):
        print("gen_hswep_supplement: no Intel perfmon data at %s (--perfmon DIR)" % root)
        return 1
    os.makedirs(os.path.dirname(OUT_EVENTS), exist_ok=True)
    check = "--check" in argv
    ok = True
    for path, text in build(root):
        ok &= g.write_or_check(path, text, check)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
