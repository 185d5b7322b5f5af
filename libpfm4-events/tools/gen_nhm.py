#!/usr/bin/env python3
"""Nehalem uncore tables (guide events): seed 002 -> data/nhm_events.json -> events/intel_nhm_unc_iu_events.h

The seed (Performance Analysis Guide for Intel Core i7 and Xeon 5500) is a
lossy text conversion: names split over lines, definitions shifted by a row,
some name columns lost.  The reviewed transcription data/nhm_transcription.json
holds every row; this script checks each one against the seed text before it
is used:
  - rows whose cells are legible (name, umask, event, CMASK, MSR, MSR value)
    must agree with the transcription, or carry a 'fix' naming the seed value;
  - a row the script cannot read must say why ('garbled' / 'name_from');
  - every definition must be a piece of its table's text.
Any unexplained difference stops the generator.
    gen_nhm.py [--check] [--seeds DIR]
"""
import os
import re
import sys

import pfmgen as g

SEED = "002_c151f55183a36f9a.txt"
MODS = ["_NHM_UNC_ATTR_E", "_NHM_UNC_ATTR_I", "_NHM_UNC_ATTR_C", "_NHM_UNC_ATTR_O"]
HEX2 = re.compile(r"^[0-9A-Fa-f]{2}$")


def norm(s):
    return re.sub(r"\s+", " ", s.replace("\\", "")).strip()


def norm_name(s):
    s = s.replace("\\", "").strip()
    return re.sub(r"(?<=[_.])\s+", "", s)


def region_lines(lines, reg):
    lo, hi = reg[0], reg[1]
    return lines[lo - 1:hi]


def region_text(lines, reg, layout):
    """The table's text without its name column and its code cells, in line order."""
    cells = []
    for l in region_lines(lines, reg):
        for i, c in enumerate(l.split("\t")):
            c = c.strip()
            if not c or i == layout.get("name") or re.fullmatch(r"[0-9A-Fa-f]{1,17}|[0-9A-Za-z]{1,2}\.?", c):
                continue
            cells.append(c)
    return norm(" ".join(cells))


def extract_region(lines, reg, layout):
    """Rows of one table: named rows by name, and the umask / event cells seen."""
    named, umask_cells, event_cells = {}, set(), set()
    event = None
    for no, l in enumerate(region_lines(lines, reg), reg[0]):
        cells = l.split("\t")

        def cell(key):
            i = layout.get(key)
            return cells[i].strip() if i is not None and i < len(cells) else ""
        um, ev = cell("umask"), cell("event")
        if HEX2.match(ev):
            event = ev.lower()
            event_cells.add(event)
        if not HEX2.match(um):
            continue
        umask_cells.add(um.lower())
        if "msr_value" in layout and cell("msr_value"):
            tup = (um.lower(), cell("msr"), int(cell("msr_value"), 16))
            umask_cells.add(tup)
            named.setdefault("_msr_rows", []).append(tup)
        if "name" not in layout:
            continue
        name = norm_name(cell("name")).split(" ")[0]
        if not re.fullmatch(r"UNC_[A-Z0-9_]+(\.[A-Z0-9_]+)+", name):
            continue
        named[name] = {"umask": um.lower(), "event": event, "line": no,
                       "cmask": cell("cmask"), "msr": cell("msr"),
                       "msr_value": cell("msr_value")}
    return named, umask_cells, event_cells


class Checker:
    def __init__(self):
        self.errors = []

    def need(self, cond, msg):
        if not cond:
            self.errors.append(msg)


def hx(v):
    return "%02x" % g.num(v)


