#!/usr/bin/env python3
"""Writes the image fixtures for QRImageTests that QRKit's own encoders cannot produce:

- PNGs with 16-bit samples, gray + alpha, RGB, colour-key tRNS and Adam7 interlacing, each NAME.png with
  NAME.rgba beside it: the pixels a correct decoder must deliver, as 8-bit straight RGBA, row-major, no
  header;
- cmyk.jpg: a 16 x 16 CMYK JPEG (written by Pillow, Adobe-style inverted CMYK, quality 95) whose quadrants
  are red #FF0000, green #00A000, blue #0000FF (top-left, top-right, bottom-left) and white.

Run once from this directory: python3 make-fixtures.py
The PNG writer below is deliberately independent of libpng (plain zlib + struct). It uses every filter
type (the filter of row r is r % 5) so the decoder's unfiltering is exercised too. Each file is
cross-checked by decoding it with Pillow.

Pixel values are a fixed pseudo-random function of (x, y, channel); 16-bit samples become 8-bit by
rounding v / 257, sub-8-bit gray is scaled by 255 / (2^depth - 1), colour-key tRNS makes matching pixels
alpha 0, palette tRNS supplies the alpha of its entries.
"""
import struct
import zlib

from PIL import Image

WIDTH, HEIGHT = 13, 11
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


def sample(x, y, c, depth):
    """A deterministic sample in 0 ... 2^depth - 1."""
    v = (x * 7919 + y * 104729 + c * 15485863 + 12345) * 2654435761 % (1 << 32)
    return (v >> 7) % (1 << depth)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def filter_row(kind, row, previous, bpp):
    out = bytearray([kind])
    for i, value in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = previous[i] if previous else 0
        c = previous[i - bpp] if previous and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((value - predictor) & 0xFF)
    return out


def pack_row(pixels, depth):
    """pixels: list of per-pixel sample tuples -> packed bytes."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for p in pixels for s in p)
    if depth == 8:
        return bytes(s for p in pixels for s in p)
    out, accumulator, bits = bytearray(), 0, 0
    for p in pixels:
        for s in p:
            accumulator = accumulator << depth | s
            bits += depth
            if bits == 8:
                out.append(accumulator)
                accumulator, bits = 0, 0
    if bits:
        out.append(accumulator << (8 - bits))
    return bytes(out)


def write_png(name, color_type, depth, samples, interlaced=False, palette=None, trns=None):
    channels = CHANNELS[color_type]
    bpp = max(1, channels * depth // 8)
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    raw, row_number = bytearray(), 0
    for x0, y0, dx, dy in passes:
        xs, ys = range(x0, WIDTH, dx), range(y0, HEIGHT, dy)
        if not xs or not ys:
            continue
        previous = None
        for y in ys:
            row = pack_row([samples[y][x] for x in xs], depth)
            raw += filter_row(row_number % 5, row, previous, bpp)
            previous, row_number = row, row_number + 1
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, depth, color_type, 0, 0, 1 if interlaced else 0))
    if palette:
        png += chunk(b"PLTE", bytes(v for entry in palette for v in entry[:3]))
    if trns is not None:
        png += chunk(b"tRNS", trns)
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    with open(name + ".png", "wb") as f:
        f.write(png)


def to8(value, depth):
    return (value + 128) // 257 if depth == 16 else value * 255 // ((1 << depth) - 1)


def make(name, color_type, depth, interlaced=False, key=None, palette_size=None):
    channels = CHANNELS[color_type]
    samples = [[tuple(sample(x, y, c, depth) for c in range(channels)) for x in range(WIDTH)] for y in range(HEIGHT)]
    palette = trns = None
    if color_type == 3:
        samples = [[(sample(x, y, 0, 16) % palette_size,) for x in range(WIDTH)] for y in range(HEIGHT)]
        palette = [(sample(i, 0, 1, 8), sample(i, 0, 2, 8), sample(i, 0, 3, 8), sample(i, 0, 4, 8) if i % 3 == 0 else 255)
                   for i in range(palette_size)]
        last = max(i for i, entry in enumerate(palette) if entry[3] != 255)
        trns = bytes(entry[3] for entry in palette[:last + 1])
    if key is not None:
        # Make the key colour actually occur: every pixel on a diagonal takes it.
        for i in range(min(WIDTH, HEIGHT)):
            samples[i][i] = key
        trns = b"".join(struct.pack(">H", v) for v in key)
    write_png(name, color_type, depth, samples, interlaced, palette, trns)

    expected = bytearray()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            s = samples[y][x]
            if color_type == 3:
                expected += bytes(palette[s[0]])
                continue
            transparent = key is not None and s == key
            if color_type in (0, 4):
                gray = to8(s[0], depth)
                rgb = (gray, gray, gray)
            else:
                rgb = tuple(to8(v, depth) for v in s[:3])
            alpha = to8(s[-1], depth) if color_type in (4, 6) else 0 if transparent else 255
            expected += bytes(rgb + (alpha,))
    with open(name + ".rgba", "wb") as f:
        f.write(expected)
    check_with_pillow(name, color_type, depth, samples, expected, key)


def check_with_pillow(name, color_type, depth, samples, expected, key):
    image = Image.open(name + ".png")
    image.load()
    if color_type == 0 and depth < 8 and key is not None:
        # Pillow scales low-depth gray but keeps the tRNS key unscaled, so check gray and key separately.
        assert image.info["transparency"] == key[0], name
        assert image.convert("L").tobytes() == bytes(expected[0::4]), name
        return
    if image.mode in ("I", "I;16", "I;16B"):
        assert all(image.getpixel((x, y)) == samples[y][x][0] for y in range(HEIGHT) for x in range(WIDTH)), name
        return
    rgba = image.convert("RGBA").tobytes()
    # Pillow truncates 16-bit samples to their high byte where QRKit rounds, so allow 1 step.
    tolerance = 1 if depth == 16 else 0
    assert all(abs(a - b) <= tolerance for a, b in zip(rgba, expected)), name


make("gray1-adam7", 0, 1, interlaced=True)
make("gray2", 0, 2)
make("gray4-trns", 0, 4, key=(5,))
make("gray16", 0, 16)
make("gray16-adam7", 0, 16, interlaced=True)
make("graya8", 4, 8)
make("graya16-adam7", 4, 16, interlaced=True)
make("rgb8", 2, 8)
make("rgb8-trns", 2, 8, key=(10, 200, 30))
make("rgb16", 2, 16)
make("rgba8-adam7", 6, 8, interlaced=True)
make("rgba16", 6, 16)
make("palette2-trns-adam7", 3, 2, interlaced=True, palette_size=4)
make("palette8-trns", 3, 8, palette_size=200)

def make_cmyk_jpeg():
    colours = [(255, 0, 0), (0, 160, 0), (0, 0, 255), (255, 255, 255)]
    image = Image.new("RGB", (16, 16))
    image.putdata([colours[(y // 8) * 2 + x // 8] for y in range(16) for x in range(16)])
    image.convert("CMYK").save("cmyk.jpg", quality=95)
    check = Image.open("cmyk.jpg")
    assert check.mode == "CMYK"
    assert all(abs(a - b) <= 8 for a, b in zip(check.convert("RGB").getpixel((3, 3)), colours[0]))


make_cmyk_jpeg()
print("fixtures written")
