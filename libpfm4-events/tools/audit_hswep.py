"""Audit module: Haswell-EP (Xeon E5/E7 v3) uncore tables vs the manual.

Reads seeds/000_e75f66526956f957.txt on its own (it does not use the
generator's reader or intermediate files): event blocks are found from their
'Event Code:' lines, unit-mask rows from tab-separated 'NAME<TAB>bits' cells
after each 'Unit Masks for' heading, control-register fields from the
Cn/U/.._PMON_CTL field tables.  Bit strings of 7 or 9 positions (conversion
damage) are read right-aligned; any other reading must be an exception.

Difference kinds (the <what> of audit-exceptions.txt): missing, extra,
extra-umask, code, ext, cntmsk, value, ncombo, filter, qualifier, note,
summary, modifier.
"""

import re

import pfmtable

GENERATION = "hswep"
SEED = "000_e75f66526956f957.txt"

# box -> (event-list heading, header file, event prefix, control-register
# field table, counters)
BOXES = [
    ("ubo", r"UBOX Box Performance Monitor Event List", "intel_hswep_unc_ubo_events.h", "UNC_U_", "2-7", 2),
    ("cbo", r"CBO Box Performance Monitor Event List", "intel_hswep_unc_cbo_events.h", "UNC_C_", "2-16", 4),
    ("sbo", r"SBO Box Performance Monitor Event List", "intel_hswep_unc_sbo_events.h", "UNC_S_", "2-47", 4),
    ("ha", r"HA Box Performance Monitor Event List", "intel_hswep_unc_ha_events.h", "UNC_H_", "2-63", 4),
    ("imc", r"iMC Box Performance Monitor Event List", "intel_hswep_unc_imc_events.h", "UNC_M_", "2-114", 4),
    ("irp", r"IRP Box Performance Monitor Event List", "intel_hswep_unc_irp_events.h", "UNC_I_", "2-147", 4),
    ("pcu", r"PCU Box Performance Monitor Event List", "intel_hswep_unc_pcu_events.h", "UNC_P_", "2-158", 4),
    ("qpi", r"QPI LL Box Performance Monitor Event List", "intel_hswep_unc_qpi_events.h", "UNC_Q_", "2-170", 4),
    ("r2pcie", r"R2PCIe Box Performance Monitor Event List", "intel_hswep_unc_r2pcie_events.h", "UNC_R2_", "2-215", 4),
    ("r3qpi", r"R3QPI Box Performance Monitor Event List", "intel_hswep_unc_r3qpi_events.h", "UNC_R3_", "2-232", 3),
]
SUMMARY = {"ubo": "UBOX Box Events Ordered", "cbo": "CBO Box Events Ordered", "sbo": "SBO Box Events Ordered",
           "ha": "HA Box Events Ordered", "imc": "iMC Box Events Ordered", "irp": "IRP Box Events Ordered",
           "pcu": "PCU Box Events Ordered", "qpi": "QPI LL Box Events Ordered",
           "r2pcie": "R2PCIe Box Events Ordered", "r3qpi": "R3QPI Box Events Ordered"}

CYR = str.maketrans("АВСЕНКМОРТХҮавсенкмортхь", "ABCEHKMOPTXYABCEHKMOPTXb")
FLAGS = pfmtable.INTEL_X86_FLAGS
ATTR = {a: 1 << i for i, a in enumerate(pfmtable.SNBEP_ATTRS)}


def key(name):
    """Compare names the way the conversion damaged them: case, spacing,
    escapes, Cyrillic homoglyphs, O/0 and l/I do not count."""
    s = name.translate(CYR).upper()
    return re.sub(r"[^A-Z0-9]", "", s).replace("O", "0").replace("L", "I")


def plain(s):
    s = s.replace("\\_", "_").replace("**", "")
    return re.sub(r"<[^>]+>", "", s)


def bits_value(bits):
    b = bits.translate(CYR)[1:].lower()
    garbled = len(b) != 8
    b = ("x" * 8 + b)[-8:]
    v = 0
    for i, c in enumerate(reversed(b)):
        if c == "1":
            v |= 1 << i
    return v, "0" not in b and b.count("1") == 1, garbled


