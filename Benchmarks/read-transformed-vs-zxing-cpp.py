#!/usr/bin/env python3
"""Codes read by QRKit and by zxing-cpp in transformed copies of the corpus images, side by side.

Transformations: shrunk, blurred (also by motion), seen at a slant, turned by any angle, mirrored, faded, inverted,
unevenly lit, under glare, noisy or compressed.

The corpus scorer turns images by multiples of 90 degrees only. This inverts every image first (`--invert`, light
codes on dark, so that the light effects below fall on the negative as they would on a light-on-dark print),
shrinks it by `--scale` (box filter), blurs it (`--blur`, a Gaussian's radius in pixels), smears it as a moving camera does (`--motion`, the
length in pixels of a straight path at an angle drawn by the same seed per image), slants it (`--tilt`, a perspective that shortens its
right edge by that fraction of its height, bilinear), turns it by `--angle` degrees (bilinear, on a canvas grown to
hold it; there and where the slant leaves the frame, the image's median grey fills, so that no artificial quiet zone
helps), mirrors it left to right (`--mirror`), fades it (`--contrast`, each grey level's distance from 128 times that), lights it unevenly (`--shade`, the
light falling off from left to right by that fraction), adds glare (`--glare`, a Gaussian haze a quarter of the
picture's shorter side wide adding that many grey levels at its centre, placed by the same seed per image), adds
noise (`--noise`, Gaussian, its standard deviation in grey levels, the same seed per image in every run) and stores
it as JPEG (`--jpeg`, its quality), in that order, writes the copies to a folder, and reads them with `qr read
--list` and with zxing-cpp's Python binding (QR, Micro QR and rMQR; try rotate, downscale and invert; local-average
binarizer, as the corpus's peer results were made). A code counts when its text equals one of the image's expected
texts; texts read that are not expected are counted apart (the BoofCV images' expected texts are those the peers
agreed on, so a code only QRKit reads can land there). Prints the totals and the images where the two readers
differ.

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-transformed-vs-zxing-cpp.py --angle 20 [--scale 0.5] [--corpus ../shared/corpus]
"""
import argparse
import json
import os
import sys
import tempfile

import zxing_peer
from bench_pictures import qr_records, with_corners_at
from zxing_peer import Image, numpy
from PIL import ImageFilter


def slanted(image, tilt, fill):
    """`image` in perspective: its right edge shortened by `tilt` of its height, centred, the left edge kept."""
    w, h = image.size
    inset = tilt * h / 2
    return with_corners_at(image, [(0, 0), (w, inset), (w, h - inset), (0, h)], fill)


def smeared(image, length, rng):
    """`image` blurred along a straight path `length` pixels long at an angle drawn from `rng`: the mean of copies
    shifted by whole pixels to points along the path, the edges repeated."""
    pixels = numpy.asarray(image, dtype=numpy.float64)
    angle = rng.uniform(0, numpy.pi)
    steps = max(1, int(numpy.ceil(length)))
    reach = int(numpy.ceil(length / 2)) + 1
    padded = numpy.pad(pixels, reach, mode="edge")
    height, width = pixels.shape
    total = numpy.zeros_like(pixels)
    for t in numpy.linspace(-length / 2, length / 2, steps + 1):
        dx, dy = int(round(t * numpy.cos(angle))), int(round(t * numpy.sin(angle)))
        total += padded[reach + dy:reach + dy + height, reach + dx:reach + dx + width]
    return Image.fromarray(numpy.clip((total / (steps + 1)).round(), 0, 255).astype(numpy.uint8))