def verify(tr, lines):
    """Check the transcription against the seed; return per-row provenance."""
    ck = Checker()
    regions = tr["regions"]
    layouts = tr["column_layouts"]
    cache = {}

    def region(rid):
        if rid not in cache:
            lay = layouts.get(rid, layouts["_default"])
            cache[rid] = (extract_region(lines, regions[rid], lay), region_text(lines, regions[rid], lay))
        return cache[rid]

    for ev in tr["events"]:
        for um in ev["umasks"] + ev.get("rows", []):
            rid = um.get("region", ev["region"])
            (named, ucells, ecells), text = region(rid)
            prov = {"region": rid, "lines": regions[rid][:2]}
            guide = um.get("guide")
            if guide and guide in named:
                row = named[guide]
                prov["seed_line"] = row["line"]
                want_um = hx(um["umask"])
                if row["umask"] != want_um:
                    ck.need(um.get("seed_umask") and hx(um["seed_umask"]) == row["umask"] and um.get("fix"),
                            "%s: seed umask %s (line %d) differs from %s without a 'fix' naming it"
                            % (guide, row["umask"], row["line"], want_um))
                if row["event"] != hx(ev["code"]):
                    ck.need(ev.get("seed_code") and hx(ev["seed_code"]) == row["event"] and ev.get("code_fix"),
                            "%s: seed event %s differs from %s without a 'code_fix'"
                            % (guide, row["event"], hx(ev["code"])))
                if um.get("cmask") is not None:
                    ck.need(row["cmask"] == str(um["cmask"]),
                            "%s: seed CMASK %r differs from %r" % (guide, row["cmask"], um["cmask"]))
                if um.get("msr_value") is not None and row["msr_value"]:
                    seed_v = int(row["msr_value"], 16)
                    if seed_v != g.num(um["msr_value"]):
                        ck.need(um.get("seed_msr_value") and g.num(um["seed_msr_value"]) == seed_v and um.get("fix"),
                                "%s: seed MSR value %s differs without a 'fix'" % (guide, row["msr_value"]))
            elif guide:
                ck.need(um.get("garbled"), "%s: not legible in the seed (%s) and no 'garbled' reason"
                        % (guide, rid))
                ck.need(hx(um["umask"]) in ucells or um.get("fix"),
                        "%s: umask %s appears nowhere in %s" % (guide, hx(um["umask"]), rid))
            else:
                ck.need(ev.get("name_from") or um.get("derived"),
                        "%s.%s: no guide name and no 'name_from'/'derived'" % (ev["event"], um.get("uname")))
                if not um.get("derived"):
                    ck.need(hx(um["umask"]) in ucells or um.get("fix"),
                            "%s.%s: umask %s appears nowhere in %s"
                            % (ev["event"], um["uname"], hx(um["umask"]), rid))
                if um.get("msr") is not None and not um.get("derived"):
                    ck.need((hx(um["umask"]), um["msr"].replace("0x", ""), g.num(um["msr_value"])) in ucells,
                            "%s.%s: no row of %s has umask %s with MSR %s = %s"
                            % (ev["event"], um["uname"], rid, hx(um["umask"]), um["msr"], um["msr_value"]))
            if "uname" in um or guide and "umasks" not in um:
                if "def" in um:
                    drid = um.get("def_region", rid)
                    dtext = region(drid)[1]
                    if not um.get("derived"):
                        found = norm(um["def"]) in dtext
                        if not found and um.get("def_note"):
                            # a torn row: every word must still be in the table
                            found = all(w in dtext.split(" ") for w in norm(um["def"]).split(" "))
                        ck.need(found, "%s: definition %r is not in the text of %s"
                                % (guide or um.get("uname"), um["def"], drid))
                    if "def_region" in um:
                        ck.need(um.get("def_note"), "%s: def_region without def_note" % guide)
            um["_prov"] = prov
        # the event code must be among the seed's event cells of its table
        (named, ucells, ecells), _ = region(ev["region"])
        ck.need(hx(ev["code"]) in ecells or ev.get("code_fix"),
                "%s: event code %s appears nowhere in %s" % (ev["event"], hx(ev["code"]), ev["region"]))
    # a table without names but with MSR columns: its rows, in order, are the transcription's
    for rid, lay in layouts.items():
        if rid.startswith("_") or "msr_value" not in lay or "name" in lay:
            continue
        seed_rows = region(rid)[0][0].get("_msr_rows", [])
        ours = [(hx(um["umask"]), um["msr"].replace("0x", ""), g.num(um["msr_value"]))
                for ev in tr["events"] if ev["region"] == rid for um in ev["umasks"]]
        ck.need(seed_rows == ours, "%s: rows (umask, MSR, value) in order differ from the seed: %s vs %s"
                % (rid, seed_rows, ours))
    for fx in tr["fixed_events"]:
        ck.need(norm(fx["def"]) in region(fx["region"])[1],
                "%s: definition not in %s" % (fx["event"], fx["region"]))
    if ck.errors:
        raise SystemExit("gen_nhm: the transcription does not match the seed:\n  " + "\n  ".join(ck.errors))


def uname_of(um):
    if um.get("uname"):
        return um["uname"]
    return um["guide"].split(".", 1)[1].replace(".", "_")