def restrict_mask(r):
    m = re.fullmatch(r"(\d+)-(\d+)", r)
    if m:
        return sum(1 << i for i in range(int(m.group(1)), int(m.group(2)) + 1))
    return 1 << int(r)


def read_manual(lines):
    """{box: {key: event}}, with event = dict(name, code, ext, restrict,
    filterdep, text, umasks=[dict(name, bits, value, comb, garbled, fdep,
    table)], table ids)."""
    heads = []
    for i, l in enumerate(lines):
        if l.lstrip().startswith("#") and "Performance Monitor Event List" in l:
            for box, pat, *_ in BOXES:
                if re.search(pat, plain(l)):
                    heads.append((i, box))
    heads.append((len(lines), None))
    out = {}
    for (start, box), (end, _) in zip(heads, heads[1:]):
        codes = [i for i in range(start, end) if "Event Code:" in lines[i]]
        starts = []
        for ci in codes:
            t = ci
            while "Title" not in lines[t]:
                t -= 1
                if ci - t > 12:
                    raise SystemExit("audit_hswep: no 'Title' above 'Event Code' at line %d" % (ci + 1))
            h = t - 1
            while not lines[h].strip():
                h -= 1
            starts.append(h)
        evs = {}
        for n, h in enumerate(starts):
            stop = starts[n + 1] if n + 1 < len(starts) else end
            block = lines[h:stop]
            name = re.sub(r"[#*\s]+", " ", plain(block[0])).strip().replace(" ", "_")
            text = " ".join(plain(x) for x in block[1:])
            code = re.search(r"Event Code:\s*(0x[0-9a-fA-F]{2})", text)
            rest = re.search(r"Register Restrictions:\s*(\d+(?:-\d+)?)", text)
            ev = dict(name=name, code=int(code.group(1), 16),
                      ext=1 if re.search(r"Extra Select Bit:\s*Y", text) else 0,
                      restrict=rest.group(1), text=text, umasks=[], tables=[], line=h + 1,
                      filterdep=(re.search(r"Filter Dependency:\s*(\S+)", text) or [None, ""])[1])
            seen = set()
            intable = False
            fcol = False
            for j, l in enumerate(block):
                m = re.search(r"Table (2-\d+)\.\s*Unit Masks for", plain(l))
                if m:
                    intable = True
                    if m.group(1) not in ev["tables"]:
                        ev["tables"].append(m.group(1))
                    continue
                if l.startswith("Extension"):
                    fcol = "Filter Dep" in l
                    continue
                if not intable:
                    continue
                cells = l.split("\t")
                for c in range(len(cells) - 1):
                    nm = plain(cells[c]).strip().translate(CYR)
                    bs = cells[c + 1].strip().translate(CYR)
                    if re.fullmatch(r"[A-Za-z0-9_ ]+", nm) and re.fullmatch(r"[b6][01x]{6,10}", bs):
                        if key(nm) in seen:
                            break
                        seen.add(key(nm))
                        v, comb, garbled = bits_value(bs)
                        fdep = cells[c + 2].strip() if fcol and len(cells) > c + 2 else ""
                        desc = " ".join(x.strip() for x in cells[c + (3 if fcol else 2):])
                        # A space right after an underscore is where the PDF broke
                        # the line inside a name ("RBT_ MISS", Table 2-180), not a word break.
                        ev["umasks"].append(dict(name=re.sub(r"_ +", "_", nm).replace(" ", "_"), bits=bs, value=v, comb=comb,
                                                 garbled=garbled, fdep=fdep, desc=desc,
                                                 table=ev["tables"][-1], line=h + j + 1))
                        break
            evs[key(name)] = ev
        out[box] = evs
    return out


