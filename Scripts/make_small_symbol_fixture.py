#!/usr/bin/env python3
"""Generates Tests/QRReaderTests/Fixtures/small-symbols.jsonl ONCE from independent encoders.

Micro QR symbols come from segno 1.6.6 (`segno.make(text, micro=True, version=..., error=...)`), rMQR symbols
from zint 2.11.1 (`zint -b RMQR --vers=N --secure=2|4 --dump`; Debian package `zint`). rmqrcode 0.3.2 is not
used: when a version has blocks of two lengths it drops the last data codeword of the longer blocks while
interleaving. Each line records the call, the expected text, and the module matrix (rows of 1/0, no quiet zone).
Reproduce with:

    pip install segno==1.6.6 && apt-get install zint
    python3 Scripts/make_small_symbol_fixture.py > Tests/QRReaderTests/Fixtures/small-symbols.jsonl
"""
import json

import subprocess

import segno

# zint numbers rMQR versions 1–32 in the order of ISO/IEC 23941 Table 1.
RMQR_VERSIONS = [f"R{h}x{w}" for h, widths in [(7, [43, 59, 77, 99, 139]), (9, [43, 59, 77, 99, 139]),
                                              (11, [27, 43, 59, 77, 99, 139]), (13, [27, 43, 59, 77, 99, 139]),
                                              (15, [43, 59, 77, 99, 139]), (17, [43, 59, 77, 99, 139])]
                 for w in widths]

out = []
for text, version, error in [("12345", "M1", None), ("AB12", "M2", "L"), ("123456", "M2", "M"),
                             ("hello", "M3", "L"), ("QRKIT", "M3", "M"), ("Micro QR, M4!", "M4", "L"),
                             ("M4 Q", "M4", "Q"), ("M4-M 2024", "M4", "M")]:
    q = segno.make(text, micro=True, version=version, error=error, boost_error=False)
    rows = ["".join("1" if v else "0" for v in row) for row in q.matrix]
    out.append({"symbology": "Micro QR Code", "version": q.version, "text": text, "rows": rows,
                "call": f"segno.make({text!r}, micro=True, version={version!r}, error={error!r}, boost_error=False)"})

for text, version, ecc in [(",,", "R7x43", "H"), ("rMQR", "R11x27", "M"), ("https://example.com/rmqr", "R13x77", "M"),
                           ("0123456789" * 4, "R17x139", "H"), ("Rectangular Micro QR", "R9x99", "H")]:
    args = ["zint", "-b", "RMQR", f"--vers={RMQR_VERSIONS.index(version) + 1}",
            f"--secure={4 if ecc == 'H' else 2}", "-d", text, "--dump"]
    dump = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split("\n")
    width = int(version.split("x")[1])
    rows = [bin(int(line.replace(" ", ""), 16))[2:].zfill(len(line.replace(" ", "")) * 4)[:width]
            for line in dump if line.strip()]
    out.append({"symbology": "rMQR Code", "version": version, "text": text, "rows": rows,
                "call": " ".join(args[:-3]) + f" -d {text!r} --dump"})

for case in out:
    print(json.dumps(case, ensure_ascii=False, sort_keys=True))
