#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pngstat.py PNG - print "<width> <height> <distinct colours> <non-white
fraction>" of an 8-bit RGB or RGBA PNG, such as a Chromium screenshot.
A tiny PNG reader: chunks, zlib, and the five scanline filters."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[ftype]
            line[i] = (line[i] + pred) & 0xff
        rows.append(line)
        prev = line
    return rows


def read_png(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit('%s: only 8-bit RGB/RGBA, not interlaced' % path)
    bpp = 3 if ctype == 2 else 4
    return width, height, bpp, unfilter(zlib.decompress(idat), width, height, bpp)


def main():
    width, height, bpp, rows = read_png(sys.argv[1])
    colours, non_white = set(), 0
    for line in rows:
        for x in range(0, width * bpp, bpp):
            px = bytes(line[x:x + 3])
            colours.add(px)
            non_white += px != b'\xff\xff\xff'
    print(width, height, len(colours), '%.3f' % (non_white / (width * height)))


main()
