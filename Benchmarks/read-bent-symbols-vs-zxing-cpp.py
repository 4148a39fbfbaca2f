#!/usr/bin/env python3
"""Symbols made by `qr make` on a label wrapped round a bottle or can, read back by QRKit and by zxing-cpp.

Each of `--count` symbols (versions `--versions`, a random level and text of URL characters, 3 to 6 px per module) is
wrapped round a cylinder whose axis runs along its columns, seen by a pinhole camera from 3 to 10 times the
cylinder's radius, turned by a random angle: its modules narrow towards the cylinder's sides, its rows curve, and
close up its middle bulges. The bend is the half-angle the label (the symbol and its quiet zone) spans round the
cylinder, drawn between `--bend` degrees. The light falls off towards the sides; half the labels have a bright
stripe of glare along the cylinder. Then blurred (0.3-0.9 px), noisy (4 grey levels) and saved as JPEG.

Prints, by bend, how many symbols each reader decoded (a symbol counts when its text is read), and those that
zxing-cpp reads and QRKit does not.

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-bent-symbols-vs-zxing-cpp.py [--count 200] [--seed 5] [--versions 1-15] [--bend 20-80]
"""
import collections
import math
import os
import random
import sys

import zxing_peer
from bench_pictures import benchmark_options, make_symbol, qr_records, random_text
from zxing_peer import Image, numpy
from PIL import ImageFilter


def wrapped(label, rng, half_angle):
    """`label` (greyscale array) wrapped round a cylinder spanning `half_angle` either side of its middle, as a
    camera 3-10 radii from the axis sees it, turned by a random angle, on a grey background."""
    size = label.shape[1]
    radius = (size / 2) / half_angle
    distance = rng.uniform(3, 10) * radius
    # The middle is magnified up to distance / (distance − radius) = 1.5: room for it turned by 45°.
    canvas = int(2.2 * size) + 20
    ys, xs = numpy.mgrid[0:canvas, 0:canvas].astype(numpy.float64)
    turn = rng.uniform(0, 2 * math.pi)
    xc, yc = xs - canvas / 2, ys - canvas / 2
    x = math.cos(turn) * xc + math.sin(turn) * yc
    y = -math.sin(turn) * xc + math.cos(turn) * yc
    # The screen plane holds the axis; a ray through screen x meets the surface at the angle theta where
    # x = R sin(theta) * D / (D - R cos(theta)), solved by fixed-point iteration.
    theta = numpy.arcsin(numpy.clip(x / radius, -1, 1))
    for _ in range(8):
        magnified = distance / (distance - radius * numpy.cos(theta))
        theta = numpy.arcsin(numpy.clip(x / (radius * magnified), -1, 1))
    magnified = distance / (distance - radius * numpy.cos(theta))
    u = radius * theta + size / 2
    v = y / magnified + size / 2
    inside = (numpy.abs(x) < radius * magnified) & (u >= 0) & (u < size - 1) & (v >= 0) & (v < size - 1)
    u0 = numpy.clip(u, 0, size - 1.001).astype(int)
    v0 = numpy.clip(v, 0, size - 1.001).astype(int)
    fu, fv = numpy.clip(u, 0, size - 1.001) - u0, numpy.clip(v, 0, size - 1.001) - v0
    value = (label[v0, u0] * (1 - fu) * (1 - fv) + label[v0, u0 + 1] * fu * (1 - fv)
             + label[v0 + 1, u0] * (1 - fu) * fv + label[v0 + 1, u0 + 1] * fu * fv)
    shade = 0.55 + 0.45 * numpy.cos(theta)
    glare = 0.0
    if rng.random() < 0.5:
        middle, width = rng.uniform(-0.6, 0.6), rng.uniform(0.05, 0.2)
        glare = rng.uniform(60, 160) * numpy.exp(-((theta - middle) / width) ** 2)
    return numpy.where(inside, value * shade + glare, 90.0)


def main():
    parser = benchmark_options(__doc__, "qrkit-bent-symbols")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--versions", default="1-15", help="lowest-highest version")
    parser.add_argument("--bend", default="20-80", help="lowest-highest half-angle of the label round the cylinder, degrees")
    args = parser.parse_args()
    try:
        low, high = (int(part) for part in args.versions.split("-"))
        least, most = (float(part) for part in args.bend.split("-"))
    except ValueError:
        sys.exit("--versions and --bend take two numbers, e.g. 1-15 and 20-80")
    if not (1 <= low <= high <= 40 and 0 < least <= most < 90 and args.count > 0):
        sys.exit("--versions must lie in 1-40, --bend in (0, 90) degrees, --count must be positive")
    os.makedirs(args.out, exist_ok=True)

    rng = random.Random(args.seed)
    symbols = []
    for number in range(args.count):
        version, level = rng.randint(low, high), rng.choice("LMQH")
        module_size = rng.choice([3, 4, 4, 5, 6])
        made_path = os.path.join(args.out, "made.png")
        text = make_symbol(args.qr, version, level, random_text(rng, version, level), module_size, made_path)
        if text is None:
            continue
        label = numpy.asarray(Image.open(made_path).convert("L"), dtype=numpy.float64)
        half_angle = rng.uniform(least, most)
        pixels = wrapped(label, rng, math.radians(half_angle))
        picture = Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8)).filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.9)))
        noisy = numpy.asarray(picture, dtype=numpy.float64) + numpy.random.default_rng(rng.randint(0, 2**31)).normal(0, 4, pixels.shape)
        path = os.path.join(args.out, f"bent-{number:04d}.jpg")
        Image.fromarray(numpy.clip(noisy, 0, 255).astype(numpy.uint8)).save(path, quality=90)
        symbols.append((path, version, half_angle, text))

    ours = collections.defaultdict(set)
    for record in qr_records(args.qr, ["read", "--json"], [symbol[0] for symbol in symbols]):
        if "text" in record:
            ours[record["image"]].add(record["text"])
    rows = collections.defaultdict(lambda: [0, 0, 0])
    zxing_only = []
    for path, version, half_angle, text in symbols:
        theirs = text in {result.text for result in zxing_peer.read(zxing_peer.grayscale(path))}
        row = rows[int(half_angle // 15 * 15)]
        row[0] += 1
        row[1] += text in ours[path]
        row[2] += theirs
        if theirs and text not in ours[path]:
            zxing_only.append((os.path.basename(path), version, round(half_angle)))
    print(f"{len(symbols)} symbols, versions {low}-{high}, bent by {args.bend}°: QRKit read {sum(r[1] for r in rows.values())}, "
          f"zxing-cpp {sum(r[2] for r in rows.values())}")
    print("| bend | symbols | QRKit | zxing-cpp |\n|---|---|---|---|")
    for start in sorted(rows):
        count, qrkit, zxing = rows[start]
        print(f"| {start}-{start + 15}° | {count} | {qrkit} | {zxing} |")
    for name, version, half_angle in zxing_only:
        print(f"  zxing-cpp only: {name} (version {version}, bent {half_angle}°)")


if __name__ == "__main__":
    main()
