#!/usr/bin/env python3
"""Westmere uncore table: data/wsm_sdm_table19_20.json -> events/intel_wsm_unc_sdm_events.h

The data file is Intel SDM Vol. 3B Table 19-20 (Westmere uncore, CPUID
06_25H, 06_2CH), one JSON row per table row, read cell by cell from a public
HTML conversion of the manual (its _source says where).  Westmere's uncore
is Nehalem's PMU (SDM 18.8.2 covers both), so the table is written in the
Nehalem table's conventions (libpfm4-events/README.client.md) and with its
user-visible names: where the SDM says UNC_L3_* and UNC_QMC_* our Nehalem
table (from the Performance Analysis Guide) says UNC_LLC_* and UNC_IMC_*;
the mapping is applied here and each umask keeps the SDM mnemonic in its
'spec'.  Events are grouped by event code; an umask's name is the mnemonic
after the event name, dots as underscores (UNC_QMC_WRITES.FULL.ANY ->
UNC_IMC_WRITES:FULL_ANY), the word L3 as LLC (RT_L3_MISS -> RT_LLC_MISS), and
UNC_GQ_DATA, the SDM's name of two events, split as our Nehalem table does
(UNC_GQ_DATA.FROM_QPI -> UNC_GQ_DATA_FROM:QPI).  A row without a unit-mask name (UNC_QHL_TO_QMC_BYPASS)
is an event with one unit mask, DEFAULT, its row's umask value (code is the
8-bit event select: README.client.md).
Left out, with the reason in the header: UNC_ADDR_OPCODE_MATCH (35H), whose
MSR 396H match value the table does not give.
The fixed counter UNC_CLK_UNHALTED is SDM 18.8.2's (MSR_UNCORE_FIXED_CTR0),
as in the Nehalem table.
It also writes events/intel_nhm_cousins.h, the list of the generations on
Nehalem's uncore PMU with a table of their own (NHM_COUSINS below), which the
event registry (src/events/registry_nhm.c) and the libpfm4 glue
(lib/pfmlib_intel_nhm_unc_iu.c) expand: a cousin is a row here, not code there.
    gen_wsm.py [--check]
"""
import os
import re
import sys

import pfmgen as g

DATA = "wsm_sdm_table19_20.json"
# The generations on Nehalem's uncore PMU (SDM Vol. 3B 18.8.2) with a table
# of their own: gen (its platform, src/platform/<gen>/<gen>.c), box (its PMU
# name), table (array, header), CPUID display models of family 6 (the
# libpfm4 PMU's; the platform object has its own), the box's manual and
# description (papi_native_avail), the libpfm4 PMU's title and events.
NHM_COUSINS = [
    {"gen": "wsm", "box": "wsm_unc_sdm", "table": "intel_wsm_unc_sdm_pe",
     "header": "intel_wsm_unc_sdm_events.h", "models": (0x25, 0x2c),
     "manual": "SDM 3B 18.8.2; SDM 3B Table 19-20",
     "desc": "Westmere uncore: GQ, L3, QHL, QPI, IMC, DRAM and PCU events of the socket",
     "pmu_title": "Intel Westmere uncore", "pmu_events": "SDM Table 19-20 events"},
]
MODS = ["_NHM_UNC_ATTR_E", "_NHM_UNC_ATTR_I", "_NHM_UNC_ATTR_C", "_NHM_UNC_ATTR_O"]
# The SDM's names -> our Nehalem table's (guide) names, by prefix.
RENAME = [("UNC_L3_", "UNC_LLC_"), ("UNC_QMC_", "UNC_IMC_")]
LEFT_OUT = {0x35: "its MSR 396H address/opcode match value is not in Table 19-20"}
MSR301 = re.compile(r"Requires writing MSR 301H with mask = ([0-9A-F]+)H\.")


# Event names the SDM gives to two event codes: the umask's first word joins
# the event name (UNC_GQ_DATA.FROM_QPI -> UNC_GQ_DATA_FROM:QPI), as in our
# Nehalem table.
SPLIT = {"UNC_GQ_DATA"}


def ours(name):
    """The SDM mnemonic in our names: (event, umask)."""
    for sdm, our in RENAME:
        if name.startswith(sdm):
            name = our + name[len(sdm):]
    event, _, umask = name.partition(".")
    if event in SPLIT:
        first, _, umask = umask.partition("_")
        event += "_" + first
    # The L3 in a unit mask's name, as our Nehalem table says it (RT_LLC_MISS).
    umask = "_".join("LLC" if w == "L3" else w for w in umask.replace(".", "_").split("_"))
    return event, umask


