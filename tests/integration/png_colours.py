#!/usr/bin/env python3
"""Count the pixels of a PNG screenshot that have given colours (within a
small tolerance per channel, for anti-aliasing): png_colours.py FILE #rrggbb...
prints one count per colour.  A minimal PNG reader (8-bit RGB/RGBA, not
interlaced: what Chromium writes), so the test needs no imaging library."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit('%s: not a PNG' % path)
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise SystemExit('%s: unsupported PNG (depth %d, colour type %d)' % (path, depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), width * bpp
    prev, out, i = bytearray(stride), [], 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return out, bpp


def main(path, colours):
    rows, bpp = pixels(path)
    want = [tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in colours]
    counts = [0] * len(want)
    for row in rows:
        for x in range(0, len(row), bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            for k, (wr, wg, wb) in enumerate(want):
                if abs(r - wr) <= 8 and abs(g - wg) <= 8 and abs(b - wb) <= 8:
                    counts[k] += 1
    print(' '.join(str(c) for c in counts))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
