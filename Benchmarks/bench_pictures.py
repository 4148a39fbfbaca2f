"""What the reading benchmarks share: their common options, symbols made by `qr make`, a picture seen in
perspective (its corners moved), and the records `qr … --list` prints."""
import argparse
import json
import os
import subprocess
import tempfile

from zxing_peer import Image, numpy

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/:.-_?=&"
# Shares of a version's byte capacity, roughly, at each level.
LEVEL_SHARE = {"L": 1.0, "M": 0.78, "Q": 0.56, "H": 0.43}


def with_corners_at(image, seen, fill):
    """`image` warped so that its corners (top-left, top-right, bottom-right, bottom-left) appear at the points
    `seen`, bilinear, with `fill` where the picture leaves the frame."""
    w, h = image.size
    rows, values = [], []
    # PIL wants the map from output to input: from where each corner is seen to the corner.
    for (x, y), (u, v) in zip(seen, [(0, 0), (w, 0), (w, h), (0, h)]):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        values += [u, v]
    coefficients = numpy.linalg.solve(numpy.array(rows, dtype=float), numpy.array(values, dtype=float))
    return image.transform((w, h), Image.PERSPECTIVE, tuple(coefficients), Image.BILINEAR, fillcolor=fill)


def qr_records(binary, command, paths):
    """The JSON Lines `qr COMMAND --list` prints for `paths`, parsed."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write("\n".join(paths) + "\n")
        listing.flush()
        out = subprocess.run([binary, *command, "--list", listing.name], capture_output=True, text=True).stdout
    records = []
    for line in out.splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records


def make_symbol(binary, version, level, text, module_size, path):
    """Makes the symbol with `qr make`, shortening `text` until it fits; the text made, or None."""
    for _ in range(8):
        made = subprocess.run([binary, "make", "--version", str(version), "--level", level, "--module-size", str(module_size),
                               "-o", path, "--", text], capture_output=True)
        if made.returncode == 0:
            return text
        text = text[: int(len(text) * 0.8) or 1]
    return None


def random_text(rng, version, level):
    """Random text of URL characters filling 18-60 % of a symbol of `version` at `level`, roughly."""
    length = max(1, int(rng.uniform(0.3, 1.0) * LEVEL_SHARE[level] * (17 + 4 * version) ** 2 / 8 * 0.6))
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def benchmark_options(doc, folder):
    """An option parser described by `doc`'s first line, with `--qr` (the release build beside the benchmarks) and
    `--out` (the folder the pictures are written to, `folder` in the temporary directory)."""
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--qr", default=os.path.join(here, "..", ".build", "release", "qr"))
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), folder))
    return parser
