#!/usr/bin/env python3
"""Xeon 7100/7400 L3 EMON tables: seeds 003/004 + SDM supplement -> data/x7400_events.json
-> events/intel_x7400_unc_iu_events.h

The seeds hold the GSNPQ interface (SDM 18.21.3), the tail of the GBSQ one and
the MSR overview; data/x7400_sdm_supplement.json holds the rest, transcribed
from the public SDM with section references.  Every field the seeds describe
is read from them by this script and must agree with the supplement.

Representation (README.client.md): one PMU per interface and processor; each
attribute field of the event control field (MSR bits 63:32) is one unit-mask
group; code and ucode are values of the 32-bit control field (bit n of the
MSR is bit n-32 of code/ucode).
    gen_x7400.py [--check] [--seeds DIR]
"""
import os
import re
import sys

import pfmgen as g

SEED_GSNPQ = "003_1146a3605315e19a.txt"
SEED_OVERVIEW = "004_6b95ee3fb869b3af.txt"

# unit-mask names: field -> (prefix, names of single bits or enum values)
BIT_NAMES = {
    ("Agent_Select", "x7100"): {32: "AGENT_CORE0_T0", 33: "AGENT_CORE0_T1", 34: "AGENT_CORE1_T0",
                                35: "AGENT_CORE1_T1", 36: "AGENT_OTHER", 37: "AGENT_CENTRAL"},
    ("Agent_Select", "x7400"): {32: "AGENT_MODULE0", 33: "AGENT_MODULE1", 34: "AGENT_MODULE2",
                                37: "AGENT_CENTRAL"},
    ("Data_Flow", None): {36: "FLOW_DEMAND", 37: "FLOW_PREFETCH"},
    ("Type_Match", None): {38 + i: "TYPE_%d" % i for i in range(6)},
    ("Snoop_Match", None): {44: "SNOOP_CLEAN", 45: "SNOOP_HIT", 46: "SNOOP_HITM"},
    ("L3_State", None): {47 + i: "STATE_%d" % i for i in range(7)},
    ("L2_State", None): {47 + i: "STATE_%d" % i for i in range(7)},
}
ALL_NAMES = {"Agent_Select": "AGENT_ANY", "Data_Flow": "FLOW_ANY", "Type_Match": "TYPE_ANY",
             "Snoop_Match": "SNOOP_ANY", "L3_State": "STATE_ANY", "L2_State": "STATE_ANY"}
ENUM_NAMES = {
    ("gbsq", "Core_Module_Select", "x7100"): {0: "CORE_ANY", 1: "CORE_THIS", 2: "CORE_OTHER", 3: "CORE_BOTH"},
    ("gbsq", "Core_Module_Select", "x7400"): {0: "MODULE_ANY", 1: "MODULE_THIS", 2: "MODULE_OTHER", 3: "MODULE_MULTI"},
    ("gbsq", "Fill_Eviction", None): {0: "FILL_ANY", 1: "FILL", 2: "FILL_NO_EVICT", 3: "FILL_EVICT"},
    ("gsnpq", "Core_Module_Select", "x7100"): {0: "CORE_SEL_OFF", 4: "CORE_ONE", 5: "CORE_THIS_ONLY",
                                              6: "CORE_OTHER_ONLY", 7: "CORE_BOTH"},
    ("gsnpq", "Core_Module_Select", "x7400"): {0: "MODULE_SEL_OFF", 4: "MODULE_ONE", 5: "MODULE_ONE_OR_MORE",
                                              6: "MODULE_TWO_OR_MORE", 7: "MODULE_ALL_THREE"},
    ("gsnpq", "Block_Snoop", None): {0: "BLOCK_ANY", 1: "BLOCKED"},
}
EVENT_TITLES = {
    "GBSQ_TRANSACTIONS": "GBSQ (global bus super queue) transactions matching all selected attributes (SDM 18.21.2)",
    "GBSQ_CROSS_SNOOP_TRANSACTIONS": "GBSQ cross snoop transactions matching all selected attributes: Cross_Snoop (bit 58) set (SDM 18.21.2)",
    "GSNPQ_TRANSACTIONS": "GSNPQ (global snoop queue) transactions matching all selected attributes (SDM 18.21.3)",
}


def seeds_dir(argv):
    if "--seeds" in argv:
        return argv[argv.index("--seeds") + 1]
    return os.environ.get("SEEDS_DIR", "/work/shared/seeds")


