#!/usr/bin/env python3
"""Generate the Haswell-EP uncore event tables (libpfm4 format) from the manual.

  gen_hswep.py [--seeds DIR] [--out DIR]      extract + emit (writes files)
  gen_hswep.py --check [--seeds DIR]          regenerate in memory, compare with
                                              the committed files, exit 1 on any
                                              difference

Step 1 (extract): the manual's per-box event lists (hswep_manual.py) plus the
reviewed hand decisions (data/hswep-decisions.txt) become
data/hswep_<box>.json: what the manual says, in numbers.
Step 2 (emit): each JSON file plus the encoding conventions of this file
(README "Conventions") becomes events/intel_hswep_unc_<box>_events.h.
Standard library only.
"""

import argparse
import json
import os
import re
import sys

import hswep_manual as hm

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)                      # libpfm4-events/
SEED = "000_e75f66526956f957.txt"
DOC = "Intel Xeon Processor E5 and E7 v3 Family Uncore Performance Monitoring Reference Manual (331051-002, June 2015)"

# Per box: libpfm4 event-name prefix, table (array) name the upstream glue
# expects, header file, counters, libpfm4 PMU names and Linux perf PMU names.
BOXES = {
    "ubo": dict(prefix="UNC_U_", letter="u", file="ubo", nctr=2, section="2.2",
                pmus="hswep_unc_ubo", perf="uncore_ubox"),
    "cbo": dict(prefix="UNC_C_", letter="c", file="cbo", nctr=4, section="2.3",
                pmus="hswep_unc_cbo0..17", perf="uncore_cbox_0..17"),
    "sbo": dict(prefix="UNC_S_", letter="s", file="sbo", nctr=4, section="2.4",
                pmus="hswep_unc_sbo0..3", perf="uncore_sbox_0..3"),
    "ha": dict(prefix="UNC_H_", letter="h", file="ha", nctr=4, section="2.5",
               pmus="hswep_unc_ha0..1", perf="uncore_ha_0..1"),
    "imc": dict(prefix="UNC_M_", letter="m", file="imc", nctr=4, section="2.6",
                pmus="hswep_unc_imc0..7", perf="uncore_imc_0..7"),
    "irp": dict(prefix="UNC_I_", letter="i", file="irp", nctr=4, section="2.7",
                pmus="hswep_unc_irp", perf="uncore_irp"),
    "pcu": dict(prefix="UNC_P_", letter="p", file="pcu", nctr=4, section="2.8",
                pmus="hswep_unc_pcu", perf="uncore_pcu"),
    "qpi": dict(prefix="UNC_Q_", letter="q", file="qpi", nctr=4, section="2.9",
                pmus="hswep_unc_qpi0..1", perf="uncore_qpi_0..2"),
    "r2pcie": dict(prefix="UNC_R2_", letter="r2", file="r2pcie", nctr=4, section="2.10",
                   pmus="hswep_unc_r2pcie", perf="uncore_r2pcie"),
    "r3qpi": dict(prefix="UNC_R3_", letter="r3", file="r3qpi", nctr=3, section="2.11",
                  pmus="hswep_unc_r3qpi0..2", perf="uncore_r3qpi_0..2"),
}

# Modifiers per box, matching each control register (chapter 2 tables):
# thresh is 5 bits in U_MSR_PMON_CTL (Table 2-7) and PCU_MSR_PMON_CTL
# (Table 2-158), 8 bits elsewhere; every box has invert (bit 23) and edge
# (bit 18); the CBo control register has tid_en (Table 2-16), set by the tf/cf
# modifiers together with FILTER0.tid (Table 2-18).
MODS = {
    "ubo": ["E", "I", "T5"],
    "cbo": ["E", "I", "T8", "TF", "CF1"],
    "pcu": ["E", "I", "T5"],
}
MODS_DEFAULT = ["E", "I", "T8"]

