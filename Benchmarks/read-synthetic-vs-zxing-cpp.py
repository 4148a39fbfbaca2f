#!/usr/bin/env python3
"""Codes read, and decode time, of QRKit and zxing-cpp on synthetic photos of codes on paper, side by side.

The corpus is a development set: a reader tuned on it can still fail, or be slow, on pictures unlike it. This
draws fresh ones from a seed: one to six codes (made by segno, an independent encoder, with random text, level
and 2.6 to 8 px modules) pasted at random angles on a page of random grey, the page then seen in perspective
(up to 12 % of its size at each corner), lit unevenly, blurred (up to 1.4 px), given sensor noise (up to 12 grey
levels) and stored as JPEG (quality 40 to 95). With `--sheet`, each picture is instead a sheet of 24 to 48 labels
in a grid, each turned a little, some with a blot of ink or a hole. Codes that do not fit leave a picture with
fewer, or none: those cost time to give up on, as in use.

Prints, for both readers, the codes read (a code counts when its text equals one placed), texts read that were not
placed, the images where one reads fewer than the other, then both readers' decode times measured as
read-vs-zxing-cpp.py measures them (each image preloaded, best of `--runs`, readers taking turns by chunks), the
total ratio and the images over twice zxing-cpp's time. The pictures are written to `--out` (kept for reruns).

Needs `pip install zxing-cpp pillow numpy segno` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-synthetic-vs-zxing-cpp.py [--seed 3] [--count 150] [--sheet] [--runs 5] [--out DIR]
"""
import io
import os
import random
import sys

import zxing_peer
from bench_pictures import benchmark_options, qr_records, with_corners_at
from zxing_peer import Image, numpy
from PIL import ImageDraw, ImageFilter

try:
    import segno
except ImportError:
    sys.exit("needs the segno Python package: pip install segno")

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 "


def symbol(text, level):
    """The code for `text` at error correction `level` as a grayscale image, one pixel per module, with a quiet
    zone of four modules."""
    buffer = io.BytesIO()
    segno.make_qr(text, error=level).save(buffer, kind="png", scale=1, border=4)
    buffer.seek(0)
    return Image.open(buffer).convert("L")


def perspective(page, rng, most):
    """`page` seen in perspective: each corner moved inwards by up to `most` of the page's size."""
    w, h = page.size
    shift = rng.uniform(0, most)
    if shift <= 0.02:
        return page
    seen = [(rng.uniform(0, shift) * w, rng.uniform(0, shift) * h), (w - rng.uniform(0, shift) * w, rng.uniform(0, shift) * h),
            (w - rng.uniform(0, shift) * w, h - rng.uniform(0, shift) * h), (rng.uniform(0, shift) * w, h - rng.uniform(0, shift) * h)]
    return with_corners_at(page, seen, 200)


def scattered_codes(rng):
    """A page with one to six codes at random angles, none overlapping; the page and the texts placed."""
    width, height = rng.choice([(1200, 900), (900, 1200), (1600, 1200), (800, 600)])
    page = Image.new("L", (width, height), rng.randint(180, 255))
    count = rng.choice([1, 1, 2, 2, 3, 4, 6])
    texts, boxes = [], []
    for _ in range(count):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(5, 180)))
        code = symbol(text, rng.choice("lmqh"))
        size = int(code.size[0] * rng.uniform(2.6, 8.0))
        if size > min(width, height) * 0.8 / (1 if count == 1 else 1.6):
            continue
        code = code.resize((size, size), Image.NEAREST)
        angle = rng.uniform(0, 360)
        turned = code.rotate(angle, resample=Image.BILINEAR, expand=True, fillcolor=255)
        mask = Image.new("L", code.size, 255).rotate(angle, expand=True, fillcolor=0)
        if turned.size[0] >= width or turned.size[1] >= height:
            continue
        for _ in range(50):
            x, y = rng.randint(0, width - turned.size[0]), rng.randint(0, height - turned.size[1])
            box = (x, y, x + turned.size[0], y + turned.size[1])
            if all(box[2] < b[0] or box[0] > b[2] or box[3] < b[1] or box[1] > b[3] for b in boxes):
                page.paste(turned, (x, y), mask)
                boxes.append(box)
                texts.append(text)
                break
    page = perspective(page, rng, 0.12)
    # Light falling off across the page.
    pixels = numpy.asarray(page, dtype=numpy.float32)
    across = numpy.arange(width, dtype=numpy.float32)[None, :] / width
    gain = rng.uniform(0.5, 1.0) + rng.uniform(0, 0.5) * across * rng.choice([-1, 1])
    page = Image.fromarray(numpy.clip(pixels * numpy.clip(gain, 0.35, 1.2), 0, 255).astype(numpy.uint8))
    return page.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1.4))), texts, rng.uniform(0, 12)