def transformed_copies(root, entries, args, folder):
    """Writes each entry's image, transformed as `args` say, to `folder`; returns the copies' paths in entry order."""
    paths = []
    for number, entry in enumerate(entries):
        image = Image.fromarray(zxing_peer.grayscale(os.path.join(root, entry["image"])))
        # The negative first: a light-on-dark code is then lit, photographed and stored as a dark-on-light one is.
        if args.invert:
            image = Image.fromarray(255 - numpy.asarray(image))
        if args.scale != 1:
            size = (max(1, round(image.width * args.scale)), max(1, round(image.height * args.scale)))
            image = image.resize(size, Image.BOX)
        if args.blur > 0:
            image = image.filter(ImageFilter.GaussianBlur(args.blur))
        if args.motion > 0:
            image = smeared(image, args.motion, numpy.random.default_rng(1000 + number))
        # Only a slant or a turn leaves corners to fill; the median of a 12 MP photo is not free.
        fill = int(numpy.median(numpy.asarray(image))) if args.tilt > 0 or args.angle % 360 else 0
        if args.tilt > 0:
            image = slanted(image, args.tilt, fill)
        if args.angle % 360:
            image = image.rotate(args.angle, resample=Image.BILINEAR, expand=True, fillcolor=fill)
        if args.mirror:
            image = image.transpose(Image.FLIP_LEFT_RIGHT)
        if args.contrast != 1 or args.shade > 0 or args.glare > 0:
            pixels = numpy.asarray(image, dtype=numpy.float64)
            pixels = 128 + (pixels - 128) * args.contrast
            if args.shade > 0:
                pixels = pixels * numpy.linspace(1, 1 - args.shade, pixels.shape[1])[None, :]
            if args.glare > 0:
                # A Gaussian haze a quarter of the picture's shorter side wide, somewhere about its middle.
                height, width = pixels.shape
                rows, columns = numpy.mgrid[0:height, 0:width]
                place = numpy.random.default_rng(number)
                y, x = place.uniform(0.3, 0.7) * height, place.uniform(0.3, 0.7) * width
                spread = 0.25 * min(height, width)
                pixels = pixels + args.glare * numpy.exp(-((rows - y) ** 2 + (columns - x) ** 2) / (2 * spread * spread))
            image = Image.fromarray(numpy.clip(pixels.round(), 0, 255).astype(numpy.uint8))
        if args.noise > 0:
            pixels = numpy.asarray(image, dtype=numpy.float64)
            pixels = pixels + numpy.random.default_rng(number).normal(0, args.noise, pixels.shape)
            image = Image.fromarray(numpy.clip(pixels.round(), 0, 255).astype(numpy.uint8))
        if args.jpeg:
            path = os.path.join(folder, f"{number:04d}.jpg")
            image.save(path, quality=args.jpeg)
        else:
            path = os.path.join(folder, f"{number:04d}.png")
            image.save(path)
        paths.append(path)
    return paths


def read_ours(binary, paths):
    """Texts `qr read` finds in each image, by path."""
    found = {}
    for record in qr_records(binary, ["read", "--json"], paths):
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
    parser.add_argument("--blur", type=float, default=0, help="Gaussian blur radius in pixels")
    parser.add_argument("--motion", type=float, default=0, help="motion blur: the path's length in pixels")
    parser.add_argument("--tilt", type=float, default=0, help="perspective: the right edge shortened by this fraction")
    parser.add_argument("--contrast", type=float, default=1, help="grey levels' distance from 128 times this")
    parser.add_argument("--shade", type=float, default=0, help="light falling off left to right by this fraction")
    parser.add_argument("--glare", type=float, default=0, help="a bright haze adding this many grey levels at its centre")
    parser.add_argument("--noise", type=float, default=0, help="Gaussian noise, standard deviation in grey levels")
    parser.add_argument("--mirror", action="store_true", help="mirror left to right")
    parser.add_argument("--invert", action="store_true", help="light codes on dark")
    parser.add_argument("--jpeg", type=int, default=0, help="store as JPEG of this quality (1-95; default PNG)")
    args = parser.parse_args()
    if not 0 < args.scale <= 1:
        sys.exit("--scale must lie in (0, 1]")
    if not 0 < args.contrast <= 1 or not 0 <= args.shade < 1 or args.glare < 0:
        sys.exit("--contrast must lie in (0, 1], --shade in [0, 1), --glare must not be negative")
    if args.blur < 0 or args.motion < 0 or args.noise < 0 or not 0 <= args.jpeg <= 95 or not 0 <= args.tilt < 1:
        sys.exit("--blur, --motion and --noise must not be negative, --tilt must lie in [0, 1), --jpeg in 1...95 (or 0 for PNG)")
    with open(os.path.join(args.corpus, "manifest.json")) as f:
        manifest = json.load(f)
    entries = manifest["images"] if isinstance(manifest, dict) else manifest

    with tempfile.TemporaryDirectory(prefix="qr-transformed-") as folder:
        paths = transformed_copies(args.corpus, entries, args, folder)
        ours = read_ours(args.qr, paths)
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
    print(f"angle {args.angle:g}, scale {args.scale:g}, blur {args.blur:g}, motion {args.motion:g}, tilt {args.tilt:g}, contrast {args.contrast:g}, "
          f"shade {args.shade:g}, glare {args.glare:g}, noise {args.noise:g}, "
          f"mirror {args.mirror}, invert {args.invert}, jpeg {args.jpeg or 'no'}: "
          f"expected texts read, QRKit {totals['qr']}, zxing-cpp {totals['zxing-cpp']}, of {totals['expected']}; "
          f"other texts, QRKit {totals['qr other']}, zxing-cpp {totals['zxing-cpp other']}")
    for difference, image, qr, zxing, expected in sorted(differing):
        print(f"  {difference:+d} {image:55} QRKit {qr}, zxing-cpp {zxing} of {expected}")


if __name__ == "__main__":
    main()
