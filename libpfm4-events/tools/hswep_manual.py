"""Read the Haswell-EP uncore manual (text conversion) into raw event records.

Used by gen_hswep.py only.  Parses, per box, the "Performance Monitor Event
List" section (event name, title, category, code, extra-select bit, max
inc/cyc, register restrictions, definition, notes, umask tables) and the
"Events Ordered By Code" summary table.  Nothing here decides anything: text
that is garbled is reported as found; hand decisions live in
data/hswep-decisions.txt and are applied by the generator.
"""

import re

# Homoglyphs the PDF conversion put into names and bit strings (Cyrillic for
# Latin), e.g. "НОМ" for HOM in Tables 2-74, 2-181; "ь00001000" in Table 2-41.
HOMOGLYPHS = str.maketrans({
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "К": "K", "М": "M",
    "О": "O", "Р": "P", "Т": "T", "Х": "X", "Ү": "Y", "а": "A", "в": "B",
    "с": "C", "е": "E", "н": "H", "к": "K", "м": "M", "о": "O", "р": "P",
    "т": "T", "х": "X", "ь": "b", "×": "x",
})

# Section of each box's event list and summary table (manual chapter 2).
BOXES = {
    # box: (event-list heading pattern, summary heading pattern, end pattern)
    "ubo": (r"2\.2\.5 UBOX Box Performance Monitor Event List",
            r"2\.2\.4 UBOX Box Events Ordered By Code", r"^#+\s*2\.3 Caching Agent"),
    "cbo": (r"2\.3\.6 CBO Box Performance Monitor Event List",
            r"2\.3\.4 CBO Box Events Ordered By Code", r"^#+\s*2\.4 Ring Transfer"),
    "sbo": (r"2\.4\.6 SBO Box Performance Monitor Event List",
            r"2\.4\.4 SBO Box Events Ordered By Code", r"^#+\s*2\.5 Home Agent"),
    "ha": (r"2\.5\.5 HA Box Performance Monitor Event List",
           r"2\.5\.3 HA Box Events Ordered By Code", r"^#+\s*2\.6 Memory Controller"),
    "imc": (r"2\.6\.7 iMC Box Performance Monitor Event List",
            r"2\.6\.5 iMC Box Events Ordered By Code", r"^#+\s*2\.7 IRP Performance"),
    "irp": (r"2\.7\.5 IRP Box Performance Monitor Event List",
            r"2\.7\.4 IRP Box Events Ordered By Code", r"^#+\s*2\.8 Power Control"),
    "pcu": (r"2\.8\.6 PCU Box Performance Monitor Event List",
            r"2\.8\.4 PCU Box Events Ordered By Code", r"^#+\s*2\.9 Intel"),
    "qpi": (r"QPI LL Box Performance Monitor Event List",
            r"QPI LL Box Events Ordered By Code", r"^#+\s*2\.10 R2PCIe"),
    "r2pcie": (r"2\.10\.6 R2PCIe Box Performance Monitor Event List",
               r"2\.10\.4 R2PCIe Box Events Ordered By Code", r"R3QPI Performance Monitoring\*?\*? 2\.11"),
    "r3qpi": (r"2\.11\.6 R3QPI Box Performance Monitor Event List",
              r"2\.11\.4 R3QPI Box Events Ordered By Code", r"2\.12 Packet Matching Reference"),
}

FIELD_KEYS = [
    ("title", r"Title:"),
    ("category", r"Category:"),
    ("code", r"Event Code:"),
    ("ext", r"Extra Select Bit:"),
    ("maxinc", r"Max\. Inc/Cyc:"),
    ("restrict", r"Register Restrictions:"),
    ("filterdep", r"Filter Dependency:"),
    ("definition", r"Definition:"),
    ("note", r"NOTE:"),
]
FIELD_RE = re.compile("|".join("(?P<%s>%s)" % (k, p) for k, p in FIELD_KEYS))

