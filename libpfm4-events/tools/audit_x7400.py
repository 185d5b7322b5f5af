#!/usr/bin/env python3
"""Audit of the Xeon 7100/7400 L3 EMON tables (events/intel_x7400_unc_iu_events.h)
against SDM Vol. 3B 18.21: the seeds (003: GSNPQ interface and the tail of the
GBSQ one; 004: the eight MSRs and who counts what), read here with their own
reader, and for the parts the seeds lack the SDM transcription
data/x7400_sdm_supplement.json.  Field by field: every attribute field must be
one unit-mask group covering exactly the documented bits / encodings, with the
documented 'all' value as default; every FSB sub-event must be an event; the
counter masks must match the MSRs of each interface.  Plus the structural
validator.
Interface: run(seeds_dir, tables_dir) -> list of (check_name, ok, message)
Standalone: audit_x7400.py [SEEDS_DIR [TABLES_DIR]]  (AUDIT_FLAGS=-v lists passes too)
"""
import os
import re
import sys

import pfmgen as g
import audit_client_common as ac

SEED_FIELDS = "003_1146a3605315e19a.txt"
SEED_MSRS = "004_6b95ee3fb869b3af.txt"
HEADER = "intel_x7400_unc_iu_events.h"
EXCEPTIONS = os.path.join(g.DATA, "exceptions_x7400.txt")
ARRAYS = {("x7100", "gbsq"): "intel_x7100_unc_iu_gbsq_pe", ("x7400", "gbsq"): "intel_x7400_unc_iu_gbsq_pe",
          ("x7100", "gsnpq"): "intel_x7100_unc_iu_gsnpq_pe", ("x7400", "gsnpq"): "intel_x7400_unc_iu_gsnpq_pe",
          ("both", "fsb"): "intel_x7x00_unc_iu_fsb_pe"}


def fmask(lo, hi):
    return ((1 << (hi - lo + 1)) - 1) << (lo - 32)


def seed_gsnpq(text):
    """GSNPQ fields as section 18.21.3 of the seed states them, per processor."""
    text = text.replace("\u00a0", " ")
    sec = text[text.index("GSNPQ Event Interface"):]
    fields = {}
    heads = list(re.finditer(r"^(\w+):?\s*\(bits?\s+(\d+)(?::(\d+))?\):", sec, flags=re.M))
    for i, m in enumerate(heads):
        body = sec[m.end():heads[i + 1].start() if i + 1 < len(heads) else len(sec)]
        hi = int(m.group(2))
        lo = int(m.group(3)) if m.group(3) else hi
        f = {"lo": lo, "hi": hi, "x7100": {}, "x7400": {}}
        parts = re.split(r"For Intel Xeon processor (7100|7400) series", body)
        common, per = parts[0], {("x" + parts[j]): parts[j + 1] for j in range(1, len(parts), 2)}
        for proc in ("x7100", "x7400"):
            t = re.sub(r"\s+", " ", common + " " + per.get(proc, ""))
            d = f[proc]
            m2 = re.search(r"lowest (\d) bits", t)
            if m2:
                d["bits"] = set(range(32, 32 + int(m2.group(1))))
                d["bits"] |= {int(b) for b in re.findall(r"Bit (\d+) specifies", t)}
            m2 = re.search(r"([0-9A-F]+)H encoding matches", t)
            if m2:
                d["all"] = int(m2.group(1), 16)
            if re.search(r"all (six|three) bits|Each bit|The three bits", t):
                d["bits"] = set(range(lo, hi + 1))
            encs = {int(v, 2) for v in re.findall(r"\u2014\s*([01]{2})B:", per.get(proc, ""))}
            if encs:
                d["values"] = encs
        fields[m.group(1)] = f
    return fields


def seed_msrs(text):
    t = re.sub(r"\s+", " ", text.replace("\u00a0", " "))
    out = {}
    for m in re.finditer(r"(Two|Four) MSRs \(([^)]*)\) are dedicated to counting (GBSQ|GSNPQ|external bus)", t):
        out[{"GBSQ": "gbsq", "GSNPQ": "gsnpq", "external bus": "fsb"}[m.group(3)]] = len(re.findall(r"CTL\d", m.group(2)))
    return out