# Reading of garbled ".. umask names: the conversion turned the digit 0 into
# the letter O after these stems (COREO_TRANSITION_CYCLES, SBOO_..., RANKO,
# BANDO, MISCO, QPIO_, VNO_, COUNTERO_, PKG_RESIDENCY_CO_) and the letter O
# into a zero in CB04..CB09 (Tables 2-234, 2-235: CBO4..CBO9).
O_STEMS = ("CORE", "SBO", "RANK", "BAND", "MISC", "QPI", "VN", "COUNTER", "C")


def repair_name(name):
    toks = name.split("_")
    out = []
    for t in toks:
        for stem in O_STEMS:
            if t.upper() == stem + "O":
                t = t[:-1] + "0"
                break
        t = re.sub(r"^CB0(\d)$", r"CBO\1", t)
        out.append(t)
    return "_".join(out)


def read_bits(bits):
    """A 'bxxxxx1xx' string: the manual's convention is 8 positions for umask
    [15:8], '1' = set, '0' = must be clear, 'x' = don't care.  Strings of 7
    or 9 positions (conversion damage) are read right-aligned, which is how
    every such string in this manual reads consistently with its siblings;
    the exceptions are decided in data/hswep-decisions.txt."""
    b = bits[1:].lower().replace("×", "x")
    note = None
    if len(b) < 8:
        note = "garbled (%d positions), read right-aligned" % len(b)
        b = "x" * (8 - len(b)) + b
    elif len(b) > 8:
        note = "garbled (%d positions), read right-aligned" % len(b)
        b = b[-8:]
    value = 0
    for i, c in enumerate(reversed(b)):
        if c == "1":
            value |= 1 << i
    # A single '1' among don't-cares is a bit that combines with its
    # siblings; any fully specified value (zeros present, or several ones) is
    # an exact encoding that cannot be ORed with others.
    combinable = "0" not in b and b.count("1") == 1
    return value, combinable, note


def parse_restrict(r):
    r = r.strip()
    m = re.fullmatch(r"(\d+)-(\d+)", r)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        return sum(1 << i for i in range(lo, hi + 1))
    if re.fullmatch(r"\d+", r):
        return 1 << int(r)
    raise ValueError("register restriction not understood: %r" % r)


def ascii_text(s):
    s = s.replace("®", "").replace("™", "").replace("’", "'").replace("‘", "'")
    s = s.replace("“", '"').replace("”", '"').replace("–", "-").replace("—", "-")
    s = s.replace("\u00a0", " ")
    s = s.encode("ascii", "replace").decode("ascii")
    return re.sub(r"\s+", " ", s).strip()


# --------------------------------------------------------------------------
# Hand decisions: data/hswep-decisions.txt
#   <box> <EVENT>[:<UMASK>] <action> [args] | <reason> | <manual reference>
# actions: value <hex>          set a umask value
#          filterdep <text|->   replace a umask's Filter Dep cell
#          desc <text>          replace a garbled description
#          copy-umasks <EVENT>  umask table missing/truncated: same as EVENT
#          add-event <code> <ext> <restrict> <title...>
#          cntmsk <hex>         counter mask differing from the event list