def read_summaries(lines):
    """'Events Ordered By Code' tables: {box: {key: (code, ctrs, ext)}}."""
    out = {}
    for box, title in SUMMARY.items():
        s = next(i for i, l in enumerate(lines) if l.lstrip().startswith("#") and title in plain(l))
        rows = {}
        for l in lines[s + 1:s + 200]:
            if "Common Metrics" in l or "Performance Monitor Event List" in l:
                break
            c = [x.strip() for x in l.split("\t")]
            if len(c) >= 4 and re.fullmatch(r"0x[0-9a-fA-F]+", c[1]):
                ext = int(c[3]) if len(c) >= 6 and c[3] in ("0", "1") else 0
                rows[key(c[0])] = (int(c[1], 16), c[2], ext)
        out[box] = rows
    return out


def ctl_fields(lines, table):
    """Field name -> bit range of a PMON_CTL field table."""
    s = next(i for i, l in enumerate(lines) if re.match(r"#*\s*Table %s\.\s*\S*PMON\S*CTL" % table, plain(l)))
    f = {}
    for l in lines[s:s + 60]:
        c = [x.strip() for x in l.split("\t")]
        if len(c) >= 3 and re.fullmatch(r"\d+(:\d+)?", c[1]) and re.fullmatch(r"[a-z_]+", c[0]):
            f.setdefault(c[0], c[1])
    return f


def width(r):
    hi, _, lo = r.partition(":")
    return int(hi) - int(lo or hi) + 1


def ref_tables(lines):
    """The filter value tables: CBo opcodes (2-20), HA opcode classes (2-65),
    QPI message classes (2-263), opcodes (2-265) and the v3 exclusions
    (2-264), derived QPI message events (2-176)."""
    txt = [plain(x) for x in lines]
    r = {}
    s = next(i for i, l in enumerate(txt) if re.match(r"#*\s*Table 2-20\. Opcode Match", l))
    r["idi"] = {}
    for l in txt[s:s + 60]:
        c = l.split("\t")
        if len(c) >= 2 and re.fullmatch(r"0x1[0-9A-F]{2}", c[0].strip()):
            r["idi"][key(c[1])] = int(c[0], 16)
    s = next(i for i, l in enumerate(txt) if re.match(r"Table 2-65\.", l))
    ha = " ".join(txt[s:s + 6]).translate(CYR)
    r["hacls"] = {k: int(v, 2) for v, k in re.findall(r"\b([01]{2}) - (HOM0|HOM1|NDR|SNP)\b", ha)}
    s = next(i for i, l in enumerate(txt) if re.match(r"Table 2-263\.", l) and i > 1000)
    r["mc"] = {}
    for l in txt[s:s + 12]:
        c = l.split("\t")
        if len(c) >= 2 and re.fullmatch(r"b[01]{4}", c[0].strip()):
            r["mc"][key(c[1])] = int(c[0].strip()[1:], 2)
    s = next(i for i, l in enumerate(txt) if re.match(r"#*\s*Table 2-264\.", l) and i > 1000)
    e = next(i for i in range(s, len(txt)) if re.match(r"#*\s*Table 2-265\.", txt[i]))
    notv3 = set()
    for l in txt[s:e]:
        for m in re.finditer(r"([A-Za-z_]+) \(not on[^)]*\)(?: \(aka ([A-Za-z_]+)\))?", l):
            notv3.add(key(m.group(1)))
            if m.group(2):
                notv3.add(key(m.group(2)))
    r["notv3"] = notv3
    r["ops"] = []
    last_blank = None
    for l in txt[e:]:
        c = [x.strip() for x in l.split("\t")]
        if len(c) >= 3 and re.fullmatch(r"[01]{4}", c[1]):
            if c[0]:
                r["ops"].append((c[0], int(c[1], 2), key(c[2])))
            else:
                last_blank = (int(c[1], 2), key(c[2]))
        elif last_blank and re.fullmatch(r"[A-Za-z]\w+", l.strip()):
            r["ops"].append((l.strip(), last_blank[0], last_blank[1]))
            last_blank = None
    s = next(i for i, l in enumerate(txt) if re.match(r"Table 2-176\.", l) and i > 1000)
    r["derived"] = {}
    for l in txt[s:s + 40]:
        c = [x.strip() for x in l.split("\t")]
        if len(c) >= 3 and re.match(r"(DRS|NCB)\.", c[0]):
            def v(cell):
                x = int(re.match(r"0x[0-9A-Fa-f]+", cell).group(0), 16)
                m1 = re.search(r"\[19:16\] (0x[0-9A-Fa-f]+)", cell)
                return x | (int(m1.group(1), 16) << 48 if m1 else 0)
            r["derived"][key(c[0])] = (v(c[1]), v(c[2]))
    return r