def label_sheet(rng, number, seed):
    """A sheet of labels in a grid, each turned a little, some blotted; the sheet and the texts placed."""
    width, height = 2000, 1500
    page = Image.new("L", (width, height), 235)
    columns, rows = rng.choice([(6, 4), (7, 5), (8, 6)])
    cell_width, cell_height = width // columns, height // rows
    texts = []
    for row in range(rows):
        for column in range(columns):
            text = f"LABEL-{seed}-{number}-{row}-{column}-" + "".join(rng.choice("0123456789") for _ in range(rng.randint(2, 30)))
            code = symbol(text, rng.choice("lmq"))
            size = int(min(cell_width, cell_height) * rng.uniform(0.6, 0.85))
            code = code.resize((size, size), Image.NEAREST)
            if rng.random() < 0.3:
                x, y, r = rng.randint(0, size - 10), rng.randint(0, size - 10), rng.randint(3, size // 8)
                ImageDraw.Draw(code).ellipse((x, y, x + r, y + r), fill=rng.choice([0, 255]))
            code = code.rotate(rng.uniform(-8, 8), resample=Image.BILINEAR, expand=True, fillcolor=235)
            page.paste(code, (column * cell_width + (cell_width - code.size[0]) // 2, row * cell_height + (cell_height - code.size[1]) // 2))
            texts.append(text)
    return page.filter(ImageFilter.GaussianBlur(rng.uniform(0, 1.0))), texts, rng.uniform(0, 8)


def pictures(args):
    """Writes the pictures to `args.out`; returns (path, texts placed) for each."""
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    made = []
    for number in range(args.count):
        page, texts, noise = label_sheet(rng, number, args.seed) if args.sheet else scattered_codes(rng)
        pixels = numpy.asarray(page, dtype=numpy.float32)
        pixels = pixels + numpy.random.default_rng(args.seed * 100_003 + number).normal(0, noise, pixels.shape)
        path = os.path.join(args.out, f"{'sheet' if args.sheet else 'page'}-{args.seed}-{number}.jpg")
        Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8)).save(path, quality=85 if args.sheet else rng.randint(40, 95))
        made.append((path, texts))
    return made


def our_texts(binary, paths):
    """The texts `qr read` finds in each image."""
    found = {path: [] for path in paths}
    for record in qr_records(binary, ["read", "--json"], paths):
        if "text" in record:
            found[record["image"]].append(record["text"])
    return found


def our_times(binary, paths, runs):
    """`qr bench read`'s best decode time per image, in milliseconds."""
    records = qr_records(binary, ["bench", "read", "--runs", str(runs)], paths)
    return {record["image"]: record["best_ms"] for record in records if "best_ms" in record}


def main():
    parser = benchmark_options(__doc__, "qrkit-synthetic")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--sheet", action="store_true", help="sheets of labels instead of scattered codes")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=20, help="images timed by one reader before the other takes its turn")
    args = parser.parse_args()

    made = pictures(args)
    paths = [path for path, _ in made]
    ours = our_texts(args.qr, paths)
    totals = {"placed": 0, "qr": 0, "zxing-cpp": 0, "qr unexpected": 0, "zxing-cpp unexpected": 0}
    for path, texts in made:
        theirs = [result.text for result in zxing_peer.read(zxing_peer.grayscale(path))]
        placed = set(texts)
        read = {"qr": set(ours[path]), "zxing-cpp": set(theirs)}
        totals["placed"] += len(placed)
        for name, found in read.items():
            totals[name] += len(found & placed)
            totals[name + " unexpected"] += len(found - placed)
        if len(read["qr"] & placed) != len(read["zxing-cpp"] & placed):
            print(f"  {os.path.basename(path)}: {len(placed)} placed, qr {len(read['qr'] & placed)}, "
                  f"zxing-cpp {len(read['zxing-cpp'] & placed)}")
    print(f"codes placed {totals['placed']}: qr read {totals['qr']} ({totals['qr unexpected']} unexpected), "
          f"zxing-cpp {totals['zxing-cpp']} ({totals['zxing-cpp unexpected']} unexpected)")

    our_best, their_best = {}, {}
    for start in range(0, len(paths), args.chunk):
        chunk = paths[start:start + args.chunk]
        our_best.update(our_times(args.qr, chunk, args.runs))
        for path in chunk:
            their_best[path] = zxing_peer.fastest_read_ms(path, args.runs)
    total_ours, total_theirs = sum(our_best.values()), sum(their_best.values())
    over = sorted((path for path in paths if our_best[path] > 2 * their_best[path]),
                  key=lambda path: our_best[path] / their_best[path], reverse=True)
    print(f"decode time: qr {total_ours:.1f} ms, zxing-cpp {total_theirs:.1f} ms, ratio {total_ours / total_theirs:.2f}; "
          f"over twice zxing-cpp's time: {len(over)} of {len(paths)}")
    for path in over[:10]:
        print(f"  {our_best[path] / their_best[path]:6.2f}x  {our_best[path]:8.2f} ms vs {their_best[path]:8.2f} ms  {os.path.basename(path)}")


if __name__ == "__main__":
    main()
