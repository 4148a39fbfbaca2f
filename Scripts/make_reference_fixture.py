#!/usr/bin/env python3
"""Generates Tests/QREncoderTests/Fixtures/reference-matrices.jsonl ONCE from independent encoders.

Reference: Nayuki's qrcodegen 1.8.0 (PyPI `qrcodegen==1.8.0`) for every case it can express. Kanji-mode cases
come from segno 1.6.6 (PyPI `segno==1.6.6`, forced mask, checked to be bit-exact against qrcodegen fed with
this script's own kanji bits, so two implementations agree). segno is not used for byte mode: it adds a
spurious 0x00 codeword when the terminator ends on a byte boundary (heuer/segno#148).

Every case records the exact call that produced it (`api_call`). The automatic mask follows qrcodegen's
penalty rules. Re-running the script with the same package versions reproduces the file byte for byte:

    pip install qrcodegen==1.8.0 segno==1.6.6
    python3 Scripts/make_reference_fixture.py > Tests/QREncoderTests/Fixtures/reference-matrices.jsonl
"""
import base64
import json
import random
import sys

import qrcodegen
from qrcodegen import QrCode, QrSegment
import segno

ECC = {"L": QrCode.Ecc.LOW, "M": QrCode.Ecc.MEDIUM, "Q": QrCode.Ecc.QUARTILE, "H": QrCode.Ecc.HIGH}
ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
rng = random.Random(18004)


def pack(rows):
    bits = "".join(rows)
    bits += "0" * (-len(bits) % 8)
    return base64.b64encode(bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))).decode()


def qr_rows(qr):
    return ["".join("1" if qr.get_module(x, y) else "0" for x in range(qr.get_size())) for y in range(qr.get_size())]


