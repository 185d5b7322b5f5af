"""Read libpfm4 event-table headers (lib/events/*.h) and check their structure.

Used by the audit (audit.py and its audit_<generation>.py modules) for our
tables and for upstream libpfm4's.  A header is run through the C
preprocessor (upstream headers build unit masks with function-like macros),
then its 'static const intel_x86_{umask,entry}_t name[] = {...};' arrays are
parsed as designated initialisers and their expressions evaluated against
the flag and modifier values below.

The values are libpfm4's (lib/pfmlib_intel_x86_priv.h and
lib/pfmlib_intel_snbep_unc_priv.h, libpfm4 4.12.1/4.13); check_abi() compares
them with the headers of a libpfm4 tree when one is given.
"""

import os
import re
import subprocess

INTEL_X86_FLAGS = {
    "NCOMBO": 0x1, "FALLBACK_GEN": 0x2, "PEBS": 0x4, "DFL": 0x8, "GRP_EXCL": 0x10,
    "NHM_OFFCORE": 0x20, "EXCL_GRP_GT": 0x40, "FIXED": 0x80, "NO_AUTOENCODE": 0x100,
    "CODE_OVERRIDE": 0x200, "LDLAT": 0x400, "GRP_DFL_NONE": 0x800, "FRONTEND": 0x1000,
    "FETHR": 0x2000, "EXCL_GRP_BUT_0": 0x4000, "GRP_REQ": 0x8000, "FILT_UMASK": 0x10000,
    "FORCE_FILT0": 0x20000, "SPEC": 0x40000,
}
SNBEP_ATTRS = ["E", "I", "T8", "T5", "TF", "CF", "NF", "FF", "A", "NF1", "ISOC", "NC",
               "CF1", "TF1", "CF2", "LOC", "REM", "LMEM", "RMEM", "DNID", "RCSNID"]
# Composite modifier sets of libpfm4 (pfmlib_intel_snbep_unc_priv.h), as
# lists of SNBEP_ATTRS names, for reading upstream tables.
COMPOSITES = {
    "HSWEP_UNC_CBO_ATTRS": ["E", "T8", "CF1", "TF"],
    "HSWEP_UNC_CBO_NID_ATTRS": ["E", "T8", "CF1", "TF", "NF1"],
    "HSWEP_UNC_HA_ATTRS": ["E", "T8", "I"],
    "HSWEP_UNC_IMC_ATTRS": ["I", "E", "T8"],
    "HSWEP_UNC_IRP_ATTRS": ["E", "T8", "I"],
    "HSWEP_UNC_PCU_ATTRS": ["I", "E", "T5"],
    "HSWEP_UNC_PCU_BAND_ATTRS": ["I", "E", "T5", "FF"],
    "HSWEP_UNC_QPI_ATTRS": ["I", "E", "T8"],
    "HSWEP_UNC_R2PCIE_ATTRS": ["I", "E", "T8"],
    "HSWEP_UNC_R3QPI_ATTRS": ["I", "E", "T8"],
    "HSWEP_UNC_SBO_ATTRS": ["E", "T8", "I"],
    "HSWEP_UNC_UBO_ATTRS": ["I", "E", "T8"],
    "SNBEP_UNC_HA_OPC_ATTRS": ["I", "E", "T8", "A"],
}


def symbols():
    sym = {"INTEL_X86_" + k: v for k, v in INTEL_X86_FLAGS.items()}
    for i, a in enumerate(SNBEP_ATTRS):
        sym["SNBEP_UNC_ATTR_" + a] = i
        sym["_SNBEP_UNC_ATTR_" + a] = 1 << i
    for k, names in COMPOSITES.items():
        sym[k] = sum(1 << SNBEP_ATTRS.index(n) for n in names)
    sym["NULL"] = 0
    return sym


def check_abi(libpfm4_dir):
    """Compare the values above with a libpfm4 tree; list of mismatches."""
    bad = []
    defs = {}
    for f in ("lib/pfmlib_intel_x86_priv.h", "lib/pfmlib_intel_snbep_unc_priv.h"):
        with open(os.path.join(libpfm4_dir, f), encoding="utf-8", errors="replace") as fh:
            text = re.sub(r"\\\n", " ", fh.read())
        for m in re.finditer(r"^#define\s+(\w+)\s+(.+)$", text, re.M):
            defs[m.group(1)] = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
    sym = symbols()
    cache = {}

    def value(name, depth=0):
        if name in cache:
            return cache[name]
        if depth > 20 or name not in defs:
            raise KeyError(name)
        expr = defs[name]
        v = Expr(tokenize(expr), lambda n: value(n, depth + 1), {}).parse()
        cache[name] = v
        return v
    for name, want in sym.items():
        if name == "NULL":
            continue
        try:
            got = value(name)
        except (KeyError, ValueError):
            bad.append("%s: not defined in %s" % (name, libpfm4_dir))
            continue
        if got != want:
            bad.append("%s: libpfm4 has 0x%x, the audit assumes 0x%x" % (name, got, want))
    return bad


