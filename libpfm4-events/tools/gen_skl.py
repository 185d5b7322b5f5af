#!/usr/bin/env python3
"""Skylake client uncore tables: seed 001 -> data/skl_events.json -> events/intel_skl_unc_iu_events.h

Extracts the CBo and ARB event rows (manual Tables 3-1, 3-2) and the IMC
free-running counters (Table 3-3) from the text of the 6th Generation Intel
Core Uncore PMU Reference Manual, applies the reviewed decisions of
data/skl_overrides.json, and writes the intermediate and the header.
    gen_skl.py [--check] [--seeds DIR]
--check compares the committed files with what would be generated.
"""
import os
import re
import sys

import pfmgen as g

SEED = "001_f69aba9de51b253a.txt"
ATTRS = ["_NHM_UNC_ATTR_E", "_NHM_UNC_ATTR_I", "_NHM_UNC_ATTR_C"]

ROW = re.compile(r"^(UNC_[A-Z0-9_. ]+?)\s+0x([0-9A-Fa-f]{2})\s+0x([0-9A-Fa-f]{2})\s*(.*)$")
CTRS = re.compile(r"^(.*?)\s*(0, 1|0|Fixed)$")
IMC_ROW = re.compile(r"^(DRAM_[A-Z_]+)\s+BAR\+0x([0-9A-Fa-f]+)\s+(.*)$")


def seeds_dir(argv):
    if "--seeds" in argv:
        return argv[argv.index("--seeds") + 1]
    return os.environ.get("SEEDS_DIR", "/work/shared/seeds")


def join_lines(parts):
    text = ""
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if text.endswith("-"):
            text += p
        else:
            text += (" " if text else "") + p
    return re.sub(r"\s+", " ", text).strip()


def fix_text(s, fixes):
    for bad, good, _why in fixes:
        s = s.replace(bad, good)
    return s


def extract_rows(lines):
    """Rows of Tables 3-1 and 3-2: name, event, umask, description, counters."""
    rows, cur, pending = [], None, None
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if pending is not None:          # a name split over two lines
            line = pending + line
            pending = None
        if re.fullmatch(r"UNC_[A-Z0-9_.]+", line):
            pending = line
            continue
        m = ROW.match(line)
        if m:
            name = m.group(1).replace(" ", "")
            cur = {"spec_name": name, "event": "0x" + m.group(2).lower(),
                   "umask": "0x" + m.group(3).lower(), "desc_lines": [],
                   "line": no}
            rest = m.group(4)
        elif cur is not None:
            rest = line
        else:
            continue
        c = CTRS.match(rest)
        if c:
            cur["desc_lines"].append(c.group(1))
            cur["counters"] = c.group(2)
            rows.append(cur)
            cur = None
        else:
            cur["desc_lines"].append(rest)
    return rows


def extract_imc(lines):
    rows, cur = [], None
    start = next(i for i, l in enumerate(lines) if l.startswith("Table 3-3. IMC Counters"))
    for no, raw in enumerate(lines[start:], start + 1):
        line = raw.rstrip()
        m = IMC_ROW.match(line)
        if m:
            cur = {"spec_name": m.group(1), "offset": "0x" + m.group(2).lower(),
                   "desc_lines": [m.group(3)], "line": no}
            rows.append(cur)
        elif cur is not None:
            if line.startswith("6th Generation") or line.startswith("\u00a7") or not line:
                cur = None
            else:
                cur["desc_lines"].append(line)
    return rows


