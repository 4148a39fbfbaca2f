#!/usr/bin/env python3
"""Writes the TIFF fixtures for QRImageTests, each tiff-NAME.tif with tiff-NAME.png beside it: the pixels a
correct decoder must deliver (gray, RGB or RGBA).

Pillow writes every file, through libtiff for the compressed ones (PIL.features.check('libtiff') must be
True): uncompressed, PackBits, LZW (with and without horizontal differencing), Deflate, CCITT Modified
Huffman, T.4 (1-D, and 2-D with byte-aligned EOLs), T.6 (also with FillOrder 2), 1-bit WhiteIsZero and
BlackIsZero, 8- and 16-bit gray in both byte orders, RGB, RGBA, palette, CMYK and an Orientation field.
Planar, tiled, premultiplied and BigTIFF files, which Pillow does not write, are built in the Swift tests.
Every file is cross-checked by decoding it with Pillow: its pixels, or for 16-bit and CMYK files (which
Pillow converts differently) its samples; the 16-bit and CMYK references are computed below as the decoder
reads them (the high byte; ink turned into light).

Run once from this directory: python3 make-tiff-fixtures.py
"""
from PIL import Image, features

WIDTH, HEIGHT = 13, 11


def value(x, y, c, levels):
    """A deterministic pseudo-random value in 0 ... levels - 1."""
    return ((x * 7919 + y * 104729 + c * 15485863 + 12345) * 2654435761 % (1 << 32) >> 7) % levels


def image(mode, channels, levels=256, width=WIDTH, height=HEIGHT):
    picture = Image.new(mode, (width, height))
    pixels = [tuple(value(x, y, c, levels) for c in range(channels)) for y in range(height) for x in range(width)]
    picture.putdata([p[0] for p in pixels] if channels == 1 else pixels)
    return picture


def qr_like():
    """29 × 29 black and white pixels: three finder patterns and noise, as bilevel scans of codes look."""
    size = 29

    def dark(x, y):
        for fx, fy in ((0, 0), (size - 7, 0), (0, size - 7)):
            if fx <= x < fx + 7 and fy <= y < fy + 7:
                return max(abs(x - fx - 3), abs(y - fy - 3)) in (0, 1, 3)
        return value(x, y, 0, 2) == 1

    picture = Image.new("L", (size, size))
    picture.putdata([0 if dark(x, y) else 255 for y in range(size) for x in range(size)])
    return picture


def all_run_lengths():
    """Rows whose runs use every terminating code (0-63) and make-up code (64-2560) of both colours; the runs
    that fill each row to 2700 pixels take several make-up codes."""
    width = 2700
    rows = []
    for n in range(64):
        rows.append([n, 63 - n, n])  # white, black, white: the rest of the row is white
    for k in range(1, 41):
        rows.append([64 * k + k % 64, 1 + k])
        rows.append([k, 64 * k + (63 - k)])
    picture = Image.new("L", (width, len(rows)))
    pixels = []
    for runs in rows:
        row = []
        for index, run in enumerate(runs):
            row += [255 if index % 2 == 0 else 0] * run
        assert len(row) < width
        pixels += row + [255 if len(runs) % 2 == 0 else 0] * (width - len(row))
    picture.putdata(pixels)
    return picture


def check(name, picture, expected):
    """Pillow (libtiff) must read `name` as `expected`, or as the samples of `picture` where it converts them
    another way."""
    decoded = Image.open(name)
    if decoded.tag_v2.get(274, 1) != 1:
        # Pillow turns such files as it loads them (and Pillow 13 garbles them): compare the stored strip.
        offset, = decoded.tag_v2[273]
        with open(name, "rb") as f:
            assert f.read()[offset:offset + len(expected.tobytes())] == expected.tobytes(), name
        return
    decoded.load()
    if decoded.mode in ("I;16", "I;16B", "CMYK"):
        assert decoded.mode == picture.mode and decoded.tobytes() == picture.tobytes(), name
        return
    mode = "RGBA" if expected.mode == "RGBA" else "RGB" if expected.mode == "RGB" else "L"
    assert decoded.convert(mode).tobytes() == expected.convert(mode).tobytes(), name


def save(name, picture, expected, **options):
    path = "tiff-" + name + ".tif"
    picture.save(path, **options)
    expected.save("tiff-" + name + ".png")
    check(path, picture, expected)


def gray16(byteorder):
    """16-bit levels spread over 0...65535 ("I;16" little-endian, "I;16B" big-endian, which Pillow writes
    as an MM file); the decoder keeps the high byte."""
    levels = [value(x, y, 5, 65536) for y in range(HEIGHT) for x in range(WIDTH)]
    mode = "I;16" if byteorder == "little" else "I;16B"
    return Image.frombytes(mode, (WIDTH, HEIGHT), b"".join(v.to_bytes(2, byteorder) for v in levels))


def gray16_expected():
    expected = Image.new("L", (WIDTH, HEIGHT))
    expected.putdata([value(x, y, 5, 65536) >> 8 for y in range(HEIGHT) for x in range(WIDTH)])
    return expected


def cmyk():
    picture = image("CMYK", 4)
    expected = Image.new("RGB", picture.size)
    inks = picture.tobytes()
    expected.putdata([tuple(((255 - c) * (255 - inks[i + 3]) + 127) // 255 for c in inks[i:i + 3])
                      for i in range(0, len(inks), 4)])
    return picture, expected


assert features.check("libtiff"), "Pillow was built without libtiff"
gray, rgb, code = image("L", 1), image("RGB", 3), qr_like()
bilevel = code.convert("1")
# Transparent, opaque and translucent pixels in turn.
rgba = Image.new("RGBA", (WIDTH, HEIGHT))
rgba.putdata([tuple(value(x, y, c, 256) for c in range(3)) + ((0, 255, value(x, y, 3, 256))[(x + y) % 3],)
              for y in range(HEIGHT) for x in range(WIDTH)])

save("none", gray, gray)
save("packbits", code, code, compression="packbits")
save("lzw", rgb, rgb, compression="tiff_lzw")
save("lzw-predictor", rgb, rgb, compression="tiff_lzw", tiffinfo={317: 2})
save("deflate", gray, gray, compression="tiff_adobe_deflate")
save("deflate-predictor16", gray16("little"), gray16_expected(), compression="tiff_adobe_deflate", tiffinfo={317: 2})
save("gray16", gray16("little"), gray16_expected())
save("gray16-mm", gray16("big"), gray16_expected())
runs = all_run_lengths()
save("mh", runs.convert("1"), runs, compression="tiff_ccitt")
save("g3", bilevel, code, compression="group3")
save("g3-2d", bilevel, code, compression="group3", tiffinfo={292: 5})
save("g4", bilevel, code, compression="group4")
save("g4-fillorder2", bilevel, code, compression="group4", tiffinfo={266: 2})
save("1bit-blackiszero", bilevel, code)
save("1bit-whiteiszero", bilevel, code, tiffinfo={262: 0})
save("rgb", rgb, rgb)
save("rgba", rgba, rgba)
palette = image("RGB", 3, levels=4).quantize(16)
save("palette", palette, palette.convert("RGB"))
save("cmyk", *cmyk())
save("orientation", gray, gray, tiffinfo={274: 6})
print("fixtures written")
