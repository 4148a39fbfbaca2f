#!/usr/bin/env python3
"""Codes read by QRKit and by zxing-cpp in the corpus images turned by any angle or shrunk, side by side.

The corpus scorer turns images by multiples of 90 degrees only. This turns every image by `--angle` degrees
(bilinear, on a canvas grown to hold it, the new corners filled with the image's median grey so that no
artificial quiet zone helps) and/or shrinks it by `--scale` (box filter), writes the copies to a folder, and
reads them with `qr read --list` and with zxing-cpp's Python binding (QR, Micro QR and rMQR; try rotate,
downscale and invert; local-average binarizer, as the corpus's peer results were made). A code counts when its
text equals one of the image's expected texts; texts read that are not expected are counted apart (the BoofCV
images' expected texts are those the peers agreed on, so a code only QRKit reads can land there). Prints the
totals and the images where the two readers differ.

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-transformed-vs-zxing-cpp.py --angle 20 [--scale 0.5] [--corpus ../shared/corpus]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import zxing_peer
from zxing_peer import Image, numpy


def transformed_copies(root, entries, angle, scale, folder):
    """Writes each entry's image, turned and shrunk, to `folder`; returns the copies' paths in entry order."""
    paths = []
    for number, entry in enumerate(entries):
        image = Image.fromarray(zxing_peer.grayscale(os.path.join(root, entry["image"])))
        if scale != 1:
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            image = image.resize(size, Image.BOX)
        if angle % 360:
            fill = int(numpy.median(numpy.asarray(image)))
            image = image.rotate(angle, resample=Image.BILINEAR, expand=True, fillcolor=fill)
        path = os.path.join(folder, f"{number:04d}.png")
        image.save(path)
        paths.append(path)
    return paths


def read_ours(binary, paths, folder):
    """Texts `qr read` finds in each image, by path."""
    listing = os.path.join(folder, "list.txt")
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    out = subprocess.run([binary, "read", "--list", listing, "--json"], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("text"):
            found.setdefault(record["image"], []).append(record["text"])
    return found


def read_zxing(path):
    """Texts zxing-cpp finds in the image at `path`."""
    return [result.text for result in zxing_peer.read(zxing_peer.grayscale(path)) if result.text]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--qr", default=os.path.join(here, "..", ".build", "release", "qr"))
    parser.add_argument("--angle", type=float, default=0, help="degrees, counter-clockwise")
    parser.add_argument("--scale", type=float, default=1, help="size factor, at most 1")
    args = parser.parse_args()
    if not 0 < args.scale <= 1:
        sys.exit("--scale must lie in (0, 1]")
    with open(os.path.join(args.corpus, "manifest.json")) as f:
        manifest = json.load(f)
    entries = manifest["images"] if isinstance(manifest, dict) else manifest

    with tempfile.TemporaryDirectory(prefix="qr-transformed-") as folder:
        paths = transformed_copies(args.corpus, entries, args.angle, args.scale, folder)
        ours = read_ours(args.qr, paths, folder)
        totals = {"expected": 0, "qr": 0, "zxing-cpp": 0, "qr other": 0, "zxing-cpp other": 0}
        differing = []
        for entry, path in zip(entries, paths):
            expected = set(entry.get("expected") or [])
            texts = {"qr": set(ours.get(path, [])), "zxing-cpp": set(read_zxing(path))}
            totals["expected"] += len(expected)
            for reader, found in texts.items():
                totals[reader] += len(found & expected)
                totals[reader + " other"] += len(found - expected)
            qr, zxing = len(texts["qr"] & expected), len(texts["zxing-cpp"] & expected)
            if qr != zxing:
                differing.append((qr - zxing, entry["image"], qr, zxing, len(expected)))
    print(f"angle {args.angle:g}, scale {args.scale:g}: expected texts read, QRKit {totals['qr']}, zxing-cpp "
          f"{totals['zxing-cpp']}, of {totals['expected']}; other texts, QRKit {totals['qr other']}, "
          f"zxing-cpp {totals['zxing-cpp other']}")
    for difference, image, qr, zxing, expected in sorted(differing):
        print(f"  {difference:+d} {image:55} QRKit {qr}, zxing-cpp {zxing} of {expected}")


if __name__ == "__main__":
    main()
