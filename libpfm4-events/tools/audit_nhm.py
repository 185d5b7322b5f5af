#!/usr/bin/env python3
"""Audit of the Nehalem guide-event table against the Performance Analysis Guide
for Intel Core i7 and Xeon 5500 (seed 002).

  A. every legible uncore event row of the guide (name, umask, event, CMASK,
     MSR value), read here with its own simple reader, is compared with
     events/intel_nhm_unc_iu_events.h;
  B. every row of the reviewed transcription (data/nhm_transcription.json, which
     also holds the rows whose name the conversion lost, each with its reason)
     is compared with the header;
  C. every event and unit mask of the header must come from A or B;
  D. the structural validator.
Interface: run(seeds_dir, tables_dir) -> list of (check_name, ok, message)
Standalone: audit_nhm.py [SEEDS_DIR [TABLES_DIR]]  (AUDIT_FLAGS=-v lists passes too)
"""
import os
import re
import sys

import pfmgen as g
import audit_client_common as ac

SEED = "002_c151f55183a36f9a.txt"
HEADER = "intel_nhm_unc_iu_events.h"
ARRAY = "intel_nhm_unc_iu_pe"
EXCEPTIONS = os.path.join(g.DATA, "exceptions_nhm.txt")
HEX2 = re.compile(r"^[0-9A-Fa-f]{2}$")