def llc_states(text):
    return {st: int(b) for b, st in re.findall(r"(\d+)\s*=\s*([ISEMF])\b", text)}


def needs(fdep):
    f = fdep.replace(" ", "")
    return dict(nid=bool(re.search(r"CBoFilter1\[(15:0|17:10)\]", f)),
                opc="CBoFilter1[28:20]" in f or "HA_OpcodeMatch" in f or "HA_Opcode" in f,
                addr="HA_AddrMa" in f)


def run(ctx):
    global _Check
    _Check = ctx.Check
    lines = ctx.seed(SEED)
    manual = read_manual(lines)
    summaries = read_summaries(lines)
    ref = ref_tables(lines)
    checks = []
    up_lines = []
    for box, _, fname, prefix, ctltab, nctr in BOXES:
        tab = ctx.table(fname)
        mevs = manual[box]
        summ = summaries[box]
        if tab is None:
            c = new_check("hswep/%s/table" % box)
            c.error("missing table %s" % fname)
            checks.append(c)
            continue
        ours = {key(e["name"][len(prefix):]): e for e in tab.events if e["name"].startswith(prefix)}
        # Structure
        c = new_check("hswep/%s/structure" % box)
        for p in pfmtable.validate(tab):
            c.error(p)
        for e in tab.events:
            if not e["name"].startswith(prefix):
                c.error("%s: name does not start with %s" % (e["name"], prefix))
            if e.get("cntmsk", 0) & ~((1 << nctr) - 1) and not e.get("flags", 0) & FLAGS["FIXED"]:
                c.error("%s: counter mask 0x%x beyond the box's %d counters" % (e["name"], e["cntmsk"], nctr))
        checks.append(c)
        # Modifiers against the control register (and its filters)
        checks.append(check_modifiers(box, tab, lines, ctltab, mevs))
        for k, mev in sorted(mevs.items()):
            checks.append(check_event(box, prefix, mev, ours.get(k), tab, summ.get(k), ref, mevs))
        for k, ev in sorted(ours.items()):
            if k in mevs:
                continue
            c = new_check("hswep/%s/%s" % (box, ev["name"]))
            if ev.get("flags", 0) & FLAGS["FIXED"]:
                check_fixed(box, ev, lines, c)
            else:
                c.problem(GENERATION, box, ev["name"][len(prefix):], None, "extra",
                          "event (code 0x%x) is not in the manual's event list" % ev.get("code", 0))
            checks.append(c)
        if ctx.upstream:
            up_lines += compare_upstream(ctx, box, fname, prefix, mevs, tab)
    if ctx.upstream:
        ctx.note("## Upstream libpfm4 (%s) compared with the manual and with our tables\n" % ctx.upstream)
        ctx.report.extend(up_lines)
    return checks


_Check = None  # the framework's Check class, set by run()


def new_check(name):
    return _Check(name)


def check_fixed(box, ev, lines, c):
    """Fixed counters as events: IMC DCLK (Tables 2-115, 2-116), UBox UCLK
    (Tables 2-5, 2-9).  Code 0xff is the selector Linux perf uses."""
    want = {"imc": "MC_CHy_PCI_PMON_FIXED_CTL", "ubo": "U_MSR_PMON_UCLK_FIXED_CTL"}.get(box)
    if want is None or not any(want in plain(x) for x in lines):
        c.problem(GENERATION, box, ev["name"], None, "extra", "fixed-counter event in a box without a fixed counter")
    if ev.get("code") != 0xff or ev.get("modmsk", 0) or ev.get("cntmsk") != 1 << 32:
        c.error("%s: fixed-counter event must have code 0xff, no modifiers, cntmsk bit 32" % ev["name"])