def parse_fields(text):
    """Attribute fields and their encodings as the SDM text states them.

    Returns {section: [ {name, bits, enc: {proc or None: {value: text}}} ]},
    section 'gbsq_tail' before the GSNPQ heading, 'gsnpq' after it.
    """
    text = text.replace("\u00a0", " ")
    out = {"gbsq_tail": [], "gsnpq": []}
    section, cur, proc = "gbsq_tail", None, None
    field = re.compile(r"^(\w+):?\s*\(bits?\s+(\d+)(?::(\d+))?\):\s*(.*)$")
    enc = re.compile(r"^\u2014\s*([01]{1,2})B:\s*(.*?)\s*$")
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip()
        if re.match(r"^18\.21\.3\s+GSNPQ Event Interface", line):
            section, cur, proc = "gsnpq", None, None
            continue
        m = field.match(line)
        if m:
            hi = int(m.group(2))
            lo = int(m.group(3)) if m.group(3) else hi
            cur = {"name": m.group(1), "bits": [hi, lo], "text": m.group(4), "enc": {}}
            out[section].append(cur)
            proc = None
            continue
        m = re.search(r"For Intel Xeon processor (7100|7400) series", line)
        if m:
            proc = "x" + m.group(1)
        m = enc.match(line)
        if m:
            text_enc = m.group(2)
            # an encoding continued on the next line(s), up to a blank line
            j = i + 1
            while j < len(lines):
                nxt = lines[j].strip()
                if not nxt and not text_enc.endswith(".") and j + 1 < len(lines) \
                        and lines[j + 1].strip()[:1].islower():
                    j += 1          # a sentence cut by a page break
                    continue
                if not nxt or enc.match(nxt) or field.match(nxt) or nxt.startswith("For "):
                    break
                text_enc += " " + nxt
                j += 1
            if cur is None:      # the GBSQ Core_Module_Select of the 7400, cut by the excerpt
                cur = {"name": "(cut)", "bits": None, "text": "", "enc": {}}
                out[section].append(cur)
                proc = "x7400"
            cur["enc"].setdefault(proc, {})[int(m.group(1), 2)] = text_enc.rstrip(". ")
    return out


def parse_overview(text):
    """MSR roles and RDPMC indices of seed 004 (SDM documentation changes 30.14.1)."""
    t = re.sub(r"\s+", " ", text.replace("\u00a0", " "))
    roles = {}
    for m in re.finditer(r"(Two|Four) MSRs \(([^)]*)\) are dedicated to counting (GBSQ|GSNPQ|external bus)", t):
        msrs = re.findall(r"MSR_EMON_L3_CTR_CTL\d", m.group(2))
        roles[{"GBSQ": "gbsq", "GSNPQ": "gsnpq", "external bus": "fsb"}[m.group(3)]] = msrs
    rdpmc = {}
    m = re.search(r"7100 series, the uncore performance counters can be accessed using RDPMC instruction with the index starting from (\d+) through (\d+)", t)
    if m:
        rdpmc["x7100"] = [int(m.group(1)), int(m.group(2))]
    m = re.search(r"7400 series, RDPMC with ECX between (\d+) and (\d+)", t)
    if m:
        rdpmc["x7400"] = [int(m.group(1)), int(m.group(2))]
    m = re.search(r"addresses (107CC) through (107D3)", t)
    addresses = [m.group(1), m.group(2)] if m else None
    return {"roles": roles, "rdpmc": rdpmc, "addresses": addresses}


def norm(s):
    return re.sub(r"\s+", " ", s).strip().lower()


def similar(ours, seed):
    """Most words of our transcription are in the seed's sentence (same statement)."""
    def stems(t):
        return [w.rstrip("s") for w in re.findall(r"[a-z0-9-]+", t.lower()) if len(w) > 2]
    words = stems(ours)
    seedw = set(stems(seed))
    return words and sum(w in seedw for w in words) >= 0.7 * len(words)


def seed_words(txt):
    txt = re.sub(r"\s+", " ", txt).strip()
    return re.sub(r"^Match\s+", "", txt)