def spec_rows(text):
    """Rows 'UNC_EVENT.UMASK<tab>...<tab>umask<tab>event...' of the uncore chapter."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if "Uncore Performance Events" in l and l.startswith("#"))
    end = next(i for i, l in enumerate(lines) if l.startswith("### Measuring Bandwidth From the Uncore"))
    cols = {"umask": 2, "event": 3}
    rows, event = [], None
    for no in range(start, end):
        cells = lines[no].split("\t")
        first = cells[0].strip()
        if first in ("Event Name", "Definition"):
            hdr = [c.strip().lower() for c in cells]
            cols = {"umask": 2, "event": 3}
            for key, names in (("umask", ("umask",)), ("event", ("event",)), ("cmask", ("cmask",)),
                               ("msr_value", ("msr value",))):
                for i, h in enumerate(hdr):
                    if h in names:
                        cols[key] = i
            event = None
            continue
        if first.startswith("Table") or first.startswith("#"):
            event = None
            continue
        name = re.sub(r"(?<=[_.])\s+", "", first.replace("\\", "")).split(" ")[0]

        def cell(k):
            i = cols.get(k)
            return cells[i].strip() if i is not None and i < len(cells) else ""
        if HEX2.match(cell("event")):
            event = int(cell("event"), 16)
        if not re.fullmatch(r"UNC_[A-Z0-9_]+(\.[A-Z0-9_]+)+", name) or not HEX2.match(cell("umask")):
            continue
        row = {"name": name, "umask": int(cell("umask"), 16), "event": event, "line": no + 1}
        if cell("cmask"):
            row["cmask"] = int(cell("cmask"))
        if cell("msr_value"):
            row["msr_value"] = int(cell("msr_value"), 16)
        rows.append(row)
    return rows


def lookup(events, guide_name, umask_names=None):
    ev, _, rest = guide_name.partition(".")
    e = events.get(ev)
    if not e:
        return None, []
    names = umask_names or [rest.replace(".", "_")]
    ums = [u for n in names for u in e["umasks"] if u["uname"] == n]
    return e, ums if len(ums) == len(names) else []


def encoding(e, ums):
    ucode = 0
    filt = None
    for u in ums:
        ucode |= u["ucode"]
        if "ufilters[0]" in u:
            filt = (filt or 0) | u["ufilters[0]"]
    return {"event": e["code"], "umask": (ucode >> 8) & 0xff, "cmask": ucode >> 24, "msr_value": filt}


def run(seeds_dir, tables_dir):
    a = ac.Audit("nhm")
    text = g.read_text(os.path.join(seeds_dir, SEED))
    arrays = ac.header_arrays(tables_dir, HEADER)
    a.ok("array:" + ARRAY, ARRAY in arrays, "present" if ARRAY in arrays else "missing from " + HEADER)
    table = arrays.get(ARRAY, [])
    ac.validate_structure(a, ARRAY, table, "evtsel", thr_bits=8)
    events = {e["name"]: e for e in table}
    used = set()

    # A. the guide's legible rows
    tr = g.load_json(os.path.join(g.DATA, "nhm_transcription.json"))
    opcode_rows = {r["guide"]: r["umasks"] for ev in tr["events"] for r in ev.get("rows", [])}
    rows = spec_rows(text)
    a.ok("spec:rows", len(rows) >= 100, "%d legible event rows read from the guide" % len(rows))
    event_diffs = {}
    for r in rows:
        e, ums = lookup(events, r["name"], opcode_rows.get(r["name"]))
        if not ums:
            a.diff(r["name"] + ":missing", "guide row (line %d) not in our table" % r["line"])
            continue
        used.update((e["name"], u["uname"]) for u in ums)
        got = encoding(e, ums)
        if r["event"] != got["event"]:
            event_diffs[e["name"]] = "event code: guide %s, table 0x%02x" % (
                "0x%02x" % r["event"] if r["event"] is not None else "none", got["event"])
        if r["umask"] != got["umask"]:
            a.diff(r["name"] + ":umask", "umask: guide 0x%02x (line %d), table 0x%02x" % (r["umask"], r["line"], got["umask"]))
        if r.get("cmask", 0) != got["cmask"]:
            a.diff(r["name"] + ":cmask", "CMASK: guide %d, table %d" % (r.get("cmask", 0), got["cmask"]))
        if "msr_value" in r and r["msr_value"] != got["msr_value"]:
            a.diff(r["name"] + ":msr_value", "MSR value: guide 0x%x, table %s" % (
                r["msr_value"], "none" if got["msr_value"] is None else "0x%x" % got["msr_value"]))
        a.ok("row:" + r["name"], True, "line %d: compared" % r["line"])
    for ev, msg in event_diffs.items():
        a.diff(ev + ":event", msg)

    # B. the reviewed transcription, every row, against the header
    justified = set()
    for ev in tr["events"]:
        e = events.get(ev["event"])
        a.ok("transcription:%s" % ev["event"], e is not None and e["code"] == g.num(ev["code"]),
             "event 0x%02x" % g.num(ev["code"]) if e else "event missing from the header")
        if not e:
            continue
        for um in ev["umasks"]:
            name = um.get("uname") or um["guide"].split(".", 1)[1].replace(".", "_")
            u = next((x for x in e["umasks"] if x["uname"] == name), None)
            tag = "transcription:%s.%s" % (ev["event"], name)
            if u is None:
                a.ok(tag, False, "unit mask missing from the header")
                continue
            got = encoding(e, [u])
            want_f = g.num(um["msr_value"]) if um.get("msr") not in (None, "0") else None
            ok = (got["umask"] == g.num(um["umask"]) and got["cmask"] == um.get("cmask", 0)
                  and got["msr_value"] == want_f)
            a.ok(tag, ok, "umask 0x%02x cmask %d msr %s" % (got["umask"], got["cmask"], got["msr_value"]))
            if um.get("garbled") or um.get("derived") or ev.get("name_from") or um.get("def_of"):
                justified.add((ev["event"], name))
    for fx in tr["fixed_events"]:
        e = events.get(fx["event"])
        a.ok("transcription:" + fx["event"], e is not None and e["code"] == g.num(fx["code"])
             and e.get("flags", 0) & g.SYMBOLS["INTEL_X86_FIXED"], "fixed counter event")
        justified.add((fx["event"], None))

    # C. nothing in the header that neither the guide's rows nor the transcription explains
    for e in table:
        if not e["umasks"]:
            if (e["name"], None) not in justified:
                a.diff(e["name"] + ":extra", "event without a source")
            continue
        for u in e["umasks"]:
            k = (e["name"], u["uname"])
            if k not in used and k not in justified:
                a.diff("%s.%s:extra" % k, "unit mask neither a legible guide row nor a justified transcription row")
    return a.finish(EXCEPTIONS)


if __name__ == "__main__":
    sys.exit(ac.main(run))