def build_tables(seed_dir):
    ov = g.load_json(os.path.join(g.DATA, "skl_overrides.json"))
    lines = g.read_text(os.path.join(seed_dir, SEED)).splitlines()
    rows = extract_rows(lines)
    imc = extract_imc(lines)
    fixes = ov["text_fixes"]

    def pmu_of(name):
        for prefix, pmu in ov["pmu_of_prefix"].items():
            if name.startswith(prefix):
                return pmu
        raise SystemExit("gen_skl: no PMU for %s" % name)

    tables = {"cbo": [], "arb": [], "clock": [], "imc": []}
    byname = {}
    for r in rows:
        ev_name, um_name = r["spec_name"].split(".", 1)
        desc = fix_text(join_lines(r["desc_lines"]), fixes)
        # libpfm4 convention: generic counter i is bit i, fixed counter i is bit 32+i
        cntmsk = {"0, 1": 0x3, "0": 0x1, "Fixed": 1 << 32}[r["counters"]]
        ev = byname.get(ev_name)
        if ev is None:
            ev = {"name": ev_name, "desc": ov["event_titles"][ev_name],
                  "code": r["event"], "cntmsk": hex(cntmsk), "modmsk": ATTRS,
                  "flags": [], "umasks": [], "pmu": pmu_of(ev_name)}
            if ev_name in ov["event_code"]:
                ev["code"] = ov["event_code"][ev_name]["code"]
                ev["flags"] = ["INTEL_X86_FIXED"]
                ev["modmsk"] = []
            byname[ev_name] = ev
            tables[ev["pmu"]].append(ev)
        elif int(ev["code"], 0) != int(r["event"], 0):
            raise SystemExit("gen_skl: %s rows disagree on the event code" % ev_name)
        # an event's cntmsk is the union; a narrower umask gets ucntmsk
        ev["cntmsk"] = hex(int(ev["cntmsk"], 0) | cntmsk)
        ucode = int(r["umask"], 0) << 8
        um = {"uname": um_name, "udesc": desc, "ucode": None, "uflags": [],
              "spec": {"name": r["spec_name"], "event": r["event"],
                       "umask": r["umask"], "counters": r["counters"],
                       "line": r["line"]}}
        fixed = ov["event_code"].get(ev_name)
        if fixed:
            ucode = int(fixed["umask"], 0) << 8
        thr = ov["umask_threshold"].get(r["spec_name"])
        if thr:
            ucode |= thr["thr"] << 24
            um["modhw"] = ["_NHM_UNC_ATTR_C"]
        um["ucode"] = hex(ucode)
        um["ucntmsk"] = hex(cntmsk)
        ev["umasks"].append(um)

    for ev in byname.values():
        # combinations listed by the manual are used as they are, one at a time
        if len(ev["umasks"]) == 1:
            ev["umasks"][0]["uflags"] = ["INTEL_X86_NCOMBO", "INTEL_X86_DFL"]
        else:
            for um in ev["umasks"]:
                um["uflags"] = ["INTEL_X86_NCOMBO"]
        if all(u["ucntmsk"] == ev["cntmsk"] for u in ev["umasks"]):
            for u in ev["umasks"]:
                del u["ucntmsk"]

    width = ov["imc_counter_width"]["bits"]
    for idx, r in enumerate(sorted(imc, key=lambda r: int(r["offset"], 0))):
        tables["imc"].append({
            "name": r["spec_name"],
            "desc": fix_text(join_lines(r["desc_lines"]), fixes),
            "code": hex((width << 16) | int(r["offset"], 0)),
            "cntmsk": hex(1 << (32 + idx)), "modmsk": [], "flags": ["INTEL_X86_FIXED"],
            "umasks": [], "pmu": "imc",
            "spec": {"name": r["spec_name"], "offset": r["offset"], "line": r["line"]}})
    return tables


def build(seed_dir):
    tables = build_tables(seed_dir)
    inter = {"_about": "Generated by tools/gen_skl.py from seed %s and data/skl_overrides.json. "
                       "Each umask keeps the manual row it came from ('spec')." % SEED,
             "tables": tables}
    arrays = [{"array": "intel_skl_unc_iu_%s_pe" % k, "prefix": "iu_skl_%s" % k,
               "events": tables[k]} for k in ("cbo", "arb", "clock", "imc")]
    header = g.emit_header(
        "intel_skl_unc_iu_events.h", "__INTEL_SKL_UNC_IU_EVENTS_H__",
        ["Skylake client (6th Generation Intel Core) uncore event tables, libpfm4 format.",
         "Generated by libpfm4-events/tools/gen_skl.py from the 6th Generation Intel Core",
         "Processor Family Uncore Performance Monitoring Reference Manual (334060-001),",
         "Tables 3-1 (CBo), 3-2 (ARB, fixed UCLK counter) and 3-3 (IMC); do not edit.",
         "Encoding conventions: libpfm4-events/README.client.md."],
        arrays)
    return [(os.path.join(g.DATA, "skl_events.json"), g.dump_json(inter)),
            (os.path.join(g.EVENTS, "intel_skl_unc_iu_events.h"), header)]


if __name__ == "__main__":
    sd = seeds_dir(sys.argv[1:])
    sys.exit(g.generator_main(lambda: build(sd)))