UMASK_TABLE_RE = re.compile(r"Table (2-\d+)\.\s*Unit Masks for\s+(.*)$")
BITS_RE = re.compile(r"^[b6ь][01xX×]+$")


def clean(text):
    """Markdown and escape residue out, homoglyphs mapped, spaces squeezed."""
    text = text.replace("\\_", "_").replace("\\*", "*").replace("**", "").replace("<sup>®</sup>", "®")
    text = re.sub(r"<[^>]+>", "", text)
    # LaTeX residue of the conversion: '${\sf AD}$', '$\ensuremath{\mathsf{AD}}$'
    text = re.sub(r"\$([^$]*)\$", lambda m: re.sub(r"\\[a-zA-Z]+|[{}^]", "", m.group(1)).strip(), text)
    text = text.replace("•", " ").replace("\t", " ")
    return re.sub(r"\s+", " ", text).strip()


def clean_name(text):
    """A name as printed (homoglyphs mapped, escapes removed); no OCR repair."""
    text = clean(text).lstrip("#- ").strip()
    return text.translate(HOMOGLYPHS)


def name_key(text):
    """Normalised event-name key for matching the list against the summary."""
    return clean_name(text).upper().replace(" ", "_")


def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def find_line(lines, pattern, start=0):
    rx = re.compile(pattern)
    for i in range(start, len(lines)):
        if rx.search(lines[i]):
            return i
    raise ValueError("pattern not found in manual: " + pattern)


def looks_like_event_heading(line):
    raw = line.strip()
    if not raw:
        return False
    text = clean_name(raw)
    if not re.fullmatch(r"[A-Za-z0-9_ ]+", text):
        return False
    if text.lower().startswith(("table", "note", "extension", "definition")):
        return False
    return bool(re.search(r"[A-Z]", text)) and len(text) >= 3


def parse_fields(block_text):
    """Split an event block ('Title: ... Category: ... Event Code: ...')."""
    fields = {}
    notes = []
    matches = list(FIELD_RE.finditer(block_text))
    for i, m in enumerate(matches):
        key = m.lastgroup
        end = matches[i + 1].start() if i + 1 < len(matches) else len(block_text)
        val = re.sub(r"\s*-\s*$", "", block_text[m.end():end]).strip(" ,-")
        if key == "note":
            notes.append(val)
        elif key not in fields:
            fields[key] = val
    fields["notes"] = notes
    return fields


def parse_umask_row(line, has_filter_col):
    """One row of a 'Unit Masks for X' table: (name, bits, filterdep, desc)."""
    cells = [c.strip() for c in line.split("\t")]
    for i in range(len(cells) - 1):
        name = clean_name(cells[i])
        bits = cells[i + 1].translate(HOMOGLYPHS).replace(" ", "")
        if re.fullmatch(r"[A-Za-z0-9_ ]+", name) and BITS_RE.match(bits):
            rest = [c for c in cells[i + 2:]]
            fdep = ""
            if has_filter_col and rest:
                fdep = clean(rest[0])
                rest = rest[1:]
            desc = clean(" ".join(r for r in rest if r))
            return name, bits, fdep, desc
    return None


def parse_event_list(lines, start, end):
    """Events of one box: list of dicts with raw fields and umask rows."""
    events = []
    i = start + 1
    cur = None
    table = None
    while i < end:
        line = lines[i]
        m = UMASK_TABLE_RE.search(clean(line))
        if m and cur is not None:
            tname = name_key(m.group(2))
            hdr = ""
            j = i + 1
            while j < end and not lines[j].strip():
                j += 1
            if j < end and lines[j].startswith("Extension"):
                hdr = lines[j]
                i = j
            if table is None or table["table"] != m.group(1):
                table = {"table": m.group(1), "for": tname, "rows": [],
                         "filter_col": "Filter Dep" in hdr, "line": i + 1}
                cur["tables"].append(table)
            elif hdr:
                table["filter_col"] = table["filter_col"] or "Filter Dep" in hdr
            i += 1
            continue
        if table is not None:
            row = parse_umask_row(line, table["filter_col"])
            if row:
                table["rows"].append(row + (i + 1,))
                i += 1
                continue
        if looks_like_event_heading(line):
            # An event heading is followed, within a few lines, by its fields.
            window = " ".join(clean(x) for x in lines[i + 1:i + 14])
            if "Event Code:" in window and "Event Code:" not in clean(line):
                cur = {"heading": clean_name(line), "line": i + 1, "text": [],
                       "tables": []}
                events.append(cur)
                table = None
                i += 1
                continue
        if cur is not None and table is None:
            cur["text"].append(line)
        i += 1
    for ev in events:
        ev["fields"] = parse_fields(clean(" ".join(ev["text"])))
        del ev["text"]
    return events


