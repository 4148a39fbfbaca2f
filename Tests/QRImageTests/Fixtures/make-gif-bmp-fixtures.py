#!/usr/bin/env python3
"""Writes the GIF and BMP fixtures for QRImageTests, each NAME.gif or NAME.bmp with NAME.png beside it: the
pixels a correct decoder must deliver (gray or RGB when opaque; RGBA with transparent pixels 0,0,0,0).

Pillow writes the GIFs (a QR-like black and white one, an interlaced one, one with a transparent colour) and
the 1-, 8-, 24- and 32-bit BMPs. The 4-bit and RLE8 BMPs, which Pillow does not write, are written below by
hand. Every file is cross-checked by decoding it with Pillow.

Run once from this directory: python3 make-gif-bmp-fixtures.py
"""
import struct

from PIL import Image

WIDTH, HEIGHT = 13, 11


def value(x, y, c, levels):
    """A deterministic pseudo-random value in 0 ... levels - 1."""
    return ((x * 7919 + y * 104729 + c * 15485863 + 12345) * 2654435761 % (1 << 32) >> 7) % levels


def palette_image(width, height, colours):
    palette = [value(i, 0, c, 256) for i in range(colours) for c in range(3)]
    image = Image.new("P", (width, height))
    image.putpalette(palette)
    indices = [value(x, y, 9, colours) for y in range(height) for x in range(width)]
    image.putdata(indices)
    return image, palette, indices


def check(name, expected):
    """Pillow must read `name` as `expected` (ignoring the colour of fully transparent pixels)."""
    decoded = Image.open(name)
    decoded.load()
    have, want = decoded.convert("RGBA").tobytes(), expected.convert("RGBA").tobytes()
    pixels = [(have[i:i + 4], want[i:i + 4]) for i in range(0, len(want), 4)]
    assert len(have) == len(want) and all(a == b or (a[3] == 0 and b[3] == 0) for a, b in pixels), name


def save_expected(name, image):
    image.save(name.rsplit(".", 1)[0] + ".png")
    check(name, image)


def qr_like():
    size = 29
    def dark(x, y):
        for fx, fy in ((0, 0), (size - 7, 0), (0, size - 7)):
            if fx <= x < fx + 7 and fy <= y < fy + 7:
                dx, dy = x - fx, y - fy
                return max(abs(dx - 3), abs(dy - 3)) in (0, 1, 3)
        return value(x, y, 0, 2) == 1
    image = Image.new("L", (size, size))
    image.putdata([0 if dark(x, y) else 255 for y in range(size) for x in range(size)])
    image.save("qr-like.gif", interlace=False)
    save_expected("qr-like.gif", image)


def interlaced():
    # Pillow interlaces only images of at least 16 pixels a side.
    image, _, _ = palette_image(16, 21, 16)
    image.save("interlaced.gif", interlace=True)
    with open("interlaced.gif", "rb") as f:
        data = f.read()
    descriptor = data.index(b"\x2c", 13 + 3 * 16)
    assert data[descriptor + 9] & 0x40, "Pillow did not interlace"
    save_expected("interlaced.gif", image.convert("RGB"))


def transparent():
    image, _, indices = palette_image(WIDTH, HEIGHT, 4)
    image.save("transparent.gif", transparency=2)
    rgba = image.convert("RGBA").tobytes()
    expected = Image.frombytes("RGBA", image.size, b"".join(
        b"\0\0\0\0" if index == 2 else rgba[4 * i:4 * i + 4] for i, index in enumerate(indices)))
    save_expected("transparent.gif", expected)


def pillow_bmps():
    one = Image.new("1", (WIDTH, HEIGHT))
    one.putdata([value(x, y, 1, 2) * 255 for y in range(HEIGHT) for x in range(WIDTH)])
    one.save("bmp1.bmp")
    save_expected("bmp1.bmp", one.convert("L"))

    image, _, _ = palette_image(WIDTH, HEIGHT, 200)
    image.save("bmp8.bmp")
    save_expected("bmp8.bmp", image.convert("RGB"))

    rgb = Image.new("RGB", (WIDTH, HEIGHT))
    rgb.putdata([tuple(value(x, y, c, 256) for c in range(3)) for y in range(HEIGHT) for x in range(WIDTH)])
    rgb.save("bmp24.bmp")
    save_expected("bmp24.bmp", rgb)
    rgb.convert("RGBA").save("bmp32.bmp")
    save_expected("bmp32.bmp", rgb)


def write_bmp(name, bits, palette, pixel_data, compression=0):
    entries = b"".join(bytes((palette[i + 2], palette[i + 1], palette[i], 0)) for i in range(0, len(palette), 3))
    offset = 14 + 40 + len(entries)
    header = struct.pack("<IiiHHIIiiII", 40, WIDTH, HEIGHT, 1, bits, compression, len(pixel_data), 2835, 2835,
                         len(palette) // 3, 0)
    with open(name, "wb") as f:
        f.write(b"BM" + struct.pack("<III", offset + len(pixel_data), 0, offset) + header + entries + pixel_data)


def bmp4():
    image, palette, indices = palette_image(WIDTH, HEIGHT, 16)
    stride = (WIDTH * 4 + 31) // 32 * 4
    data = b""
    for y in reversed(range(HEIGHT)):
        row = indices[y * WIDTH:(y + 1) * WIDTH] + [0]
        packed = bytes(row[i] << 4 | row[i + 1] for i in range(0, WIDTH, 2))
        data += packed + b"\0" * (stride - len(packed))
    write_bmp("bmp4.bmp", 4, palette, data)
    save_expected("bmp4.bmp", image.convert("RGB"))


def rle8():
    """Runs, literal runs (odd length: padded), a delta and early ends of line; skipped pixels are index 0."""
    image, palette, _ = palette_image(WIDTH, HEIGHT, 8)
    indices = [[0] * WIDTH for _ in range(HEIGHT)]
    data = b""
    for stored in range(HEIGHT):
        y = HEIGHT - 1 - stored
        if stored == 3:
            # A delta of 2 right and 2 up from the start of this row, then the rest of that row.
            data += b"\x00\x02\x02\x02"
            for x in range(2, WIDTH):
                indices[y - 2][x] = (x * 3 + stored) % 8
            data += bytes((0, WIDTH - 2)) + bytes(indices[y - 2][2:]) + b"\0"
            data += b"\x00\x00"
            continue
        if stored in (4, 5):
            continue  # covered by the delta: row 4 empty, row 5 written above
        if stored == 7:
            data += bytes((5, 6)) + b"\x00\x00"  # five pixels, then an early end of line
            for x in range(5):
                indices[y][x] = 6
            continue
        run, literal = WIDTH - 7, [(x + stored) % 8 for x in range(7)]
        data += bytes((run, stored % 8)) + bytes((0, len(literal))) + bytes(literal) + b"\0"
        indices[y] = [stored % 8] * run + literal
        if stored != HEIGHT - 1:
            data += b"\x00\x00"
    data += b"\x00\x01"
    image.putdata([i for row in indices for i in row])
    write_bmp("rle8.bmp", 8, palette, data, compression=1)
    save_expected("rle8.bmp", image.convert("RGB"))


qr_like()
interlaced()
transparent()
pillow_bmps()
bmp4()
rle8()
print("fixtures written")