def build_table(rows):
    events, by_code = [], {}
    for r in rows:
        code = g.num(r["event"])
        if code in LEFT_OUT:
            continue
        umask = g.num(r["umask"])
        mn = r["mnemonic"]
        evname, uname = ours(mn)
        spec = {"sdm": mn, "event": r["event"], "umask": r["umask"], "page": r["page"]}
        if r.get("fix"):
            spec["note"] = r["fix"]
        if not uname:
            if code in by_code:
                sys.exit("gen_wsm: %s has no unit-mask name beside others of event %s" % (mn, r["event"]))
            ev = {"name": evname, "desc": r["description"] + " (SDM Table 19-20)",
                  "code": hex(code), "cntmsk": "0xff", "modmsk": MODS, "flags": [],
                  "umasks": [{"uname": "DEFAULT", "ucode": hex(umask << 8),
                              "udesc": "The SDM's unit mask %s of the event (its row names none)"
                                       % r["umask"],
                              "uflags": ["INTEL_X86_NCOMBO", "INTEL_X86_DFL"], "spec": spec}],
                  "single": True}
            by_code[code] = ev
            events.append(ev)
            continue
        ev = by_code.get(code)
        if ev is None:
            ev = {"name": evname, "desc": "%s (SDM Table 19-20, event %s)" % (evname, r["event"]),
                  "code": hex(code), "cntmsk": "0xff", "modmsk": MODS, "flags": [], "umasks": []}
            by_code[code] = ev
            events.append(ev)
        elif ev.get("single"):
            sys.exit("gen_wsm: event %s mixes a named and an unnamed unit mask" % r["event"])
        if evname != ev["name"]:
            spec["note"] = "the SDM names this row %s; listed under event %s of the same code" % (
                mn, ev["name"])
        flags = []
        single_bit = umask != 0 and umask & (umask - 1) == 0
        um = {"uname": uname, "udesc": r["description"],
              "ucode": hex(umask << 8), "uflags": flags, "spec": spec}
        m = MSR301.search(r.get("comment", ""))
        if m:
            um["ufilters"] = [hex(int(m.group(1), 16))]
        if not single_bit or m:
            flags.append("INTEL_X86_NCOMBO")
        if any(u["uname"] == um["uname"] for u in ev["umasks"]):
            sys.exit("gen_wsm: %s twice in event %s" % (um["uname"], r["event"]))
        ev["umasks"].append(um)
    events.append({"name": "UNC_CLK_UNHALTED",
                   "desc": "Uncore unhalted clock cycles, counted by the uncore's fixed counter "
                           "(SDM 18.8.2, MSR_UNCORE_FIXED_CTR0)",
                   "code": "0xff", "cntmsk": hex(1 << 32), "modmsk": [], "flags": ["INTEL_X86_FIXED"],
                   "umasks": []})
    return events


def build():
    doc = g.load_json(os.path.join(g.DATA, DATA))
    events = build_table(doc["rows"])
    nrows = sum(len(e["umasks"]) for e in events)
    for e in events:
        e.pop("single", None)
    inter = {"_about": "Generated by tools/gen_wsm.py from data/%s (%s)" % (DATA, doc["_source"]),
             "left_out": {"0x%02x" % k: v for k, v in LEFT_OUT.items()},
             "renamed": dict([(a, b) for a, b in RENAME] + [("umask word L3", "LLC")] +
                             [(e + ".<word>_<rest>", e + "_<word>:<rest>") for e in sorted(SPLIT)]),
             "events": events}
    header = g.emit_header(
        "intel_wsm_unc_sdm_events.h", "__INTEL_WSM_UNC_SDM_EVENTS_H__",
        ["Westmere (Core i7 / Xeon 5600) uncore events of Intel SDM Vol. 3B Table 19-20,",
         "libpfm4 format, in the Nehalem table's names (UNC_L3_* as UNC_LLC_*, UNC_QMC_* as",
         "UNC_IMC_*).  Generated by libpfm4-events/tools/gen_wsm.py from",
         "data/%s (%d of its %d rows; left out: event 35H, %s);" % (
             DATA, nrows, len(doc["rows"]), LEFT_OUT[0x35]),
         "do not edit.  Encoding conventions: libpfm4-events/README.client.md."],
        [{"array": "intel_wsm_unc_sdm_pe", "prefix": "iu_wsm", "events": events}])
    return [(os.path.join(g.DATA, "wsm_events.json"), g.dump_json(inter)),
            (os.path.join(g.EVENTS, "intel_wsm_unc_sdm_events.h"), header),
            cousins_header()]


def cousins_header():
    """events/intel_nhm_cousins.h: NHM_COUSINS(X) -> one X(...) per row."""
    lines = ["/*",
             " * The generations on Nehalem's uncore PMU (SDM Vol. 3B 18.8.2) with an event",
             " * table of their own (gen_wsm.py NHM_COUSINS), with their tables:",
             " * NHM_COUSINS(X) expands X(gen, GEN, box, table, models, manual, desc,",
             " * pmu_desc) once per generation; models is a parenthesized list of CPUID",
             " * display models of family 6.  Read by src/events/registry_nhm.c and",
             " * lib/pfmlib_intel_nhm_unc_iu.c.  GENERATED by libpfm4-events/tools/gen_wsm.py:",
             " * do not edit.",
             " */",
             "#ifndef __INTEL_NHM_COUSINS_H__",
             "#define __INTEL_NHM_COUSINS_H__", ""]
    # The same folder in our tree and in libpfm4's lib/events/.
    lines += ['#include "%s"' % c["header"] for c in NHM_COUSINS]
    rows = []
    for c in NHM_COUSINS:
        rows.append("\tX(%s, %s, %s, %s, (%s), \\\n\t  %s, \\\n\t  %s, \\\n\t  %s)" % (
            c["gen"], c["gen"].upper(), g.c_string(c["box"]), c["table"],
            ", ".join("0x%x" % m for m in c["models"]), g.c_string(c["manual"]),
            g.c_string(c["desc"]), g.c_string("%s (%s)" % (c["pmu_title"], c["pmu_events"]))))
    lines += ["", "#define NHM_COUSINS(X) \\\n" + " \\\n".join(rows), "", "#endif", ""]
    return os.path.join(g.EVENTS, "intel_nhm_cousins.h"), "\n".join(lines)


if __name__ == "__main__":
    sys.exit(g.generator_main(build))