def make_qrcodegen_segment(s):
    """`segments(S)` in api_call: the qrcodegen segment for one fixture segment."""
    m = s["mode"]
    if m == "numeric":
        return QrSegment.make_numeric(s["text"])
    if m == "alphanumeric":
        return QrSegment.make_alphanumeric(s["text"])
    if m == "byte":
        return QrSegment.make_bytes(bytes.fromhex(s["data_hex"]))
    if m == "eci":
        return QrSegment.make_eci(s["assignment"])
    if m == "kanji":
        # This script's own kanji compaction (ISO/IEC 18004 7.4.6), only used to cross-check segno.
        sj = bytes.fromhex(s["sjis_hex"])
        bb = []
        for i in range(0, len(sj), 2):
            code = sj[i] << 8 | sj[i + 1]
            off = code - (0xC140 if code >= 0xE040 else 0x8140)
            val = (off >> 8) * 0xC0 + (off & 0xFF)
            bb += [(val >> k) & 1 for k in range(12, -1, -1)]
        return QrSegment(QrSegment.Mode.KANJI, len(sj) // 2, bb)
    raise ValueError(m)


out = []


def add(case_id, category, segments, ecc, version=None, mask=None, boost=False):
    segs = [make_qrcodegen_segment(s) for s in segments]
    lo, hi = (version, version) if version else (1, 40)
    qr = QrCode.encode_segments(segs, ECC[ecc], minversion=lo, maxversion=hi, mask=-1 if mask is None else mask,
                                boostecl=boost)
    ecc_name = ["LOW", "MEDIUM", "QUARTILE", "HIGH"]["LMQH".index(ecc)]
    call = (f"QrCode.encode_segments(segments(S), QrCode.Ecc.{ecc_name}, "
            f"minversion={lo}, maxversion={hi}, mask={-1 if mask is None else mask}, boostecl={boost})")
    generator = "qrcodegen 1.8.0"
    rows = qr_rows(qr)
    if any(s["mode"] == "kanji" for s in segments):
        # The kanji bits above are this script's; the reference is segno, which must agree bit for bit.
        assert mask is not None and len(segments) == 1
        sq = segno.make(segments[0]["text"], mode="kanji", error=ecc.lower(), version=version, mask=mask,
                        micro=False, boost_error=boost)
        srows = ["".join("1" if v else "0" for v in row) for row in sq.matrix]
        assert srows == rows, f"segno and qrcodegen disagree on {case_id}"
        generator = "segno 1.6.6 (identical to qrcodegen 1.8.0 with ISO/IEC 18004 kanji compaction)"
        call = (f"segno.make(S[0]['text'], mode='kanji', error='{ecc.lower()}', version={version}, mask={mask}, "
                f"micro=False, boost_error={boost})")
    out.append({
        "id": case_id, "category": category, "segments": segments, "ecc": ecc, "version": version, "mask": mask,
        "boost": boost, "expected_version": qr.get_version(), "expected_ecc": "LMQH"[qr.get_error_correction_level().ordinal],
        "expected_mask": qr.get_mask(), "size": qr.get_size(), "generator": generator, "api_call": call,
        "matrix_base64": pack(rows),
    })


def numeric(n):
    return {"mode": "numeric", "text": "".join(rng.choice("0123456789") for _ in range(n))}


def alnum(n):
    return {"mode": "alphanumeric", "text": "".join(rng.choice(ALNUM) for _ in range(n))}


UTF8_POOL = "abcxyzABC019 -_/?&=.:éüßñ€£¥二维码支付宝日本語テスト한국어Ωπ😀"


def utf8_text(nbytes):
    text = ""
    while True:
        c = rng.choice(UTF8_POOL)
        if len((text + c).encode()) > nbytes:
            return text
        text += c


def byte_utf8(nbytes):
    t = utf8_text(nbytes)
    return {"mode": "byte", "data_hex": t.encode().hex(), "text": t}


def byte_binary(n):
    return {"mode": "byte", "data_hex": bytes(rng.randrange(256) for _ in range(n)).hex()}


KANJI_POOL = "漢字日本語点茗魔法少女文字東京駅情報処理亜唖娃阿哀愛挨姶逢葵茜穐悪握渥旭葦芦鯵梓圧斡扱宛姐虻飴絢綾鮎或粟袷安庵按暗案闇鞍杏以伊位依偉囲夷委威尉惟意慰易椅為畏異移維緯胃萎衣謂違遺医井亥域育郁磯一壱溢逸稲茨芋鰯允印咽員因姻引飲淫胤蔭院陰隠韻吋右宇烏羽迂雨卯鵜窺丑碓臼渦嘘唄欝蔚鰻姥厩浦瓜閏噂云運雲荏餌叡営嬰影映曳栄永泳洩瑛盈穎頴英衛詠鋭液疫益駅悦謁越閲榎厭円"


def kanji(n, version=None, ecc=None):
    if version is not None:
        # segno's byte-aligned-terminator bug (see above) must not reach the reference: avoid that length.
        while n > 1 and (4 + cc_bits("kanji", version) + 13 * n +
                         min(4, capacity_bits(version, ecc) - 4 - cc_bits("kanji", version) - 13 * n)) % 8 == 0:
            n -= 1
    t = "".join(rng.choice(KANJI_POOL) for _ in range(n))
    return {"mode": "kanji", "text": t, "sjis_hex": t.encode("shift_jis").hex()}


def capacity_bits(version, ecc):
    return QrCode._get_num_data_codewords(version, ECC[ecc]) * 8


def cc_bits(mode, version):
    g = 0 if version <= 9 else 1 if version <= 26 else 2
    return {"numeric": [10, 12, 14], "alphanumeric": [9, 11, 13], "byte": [8, 16, 16], "kanji": [8, 10, 12]}[mode][g]


def max_count(mode, version, ecc):
    avail = capacity_bits(version, ecc) - 4 - cc_bits(mode, version)
    if mode == "numeric":
        return avail // 10 * 3 + (2 if avail % 10 >= 7 else 1 if avail % 10 >= 4 else 0)
    if mode == "alphanumeric":
        return avail // 11 * 2 + (1 if avail % 11 >= 6 else 0)
    if mode == "kanji":
        return avail // 13
    return avail // 8


MAKERS = {"numeric": numeric, "alphanumeric": alnum, "byte": byte_binary, "byte_utf8": byte_utf8, "kanji": kanji}

# Every version × level, forced version and mask, payload filling 70–100 % of the capacity, modes cycling.
for v in range(1, 41):
    for li, ecc in enumerate("LMQH"):
        kind = ["numeric", "alphanumeric", "byte", "byte_utf8", "kanji"][(v + li) % 5]
        mode = "byte" if kind.startswith("byte") else kind
        n = max(1, int(max_count(mode, v, ecc) * rng.uniform(0.7, 1.0)))
        seg = kanji(n, v, ecc) if kind == "kanji" else MAKERS[kind](n)
        add(f"sweep-v{v:02d}-{ecc}", "version_sweep", [seg], ecc, version=v, mask=(v * 4 + li) % 8)

# Every mask on small, version-information and large symbols.
for v, ecc in [(1, "L"), (2, "M"), (7, "Q"), (13, "H"), (27, "M"), (40, "L")]:
    for mask in range(8):
        kind = ["numeric", "alphanumeric", "byte_utf8"][mask % 3]
        mode = "byte" if kind.startswith("byte") else kind
        add(f"mask-v{v:02d}-{mask}", "mask_sweep", [MAKERS[kind](max_count(mode, v, ecc) // 2 or 1)], ecc, version=v, mask=mask)

# Maximum-capacity payloads, automatic version (the smallest fitting is the given one) and automatic mask.
for v in [1, 2, 6, 7, 9, 10, 26, 27, 40]:
    for ecc in "LMQH":
        for mode in ["numeric", "alphanumeric", "byte"]:
            if (v + "LMQH".index(ecc) + ["numeric", "alphanumeric", "byte"].index(mode)) % 3:
                continue
            add(f"maxcap-v{v:02d}-{ecc}-{mode}", "max_capacity", [MAKERS[mode](max_count(mode, v, ecc))], ecc)
for v, ecc in [(1, "L"), (9, "H"), (27, "Q"), (40, "L")]:
    add(f"maxcap-v{v:02d}-{ecc}-kanji", "max_capacity", [kanji(max_count("kanji", v, ecc), v, ecc)], ecc, version=v,
        mask=v % 8)

# Automatic version and mask over random payloads of every mode and length.
for i in range(64):
    ecc = "LMQH"[i % 4]
    kind = ["numeric", "alphanumeric", "byte", "byte_utf8"][i // 4 % 4]
    mode = "byte" if kind.startswith("byte") else kind
    top = max_count(mode, rng.choice([3, 10, 20, 40]), ecc)
    add(f"auto-{i:02d}-{ecc}", "auto", [MAKERS[kind](rng.randint(1, top))], ecc)

# Kanji at chosen versions and masks (segno reference).
for i, (n, ecc, v) in enumerate([(1, "L", 1), (2, "M", 1), (7, "Q", 2), (20, "H", 5), (66, "M", 6), (150, "L", 12),
                                  (300, "Q", 22), (600, "H", 35)]):
    add(f"kanji-{i:02d}", "kanji", [kanji(n, v, ecc)], ecc, version=v, mask=i % 8)

# ECI designators of one, two and three bytes.
for i, (eci, text) in enumerate([(3, "Grüße aus Köln"), (20, None), (26, "支付宝 WeChat Pay ¥12.50"),
                                 (27, "ISO 646"), (127, "edge 1 byte"), (128, "edge 2 bytes"),
                                 (170, "ISO 646 inv"), (899, "binary"), (16383, "edge 2 bytes max"),
                                 (16384, "edge 3 bytes"), (999999, "largest")]):
    if eci == 20:
        data = "日本語テキスト".encode("shift_jis")
    elif eci == 3:
        data = text.encode("latin-1")
    else:
        data = text.encode("utf-8")
    segs = [{"mode": "eci", "assignment": eci}, {"mode": "byte", "data_hex": data.hex()}]
    add(f"eci-{eci}", "eci", segs, "LMQH"[i % 4], mask=None if i % 2 else i % 8)

# Several segments in one symbol.
for i in range(12):
    segs = []
    for _ in range(rng.randint(2, 5)):
        kind = rng.choice(["numeric", "alphanumeric", "byte", "byte_utf8"])
        segs.append(MAKERS[kind](rng.randint(1, 40)))
    add(f"mixed-{i:02d}", "mixed", segs, "LMQH"[i % 4], mask=None if i % 3 else i % 8)

# Empty data: no segments at all, and an empty byte segment.
for ecc in "LMQH":
    add(f"empty-noseg-{ecc}", "empty", [], ecc)
for mask in range(8):
    add(f"empty-noseg-v1-mask{mask}", "empty", [], "LMQH"[mask % 4], version=1, mask=mask)
add("empty-bytes0-M", "empty", [{"mode": "byte", "data_hex": ""}], "M")
add("empty-bytes0-H-v1", "empty", [{"mode": "byte", "data_hex": ""}], "H", version=1, mask=6)

# Error-correction boosting.
for i in range(10):
    ecc = "LMQ"[i % 3]
    kind = ["numeric", "alphanumeric", "byte_utf8"][i % 3]
    add(f"boost-{i:02d}", "boost", [MAKERS[kind](rng.randint(1, 60))], ecc, mask=None if i % 2 else 3, boost=True)

for case in out:
    for s in case["segments"]:
        s["char_count"] = (s.get("assignment", 0) if s["mode"] == "eci" else
                           len(bytes.fromhex(s["data_hex"])) if s["mode"] == "byte" else
                           len(s["text"]))
    print(json.dumps(case, ensure_ascii=False, sort_keys=True))
print(f"{len(out)} cases, qrcodegen {getattr(qrcodegen, '__version__', '1.8.0')}, segno {segno.__version__}",
      file=sys.stderr)