TOKEN_RE = re.compile(r"""\s*(?:
    (?P<str>"(?:[^"\\]|\\.)*")|
    (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*)|
    (?P<id>[A-Za-z_]\w*)|
    (?P<op><<|>>|[{}\[\]().,=|&+\-~;*])
)""", re.X | re.S)


def tokenize(text):
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("cannot tokenize near: %r" % text[pos:pos + 40])
        pos = m.end()
        for kind in ("str", "num", "id", "op"):
            if m.group(kind) is not None:
                out.append((kind, m.group(kind)))
                break
    return out


def unescape(s):
    return bytes(s[1:-1], "utf-8").decode("unicode_escape")


class Expr:
    """Integer expressions: | & << >> + - ~ ( ) casts-free, identifiers via
    lookup(), LIBPFM_ARRAY_SIZE(x) via sizes."""
    PREC = {"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4}

    def __init__(self, toks, lookup, sizes):
        self.t, self.i, self.lookup, self.sizes = toks, 0, lookup, sizes

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def parse(self, minp=0):
        left = self.unary()
        while True:
            kind, op = self.peek()
            if kind != "op" or op not in self.PREC or self.PREC[op] < minp:
                return left
            self.take()
            right = self.parse(self.PREC[op] + 1)
            left = {"|": left | right, "&": left & right, "<<": left << right,
                    ">>": left >> right, "+": left + right, "-": left - right}[op]

    def unary(self):
        kind, tok = self.take()
        if kind == "op" and tok == "~":
            return ~self.unary() & 0xFFFFFFFFFFFFFFFF
        if kind == "op" and tok == "-":
            return -self.unary()
        if kind == "op" and tok == "(":
            v = self.parse()
            self.expect(")")
            return v
        if kind == "num":
            return int(re.sub(r"[uUlL]+$", "", tok), 0)
        if kind == "id":
            if tok == "LIBPFM_ARRAY_SIZE":
                self.expect("(")
                _, name = self.take()
                self.expect(")")
                return self.sizes[name]
            return self.lookup(tok)
        raise ValueError("unexpected token %r" % tok)

    def expect(self, op):
        kind, tok = self.take()
        if tok != op:
            raise ValueError("expected %r, got %r" % (op, tok))


def preprocess(path, cpp="cpp"):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    # Comments out, includes out (event headers include nothing we need).
    text = re.sub(r"^\s*#\s*include.*$", "", text, flags=re.M)
    try:
        res = subprocess.run([cpp, "-P", "-undef", "-nostdinc", "-x", "c", "-"], input=text,
                             capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("cannot preprocess %s with %s: %s" % (path, cpp, e))
    return res.stdout


class Table:
    """One header: events (list of dicts) and the umask arrays they use."""

    def __init__(self, path, events_array=None):
        self.path = path
        self.arrays = {}
        self.kinds = {}
        toks = tokenize(preprocess(path))
        self._parse(toks)
        entries = [n for n, k in self.kinds.items() if k == "intel_x86_entry_t"]
        if events_array is None:
            if len(entries) != 1:
                raise SystemExit("%s: %d event arrays; name one" % (path, len(entries)))
            events_array = entries[0]
        self.name = events_array
        self.events = self.arrays[events_array]

    def _parse(self, toks):
        i = 0
        sym = symbols()
        sizes = {}
        while i < len(toks):
            # static const TYPE NAME [ ] = { ... } ;
            if toks[i] == ("id", "static"):
                j = i + 1
                while toks[j] != ("op", "["):
                    j += 1
                typ, name = toks[j - 2][1], toks[j - 1][1]
                j += 2  # [ ]
                assert toks[j] == ("op", "="), toks[j]
                j += 1
                depth, k = 0, j
                while True:
                    if toks[k] == ("op", "{"):
                        depth += 1
                    elif toks[k] == ("op", "}"):
                        depth -= 1
                        if depth == 0:
                            break
                    k += 1
                elems = self._elements(toks[j + 1:k], sym, sizes)
                self.arrays[name] = elems
                self.kinds[name] = typ
                sizes[name] = len(elems)
                i = k + 2
            else:
                i += 1
        self.sizes = sizes

    def _elements(self, toks, sym, sizes):
        elems = []
        i = 0
        while i < len(toks):
            if toks[i] == ("op", ","):
                i += 1
                continue
            assert toks[i] == ("op", "{"), toks[i:i + 3]
            depth, k = 0, i
            while True:
                if toks[k] == ("op", "{"):
                    depth += 1
                elif toks[k] == ("op", "}"):
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            elems.append(self._fields(toks[i + 1:k], sym, sizes))
            i = k + 1
        return elems

    def _fields(self, toks, sym, sizes):
        out = {}
        parts, cur, depth = [], [], 0
        for t in toks:
            if t == ("op", ",") and depth == 0:
                parts.append(cur)
                cur = []
                continue
            if t in (("op", "("), ("op", "{")):
                depth += 1
            elif t in (("op", ")"), ("op", "}")):
                depth -= 1
            cur.append(t)
        if cur:
            parts.append(cur)
        for p in parts:
            if not p:
                continue
            assert p[0] == ("op", "."), p
            field = p[1][1]
            j = 2
            if p[j] == ("op", "["):
                field += "[%s]" % p[j + 1][1]
                j += 3
            assert p[j] == ("op", "="), p
            rhs = p[j + 1:]
            if rhs and all(k == "str" for k, _ in rhs):
                out[field] = "".join(unescape(s) for _, s in rhs)
            elif len(rhs) == 1 and rhs[0][0] == "id" and rhs[0][1] in self.arrays:
                out[field] = rhs[0][1]
            else:
                def lookup(name):
                    if name in sym:
                        return sym[name]
                    raise ValueError("unknown symbol %s" % name)
                out[field] = Expr(rhs, lookup, sizes).parse()
        return out

    def umasks(self, ev):
        name = ev.get("umasks")
        return self.arrays.get(name, []) if isinstance(name, str) else []


def grpid(u):
    return u.get("grpid", 0) & 0xff


def validate(table, ucode_mask=0xff00):
    """libpfm4 table invariants, plus ours; returns a list of problems.

    ucode_mask: the control-register bits a unit mask may set (umask[15:8];
    the tables generated from Intel's perfmon data also use bits 63:32,
    UMaskExt and the IIO channel/function masks)."""
    p = []
    names = set()
    flags = INTEL_X86_FLAGS
    for ev in table.events:
        n = ev.get("name", "?")
        if not ev.get("name"):
            p.append("event without a name")
        if n in names:
            p.append("%s: duplicate event name" % n)
        names.add(n)
        if not ev.get("desc", "").strip():
            p.append("%s: empty description" % n)
        if not ev.get("cntmsk"):
            p.append("%s: counter mask is zero" % n)
        code = ev.get("code", 0)
        if code & ~(0xff | (1 << 21)):
            p.append("%s: code 0x%x has bits outside ev_sel[7:0] and ev_sel_ext (bit 21)" % (n, code))
        if ev.get("flags", 0) & flags["NCOMBO"]:
            p.append("%s: NCOMBO is a unit-mask flag" % n)
        modmsk, modreq = ev.get("modmsk", 0), ev.get("modmsk_req", 0)
        if modreq & ~modmsk:
            p.append("%s: required modifiers 0x%x not in modmsk 0x%x" % (n, modreq, modmsk))
        ums = table.umasks(ev)
        if ev.get("numasks", 0) != len(ums):
            p.append("%s: numasks %d but %d unit masks" % (n, ev.get("numasks", 0), len(ums)))
        if ums and not ev.get("ngrp"):
            p.append("%s: unit masks but ngrp is 0" % n)
        if not ums and ev.get("ngrp"):
            p.append("%s: ngrp without unit masks" % n)
        used = {grpid(u) for u in ums}
        if ums and used != set(range(ev.get("ngrp", 0))):
            p.append("%s: groups used %s, ngrp %d" % (n, sorted(used), ev.get("ngrp", 0)))
        unames = set()
        dfl = {}
        for u in ums:
            un = u.get("uname", "?")
            if un in unames:
                p.append("%s:%s duplicate unit mask name" % (n, un))
            unames.add(un)
            if not re.fullmatch(r"[A-Za-z0-9_]+", un):
                p.append("%s:%s unit mask name is not [A-Za-z0-9_]" % (n, un))
            if not u.get("udesc", "").strip():
                p.append("%s:%s empty description" % (n, un))
            if u.get("ucode", 0) & 0xff:
                p.append("%s:%s ucode 0x%x: unit mask must be in bits 15:8" % (n, un, u["ucode"]))
            if u.get("ucode", 0) & ~ucode_mask:
                p.append("%s:%s ucode 0x%x sets bits outside 0x%x" % (n, un, u["ucode"], ucode_mask))
            if u.get("modhw", 0) & ~modmsk:
                p.append("%s:%s modhw not a subset of modmsk" % (n, un))
            if u.get("umodmsk_req", 0) & ~modmsk:
                p.append("%s:%s required modifier not in the event's modmsk" % (n, un))
            if u.get("uflags", 0) & flags["DFL"]:
                dfl.setdefault(grpid(u), []).append(un)
        for g, lst in dfl.items():
            if len(lst) > 1:
                p.append("%s: group %d has %d defaults %s" % (n, g, len(lst), lst))
        if len(ums) == 1 and not ums[0].get("uflags", 0) & flags["DFL"]:
            p.append("%s: single unit mask without DFL" % n)
        comb = [u for u in ums if not u.get("uflags", 0) & flags["NCOMBO"] and not u.get("uequiv")]
        for a in range(len(comb)):
            for b in range(a + 1, len(comb)):
                ua, ub = comb[a], comb[b]
                if grpid(ua) == grpid(ub) and ua.get("ucode", 0) & ub.get("ucode", 0):
                    p.append("%s: combinable unit masks %s and %s overlap" % (n, ua["uname"], ub["uname"]))
    return p