def spec_model(seeds_dir):
    """{(proc, iface): [field dicts]} from the seeds first, the supplement for the rest."""
    sup = g.load_json(os.path.join(g.DATA, "x7400_sdm_supplement.json"))
    seed = seed_gsnpq(g.read_text(os.path.join(seeds_dir, SEED_FIELDS)))
    model = {}
    for iface in ("gbsq", "gsnpq"):
        for proc in ("x7100", "x7400"):
            fields = []
            for f in sup["interfaces"][iface]["fields"]:
                spec = f.get(proc) or f["both"]
                hi, lo = f["bits"]
                d = {"name": f["name"], "lo": lo, "hi": hi, "kind": spec["kind"], "source": "supplement"}
                if spec["kind"] == "bits":
                    d["bits"] = {int(b) for b in spec["bits"]}
                    d["all"] = g.num(spec["all"])
                else:
                    d["values"] = {int(v) for v in spec["values"]}
                    if f.get("enable_bit") is not None:
                        d["values"].add(0)
                s = seed.get(f["name"]) if iface == "gsnpq" else None
                if s:                       # the seed's own statement wins
                    d["source"] = "seed 003"
                    d["lo"], d["hi"] = s["lo"], s["hi"]
                    sp = s[proc]
                    if "bits" in sp:
                        d["bits"] = sp["bits"]
                    if "all" in sp:
                        d["all"] = sp["all"]
                    if "values" in sp:
                        d["values"] = {v | 4 for v in sp["values"]} | {0} if f.get("enable_bit") else sp["values"]
                fields.append(d)
            model[(proc, iface)] = fields
    fsb = sup["interfaces"]["fsb"]
    model[("both", "fsb")] = [{"name": s["name"], "lo": s["bits"][1], "hi": s["bits"][0],
                               "must": fsb["must_be_one"]} for s in fsb["submask"]]
    return model, seed


def audit_attribute_array(a, tag, events, fields):
    by_name = {f["name"]: f for f in fields}
    cross = by_name.pop("Cross_Snoop", None)
    if cross:
        codes = {e["name"]: e["code"] for e in events}
        a.ok(tag + ":Cross_Snoop", codes.get("GBSQ_TRANSACTIONS") == 0 and
             codes.get("GBSQ_CROSS_SNOOP_TRANSACTIONS") == fmask(cross["lo"], cross["hi"]),
             "selected by the event: GBSQ_TRANSACTIONS (bit 58 clear), GBSQ_CROSS_SNOOP_TRANSACTIONS (set)")
    for e in events:
        groups = {}
        for u in e["umasks"]:
            groups.setdefault(u.get("grpid", 0), []).append(u)
        matched = set()
        for gid, ums in sorted(groups.items()):
            union = 0
            for u in ums:
                union |= u["ucode"]
            f = next((f for f in by_name.values() if union and not union & ~fmask(f["lo"], f["hi"])), None)
            key = "%s:%s:group%d" % (tag, e["name"], gid)
            if not f:
                a.diff(key, "unit-mask group 0x%x lies in no single documented field" % union)
                continue
            matched.add(f["name"])
            key = "%s:%s:%s" % (tag, e["name"], f["name"])
            dfl = [u for u in ums if u.get("uflags", 0) & g.SYMBOLS["INTEL_X86_DFL"]]
            shift = f["lo"] - 32
            if f["kind"] == "bits":
                singles = {u["ucode"].bit_length() + 31 for u in ums
                           if not u.get("uflags", 0) & g.SYMBOLS["INTEL_X86_NCOMBO"] and u["ucode"] & (u["ucode"] - 1) == 0}
                alls = [u["ucode"] >> shift for u in dfl]
                if singles != f["bits"]:
                    a.diff(key + ":bits", "bits %s, documented %s (%s)" % (sorted(singles), sorted(f["bits"]), f["source"]))
                if alls != [f["all"]]:
                    a.diff(key + ":all", "default %s, documented 'all' 0x%x (%s)" % ([hex(x) for x in alls], f["all"], f["source"]))
            else:
                values = {(u["ucode"] >> shift) for u in ums}
                if values != f["values"] | {0}:
                    a.diff(key + ":values", "encodings %s, documented %s (%s)" % (sorted(values), sorted(f["values"]), f["source"]))
                if [u["ucode"] for u in dfl] != [0]:
                    a.diff(key + ":default", "the default is not encoding 0")
            a.ok(key, True, "bits %d:%d compared with the %s" % (f["hi"], f["lo"], f["source"]))
        for name in set(by_name) - matched:
            a.diff("%s:%s:%s:missing" % (tag, e["name"], name), "documented field has no unit-mask group")


