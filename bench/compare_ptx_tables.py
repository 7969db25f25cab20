#!/usr/bin/env python3
"""compare_ptx_tables.py OLD.ptx NEW.ptx: every PASTA table of OLD (written
as .b8 bytes) has the same bytes at the start of NEW's (.u64 words,
little-endian), then zero padding to 8 bytes and one address word; every
other line (kernel code, other globals) is byte-identical. Exits 0 when so.
For the tables-as-words change (passes/ModuleTables.cpp, withTrailingAddress)
against a tree before it."""
import re, sys
TAB = r'__pasta_(sites|strings|funcs|scopes|accesses|derived|div_rows)_\w+'
def tables(path):
    t = {}; rest = []
    for l in open(path):
        m = re.match(r'^\.global \.align 8 \.(b8|u64) (' + TAB + r')(\[(\d+)\])?( = \{(.*)\})?;$', l)
        if not m: rest.append(l); continue
        kind, name, n = m.group(1), m.group(2), int(m.group(5) or 0)
        vals = m.group(7).split(', ') if m.group(7) else []
        if kind == 'b8':
            b = bytes(int(v) for v in vals) + bytes(n - len(vals)); sym = None
        else:
            sym = vals[-1] if vals and not vals[-1].lstrip('-').isdigit() else None
            words = vals[:-1] if sym else vals
            words += ['0'] * (n - len(words) - (1 if sym else 0))
            b = b''.join(int(w).to_bytes(8, 'little', signed=int(w) < 0) for w in words)
        t[name] = (b, sym)
    return t, rest
old, orest = tables(sys.argv[1]); new, nrest = tables(sys.argv[2])
ok = orest == nrest and old.keys() == new.keys()
if orest != nrest: print('other lines differ')
for k in sorted(old):
    ob, _ = old[k]; nb, sym = new.get(k, (b'', None))
    pad = (-len(ob)) % 8
    good = nb[:len(ob)] == ob and nb[len(ob):] == bytes(pad) and len(nb) == len(ob) + pad and sym is not None
    ok &= good
    print(('ok  ' if good else 'BAD ') + k, len(ob), 'bytes ->', len(nb) + 8, 'bytes, last', sym)
print('SAME TABLES' if ok else 'DIFFERENT'); sys.exit(0 if ok else 1)