def read_decisions(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not parts[1] or not parts[2]:
                raise SystemExit("%s:%d: need '<decision> | <reason> | <manual ref>'" % (path, n))
            words = parts[0].split(None, 3)
            if len(words) < 3:
                raise SystemExit("%s:%d: need '<box> <EVENT>[:<UMASK>] <action> [args]'" % (path, n))
            box, target, action = words[0], words[1], words[2]
            arg = words[3] if len(words) > 3 else ""
            ev, _, um = target.partition(":")
            out.append(dict(box=box, event=ev, umask=um or None, action=action, arg=arg,
                            reason=parts[1], ref=parts[2], line=n, used=False))
    return out


# --------------------------------------------------------------------------
# Step 1: extract

def event_record(box, raw, summary):
    f = raw["fields"]
    name = repair_name(hm.name_key(raw["heading"]).replace(" ", "_"))
    # Keep the manual's mixed case (RxR_, TxL_) for the intermediate file.
    mixed = repair_name(hm.clean_name(raw["heading"]).replace(" ", "_"))
    if mixed.upper() == name:
        name = mixed
    code_m = re.match(r"(0x[0-9a-fA-F]+)", f.get("code", ""))
    if not code_m:
        raise SystemExit("%s %s: no event code (line %d)" % (box, name, raw["line"]))
    ext = 1 if f.get("ext", "").strip().upper().startswith("Y") else 0
    rec = dict(
        name=name,
        title=ascii_text(f.get("title", "")),
        category=ascii_text(f.get("category", "")),
        code=int(code_m.group(1), 16),
        ext=ext,
        maxinc=f.get("maxinc", "").strip(),
        restrict=f.get("restrict", "").strip(),
        cntmsk=parse_restrict(f.get("restrict", "")),
        filterdep=ascii_text(f.get("filterdep", "")),
        definition=ascii_text(f.get("definition", "")),
        notes=[ascii_text(n) for n in f.get("notes", [])],
        line=raw["line"],
        tables=[t["table"] for t in raw["tables"]],
        umasks=[],
        decisions=[],
    )
    seen = {}
    for t in raw["tables"]:
        for (uname, bits, fdep, desc, line) in t["rows"]:
            # A space right after an underscore is the PDF's line break
            # inside a name ("FAILURE_CREDITS_RBT_ MISS", Table 2-180), not a
            # separator: users and other tools write FAILURE_CREDITS_RBT_MISS.
            uname = repair_name(re.sub(r"_ +", "_", uname).upper().replace(" ", "_"))
            value, comb, note = read_bits(bits)
            u = dict(name=uname, bits=bits, value=value, combinable=comb,
                     filterdep=ascii_text(fdep), desc=ascii_text(desc),
                     table=t["table"], line=line)
            if note:
                u["bits_note"] = note
            if uname in seen:
                prev = seen[uname]
                if prev["value"] != value:
                    raise SystemExit("%s %s:%s: two rows with different values (lines %d, %d)"
                                     % (box, name, uname, prev["line"], line))
                continue
            seen[uname] = u
            rec["umasks"].append(u)
    key = name.upper()
    srec = summary.get(key) or summary.get(key.replace("0", "O"))
    if srec is None:
        for k, v in summary.items():
            if repair_name(k) == key:
                srec = v
    rec["summary"] = None
    if srec:
        s = [x for x in srec if x["code"] == rec["code"] and x["ext"] == rec["ext"]] or srec
        rec["summary"] = dict(code=s[0]["code"], ctrs=s[0]["ctrs"], ext=s[0]["ext"],
                              line=s[0]["line"])
    return rec


def apply_decisions(box, events, decisions):
    byname = {e["name"].upper(): e for e in events}
    for d in decisions:
        if d["box"] != box:
            continue
        evname = d["event"].upper()
        if evname == "*" and d["action"] == "cntmsk":
            # A box-wide counter statement (e.g. 2.7.1 for the IRP).
            for ev in events:
                ev["cntmsk"] = int(d["arg"], 16)
                ev["decisions"].append(dict(action="cntmsk", arg=d["arg"], umask=None,
                                            reason=d["reason"], ref=d["ref"]))
            d["used"] = True
            continue
        if d["action"] == "add-event":
            a = d["arg"].split(None, 3)
            ev = dict(name=d["event"], title=a[3] if len(a) > 3 else "", category="",
                      code=int(a[0], 16), ext=int(a[1]), maxinc="", restrict=a[2],
                      cntmsk=parse_restrict(a[2]), filterdep="", definition="", notes=[],
                      line=0, tables=[], umasks=[], decisions=[], summary=None)
            events.append(ev)
            byname[evname] = ev
            ev["decisions"].append(dict(action="add-event", reason=d["reason"], ref=d["ref"]))
            d["used"] = True
            continue
        ev = byname.get(evname)
        if ev is None:
            raise SystemExit("decisions line %d: no event %s in box %s" % (d["line"], d["event"], box))
        note = dict(action=d["action"], arg=d["arg"], umask=d["umask"], reason=d["reason"], ref=d["ref"])
        if d["action"] == "copy-umasks":
            src = byname.get(d["arg"].upper())
            if src is None:
                raise SystemExit("decisions line %d: no source event %s" % (d["line"], d["arg"]))
            have = {u["name"] for u in ev["umasks"]}
            for u in src["umasks"]:
                if u["name"] not in have:
                    c = dict(u)
                    c["copied_from"] = src["name"]
                    ev["umasks"].append(c)
        elif d["action"] == "cntmsk":
            ev["cntmsk"] = int(d["arg"], 16)
        elif d["umask"]:
            um = [u for u in ev["umasks"] if u["name"] == d["umask"].upper()]
            if not um:
                raise SystemExit("decisions line %d: no umask %s:%s" % (d["line"], d["event"], d["umask"]))
            u = um[0]
            if d["action"] == "value":
                u["value"] = int(d["arg"], 16)
            elif d["action"] == "filterdep":
                u["filterdep"] = "" if d["arg"] == "-" else d["arg"]
            elif d["action"] == "desc":
                u["desc"] = "" if d["arg"] == "-" else d["arg"]
            else:
                raise SystemExit("decisions line %d: unknown action %s" % (d["line"], d["action"]))
            u.setdefault("decisions", []).append(note)
            d["used"] = True
            continue
        else:
            raise SystemExit("decisions line %d: unknown action %s" % (d["line"], d["action"]))
        ev["decisions"].append(note)
        d["used"] = True


def extract(seed_path, decisions):
    lines = hm.load(seed_path)
    data = {}
    for box in BOXES:
        raw, summary, (s, e) = hm.read_box(lines, box)
        events = [event_record(box, r, summary) for r in raw]
        apply_decisions(box, events, decisions)
        events.sort(key=lambda x: x["name"].upper())
        data[box] = dict(box=box, section=BOXES[box]["section"], lines=[s, e],
                         source=SEED, events=events)
    data["_ref"] = dict(
        idi_opcodes=[dict(value=v, name=n, desc=ascii_text(d), line=l) for v, n, d, l in hm.idi_opcodes(lines)],
        ha_classes=hm.ha_opcode_classes(lines),
        msg_classes=[dict(code=c, name=n, desc=ascii_text(d), line=l) for c, n, d, l in hm.msg_classes(lines)],
        not_on_v3=sorted(hm.not_on_v3(lines)),
        opcodes=[dict(name=re.sub(r"PtI$", "Ptl", n), opc=o, cls=c, desc=ascii_text(d), line=l)
                 for n, o, c, d, l in hm.qpi_opcodes(lines)],
        qpi_derived=[dict(name=n, match=m, mask=k, desc=ascii_text(d), line=l)
                     for n, m, k, d, l in hm.qpi_derived(lines)],
    )
    unused = [d for d in decisions if not d["used"]]
    if unused:
        raise SystemExit("decisions not applied (stale?): lines %s" % [d["line"] for d in unused])
    return data


# --------------------------------------------------------------------------
# Step 2: emit

def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mods_expr(names):
    return " | ".join("_SNBEP_UNC_ATTR_" + n for n in names)


def flags_expr(names):
    return " | ".join("INTEL_X86_" + n for n in names) if names else None


def event_desc(ev):
    parts = []
    if ev["title"]:
        parts.append(ev["title"].rstrip("."))
    if ev["definition"]:
        parts.append(ev["definition"])
    for n in ev["notes"]:
        if n:
            parts.append("Note: " + n)
    if not parts:
        parts.append("%s (%s)" % (ev["name"], ev["category"] or "no title in the manual"))
    return ". ".join(p.rstrip(". ") for p in parts) + "."


def umask_desc(ev, u):
    d = u["desc"]
    if not d:
        d = "%s: %s" % (ev["title"] or ev["name"], u["name"])
    return d


def fdep_needs(u, what):
    fd = u.get("filterdep", "")
    if what == "opc":
        return "28:20" in fd or "HA_Opcode" in fd.replace(" ", "")
    if what == "nid":
        return bool(re.search(r"CBoFilter1\[\s*(15:0|17:10)\]", fd))
    if what == "addr":
        return "HA_AddrMa" in fd
    return False


class Umask:
    def __init__(self, name, desc, ucode=0, grpid=0, flags=(), ufilters=(0, 0), modreq=()):
        self.name, self.desc, self.ucode, self.grpid = name, desc, ucode, grpid
        self.flags, self.ufilters, self.modreq = list(flags), list(ufilters), list(modreq)


def build_umasks(box, ev, ref):
    """Unit masks of one event in libpfm4 terms: group 0 holds the manual's
    unit masks; filter values (CBo state/opcode, HA opcode, QPI match/mask)
    are further groups of value-only entries, as libpfm4 does."""
    out = []
    groups = 1
    name = ev["name"].upper()
    evumasks = ev["umasks"]
    qualifiers = [u for u in evumasks if "Qualify one of the other subevents" in u["desc"]
                  and not u["combinable"]]
    has_opc_group = box == "cbo" and name in ("TOR_INSERTS", "TOR_OCCUPANCY") or \
        box == "ha" and name == "ADDR_OPC_MATCH"
    # A note such as 'IRQ_REJECTED should not be Ored with the other umasks'
    # (2.3.6 RxR_INSERTS) makes that unit mask exclusive.
    alone = set()
    for m in re.finditer(r"(\w+) should not be Ored with the other umasks",
                         " ".join([ev["definition"]] + ev["notes"]), re.I):
        cands = [u["name"] for u in evumasks if m.group(1).upper().startswith(u["name"])]
        if cands:
            alone.add(max(cands, key=len))
    for u in evumasks:
        flags = []
        grp = 0
        modreq = []
        if u in qualifiers:
            grp = 1
            flags.append("GRP_DFL_NONE")
        elif not u["combinable"] or u["name"] in alone:
            flags.append("NCOMBO")
        if box == "cbo" and name in ("TOR_INSERTS", "TOR_OCCUPANCY"):
            # Table 2-40 Filter Dep: *OPCODE umasks need FILTER1.opc, NID_*
            # need FILTER1.nid; the same holds for the garbled Table 2-41.
            needs_opc = "OPCODE" in u["name"]
            needs_nid = u["name"].startswith("NID")
        else:
            needs_opc = fdep_needs(u, "opc")
            needs_nid = fdep_needs(u, "nid")
        if has_opc_group and not needs_opc:
            flags.append("EXCL_GRP_GT")
        if needs_nid:
            modreq.append("NF1")
        if fdep_needs(u, "addr"):
            modreq.append("A")
        if (u["name"] in ("ALL", "ANY") and not u["combinable"]) or len(evumasks) == 1:
            flags.append("DFL")
        out.append(Umask(u["name"], umask_desc(ev, u), u["value"] << 8, grp, flags, modreq=modreq))
    if qualifiers:
        groups = 2
    if box == "irp" and name == "SNOOP_RESP":
        # 2.7.5 NOTE: the first 4 bits (responses) must be combined with one of
        # the last 3 (snoop types): two groups, each requiring a selection.
        for um in out:
            um.grpid = 1 if um.ucode >= 0x1000 else 0
        groups = 2
    if box == "cbo" and name == "LLC_LOOKUP":
        grp = groups
        groups += 1
        states = hm.llc_states(" ".join([ev["definition"]] + ev["notes"]))
        allbits = 0
        for bit, st, extra in states:
            allbits |= 1 << bit
            out.append(Umask("STATE_" + st, "LLC_LOOKUP cache line state %s%s (FILTER0.state bit %d, Table 2-18)"
                             % (st, " (" + extra + ")" if extra else "", bit),
                             0, grp, [], ((1 << bit) << 17, 0)))
        out.append(Umask("STATE_ANY", "Any cache line state: FILTER0.state = 0x%x, as 2.3.6 LLC_LOOKUP says to monitor any lookup"
                         % allbits, 0, grp, ["NCOMBO", "DFL"], (allbits << 17, 0)))
    if has_opc_group:
        grp = groups
        groups += 1
        if box == "cbo":
            for o in ref["idi_opcodes"]:
                out.append(Umask("OPC_" + o["name"].upper(), "%s (FILTER1.opc=0x%x, Table 2-20)" % (o["desc"], o["value"]),
                                 0, grp, ["NCOMBO"], (0, o["value"] << 20)))
        else:
            cls = ref["ha_classes"]
            for o in ref["opcodes"]:
                if o["cls"] not in cls or o["name"] in ref["not_on_v3"]:
                    continue
                val = (cls[o["cls"]] << 4) | o["opc"]
                out.append(Umask("OPC_" + o["name"].upper(), "%s %s (OPCODEMATCH.opc=0x%02x, Tables 2-65, 2-265)"
                                 % (o["cls"], o["desc"], val), 0, grp, ["NCOMBO"], (val, 0)))
    if box == "qpi" and name == "CTO_COUNT":
        out.append(Umask("ANY", "No packet field compared: match and mask registers left 0 (2.9.2.3)",
                         0, 0, ["NCOMBO", "DFL"], (0, 0)))
        for d in ref["qpi_derived"]:
            out.append(Umask(re.sub(r"[^A-Z0-9]+", "_", d["name"].upper()),
                             "%s (Table 2-176: match 0x%x, mask 0x%x)" % (d["desc"], d["match"], d["mask"]),
                             0, 0, ["NCOMBO"], (d["match"], d["mask"])))
        for c in ref["msg_classes"]:
            out.append(Umask("MC_" + c["name"], "Any %s message (%s): MATCH0.mc=0x%x, MASK0.mc=0xf (Tables 2-173, 2-263)"
                             % (c["name"], c["desc"], c["code"]), 0, 0, ["NCOMBO"], (c["code"] << 9, 0xf << 9)))
        codes = {c["name"]: c["code"] for c in ref["msg_classes"]}
        for o in ref["opcodes"]:
            if o["name"] in ref["not_on_v3"] or o["cls"] not in codes:
                continue
            nm = re.sub(r"[^A-Z0-9]+", "_", o["name"].upper()).strip("_")
            out.append(Umask("OPC_%s_%s" % (o["cls"], nm),
                             "%s %s: MATCH0.{mc,opc}={0x%x,0x%x}, MASK0 0x1fe0 (Tables 2-173, 2-265)"
                             % (o["cls"], o["desc"], codes[o["cls"]], o["opc"]),
                             0, 0, ["NCOMBO"], ((codes[o["cls"]] << 9) | (o["opc"] << 5), 0x1fe0)))
        groups = 1
    return out, groups


def build_events(box, data, ref):
    cfg = BOXES[box]
    events = []
    base_mods = MODS.get(box, MODS_DEFAULT)
    for ev in data["events"]:
        umasks, ngrp = build_umasks(box, ev, ref)
        mods = list(base_mods)
        flags = []
        name = ev["name"].upper()
        if any("NF1" in u.modreq for u in umasks):
            mods.append("NF1")
        if box == "cbo" and name in ("TOR_INSERTS", "TOR_OCCUPANCY"):
            mods += ["ISOC", "NC"]
        if any("A" in u.modreq for u in umasks):
            mods.append("A")
            flags.append("FORCE_FILT0")
        modreq = []
        if box == "pcu" and re.fullmatch(r"FREQ_BAND\d_CYCLES", name):
            mods.append("FF")
            modreq.append("FF")
        # An event some of whose unit masks need a modifier value or a filter
        # selection cannot be encoded from its name alone: libpfm4's table
        # self-test must not try to (INTEL_X86_NO_AUTOENCODE).
        needs_more = modreq or any(u.modreq for u in umasks) or \
            any(g > 0 and not any("DFL" in v.flags or "GRP_DFL_NONE" in v.flags
                                   for v in umasks if v.grpid == g)
                for g in {u.grpid for u in umasks})
        if needs_more:
            flags.append("NO_AUTOENCODE")
        events.append(dict(name=cfg["prefix"] + name, desc=event_desc(ev),
                           code=ev["code"] | (ev["ext"] << 21), ext=ev["ext"],
                           cntmsk=ev["cntmsk"], mods=mods, modreq=modreq, flags=flags,
                           umasks=umasks, ngrp=ngrp if umasks else 0, src=ev))
    # Fixed counters as events (Tables 2-9, 2-115): the pseudo code 0xff is
    # the one Linux perf uses to select a box's fixed counter.
    if box == "imc":
        events.insert(0, dict(name="UNC_M_CLOCKTICKS", desc="DRAM clocks (dclk) counted by the fixed counter MC_CHy_PCI_PMON_FIXED_CTR, enabled by MC_CHy_PCI_PMON_FIXED_CTL.en (Tables 2-115, 2-116).",
                              code=0xff, ext=0, cntmsk=1 << 32, mods=[], modreq=[], flags=["FIXED"],
                              umasks=[], ngrp=0, src=None))
    if box == "ubo":
        events.insert(0, dict(name="UNC_U_CLOCKTICKS", desc="Uncore clocks (uclk) counted by the fixed counter U_MSR_PMON_UCLK_FIXED_CTR, enabled by U_MSR_PMON_UCLK_FIXED_CTL.en (Tables 2-5, 2-9).",
                              code=0xff, ext=0, cntmsk=1 << 32, mods=[], modreq=[], flags=["FIXED"],
                              umasks=[], ngrp=0, src=None))
    return events


def umask_array_name(box, ev):
    return "hswep_unc_%s_%s" % (BOXES[box]["letter"], ev["name"].split("_", 2)[2].lower())


def emit_header(box, data, ref):
    cfg = BOXES[box]
    events = build_events(box, data, ref)
    out = []
    w = out.append
    w("/*")
    w(" * Haswell-EP %s uncore events in libpfm4's table format (manual section %s)." % (box.upper(), cfg["section"]))
    w(" * GENERATED by libpfm4-events/tools/gen_hswep.py from the %s;" % DOC)
    w(" * hand decisions: libpfm4-events/data/hswep-decisions.txt.  Do not edit; regenerate.")
    w(" * PMUs: %s (Linux perf: %s).  Conventions: libpfm4-events/README." % (cfg["pmus"], cfg["perf"]))
    w(" */")
    w("")
    # Events whose unit masks are identical (e.g. the 16 RD/WR_CAS_RANK
    # events, the RING_*_USED events) share one array, named after the first.
    arrays = {}
    for ev in events:
        if not ev["umasks"]:
            continue
        body = []
        for u in ev["umasks"]:
            body.append("\t{ .uname = %s," % c_str(u.name))
            body.append("\t  .udesc = %s," % c_str(u.desc))
            body.append("\t  .ucode = 0x%x," % u.ucode)
            if u.ufilters[0]:
                body.append("\t  .ufilters[0] = 0x%xULL," % u.ufilters[0])
            if u.ufilters[1]:
                body.append("\t  .ufilters[1] = 0x%xULL," % u.ufilters[1])
            body.append("\t  .grpid = %d," % u.grpid)
            if u.modreq:
                body.append("\t  .umodmsk_req = %s," % mods_expr(u.modreq))
            if u.flags:
                body.append("\t  .uflags = %s," % flags_expr(u.flags))
            body.append("\t},")
        sig = "\n".join(body)
        if sig in arrays:
            ev["array"] = arrays[sig]
            continue
        ev["array"] = arrays[sig] = umask_array_name(box, ev)
        w("static const intel_x86_umask_t %s[] = {" % ev["array"])
        out.extend(body)
        w("};")
        w("")
    w("static const intel_x86_entry_t intel_hswep_unc_%s_pe[] = {" % cfg["letter"])
    for ev in events:
        w("\t{ .name = %s," % c_str(ev["name"]))
        w("\t  .desc = %s," % c_str(ev["desc"]))
        if ev["ext"]:
            w("\t  .code = 0x%x | (1U << 21), /* ev_sel_ext */" % (ev["code"] & 0xff))
        else:
            w("\t  .code = 0x%x," % ev["code"])
        w("\t  .cntmsk = 0x%xULL," % ev["cntmsk"])
        w("\t  .modmsk = %s," % (mods_expr(ev["mods"]) if ev["mods"] else "0"))
        if ev["modreq"]:
            w("\t  .modmsk_req = %s," % mods_expr(ev["modreq"]))
        if ev["flags"]:
            w("\t  .flags = %s," % flags_expr(ev["flags"]))
        if ev["umasks"]:
            w("\t  .ngrp = %d," % ev["ngrp"])
            w("\t  .numasks = LIBPFM_ARRAY_SIZE(%s)," % ev["array"])
            w("\t  .umasks = %s," % ev["array"])
        w("\t},")
    w("};")
    return "\n".join(out) + "\n"


def maxinc_value(ev, box_max):
    """The manual's "Max. Inc/Cyc" of an event, for the wrap bound.  The
    fixed counters count one clock per cycle.  Where the manual gives 0 or
    nothing (R3QPI CLOCKTICKS, HA CONFLICT_CYCLES, iMC POWER_SELF_REFRESH,
    RD_CAS_RANK3: conversion losses) the box's largest value stands in: an
    overestimate only makes the poller read more often than needed."""
    if ev["src"] is None:
        return 1
    m = re.fullmatch(r"\s*(\d+)\s*", ev["src"].get("maxinc") or "")
    return int(m.group(1)) if m and int(m.group(1)) > 0 else box_max


def emit_maxinc(data, ref):
    out = []
    w = out.append
    w("/*")
    w(" * Haswell-EP uncore: the most each event can add to a counter in one cycle of")
    w(" * its box's clock (the \"Max. Inc/Cyc\" of every event description), one")
    w(" * array per box parallel to intel_hswep_unc_<box>_pe[].  With the counter width")
    w(" * it bounds how long a counter may go unread without wrapping twice.")
    w(" * GENERATED by libpfm4-events/tools/gen_hswep.py from the %s." % DOC)
    w(" * Do not edit; regenerate.  Not part of libpfm4's tree: papi-uncore's own data.")
    w(" */")
    w("#ifndef INTEL_HSWEP_UNC_MAXINC_H")
    w("#define INTEL_HSWEP_UNC_MAXINC_H")
    w("")
    w("#include <stdint.h>")
    for box in BOXES:
        cfg = BOXES[box]
        events = build_events(box, data[box], ref)
        vals = []
        for ev in events:
            m = re.fullmatch(r"\s*(\d+)\s*", (ev["src"] or {}).get("maxinc") or "")
            if m:
                vals.append(int(m.group(1)))
        box_max = max(vals) if vals else 1
        w("")
        w("static const uint16_t intel_hswep_unc_%s_maxinc[] = {" % cfg["letter"])
        for ev in events:
            w("\t%d, /* %s */" % (maxinc_value(ev, box_max), ev["name"]))
        w("};")
    w("")
    w("#endif")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------

def outputs(seeds):
    decisions = read_decisions(os.path.join(ROOT, "data", "hswep-decisions.txt"))
    data = extract(os.path.join(seeds, SEED), decisions)
    files = {}
    ref = data["_ref"]
    for box in BOXES:
        files["data/hswep_%s.json" % box] = json.dumps(data[box], indent=1, sort_keys=True) + "\n"
        files["events/intel_hswep_unc_%s_events.h" % BOXES[box]["file"]] = emit_header(box, data[box], ref)
    files["data/hswep_reference.json"] = json.dumps(ref, indent=1, sort_keys=True) + "\n"
    files["maxinc/intel_hswep_unc_maxinc.h"] = emit_maxinc(data, ref)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default=os.path.join(ROOT, "..", "..", "shared", "seeds"))
    ap.add_argument("--out", default=ROOT)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    files = outputs(args.seeds)
    if args.check:
        bad = 0
        for rel, text in sorted(files.items()):
            path = os.path.join(args.out, rel)
            try:
                with open(path, encoding="utf-8") as f:
                    cur = f.read()
            except OSError:
                cur = None
            if cur != text:
                print("gen_hswep: %s differs from the generator's output" % rel)
                bad += 1
        print("gen_hswep: %d files checked, %d differ" % (len(files), bad))
        return 1 if bad else 0
    for rel, text in sorted(files.items()):
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    print("gen_hswep: wrote %d files under %s" % (len(files), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
