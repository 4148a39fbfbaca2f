#!/usr/bin/env python3
"""Decoding speed of QRKit against zxing-cpp on the same images, in the same run, one thread each.

Both readers are timed alike: each image is loaded once as 8-bit grayscale, then decoded N times back to back
and the fastest decode is kept, so both are timed with the image and the reader's tables in cache. Ours is
`qr bench read` (the decode alone, both grey conversions preloaded); zxing-cpp's is its Python binding's
`read_barcodes` call on a numpy array (as the corpus's peer results were measured), with the options the corpus
scorer gives it (QR, Micro QR and rMQR; try rotate, downscale and invert; local-average binarizer).
`--accuracy fast` times QRKit's fast reader instead of the default thorough one.
`--cold` times ours instead with `decode_ms` of `qr read --json` over N passes through the list: each decode
then follows the loading of another file, which evicts the caches (a small image costs up to twice its warm
time), a cost zxing-cpp's timing never pays. The readers take turns on chunks of `--chunk` images, so that
drift in a shared machine's speed falls on both; `--rounds N` repeats the whole measurement N times and keeps
each image's fastest time for each reader (a slow spell of a few seconds can double one image's best of
`--runs`). Prints per-set totals, the overall ratio, and how many images
take more than twice zxing-cpp's time (the reader's speed target is at most 2x per image).
`--codes-erased` times instead copies of the BoofCV photos with every labelled code painted over: real photos
(paper, screens, labels, glare, blur) that hold no code, where each reader's time is what it spends giving up, as
when a photo library is searched for the few pictures with codes. It prints how many codes each reader still
read in them (codes the labels leave out; none expected).

Needs `pip install zxing-cpp pillow numpy` and a release build (`swift build -c release --product qr`).

    python3 Benchmarks/read-vs-zxing-cpp.py [--corpus ../shared/corpus] [--runs 3] [--rounds 1] [--accuracy fast] [--cold] [--chunk 20]
                                            [--only SUBSTRING] [--codes-erased] [--worst 20] [--json times.json]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

import zxing_peer


def corpus_images(root, only):
    """(set name, path) for every image in the corpus manifest, optionally filtered by a path substring."""
    with open(os.path.join(root, "manifest.json")) as f:
        manifest = json.load(f)
    entries = manifest["images"] if isinstance(manifest, dict) and "images" in manifest else manifest
    images = []
    for entry in entries:
        relative = entry.get("path") or entry.get("image") or entry.get("file")
        if only and only not in relative:
            continue
        images.append((entry["source"] + "/" + entry["set"], os.path.join(root, relative)))
    return images


def erased_copies(root, only, folder):
    """(set name, path) of copies, written to `folder` as PNG, of the corpus photos whose codes are labelled by
    their corners (BoofCV's), each code painted over with the light grey of the paper around it: a flat patch a
    third larger than the code, so that no finder pattern or module edge of it is left. Photos stored turned (an
    EXIF orientation other than upright) are left out: their labels' frame would need turning too."""
    from PIL import Image, ImageDraw
    import numpy
    with open(os.path.join(root, "manifest.json")) as f:
        manifest = json.load(f)
    images = []
    for entry in manifest:
        relative = entry["image"]
        if "codes" not in entry or entry.get("exif_orientation", 1) != 1 or (only and only not in relative):
            continue
        picture = Image.open(os.path.join(root, relative)).convert("L")
        pixels = numpy.asarray(picture)
        draw = ImageDraw.Draw(picture)
        for code in entry["codes"]:
            corners = numpy.array(code["corners"], dtype=float)
            centre = corners.mean(axis=0)
            patch = centre + (corners - centre) * 1.35
            (x0, y0), (x1, y1) = numpy.clip(patch.min(axis=0).astype(int) - 10, 0, None), patch.max(axis=0).astype(int) + 10
            around = pixels[y0:y1, x0:x1]
            draw.polygon([tuple(point) for point in patch], fill=int(numpy.percentile(around, 75)) if around.size else 200)
        path = os.path.join(folder, relative.replace("/", "_").rsplit(".", 1)[0] + ".png")
        picture.save(path)
        images.append((entry["source"] + "/" + entry["set"], path))
    return images


def codes_read(binary, paths, accuracy):
    """How many codes QRKit and zxing-cpp read in `paths`."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write("\n".join(paths) + "\n")
        listing.flush()
        out = subprocess.run([binary, "read", "--list", listing.name, "--json", "--accuracy", accuracy],
                             capture_output=True, text=True).stdout
    ours = sum(1 for line in out.splitlines() if '"text"' in line)
    theirs = sum(len([r for r in zxing_peer.read(zxing_peer.grayscale(path)) if r.valid]) for path in paths)
    return ours, theirs


def time_ours(binary, paths, runs, cold, accuracy):
    """Fastest decode time per image in milliseconds at `accuracy`: `qr bench read` (each image decoded `runs`
    times from memory), or (`cold`) `decode_ms` of `runs` passes of `qr read` through the whole list."""
    best = collections.defaultdict(lambda: float("inf"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write("\n".join(paths) + "\n")
        listing.flush()
        if cold:
            command, key, passes = [binary, "read", "--jobs", "1", "--list", listing.name, "--json"], "decode_ms", runs
        else:
            command, key, passes = [binary, "bench", "read", "--runs", str(runs), "--list", listing.name], "best_ms", 1
        command += ["--accuracy", accuracy]
        for _ in range(passes):
            out = subprocess.run(command, capture_output=True, text=True).stdout
            for line in out.splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                # qr read prints one line per code found, each carrying that decode's time.
                if "image" in record and key in record:
                    best[record["image"]] = min(best[record["image"]], record[key])
    return best


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--qr", default=os.path.join(here, "..", ".build", "release", "qr"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1, help="whole measurements, each image's fastest kept")
    parser.add_argument("--cold", action="store_true", help="time ours over whole-list passes (see above)")
    parser.add_argument("--accuracy", choices=["thorough", "fast"], default="thorough", help="QRKit's reader accuracy")
    parser.add_argument("--chunk", type=int, default=20, help="images timed by one reader before the other takes its turn")
    parser.add_argument("--only", help="only images whose path contains this")
    parser.add_argument("--codes-erased", action="store_true",
                        help="time the BoofCV photos with their labelled codes painted over (see above)")
    parser.add_argument("--worst", type=int, default=0, help="also list the N images with the highest ratio")
    parser.add_argument("--json", help="write per-image times here")
    args = parser.parse_args()
    args.corpus = os.path.abspath(args.corpus)

    erased = tempfile.TemporaryDirectory(prefix="codes-erased-") if args.codes_erased else None
    images = erased_copies(args.corpus, args.only, erased.name) if erased else corpus_images(args.corpus, args.only)
    if not images:
        sys.exit("no images found under " + args.corpus)
    if erased:
        found = codes_read(args.qr, [path for _, path in images], args.accuracy)
        print(f"{len(images)} photos with their codes painted over; codes still read: QRKit {found[0]}, zxing-cpp {found[1]}")
    # The two readers take turns on chunks of the list, so that a slower or faster spell of a shared
    # machine falls on both rather than on whichever ran during it.
    paths = [path for _, path in images]
    ours, theirs = {}, {}
    for _ in range(args.rounds):
        for start in range(0, len(paths), args.chunk):
            chunk = paths[start:start + args.chunk]
            for path, ms in time_ours(args.qr, chunk, args.runs, args.cold, args.accuracy).items():
                ours[path] = min(ms, ours.get(path, ms))
            for path in chunk:
                ms = zxing_peer.fastest_read_ms(path, args.runs)
                theirs[path] = min(ms, theirs.get(path, ms))

    sets = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for name, path in images:
        if path in ours:
            totals = sets[name]
            totals[0] += ours[path]
            totals[1] += theirs[path]
            totals[2] += 1
    print(f"{'set':28} {'images':>6} {'qr ms':>9} {'zxing-cpp ms':>12} {'ratio':>6}")
    all_ours = all_theirs = 0.0
    for name, (o, z, n) in sorted(sets.items()):
        all_ours += o
        all_theirs += z
        print(f"{name:28} {n:6} {o:9.1f} {z:12.1f} {o / z:6.2f}")
    print(f"{'all':28} {len(ours):6} {all_ours:9.1f} {all_theirs:12.1f} {all_ours / all_theirs:6.2f}")
    timed = [path for _, path in images if path in ours]
    over = [path for path in timed if ours[path] > 2 * theirs[path]]
    print(f"images taking more than 2x zxing-cpp's time: {len(over)} of {len(timed)}")
    if args.worst:
        for path in sorted(timed, key=lambda p: ours[p] / theirs[p], reverse=True)[:args.worst]:
            shown = os.path.basename(path) if erased else os.path.relpath(path, args.corpus)
            print(f"  {ours[path] / theirs[path]:6.2f}x  {ours[path]:8.2f} ms vs {theirs[path]:8.2f} ms  {shown}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"qr": ours, "zxing-cpp": theirs}, f, indent=1)


if __name__ == "__main__":
    main()