def check_event(box, prefix, mev, ev, tab, summ, ref, mevs):
    name = mev["name"]
    c = new_check("hswep/%s/%s" % (box, name))
    P = lambda um, what, text: c.problem(GENERATION, box, key_name(name), um, what, text)
    if ev is None:
        P(None, "missing", "event 0x%x of %s is not in %s" % (mev["code"], "2.x event list", prefix + "*"))
        return c
    code = ev.get("code", 0)
    if code & 0xff != mev["code"]:
        P(None, "code", "ours 0x%x, manual 0x%x" % (code & 0xff, mev["code"]))
    if (code >> 21) & 1 != mev["ext"]:
        P(None, "ext", "ours ev_sel_ext=%d, manual Extra Select Bit %s" % ((code >> 21) & 1, "Y" if mev["ext"] else "-"))
    want = restrict_mask(mev["restrict"])
    if ev.get("cntmsk") != want:
        P(None, "cntmsk", "ours 0x%x, Register Restrictions %s (0x%x)" % (ev.get("cntmsk", 0), mev["restrict"], want))
    if summ is not None:
        scode, sctrs, sext = summ
        if scode != mev["code"] or sext != mev["ext"] or restrict_mask(sctrs) != want:
            P(None, "summary", "summary table has code 0x%x ctrs %s ext %d; the event list 0x%x %s %d"
              % (scode, sctrs, sext, mev["code"], mev["restrict"], mev["ext"]))
    else:
        P(None, "summary", "not in the 'Events Ordered By Code' table")
    # Notes: occupancy events only in counter 0 (2.3.1, 2.10.1, 2.11.1);
    # R2PCIe ring events only in counters 2-3 (2.10.1), R3QPI ring events
    # only in counter 2 (2.11.1).
    uname = name.upper()
    if box in ("cbo", "r2pcie", "r3qpi") and "OCCUPANCY" in uname and not uname.startswith("COUNTER"):
        if ev.get("cntmsk") != 0x1:
            P(None, "note", "occupancy event not restricted to counter 0 (note in 2.3.1/2.10.1/2.11.1)")
    if box == "r2pcie" and re.fullmatch(r"RING_\w\w_USED", uname) and ev.get("cntmsk") != 0xc:
        P(None, "note", "2.10.1 note: ring utilization events only in counters 2-3; ours 0x%x" % ev.get("cntmsk", 0))
    if box == "r3qpi" and re.fullmatch(r"RING_\w\w_USED|RING_SINK_STARVED", uname) and ev.get("cntmsk") != 0x4:
        P(None, "note", "2.11.1 note: ring events only in counter 2; ours 0x%x" % ev.get("cntmsk", 0))
    # Unit masks
    ums = tab.umasks(ev)
    byk = {key(u["uname"]): u for u in ums}
    matched = set()
    tor = mevs.get(key("TOR_INSERTS")) if box == "cbo" else None
    # 'X should not be Ored with the other umasks' (a NOTE) makes X exclusive.
    alone = set()
    for m in re.findall(r"(\w+) should not be Ored with the other umasks", mev["text"], re.I):
        pre = [key(x["name"]) for x in mev["umasks"] if key(m).startswith(key(x["name"]))]
        if pre:
            alone.add(max(pre, key=len))
    for mu in mev["umasks"]:
        u = byk.get(key(mu["name"]))
        if u is None:
            P(mu["name"], "missing", "unit mask %s (%s) of Table %s" % (mu["name"], mu["bits"], mu["table"]))
            continue
        matched.add(key(mu["name"]))
        val = u.get("ucode", 0) >> 8
        if val != mu["value"]:
            P(mu["name"], "value", "ours 0x%x, Table %s '%s' reads 0x%x%s" % (
                val, mu["table"], mu["bits"], mu["value"], " (damaged string, read right-aligned)" if mu["garbled"] else ""))
        ncombo = bool(u.get("uflags", 0) & FLAGS["NCOMBO"]) or bool(u.get("uflags", 0) & FLAGS["GRP_DFL_NONE"])
        exclusive = not mu["comb"] or key(mu["name"]) in alone
        if ncombo != exclusive:
            P(mu["name"], "ncombo", "'%s'%s: %s, ours %s" % (
                mu["bits"], " and a note" if mu["comb"] and exclusive else "",
                "exclusive" if exclusive else "a combinable bit", "NCOMBO" if ncombo else "combinable"))
        fdep = mu["fdep"]
        if box == "cbo" and uname == "TOR_OCCUPANCY" and tor is not None:
            # The second sheet of Table 2-41 lost its Filter Dep column; the
            # same-named rows of Table 2-40 give the dependency.
            t = [x for x in tor["umasks"] if key(x["name"]) == key(mu["name"])]
            if t:
                fdep = t[0]["fdep"]
        n = needs(fdep)
        has_nid = bool(u.get("umodmsk_req", 0) & ATTR["NF1"])
        if n["nid"] != has_nid:
            P(mu["name"], "filter", "Filter Dep '%s': nf= %s, ours %s" % (fdep, "required" if n["nid"] else "not needed",
                                                                        "requires it" if has_nid else "does not"))
        has_addr = bool(u.get("umodmsk_req", 0) & ATTR["A"])
        if n["addr"] != has_addr:
            P(mu["name"], "filter", "Filter Dep '%s': addr= %s, ours %s" % (fdep, "required" if n["addr"] else "not needed",
                                                                          "requires it" if has_addr else "does not"))
        if any(x["uname"].startswith("OPC_") and pfmtable.grpid(x) > 0 for x in ums):
            excl = bool(u.get("uflags", 0) & FLAGS["EXCL_GRP_GT"])
            if n["opc"] == excl:
                P(mu["name"], "filter", "Filter Dep '%s': opcode selection %s, ours %s" % (
                    fdep, "required" if n["opc"] else "not used", "excluded" if excl else "required"))
    # Unit masks we have that the manual's table does not list: filter
    # values (checked against their own tables) or exceptions.
    for u in ums:
        if key(u["uname"]) in matched:
            continue
        why = check_qualifier(box, uname, u, ref, mev)
        if why is None:
            P(u["uname"], "extra-umask", "unit mask 0x%x not in the manual's table for %s" % (u.get("ucode", 0) >> 8, name))
        elif why:
            P(u["uname"], "qualifier", why)
    # Filter modifiers the event needs (Table 2-19 isoc/nc for the opcode-
    # matched TOR events, Table 2-160 bands for FREQ_BAND*).
    modmsk = ev.get("modmsk", 0)
    if box == "cbo" and uname in ("TOR_INSERTS", "TOR_OCCUPANCY") and (modmsk & (ATTR["ISOC"] | ATTR["NC"])) != ATTR["ISOC"] | ATTR["NC"]:
        P(None, "filter", "FILTER1.isoc/nc (Table 2-19) not offered")
    m = re.match(r"PCUFilter\[(\d+):(\d+)\]", mev["filterdep"])
    if m and not (modmsk & ATTR["FF"] and ev.get("modmsk_req", 0) & ATTR["FF"]):
        P(None, "filter", "Filter Dependency %s: ff= must be offered and required" % mev["filterdep"])
    return c