def audit_fsb(a, tag, events, subs):
    by_code = {}
    for e in events:
        by_code.setdefault(e["code"], []).append(e)
    must = 1 << (subs[0]["must"] - 32)
    seen = set()
    for s in subs:
        mask = fmask(s["lo"], s["hi"])
        key = "%s:%s" % (tag, s["name"])
        if s["lo"] == s["hi"]:
            evs = by_code.get(must | mask, [])
            if len(evs) != 1 or evs[0]["umasks"]:
                a.diff(key + ":missing", "no plain event with code 0x%x (bit 58 + bit %d)" % (must | mask, s["lo"]))
                continue
            e = evs[0]
        else:
            evs = by_code.get(must, [])
            if len(evs) != 1:
                a.diff(key + ":missing", "no event with code 0x%x for the multi-bit field" % must)
                continue
            e = evs[0]
            union = 0
            for u in e["umasks"]:
                union |= u["ucode"]
            if union != mask:
                a.diff(key + ":bits", "unit masks cover 0x%x, field is 0x%x" % (union, mask))
        if e["name"] != s["name"].upper():
            a.diff(key + ":name", "event named %s" % e["name"])
        seen.add(e["name"])
        a.ok(key, True, "bits %d:%d compared" % (s["hi"], s["lo"]))
    for e in events:
        if e["name"] not in seen:
            a.diff("%s:%s:extra" % (tag, e["name"]), "event not among the documented FSB sub-events")
        if not e["code"] & must:
            a.diff("%s:%s:bit58" % (tag, e["name"]), "bit 58 (must be 1) not set")


def run(seeds_dir, tables_dir):
    a = ac.Audit("x7400")
    arrays = ac.header_arrays(tables_dir, HEADER)
    model, seed = spec_model(seeds_dir)
    a.ok("spec:seed003", set(seed) == {"Agent_Select", "Type_Match", "Snoop_Match", "L2_State",
                                       "Core_Module_Select", "Block_Snoop"},
         "GSNPQ fields read from the seed: %s" % sorted(seed))
    nmsr = seed_msrs(g.read_text(os.path.join(seeds_dir, SEED_MSRS)))
    a.ok("spec:seed004", nmsr == {"gbsq": 2, "gsnpq": 2, "fsb": 4}, "MSRs per interface: %s" % nmsr)
    for (proc, iface), array in ARRAYS.items():
        events = arrays.get(array)
        a.ok("array:" + array, events is not None, "present" if events is not None else "missing from " + HEADER)
        if events is None:
            continue
        ac.validate_structure(a, array, events, "x7400")
        want_cnt = (1 << nmsr.get(iface, 0)) - 1
        for e in events:
            if e["cntmsk"] != want_cnt:
                a.diff("%s:%s:cntmsk" % (array, e["name"]), "cntmsk 0x%x, the interface has %d MSRs"
                       % (e["cntmsk"], nmsr.get(iface, 0)))
        if iface == "fsb":
            audit_fsb(a, array, events, model[(proc, iface)])
        else:
            audit_attribute_array(a, array, events, model[(proc, iface)])
    return a.finish(EXCEPTIONS)


if __name__ == "__main__":
    sys.exit(ac.main(run))