def verify(sup, seed003, seed004):
    errors = []
    parsed = parse_fields(seed003)
    sfields = {f["name"]: f for f in sup["interfaces"]["gsnpq"]["fields"]}
    for f in parsed["gsnpq"]:
        s = sfields.get(f["name"])
        if not s:
            errors.append("GSNPQ field %s of the seed is not in the supplement" % f["name"])
            continue
        if f["bits"] != s["bits"]:
            errors.append("GSNPQ %s: seed bits %s, supplement %s" % (f["name"], f["bits"], s["bits"]))
        for proc, encs in f["enc"].items():
            spec = s.get(proc) or s.get("both")
            for v, txt in encs.items():
                sv = str(v | 4) if s.get("enable_bit") else str(v)
                if spec["kind"] != "enum" or sv not in spec["values"] or \
                        not similar(spec["values"][sv], txt):
                    errors.append("GSNPQ %s %s %s: seed says %r, supplement %r"
                                  % (f["name"], proc, v, txt, spec.get("values", {}).get(sv)))
                else:
                    spec["values"][sv] = seed_words(txt)    # the seed's own words win
    missing = set(sfields) - {f["name"] for f in parsed["gsnpq"]}
    if missing:
        errors.append("GSNPQ fields in the supplement but not in the seed: %s" % sorted(missing))
    gfields = {f["name"]: f for f in sup["interfaces"]["gbsq"]["fields"]}
    for f in parsed["gbsq_tail"]:
        if f["name"] == "(cut)":
            s = gfields["Core_Module_Select"]
        else:
            s = gfields.get(f["name"])
            if not s or s["bits"] != f["bits"]:
                errors.append("GBSQ %s: seed bits %s, supplement %s" % (f["name"], f["bits"], s and s["bits"]))
                continue
        for proc, encs in f["enc"].items():
            spec = s.get(proc) or s.get("both")
            for v, txt in encs.items():
                if str(v) not in spec["values"] or not similar(spec["values"][str(v)], txt):
                    errors.append("GBSQ %s %s %s: seed says %r, supplement %r"
                                  % (s["name"], proc, v, txt, spec["values"].get(str(v))))
                else:
                    spec["values"][str(v)] = seed_words(txt)
    ov = parse_overview(seed004)
    for iface, msrs in ov["roles"].items():
        if msrs != sup["interfaces"][iface]["msrs"]:
            errors.append("%s MSRs: seed %s, supplement %s" % (iface, msrs, sup["interfaces"][iface]["msrs"]))
    if set(ov["roles"]) != {"gbsq", "gsnpq", "fsb"} or set(ov["rdpmc"]) != {"x7100", "x7400"}:
        errors.append("seed 004: could not read the MSR roles / RDPMC indices: %s" % ov)
    if errors:
        raise SystemExit("gen_x7400: seeds and supplement disagree:\n  " + "\n  ".join(errors))
    return parsed, ov


def field_umasks(iface, f, proc, grpid, seed_text):
    """Unit masks of one attribute field for one processor."""
    spec = f.get(proc) or f["both"]
    key = proc if f.get(proc) else None
    hi, lo = f["bits"]
    ums = []
    src = "SDM %s, %s" % ("18.21.3" if iface == "gsnpq" else "18.21.2", f["name"])
    if spec["kind"] == "bits":
        names = BIT_NAMES[(f["name"], key)]
        for bit, what in sorted(spec["bits"].items(), key=lambda kv: int(kv[0])):
            ums.append({"uname": names[int(bit)], "udesc": "%s: %s" % (f["name"], what),
                        "ucode": hex(1 << (int(bit) - 32)), "uflags": [], "grpid": grpid,
                        "spec": {"field": f["name"], "bits": f["bits"], "bit": int(bit), "source": src}})
        ums.append({"uname": ALL_NAMES[f["name"]],
                    "udesc": "%s: %s (%s)" % (f["name"], spec["all_says"], spec["all"]),
                    "ucode": hex(g.num(spec["all"]) << (lo - 32)),
                    "uflags": ["INTEL_X86_NCOMBO", "INTEL_X86_DFL"], "grpid": grpid,
                    "spec": {"field": f["name"], "bits": f["bits"], "value": spec["all"], "source": src}})
    else:
        names = ENUM_NAMES[(iface, f["name"], key)]
        values = dict(spec["values"])
        if f.get("enable_bit") is not None:
            values = {"0": spec["off"], **values}
        for v, what in sorted(values.items(), key=lambda kv: int(kv[0])):
            v = int(v)
            flags = ["INTEL_X86_NCOMBO"] + (["INTEL_X86_DFL"] if v == 0 else [])
            ums.append({"uname": names[v], "udesc": "%s = %d: %s" % (f["name"], v, what),
                        "ucode": hex(v << (lo - 32)), "uflags": flags, "grpid": grpid,
                        "spec": {"field": f["name"], "bits": f["bits"], "value": v, "source": src}})
    return ums


def attribute_event(name, code, iface, fields, proc, skip=()):
    ums, grp = [], 0
    for f in fields:
        if f["name"] in skip:
            continue
        ums += field_umasks(iface, f, proc, grp, None)
        grp += 1
    return {"name": name, "desc": EVENT_TITLES[name], "code": hex(code), "cntmsk": "0x3",
            "modmsk": [], "flags": [], "umasks": ums}