def key_name(name):
    return name.upper()


def check_qualifier(box, ename, u, ref, mev):
    """A value-only unit mask (a filter setting).  Returns None if it is not
    one, '' if its value agrees with the manual's table, else the problem."""
    if u.get("ucode", 0):
        return None
    f0, f1 = u.get("ufilters[0]", 0), u.get("ufilters[1]", 0)
    n = u["uname"]
    if box == "cbo" and ename == "LLC_LOOKUP" and n.startswith("STATE_"):
        st = llc_states(mev["text"])
        if n == "STATE_ANY":
            want = sum(1 << (17 + b) for b in st.values())
        elif n[6:] in st:
            want = 1 << (17 + st[n[6:]])
        else:
            return "state %s is not in the LLC_LOOKUP note (2.3.6)" % n
        return "" if (f0, f1) == (want, 0) else "FILTER0 0x%x, LLC_LOOKUP note gives 0x%x" % (f0, want)
    if box == "cbo" and ename in ("TOR_INSERTS", "TOR_OCCUPANCY") and n.startswith("OPC_"):
        v = ref["idi"].get(key(n[4:]))
        if v is None:
            return "opcode %s not in Table 2-20" % n
        return "" if (f0, f1) == (0, v << 20) else "FILTER1 0x%x, Table 2-20 gives opc 0x%x" % (f1, v)
    if box == "ha" and ename == "ADDR_OPC_MATCH" and n.startswith("OPC_"):
        for name, opc, cls in ref["ops"]:
            if key(name) == key(n[4:]) and cls in {key(k) for k in ref["hacls"]}:
                if key(name) in ref["notv3"]:
                    return "%s is marked 'not on E5/E7 v3' in Table 2-264" % name
                clsv = {key(k): v for k, v in ref["hacls"].items()}[cls]
                want = (clsv << 4) | opc
                return "" if (f0, f1) == (want, 0) else "OPCODEMATCH 0x%x, Tables 2-65/2-265 give 0x%x" % (f0, want)
        return "opcode %s not in Table 2-265 for HOM0/HOM1/NDR/SNP" % n
    if box == "qpi" and ename == "CTO_COUNT":
        if n == "ANY":
            return "" if (f0, f1) == (0, 0) else "ANY must leave match and mask 0"
        if n.startswith("MC_"):
            v = ref["mc"].get(key(n[3:]))
            if v is None:
                return "message class %s not in Table 2-263" % n
            return "" if (f0, f1) == (v << 9, 0xf << 9) else "match/mask 0x%x/0x%x for class 0x%x" % (f0, f1, v)
        if n.startswith("OPC_"):
            cls, _, op = n[4:].partition("_")
            for name, opc, c in ref["ops"]:
                if key(name) == key(op) and c == key(cls):
                    if key(name) in ref["notv3"]:
                        return "%s is marked 'not on E5/E7 v3' in Table 2-264" % name
                    v = ref["mc"][c]
                    want = ((v << 9) | (opc << 5), 0x1fe0)
                    return "" if (f0, f1) == want else "match/mask 0x%x/0x%x, Table 2-265 gives 0x%x/0x%x" % (f0, f1, *want)
            return "opcode %s not in Table 2-265" % n
        d = ref["derived"].get(key(n))
        if d is None:
            return "%s is not a Table 2-176 message event" % n
        return "" if (f0, f1) == d else "match/mask 0x%x/0x%x, Table 2-176 gives 0x%x/0x%x" % (f0, f1, *d)
    return None