def parse_summary(lines, start, end):
    """The 'Events Ordered By Code' table: name -> (code, ctrs, ext, maxinc)."""
    out = {}
    for i in range(start + 1, end):
        cells = [c.strip() for c in lines[i].split("\t")]
        if len(cells) < 4 or cells[0] == "Symbol Name":
            continue
        if not re.fullmatch(r"0x[0-9a-fA-F]+", cells[1]):
            continue
        name = clean_name(cells[0]).upper().replace(" ", "")
        has_ext = len(cells) >= 6 and re.fullmatch(r"[01]", cells[3] or "")
        rec = {
            "code": int(cells[1], 16),
            "ctrs": cells[2],
            "ext": int(cells[3]) if has_ext else 0,
            "maxinc": cells[4] if has_ext else cells[3],
            "desc": cells[5] if has_ext else (cells[4] if len(cells) > 4 else ""),
            "line": i + 1,
        }
        out.setdefault(name, []).append(rec)
    return out


def chapter2(lines):
    """First line of chapter 2 proper (skips the table of contents)."""
    return find_line(lines, r"^#+\s*2\.1 Uncore Per-Socket Performance Monitoring Control")


def section_bounds(lines, box):
    lst, summ, endp = BOXES[box]
    summ_start = find_line(lines, summ, chapter2(lines))
    s = find_line(lines, lst, summ_start)
    e = find_line(lines, endp, s)
    return summ_start, s, e


def read_box(lines, box):
    summ_start, s, e = section_bounds(lines, box)
    summary = parse_summary(lines, summ_start, s)
    return parse_event_list(lines, s, e), summary, (s + 1, e)


def table_lines(lines, title_pattern, stop_pattern):
    """Lines from the first table heading matching title_pattern (outside the
    table of contents) to the first line matching stop_pattern after it."""
    s = find_line(lines, title_pattern, chapter2(lines))
    e = find_line(lines, stop_pattern, s + 1) if stop_pattern else len(lines)
    return s, lines[s:e]


def idi_opcodes(lines):
    """Table 2-20: CBo FILTER1.opc values -> (opcode, definition, line)."""
    s, rows = table_lines(lines, r"Table 2-20\. Opcode Match by IDI Packet Type",
                          r"2\.3\.3 CBo Performance Monitoring Events")
    out = []
    for k, line in enumerate(rows):
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) >= 3 and re.fullmatch(r"0x1[0-9A-Fa-f]{2}", cells[0]):
            out.append((int(cells[0], 16), clean(cells[1]), clean(cells[2]), s + k + 1))
    return out


def llc_states(definition_and_notes):
    """LLC_LOOKUP note (2.3.6): '0 = I (miss), 1 = S, 2 = E, 3 = M, 4 = F'."""
    m = re.search(r"((?:\d+\s*=\s*[A-Z](?:\s*\([a-z]+\))?\s*,?\s*)+)", definition_and_notes)
    if not m:
        return []
    return [(int(b), st, (extra or "").strip("() "))
            for b, st, extra in re.findall(r"(\d+)\s*=\s*([A-Z])(\s*\([a-z]+\))?", m.group(1))]


