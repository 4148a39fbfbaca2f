#!/usr/bin/env python3
"""Symbols of every version made by `qr make`, read back by QRKit and by zxing-cpp, side by side.

Round-trip tests check a few symbols per version; a defect that strikes one symbol in a hundred (a version 6
symbol whose data reads as version information did) needs many. This makes `--per-version` symbols of each version
1 to 40 with random text (URL characters) at a random level, each with `qr make` at `--module-size` pixels per module
and a quiet zone of 4, then shows each as `--view` says:

  clean        as made
  turned       turned by a random angle, blurred (Gaussian, radius 0.3-0.9 px), dimmed, noisy (4 grey levels), JPEG
  mirrored     transposed, then turned as above
  inverted     light on dark, then turned as above
  perspective  turned as above, then seen in perspective: each corner of the picture moved in by up to
               `--perspective` of its size

and reads them with `qr read --list` and zxing-cpp's Python binding (as the corpus's peer results were made). A
symbol counts when its text is read. Prints both totals, the versions of the symbols QRKit misses, and those that
zxing-cpp reads and QRKit does not. zxing-cpp reading the symbols also checks the encoder.

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-made-symbols-vs-zxing-cpp.py [--view turned] [--per-version 40] [--module-size 3]
"""
import collections
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

import zxing_peer
from bench_pictures import benchmark_options, make_symbol, qr_records, random_text, with_corners_at
from zxing_peer import Image, numpy
from PIL import ImageFilter, ImageOps



def perspective(image, rng, most):
    """`image` seen in perspective: each corner moved inwards by up to `most` of its size."""
    w, h = image.size
    seen = [(rng.uniform(0, most) * w, rng.uniform(0, most) * h), (w - rng.uniform(0, most) * w, rng.uniform(0, most) * h),
            (w - rng.uniform(0, most) * w, h - rng.uniform(0, most) * h), (rng.uniform(0, most) * w, h - rng.uniform(0, most) * h)]
    return with_corners_at(image, seen, 255)


def shown(path, view, rng, most):
    """Rewrites the symbol at `path` as `view` shows it; returns the path of the picture."""
    image = Image.open(path).convert("L")
    if view == "clean":
        return path
    if view == "mirrored":
        image = image.transpose(Image.TRANSPOSE)
    if view == "inverted":
        image = ImageOps.invert(image)
    fill = 0 if view == "inverted" else 255
    image = image.rotate(rng.uniform(0, 360), resample=Image.BILINEAR, expand=True, fillcolor=fill)
    if view == "perspective":
        image = perspective(image, rng, most)
    image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.9)))
    pixels = numpy.asarray(image, dtype=numpy.float32) * rng.uniform(0.7, 1.0)
    pixels = pixels + numpy.random.default_rng(rng.randint(0, 2**32 - 1)).normal(0, 4, pixels.shape)
    os.remove(path)
    path = path[: -len(".png")] + ".jpg"
    Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8)).save(path, quality=90)
    return path


def main():
    parser = benchmark_options(__doc__, "qrkit-made-symbols")
    parser.add_argument("--view", choices=["clean", "turned", "mirrored", "inverted", "perspective"], default="turned")
    parser.add_argument("--per-version", type=int, default=40)
    parser.add_argument("--module-size", type=int, default=3)
    parser.add_argument("--perspective", type=float, default=0.22, help="with --view perspective: how far corners move in")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 0 <= args.perspective < 0.5 or args.per_version < 1 or args.module_size < 1:
        sys.exit("--perspective must lie in [0, 0.5), --per-version and --module-size must be positive")
    os.makedirs(args.out, exist_ok=True)

    rng = random.Random(args.seed)
    jobs = []
    for version in range(1, 41):
        for number in range(args.per_version):
            level = rng.choice("LMQH")
            text = random_text(rng, version, level)
            jobs.append((version, level, text, os.path.join(args.out, f"v{version}-{number}.png"), random.Random(rng.random())))

    def made(job):
        version, level, text, path, own = job
        text = make_symbol(args.qr, version, level, text, args.module_size, path)
        return None if text is None else (shown(path, args.view, own, args.perspective), version, level, text)

    with ThreadPoolExecutor(2) as pool:
        symbols = [symbol for symbol in pool.map(made, jobs) if symbol]
    ours = collections.defaultdict(set)
    for record in qr_records(args.qr, ["read", "--json"], [symbol[0] for symbol in symbols]):
        if "text" in record:
            ours[record["image"]].add(record["text"])

    missed, zxing_only, zxing_read = [], [], 0
    for path, version, level, text in symbols:
        theirs = text in {result.text for result in zxing_peer.read(zxing_peer.grayscale(path))}
        zxing_read += theirs
        if text not in ours[path]:
            missed.append(version)
            if theirs:
                zxing_only.append((version, level, os.path.basename(path)))
    print(f"{len(symbols)} symbols, versions 1-40, {args.module_size} px per module, {args.view}: "
          f"QRKit read {len(symbols) - len(missed)}, zxing-cpp {zxing_read}")
    if missed:
        print("  QRKit missed, by version: " + ", ".join(f"{v}: {n}" for v, n in sorted(collections.Counter(missed).items())))
    for version, level, name in sorted(zxing_only):
        print(f"  zxing-cpp only: version {version}-{level} {name}")


if __name__ == "__main__":
    main()