def check_modifiers(box, tab, lines, ctltab, mevs):
    """Every event offers edge/invert/threshold of the control register's
    width (Table <ctltab>); the CBo also thread/core filtering through
    tid_en + FILTER0.tid (Tables 2-16, 2-18)."""
    c = new_check("hswep/%s/modifiers" % box)
    f = ctl_fields(lines, ctltab)
    want = 0
    if "edge_det" in f:
        want |= ATTR["E"]
    if "invert" in f:
        want |= ATTR["I"]
    if "thresh" in f:
        want |= ATTR["T8"] if width(f["thresh"]) == 8 else ATTR["T5"] if width(f["thresh"]) == 5 else 0
    if box == "cbo" and "tid_en" in f:
        want |= ATTR["TF"] | ATTR["CF1"]
    for ev in tab.events:
        if ev.get("flags", 0) & FLAGS["FIXED"]:
            continue
        base = ev.get("modmsk", 0) & (ATTR["E"] | ATTR["I"] | ATTR["T8"] | ATTR["T5"] | ATTR["TF"] | ATTR["CF1"])
        if base != want:
            c.problem(GENERATION, box, ev["name"], None, "modifier",
                      "modifiers 0x%x, Table %s fields %s call for 0x%x" % (base, ctltab, sorted(f), want))
    return c


