#!/usr/bin/env python3
"""Decode time of QRKit and zxing-cpp on pictures made to be hard for a reader that holds no code: finder-like
squares tiled by the thousand (whole, touching so that their rings merge, with a hole in the centre stone),
pixel noise, checkerboards, stripes and rings.

Untrusted input may be any of these, so the time to give up must grow with the picture, not with the square of
what it holds. The pictures are drawn here (the same ones every run, `--megapixels` each) and each is decoded
`--runs` times from memory by `qr bench read` and by zxing-cpp's Python binding (with the options of the other
benchmarks), the fastest time kept. Prints each picture's times, their ratio and how many codes each
reader reported (a code read in any of them would be a false one).

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-adversarial-vs-zxing-cpp.py [--megapixels 1] [--runs 3] [--qr .build/release/qr]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import zxing_peer
from zxing_peer import Image, numpy


def finder_squares(side, module, spacing, hole=False):
    """Finder-like squares of `module`-pixel modules every `spacing` pixels; `hole` clears the stone's middle module."""
    y, x = numpy.mgrid[0:side, 0:side]
    u, v = x % spacing, y % spacing
    inside = (u < 7 * module) & (v < 7 * module)
    ring = numpy.minimum(numpy.minimum(u, v), numpy.minimum(7 * module - 1 - u, 7 * module - 1 - v)) // module
    dark = inside & (ring != 1)
    if hole:
        dark &= ~((u // module == 3) & (v // module == 3))
    return numpy.where(dark, 0, 255).astype(numpy.uint8)


def pictures(side):
    """Name and 8-bit grayscale array of each picture, `side` × `side` pixels."""
    random = numpy.random.default_rng(35)
    y, x = numpy.mgrid[0:side, 0:side]
    radius = numpy.hypot(x - side / 2, y - side / 2)
    return [
        ("finder squares, 1 px modules", finder_squares(side, 1, 8)),
        ("finder squares, 2 px modules", finder_squares(side, 2, 16)),
        ("touching finder squares, 1 px", finder_squares(side, 1, 7)),
        ("touching finder squares, 2 px", finder_squares(side, 2, 14)),
        ("finder squares with a hole, 1 px", finder_squares(side, 1, 8, hole=True)),
        ("finder squares with a hole, 2 px", finder_squares(side, 2, 16, hole=True)),
        ("grey noise", random.integers(0, 256, (side, side), dtype=numpy.uint8)),
        ("black and white noise", (random.integers(0, 2, (side, side)) * 255).astype(numpy.uint8)),
        ("noise in 3 px blocks", numpy.kron(random.integers(0, 2, (side // 3 + 1, side // 3 + 1)) * 255,
                                             numpy.ones((3, 3)))[:side, :side].astype(numpy.uint8)),
        ("checkerboard, 3 px", (((x // 3 + y // 3) % 2) * 255).astype(numpy.uint8)),
        ("stripes, 2 px", (((x // 2) % 2) * 255).astype(numpy.uint8)),
        ("rings, 4 px", (((radius // 4) % 2) * 255).astype(numpy.uint8)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megapixels", type=float, default=1.0, help="size of each picture (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="reads per picture and reader, the best kept (default 3)")
    parser.add_argument("--qr", default=".build/release/qr", help="the qr binary (default .build/release/qr)")
    args = parser.parse_args()
    if not os.path.exists(args.qr):
        sys.exit(f"{args.qr} not found: swift build -c release --product qr")
    side = max(32, round((args.megapixels * 1e6) ** 0.5))
    drawn = pictures(side)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for number, (_, pixels) in enumerate(drawn):
            path = os.path.join(folder, f"{number:02}.png")
            Image.fromarray(pixels).save(path)
            paths.append(path)
        listing = os.path.join(folder, "list.txt")
        with open(listing, "w") as file:
            file.write("\n".join(paths) + "\n")
        command = [args.qr, "bench", "read", "--runs", str(args.runs), "--list", listing]
        ours = {}
        for line in subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines():
            result = json.loads(line)
            ours[result["image"]] = (result["best_ms"], result["codes"])
    print(f"{side} x {side} pixels, best of {args.runs}\n")
    print(f"{'picture':34} {'QRKit ms':>10} {'zxing-cpp ms':>13} {'ratio':>7}  codes (QRKit, zxing-cpp)")
    total_ours = total_theirs = 0.0
    for (name, pixels), path in zip(drawn, paths):
        theirs, their_codes = float("inf"), 0
        for _ in range(args.runs):
            start = time.perf_counter()
            their_codes = len(zxing_peer.read(pixels))
            theirs = min(theirs, (time.perf_counter() - start) * 1000)
        mine, my_codes = ours[path]
        total_ours += mine
        total_theirs += theirs
        print(f"{name:34} {mine:10.1f} {theirs:13.1f} {mine / theirs:6.2f}x  {my_codes}, {their_codes}")
    print(f"{'total':34} {total_ours:10.1f} {total_theirs:13.1f} {total_ours / total_theirs:6.2f}x")


if __name__ == "__main__":
    main()
