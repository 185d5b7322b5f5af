"""Shared helpers for the client-uncore table generators and audits.

Writes libpfm4-format event tables (intel_x86_entry_t / intel_x86_umask_t)
from the JSON intermediates in libpfm4-events/data/, and reads such headers
back (read_header) so the audits compare the committed C, not the JSON.
Standard library only.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)                    # libpfm4-events/
DATA = os.path.join(ROOT, "data")
EVENTS = os.path.join(ROOT, "events")

# Values of the libpfm4 names our tables use (lib/pfmlib_intel_x86_priv.h of
# libpfm4 4.12.1, and the NHM_UNC attribute indices of
# lib/pfmlib_intel_nhm_unc.c, which our glue redefines identically).
SYMBOLS = {
    "INTEL_X86_NCOMBO": 0x00001,
    "INTEL_X86_DFL": 0x00008,
    "INTEL_X86_GRP_EXCL": 0x00010,
    "INTEL_X86_FIXED": 0x00080,
    "INTEL_X86_NO_AUTOENCODE": 0x00100,
    "INTEL_X86_GRP_DFL_NONE": 0x00800,
    "INTEL_X86_FORCE_FILT0": 0x20000,
    "_NHM_UNC_ATTR_E": 1 << 0,
    "_NHM_UNC_ATTR_I": 1 << 1,
    "_NHM_UNC_ATTR_C": 1 << 2,
    "_NHM_UNC_ATTR_O": 1 << 3,
}


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump_json(obj):
    return json.dumps(obj, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def num(v):
    """JSON numbers are written as hex strings ("0x41") for readability."""
    if isinstance(v, int):
        return v
    return int(v, 0)


def c_string(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"')
    s = s.replace("??", "?\\?")     # no trigraphs
    return '"' + s + '"'


def c_flags(names):
    return " | ".join(names) if names else "0"


def c_u64(v):
    return "0x%xULL" % v if v > 0xffffffff else "0x%x" % v


def c_ident(s):
    return re.sub(r"[^a-z0-9_]", "_", s.lower())


def emit_header(path_name, guard, comment_lines, tables):
    """Return the text of one header holding one or more entry arrays.

    tables: list of dicts {array, prefix, events}; events as in the JSON
    intermediate (name, desc, code, cntmsk, modmsk, flags, umasks...).
    """
    out = ["/*"]
    out += [(" * " + l).rstrip() for l in comment_lines]
    out += [" */", "#ifndef " + guard, "#define " + guard, ""]
    for t in tables:
        for ev in t["events"]:
            if not ev.get("umasks"):
                continue
            out.append("static const intel_x86_umask_t %s_%s[] = {"
                       % (t["prefix"], c_ident(ev["name"])))
            for um in ev["umasks"]:
                out.append("\t{ .uname  = %s," % c_string(um["uname"]))
                out.append("\t  .udesc  = %s," % c_string(um["udesc"]))
                if um.get("uequiv"):
                    out.append("\t  .uequiv = %s," % c_string(um["uequiv"]))
                out.append("\t  .ucode  = %s," % c_u64(num(um["ucode"])))
                uf = um.get("ufilters")
                if isinstance(uf, dict):        # {slot: value}
                    for slot in sorted(uf):
                        out.append("\t  .ufilters[%d] = 0x%xULL," % (slot, num(uf[slot])))
                elif uf:
                    out.append("\t  .ufilters[0] = 0x%xULL," % num(uf[0]))
                if um.get("ucntmsk"):
                    out.append("\t  .ucntmsk = %s," % c_u64(num(um["ucntmsk"])))
                if um.get("uflags"):
                    out.append("\t  .uflags = %s," % c_flags(um["uflags"]))
                if um.get("grpid"):
                    out.append("\t  .grpid  = %d," % um["grpid"])
                if um.get("modhw"):
                    out.append("\t  .modhw  = %s," % c_flags(um["modhw"]))
                out.append("\t},")
            out.append("};")
            out.append("")
        out.append("static const intel_x86_entry_t %s[] = {" % t["array"])
        for ev in t["events"]:
            out.append("{ .name    = %s," % c_string(ev["name"]))
            out.append("  .desc    = %s," % c_string(ev["desc"]))
            if ev.get("equiv"):
                out.append("  .equiv   = %s," % c_string(ev["equiv"]))
            out.append("  .code    = 0x%x," % num(ev["code"]))
            out.append("  .cntmsk  = %s," % c_u64(num(ev["cntmsk"])))
            out.append("  .modmsk  = %s," % c_flags(ev.get("modmsk", [])))
            if ev.get("flags"):
                out.append("  .flags   = %s," % c_flags(ev["flags"]))
            if ev.get("umasks"):
                ngrp = 1 + max(u.get("grpid", 0) for u in ev["umasks"])
                out.append("  .ngrp    = %d," % ngrp)
                out.append("  .numasks = LIBPFM_ARRAY_SIZE(%s_%s),"
                           % (t["prefix"], c_ident(ev["name"])))
                out.append("  .umasks  = %s_%s," % (t["prefix"], c_ident(ev["name"])))
            out.append("},")
        out.append("};")
        out.append("")
    out.append("#endif /* " + guard + " */")
    return "\n".join(out) + "\n"


def write_or_check(path, text, check):
    """Write path, or with check=True report whether it differs. Returns ok."""
    old = read_text(path) if os.path.exists(path) else None
    if check:
        if old != text:
            print("DIFFERS: %s is not what the generator produces; "
                  "run the generator without --check and review the diff" % path)
            return False
        print("same: %s" % os.path.relpath(path, ROOT))
        return True
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % os.path.relpath(path, ROOT))
    return True


def generator_main(build, argv=None):
    """build() -> list of (path, text). --check compares instead of writing."""
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    ok = True
    for path, text in build():
        ok &= write_or_check(path, text, check)
    return 0 if ok else 1


# ---------------------------------------------------------------------------
# Reading a header back.

_STR = r'"(?:[^"\\]|\\.)*"'


def _eval(expr):
    expr = expr.strip()
    total = 0
    for part in expr.split("|"):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)(?:ULL|ULL?|U)?", part)
        if m:
            total |= int(m.group(1), 0)
        elif part in SYMBOLS:
            total |= SYMBOLS[part]
        else:
            raise ValueError("unknown symbol in table: %r" % part)
    return total


def _unstr(s):
    return bytes(s[1:-1], "utf-8").decode("unicode_escape")


def _fields(block):
    """Designated initialisers of one { ... } block -> dict."""
    out = {}
    for m in re.finditer(r"\.(\w+)(\[\d\])?\s*=\s*(%s|[^,]+)," % _STR, block):
        key = m.group(1) + (m.group(2) or "")
        val = m.group(3).strip()
        if val.startswith('"'):
            out[key] = _unstr(val)
        elif key in ("umasks", "numasks"):
            out[key] = val
        else:
            out[key] = _eval(val)
    return out


def _blocks(body):
    """Top-level { ... } blocks of an array body (strings may hold braces)."""
    blocks, depth, start, i = [], 0, None, 0
    while i < len(body):
        c = body[i]
        if c == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                blocks.append(body[start + 1:i])
        i += 1
    return blocks


def read_header(path):
    """Parse one of our generated headers: {array_name: [event dicts]}.

    Each event dict has the entry fields plus 'umasks' (list of field dicts).
    """
    text = read_text(path)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    umask_arrays, entry_arrays = {}, {}
    for m in re.finditer(r"static const (intel_x86_umask_t|intel_x86_entry_t)\s+(\w+)\[\]\s*=\s*\{(.*?)\n\};",
                         text, flags=re.S):
        kind, name, body = m.groups()
        recs = [_fields(b) for b in _blocks(body)]
        (umask_arrays if kind == "intel_x86_umask_t" else entry_arrays)[name] = recs
    for arr in entry_arrays.values():
        for ev in arr:
            ev["umasks_name"] = ev.get("umasks")
            ev["umasks"] = umask_arrays.get(ev.get("umasks"), []) if "umasks" in ev else []
    return entry_arrays