def compare_upstream(ctx, box, fname, prefix, mevs, ours_tab):
    """Informational: upstream's table against the manual and against ours."""
    out = ["### %s (%s)" % (box, fname), ""]
    up = ctx.table(fname, upstream=True)
    if up is None:
        return out + ["- upstream has no %s" % fname, ""]
    ups = {key(e["name"][len(prefix):]): e for e in up.events}
    ours = {key(e["name"][len(prefix):]): e for e in ours_tab.events}
    probs = pfmtable.validate(up)
    for p in probs:
        out.append("- upstream structure: %s" % p)
    for k, mev in sorted(mevs.items()):
        e = ups.get(k)
        tabs = ", ".join("Table " + t for t in mev["tables"]) or "2.x event list"
        if e is None:
            alt = [u for u in up.events if u.get("code", 0) == mev["code"] | (mev["ext"] << 21)]
            out.append("- %s: not in upstream%s (manual %s)" % (
                mev["name"], " (same code: %s)" % ", ".join(a["name"] for a in alt) if alt else "", tabs))
            continue
        if e["name"] != ours.get(k, {}).get("name"):
            out.append("- %s: upstream name %s, ours %s" % (mev["name"], e["name"], ours.get(k, {}).get("name")))
        if e.get("code", 0) != mev["code"] | (mev["ext"] << 21):
            out.append("- %s: upstream code 0x%x, manual 0x%x ext %d" % (mev["name"], e.get("code", 0), mev["code"], mev["ext"]))
        want = restrict_mask(mev["restrict"])
        if e.get("cntmsk") != want:
            out.append("- %s: upstream counters 0x%x, manual Register Restrictions %s (0x%x); ours 0x%x" % (
                mev["name"], e.get("cntmsk", 0), mev["restrict"], want, ours.get(k, {}).get("cntmsk", 0)))
        if e.get("flags", 0) & FLAGS["FIXED"]:
            out.append("- %s: upstream marks it FIXED (it is a generic-counter event in the manual)" % mev["name"])
        om = ours.get(k, {}).get("modmsk", 0)
        if e.get("modmsk", 0) != om:
            names = lambda m: "|".join(a for a in pfmtable.SNBEP_ATTRS if m & ATTR[a]) or "-"
            out.append("- %s: upstream modifiers %s, ours %s" % (mev["name"], names(e.get("modmsk", 0)), names(om)))
        uu = {key(u["uname"]): u for u in up.umasks(e)}
        byval = {}
        for u in up.umasks(e):
            byval.setdefault(u.get("ucode", 0) >> 8, []).append(u["uname"])
        for mu in mev["umasks"]:
            u = uu.get(key(mu["name"]))
            if u is None:
                same = byval.get(mu["value"])
                out.append("- %s:%s (0x%x, Table %s): %s" % (
                    mev["name"], mu["name"], mu["value"], mu["table"],
                    "upstream names it %s" % "/".join(same) if same else "not in upstream"))
            elif u.get("ucode", 0) >> 8 != mu["value"]:
                ou = {key(x["uname"]): x for x in ours_tab.umasks(ours.get(k, {}))}.get(key(mu["name"]))
                ov = ou.get("ucode", 0) >> 8 if ou else None
                out.append("- %s:%s: upstream 0x%x, manual 0x%x%s (Table %s)" % (
                    mev["name"], mu["name"], u.get("ucode", 0) >> 8, mu["value"],
                    "" if ov == mu["value"] else ", ours 0x%x (see audit-exceptions.txt)" % ov if ov is not None else "",
                    mu["table"]))
        mk = {key(m["name"]) for m in mev["umasks"]}
        for u in up.umasks(e):
            if key(u["uname"]) not in mk and u.get("ucode", 0):
                out.append("- %s:%s (0x%x): upstream unit mask not in the manual's table" % (
                    mev["name"], u["uname"], u.get("ucode", 0) >> 8))
    for k, e in sorted(ups.items()):
        if k not in mevs:
            out.append("- %s: upstream event not in the manual%s" % (
                e["name"], " (kept by us)" if k in ours else ""))
    out.append("")
    return out
