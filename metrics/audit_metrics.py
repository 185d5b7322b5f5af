#!/usr/bin/env python3
"""Audit the metric files against the manuals they quote.

  python3 metrics/audit_metrics.py --seeds ../shared/seeds [--metrics metrics]

hswep.metrics: every row of the Haswell-EP manual's "Common Metrics (Derived
Events)" tables (seeds/000, sections 2.3.5 ... 2.10.5) has a stanza of the
same name and box whose `formula` is the row's equation and whose `title` is
the row's definition, verbatim (whitespace and the (R) sign aside); and no
stanza claims one of those sections without a row there.
nhm.metrics: every `formula` occurs in the Nehalem guide (seeds/002).
Prints one line per problem and a last line "audit-metrics: N passed, M failed";
exit status 1 when anything failed."""
import argparse
import os
import re
import sys

HSX = '000_e75f66526956f957.txt'
NHM = '002_c151f55183a36f9a.txt'
SECTIONS = {'2.3.5': 'cbo', '2.4.5': 'sbo', '2.5.4': 'ha', '2.6.6': 'imc',
            '2.8.5': 'pcu', '2.9.5': 'qpi', '2.10.5': 'r2pcie'}


def norm(text):
    text = text.replace('\u00ae', '').replace('\\_', '_').replace('\u2013', '-')
    text = text.replace('\\*', '*').replace('$', '')  # the text conversion's escapes and TeX math
    return ' '.join(text.split())


def seed_rows(path):
    """{(section, name): (definition, equation)} of the Common Metrics tables."""
    rows = {}
    section = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.search(r'(2\.\d+\.\d+) .*Common Metrics \(Derived Events\)', line)
            if m and not line.startswith('\t'):
                section = m.group(1) if m.group(1) in SECTIONS else None
                continue
            if section and re.match(r'^#+ *2\.\d+\.\d+', line) and 'Common Metrics' not in line:
                section = None
                continue
            if not section or '\t' not in line or line.startswith('Symbol Name'):
                continue
            m = re.match(r'^([A-Za-z][A-Za-z0-9_]*):\s*([^\t]*)\t(.*)$', line.rstrip('\n'))
            if m:
                rows[(section, m.group(1))] = (norm(m.group(2)), norm(m.group(3)))
    return rows


def substitute(text, var, value):
    """The metric files' variable rule (src/metrics/catalog.c): a lower-case
    letter not next to another lower-case letter, outside numbers."""
    def word(m):
        w = m.group(0)
        if w[0].isdigit():
            return w
        return re.sub(r'(?<![a-z])%s(?![a-z])' % re.escape(var), value, w)
    return re.sub(r'[A-Za-z0-9_]+', word, text)


def stanzas(path):
    """[(line, name, {key: value})] of a metric file."""
    out = []
    cur = None
    with open(path, encoding='ascii') as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip('\n')
            body = re.sub(r'(^|[ \t])#.*$', '', line)
            if not body.strip():
                continue
            if not body[0].isspace():
                cur = None
                w = body.split(None, 1)
                if w[0] == 'metric':
                    cur = (no, w[1].strip(), {})
                    out.append(cur)
                continue
            if cur is not None:
                w = body.strip().split(None, 1)
                cur[2].setdefault(w[0], w[1] if len(w) > 1 else '')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seeds', required=True)
    ap.add_argument('--metrics', default=os.path.join(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    passed = failed = 0

    def bad(msg):
        nonlocal failed
        failed += 1
        print('FAIL ' + msg)

    rows = seed_rows(os.path.join(args.seeds, HSX))
    if len(rows) < 90:
        bad('only %d Common Metrics rows found in %s' % (len(rows), HSX))
    hsx = os.path.join(args.metrics, 'hswep.metrics')
    seen = set()
    for line, name, keys in stanzas(hsx):
        sec = keys.get('section', '').split(',')[0].strip()
        if sec not in SECTIONS or keys.get('box') == 'none':
            continue
        where = 'hswep.metrics line %d: %s' % (line, name)
        row = rows.get((sec, name))
        if row is None:
            bad('%s: no row %s in HSX %s' % (where, name, sec))
            continue
        seen.add((sec, name))
        definition, equation = row
        ok = True
        if keys.get('box') != SECTIONS[sec]:
            bad('%s: box %s, but HSX %s is the %s' % (where, keys.get('box'), sec, SECTIONS[sec]))
            ok = False
        if norm(keys.get('formula', '')) != equation:
            bad('%s: formula differs from HSX %s:\n  file:   %s\n  manual: %s'
                % (where, sec, norm(keys.get('formula', '')), equation))
            ok = False
        title = norm(keys.get('title', ''))
        if definition and title != definition:
            bad('%s: title differs from HSX %s:\n  file:   %s\n  manual: %s' % (where, sec, title, definition))
            ok = False
        if not definition and 'the manual gives no definition' not in title:
            bad('%s: HSX %s gives no definition; the title must say so' % (where, sec))
            ok = False
        passed += ok
    for key in sorted(set(rows) - seen):
        bad('HSX %s %s has no stanza in hswep.metrics' % key)

    with open(os.path.join(args.seeds, NHM), encoding='utf-8') as f:
        guide = norm(f.read())
    for line, name, keys in stanzas(os.path.join(args.metrics, 'nhm.metrics')):
        formula = norm(keys.get('formula', ''))
        if keys.get('box') == 'none':
            continue  # our summaries
        var = keys.get('vars', '')
        if var:
            # The guide states a formula for one value (ch0): check that one.
            letter, values = var.split('=', 1)
            first = re.split(r'[-,]', values)[0]
            formula = substitute(formula, letter, first)
        if formula and formula in guide:
            passed += 1
        else:
            bad('nhm.metrics line %d: %s: formula not in the guide: %s' % (line, name, formula))

    print('audit-metrics: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