def ha_opcode_classes(lines):
    """Table 2-65: OPCODEMATCH[5:4] message-class encoding -> {name: code}."""
    s = find_line(lines, r"Table 2-65\. HA\\?_PCI\\?_PMON\\?_BOX\\?_OPCODEMATCH", chapter2(lines))
    text = clean(" ".join(lines[s:s + 6])).translate(HOMOGLYPHS)
    return {name: int(code, 2) for code, name in re.findall(r"\b([01]{2}) - (HOM0|HOM1|NDR|SNP)\b", text)}


def msg_classes(lines):
    """Table 2-263: QPI message classes -> [(code, name, definition, line)]."""
    s, rows = table_lines(lines, r"Table 2-263\. Intel", r"Table 2-264\.")
    out = []
    for k, line in enumerate(rows):
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) >= 3 and re.fullmatch(r"b[01]{4}", cells[0]):
            name = clean_name(cells[1]).upper()
            if name.startswith("HOM"):  # 'HOMO' in the conversion: HOM0
                name = name[:3] + name[3:].replace("O", "0")
            out.append((int(cells[0][1:], 2), name, clean(cells[2]), s + k + 1))
    return out


def not_on_v3(lines):
    """Table 2-264 marks opcodes the v3 family does not implement:
    'Name (not on Intel Xeon Processor E5 and E7 v3 family) (aka Other)'."""
    s, rows = table_lines(lines, r"Table 2-264\. Opcode Match by Message Class \(Sheet 1",
                          r"Table 2-265\. Opcodes")
    names = set()
    for line in rows:
        for cell in line.split("\t"):
            cell = clean(cell)
            m = re.match(r"([A-Za-z0-9_]+) \(not on", cell)
            if m:
                names.add(m.group(1))
                aka = re.search(r"\(aka ([A-Za-z0-9_]+)\)", cell)
                if aka:
                    names.add(aka.group(1))
    return names


def qpi_opcodes(lines):
    """Table 2-265: [(name, opc, msg class, description, line)].  A row whose
    name cell is empty takes the next bare name line (the conversion split
    the IntLogical row)."""
    s, rows = table_lines(lines, r"Table 2-265\. Opcodes \(Alphabetical Listing\) \(Sheet 1",
                          None)
    out = []
    pending = None
    for k, line in enumerate(rows):
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) >= 5 and re.fullmatch(r"[01]{4}", cells[1]):
            rec = [clean_name(cells[0]), int(cells[1], 2),
                   clean_name(cells[2]).upper(),
                   clean(cells[4]), s + k + 1]
            if rec[2].startswith("HOM"):
                rec[2] = rec[2][:3] + rec[2][3:].replace("O", "0")
            if rec[0]:
                out.append(tuple(rec))
            else:
                pending = rec
        elif pending is not None and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", clean_name(line)):
            pending[0] = clean_name(line)
            out.append(tuple(pending))
            pending = None
    return out


def qpi_derived(lines):
    """Table 2-176: derived message events -> [(name, match, mask, desc, line)]
    with match/mask as 64-bit values (MATCH1:MATCH0, MASK1:MASK0)."""
    s, rows = table_lines(lines, r"Table 2-176\. Message Events Derived",
                          r"2\.9\.2\.4 Intel")
    out = []
    for k, line in enumerate(rows):
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) < 4 or not re.match(r"(DRS|NCB|NCS|NDR|HOM|SNP)\.", cells[0]):
            continue

        def val(cell):
            m0 = re.match(r"(0x[0-9A-Fa-f]+)", cell)
            m1 = re.search(r"(?:Match1|Mask1) \[19:16\] (0x[0-9A-Fa-f]+)", cell)
            v = int(m0.group(1), 16)
            if m1:
                v |= int(m1.group(1), 16) << (32 + 16)
            return v
        out.append((clean(cells[0]).replace(" ", ""), val(cells[1]), val(cells[2]),
                    clean(cells[3]), s + k + 1))
    return out
