#!/usr/bin/env python3
"""Micro QR and rMQR symbols made by zxing-cpp's writer, photographed, read by QRKit and by zxing-cpp side by side.

The corpus holds 16 Micro QR pictures and 3 rMQR ones, nearly all upright. This makes `--count` symbols, Micro QR
and rMQR in turn, with random text (digits, alphanumerics or bytes) at a random level (L or M for Micro QR, M or H
for rMQR), each drawn by zxing-cpp at 2 to 5 px per module with its quiet zone on white paper, pasted on a grey
table, then turned by a random angle, seen in perspective (each corner of the picture moved in by up to
`--perspective` of its size), blurred (none, 0.6 or 1 px), dimmed, noisy (0, 3 or 6 grey levels) and stored as JPEG
(quality 60, 80 or 95). The writer is another encoder's, so the reader is checked against symbols QRKit did not make.

Reads them with `qr read --list` and zxing-cpp's Python binding (as the corpus's peer results were made). A symbol
counts when its text is read; any other text is a false result. Prints the counts by symbology and module size, and
the symbols zxing-cpp reads and QRKit does not.

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-small-symbols-vs-zxing-cpp.py [--seed 11] [--count 400] [--qr .build/release/qr]
"""
import argparse
import collections
import os
import random
import sys
import tempfile

import zxing_peer
import zxingcpp
from bench_pictures import qr_records, with_corners_at
from zxing_peer import Image, numpy
from PIL import ImageFilter

ALPHABETS = {"digits": "0123456789", "alphanumerics": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:",
             "bytes": "abcdefghijklmnopqrstuvwxyz!?"}
# Symbology: zxing-cpp's format, the longest text tried, the levels drawn from.
KINDS = {"Micro QR": (zxingcpp.BarcodeFormat.MicroQRCode, 20, ["L", "M"]),
         "rMQR": (zxingcpp.BarcodeFormat.RMQRCode, 60, ["M", "H"])}


def photograph(symbol, rng, noise_rng, most):
    """`symbol` (a grayscale picture with its quiet zone) on a grey table, turned, in perspective, blurred, dimmed
    and noisy; the picture and how it was made."""
    w, h = symbol.size
    table = rng.randint(200, 250)
    picture = Image.new("L", (2 * w + 60, 2 * h + 60), table)
    picture.paste(symbol, ((picture.size[0] - w) // 2, (picture.size[1] - h) // 2))
    angle = rng.uniform(0, 360)
    picture = picture.rotate(angle, resample=Image.BICUBIC, fillcolor=table, expand=True)
    pw, ph = picture.size
    inset = rng.uniform(0, most)
    seen = [(rng.uniform(0, inset) * pw, rng.uniform(0, inset) * ph), (pw - rng.uniform(0, inset) * pw, rng.uniform(0, inset) * ph),
            (pw - rng.uniform(0, inset) * pw, ph - rng.uniform(0, inset) * ph), (rng.uniform(0, inset) * pw, ph - rng.uniform(0, inset) * ph)]
    picture = with_corners_at(picture, seen, table)
    blur = rng.choice([0, 0, 0.6, 1.0])
    if blur:
        picture = picture.filter(ImageFilter.GaussianBlur(blur))
    pixels = numpy.asarray(picture).astype(float) * rng.uniform(0.5, 1.0) + rng.uniform(0, 40)
    noise = rng.choice([0, 3, 6])
    pixels += noise_rng.normal(0, noise, pixels.shape)
    made = {"angle": round(angle), "perspective": round(inset, 3), "blur": blur, "noise": noise}
    return Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8)), made


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qr", default=".build/release/qr")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--perspective", type=float, default=0.12)
    parser.add_argument("--out", help="keep the pictures in this folder")
    args = parser.parse_args()
    if not os.path.exists(args.qr):
        sys.exit(f"no qr binary at {args.qr}: swift build -c release --product qr")
    rng = random.Random(args.seed)
    noise_rng = numpy.random.default_rng(args.seed)
    folder = args.out or tempfile.mkdtemp(prefix="small-symbols-")
    os.makedirs(folder, exist_ok=True)
    pictures = []
    for number in range(args.count):
        kind = list(KINDS)[number % 2]
        form, longest, levels = KINDS[kind]
        alphabet = ALPHABETS[rng.choice(list(ALPHABETS))]
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest)))
        try:
            barcode = zxingcpp.create_barcode(text, form, ec_level=rng.choice(levels))
        except (RuntimeError, ValueError):
            continue  # too long for the symbology at that level
        module = rng.choice([2, 3, 4, 5])
        symbol = Image.fromarray(numpy.asarray(zxingcpp.write_barcode_to_image(barcode, scale=module)))
        picture, made = photograph(symbol, rng, noise_rng, args.perspective)
        path = os.path.join(folder, f"{number:04d}.jpg")
        picture.save(path, quality=rng.choice([60, 80, 95]))
        pictures.append((path, kind, module, barcode.text, made))

    ours = collections.defaultdict(set)
    for record in qr_records(args.qr, ["read", "--json"], [p[0] for p in pictures]):
        if "text" in record:
            ours[record["image"]].add(record["text"])
    read = collections.Counter()
    total = collections.Counter()
    false_results = 0
    zxing_only = []
    for path, kind, module, text, made in pictures:
        theirs = {r.text for r in zxing_peer.read(zxing_peer.grayscale(path)) if r.valid}
        total[kind, module] += 1
        read["QRKit", kind, module] += text in ours[path]
        read["zxing-cpp", kind, module] += text in theirs
        false_results += len(ours[path] - {text})
        if text in theirs and text not in ours[path]:
            zxing_only.append((os.path.basename(path), kind, module, made))

    print(f"{len(pictures)} symbols, seed {args.seed}, perspective up to {args.perspective}; pictures in {folder}")
    print("| symbology | px per module | symbols | QRKit | zxing-cpp |\n|---|---|---|---|---|")
    for kind in KINDS:
        modules = sorted({m for k, m in total if k == kind})
        for module in modules:
            print(f"| {kind} | {module} | {total[kind, module]} | {read['QRKit', kind, module]} | {read['zxing-cpp', kind, module]} |")
        sums = [sum(counts[(*who, kind, m)] for m in modules) for counts, who in [(total, ()), (read, ("QRKit",)), (read, ("zxing-cpp",))]]
        print(f"| {kind} | all | {sums[0]} | {sums[1]} | {sums[2]} |")
    print(f"false results: {false_results}")
    for name, kind, module, made in zxing_only:
        print(f"zxing-cpp only: {name} {kind} {module} px {made}")


if __name__ == "__main__":
    main()