def build_tables(sup):
    gb = sup["interfaces"]["gbsq"]["fields"]
    gs = sup["interfaces"]["gsnpq"]["fields"]
    cross = next(f for f in gb if f["name"] == "Cross_Snoop")
    cross_bit = 1 << (cross["bits"][0] - 32)
    tables = {}
    for proc in ("x7100", "x7400"):
        tables["%s_gbsq" % proc] = [
            # eight attributes do not fit libpfm4's seven unit-mask groups:
            # Cross_Snoop is chosen by the event instead
            attribute_event("GBSQ_TRANSACTIONS", 0, "gbsq", gb, proc, skip=("Cross_Snoop",)),
            attribute_event("GBSQ_CROSS_SNOOP_TRANSACTIONS", cross_bit, "gbsq", gb, proc, skip=("Cross_Snoop",)),
        ]
        tables["%s_gsnpq" % proc] = [attribute_event("GSNPQ_TRANSACTIONS", 0, "gsnpq", gs, proc)]
    fsb = sup["interfaces"]["fsb"]
    must = 1 << (fsb["must_be_one"] - 32)
    events = []
    for sub in fsb["submask"]:
        hi, lo = sub["bits"]
        ev = {"name": sub["name"].upper(), "desc": "FSB sub-event %s (bits %d:%d): %s (SDM 18.21.4.1)"
              % (sub["name"], hi, lo, sub["what"]), "cntmsk": "0xf", "modmsk": [], "flags": [],
              "umasks": [], "spec": {"field": sub["name"], "bits": sub["bits"], "source": "SDM 18.21.4.1"}}
        if hi == lo:
            ev["code"] = hex(must | 1 << (lo - 32))
        else:
            # the multi-bit type field: one unit mask per bit, all six by default
            ev["code"] = hex(must)
            for b in range(lo, hi + 1):
                ev["umasks"].append({"uname": "TYPE_%d" % (b - lo), "uflags": [],
                                     "udesc": "%s bit %d (transaction type not documented in the SDM)" % (sub["name"], b - lo),
                                     "ucode": hex(1 << (b - 32)),
                                     "spec": {"field": sub["name"], "bits": sub["bits"], "bit": b, "source": "SDM 18.21.4.1"}})
            ev["umasks"].append({"uname": "TYPE_ANY", "udesc": "%s: all six transaction type bits" % sub["name"],
                                 "ucode": hex(((1 << (hi - lo + 1)) - 1) << (lo - 32)),
                                 "uflags": ["INTEL_X86_NCOMBO", "INTEL_X86_DFL"],
                                 "spec": {"field": sub["name"], "bits": sub["bits"], "value": "0x3f", "source": "SDM 18.21.4.1"}})
        events.append(ev)
    tables["fsb"] = events
    return tables


def build(seed_dir):
    sup = g.load_json(os.path.join(g.DATA, "x7400_sdm_supplement.json"))
    parsed, ov = verify(sup, g.read_text(os.path.join(seed_dir, SEED_GSNPQ)),
                        g.read_text(os.path.join(seed_dir, SEED_OVERVIEW)))
    tables = build_tables(sup)
    inter = {"_about": "Generated by tools/gen_x7400.py from seeds %s, %s and data/x7400_sdm_supplement.json."
                       % (SEED_GSNPQ, SEED_OVERVIEW),
             "seed_fields": parsed, "seed_overview": ov, "tables": tables}
    arrays = [{"array": "intel_%s_unc_iu_%s_pe" % tuple(k.split("_")), "prefix": "iu_%s" % k,
               "events": tables[k]}
              for k in ("x7100_gbsq", "x7400_gbsq", "x7100_gsnpq", "x7400_gsnpq")]
    arrays.append({"array": "intel_x7x00_unc_iu_fsb_pe", "prefix": "iu_x7x00_fsb", "events": tables["fsb"]})
    header = g.emit_header(
        "intel_x7400_unc_iu_events.h", "__INTEL_X7400_UNC_IU_EVENTS_H__",
        ["Xeon 7100 / 7400 L3 and caching bus controller (EMON) event tables, libpfm4 format.",
         "Generated by libpfm4-events/tools/gen_x7400.py from the SDM Vol. 3B 18.21 text",
         "(seeds 003, 004 and data/x7400_sdm_supplement.json); do not edit.",
         "code and ucode are values of the event control field, MSR bits 63:32 (bit n of",
         "the MSR is bit n-32 here); see libpfm4-events/README.client.md."],
        arrays)
    return [(os.path.join(g.DATA, "x7400_events.json"), g.dump_json(inter)),
            (os.path.join(g.EVENTS, "intel_x7400_unc_iu_events.h"), header)]


if __name__ == "__main__":
    sd = seeds_dir(sys.argv[1:])
    sys.exit(g.generator_main(lambda: build(sd)))