def build_table(tr):
    by_uname = {}
    events = []
    for ev in tr["events"]:
        groups = ev.get("groups", {})
        out = {"name": ev["event"], "desc": ev["title"], "code": ev["code"],
               "cntmsk": "0xff", "modmsk": MODS, "flags": [], "umasks": []}
        force_filt0 = False
        for um in ev["umasks"]:
            name = uname_of(um)
            by_uname[(ev["event"], name)] = um
            value = g.num(um["umask"])
            ucode = value << 8
            flags, modhw = [], []
            if um.get("cmask") is not None:
                ucode |= um["cmask"] << 24
                modhw = ["_NHM_UNC_ATTR_C"]
            has_msr = um.get("msr") not in (None, "0")
            single_bit = value != 0 and value & (value - 1) == 0
            if not single_bit or modhw or has_msr:
                flags.append("INTEL_X86_NCOMBO")
            if name == "ANY":
                flags.append("INTEL_X86_DFL")
            if um.get("def_of"):
                base = by_uname[(ev["event"], um["def_of"])]["def"]
                n = um["cmask"]
                udesc = "%s, in cycles with at least %d %s (CMASK=%d, guide Table 24)" % (
                    base, n, "entry" if n == 1 else "entries", n)
            else:
                udesc = um.get("udesc", um.get("def"))
            rec = {"uname": name, "udesc": udesc, "ucode": hex(ucode), "uflags": flags,
                   "spec": {"guide": um.get("guide"), "umask": "0x" + hx(um["umask"]),
                            "event": "0x" + hx(ev["code"]), "cmask": um.get("cmask"),
                            "msr": um.get("msr"), "msr_value": um.get("msr_value"),
                            "provenance": um["_prov"],
                            "note": um.get("fix") or um.get("garbled") or um.get("derived")}}
            if modhw:
                rec["modhw"] = modhw
            if has_msr:
                rec["ufilters"] = [hex(g.num(um["msr_value"]))]
                if g.num(um["msr_value"]) == 0:
                    force_filt0 = True
            if groups:
                rec["grpid"] = groups[um["group"]]
            out["umasks"].append(rec)
        if force_filt0:
            out["flags"].append("INTEL_X86_FORCE_FILT0")
        if ev.get("no_autoencode"):
            out["flags"].append("INTEL_X86_NO_AUTOENCODE")
        if ev.get("rows"):
            out["rows"] = [{"guide": r["guide"], "umasks": r["umasks"], "umask": r["umask"],
                            "msr_value": r["msr_value"], "note": r.get("fix")} for r in ev["rows"]]
        events.append(out)
    for fx in tr["fixed_events"]:
        events.append({"name": fx["event"], "desc": fx["title"], "code": fx["code"],
                       "cntmsk": hex(1 << 32), "modmsk": [], "flags": ["INTEL_X86_FIXED"],
                       "umasks": [], "note": fx["name_from"]})
    events.sort(key=lambda e: (g.num(e["code"]), e["name"]))
    return events


def build(seed_dir):
    tr = g.load_json(os.path.join(g.DATA, "nhm_transcription.json"))
    lines = g.read_text(os.path.join(seed_dir, SEED)).splitlines()
    verify(tr, lines)
    events = build_table(tr)
    inter = {"_about": "Generated by tools/gen_nhm.py from seed %s and data/nhm_transcription.json "
                       "(every row checked against the seed; see 'spec' of each umask)." % SEED,
             "events": events}
    header = g.emit_header(
        "intel_nhm_unc_iu_events.h", "__INTEL_NHM_UNC_IU_EVENTS_H__",
        ["Nehalem (Core i7 / Xeon 5500) uncore events of the Performance Analysis Guide,",
         "libpfm4 format.  Generated by libpfm4-events/tools/gen_nhm.py from the guide's",
         "uncore tables (22-38) via data/nhm_transcription.json; do not edit.",
         "Encoding conventions: libpfm4-events/README.client.md."],
        [{"array": "intel_nhm_unc_iu_pe", "prefix": "iu_nhm", "events": events}])
    return [(os.path.join(g.DATA, "nhm_events.json"), g.dump_json(inter)),
            (os.path.join(g.EVENTS, "intel_nhm_unc_iu_events.h"), header)]


def seeds_dir(argv):
    if "--seeds" in argv:
        return argv[argv.index("--seeds") + 1]
    return os.environ.get("SEEDS_DIR", "/work/shared/seeds")


if __name__ == "__main__":
    sd = seeds_dir(sys.argv[1:])
    sys.exit(g.generator_main(lambda: build(sd)))
