import QRCore

/// Guesses the charset of byte-mode data that carries no ECI designator, by ZXing's rules with one
/// addition: UTF-8 if the bytes are valid UTF-8, Shift_JIS for runs of double-byte or half-width katakana
/// characters, then GB18030 when every non-ASCII byte pairs into a GB 2312 character (Chinese codes often
/// carry GBK without an ECI, and accented Latin-1 letters rarely come in pairs), ISO-8859-1 for the rest.
enum CharsetGuesser {
    static func guess(_ bytes: [UInt8]) -> Charset {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return .utf8 }  // plain ASCII: any reading agrees
        if String(validating: bytes, as: UTF8.self) != nil { return .utf8 }

        var canBeLatin1 = true, canBeShiftJIS = true
        var sjisBytesLeft = 0, katakana = 0, katakanaRun = 0, maxKatakanaRun = 0
        var doubleByteRun = 0, maxDoubleByteRun = 0, latin1HighOther = 0
        for value in bytes {
            if canBeLatin1 {
                if value > 0x7F && value < 0xA0 {
                    canBeLatin1 = false
                } else if value > 0x9F && (value < 0xC0 || value == 0xD7 || value == 0xF7) {
                    latin1HighOther += 1
                }
            }
            if canBeShiftJIS {
                if sjisBytesLeft > 0 {
                    if value < 0x40 || value == 0x7F || value > 0xFC { canBeShiftJIS = false } else { sjisBytesLeft -= 1 }
                } else if value == 0x80 || value == 0xA0 || value > 0xEF {
                    canBeShiftJIS = false
                } else if value > 0xA0 && value < 0xE0 {
                    katakana += 1
                    doubleByteRun = 0
                    katakanaRun += 1
                    maxKatakanaRun = max(maxKatakanaRun, katakanaRun)
                } else if value > 0x7F {
                    sjisBytesLeft += 1
                    katakanaRun = 0
                    doubleByteRun += 1
                    maxDoubleByteRun = max(maxDoubleByteRun, doubleByteRun)
                } else {
                    katakanaRun = 0
                    doubleByteRun = 0
                }
            }
        }
        if sjisBytesLeft > 0 { canBeShiftJIS = false }
        if canBeShiftJIS && (maxKatakanaRun >= 3 || maxDoubleByteRun >= 3) { return .shiftJIS }
        if gb2312Characters(bytes) >= 2 { return .gb18030 }
        if canBeLatin1 && canBeShiftJIS {
            return (maxKatakanaRun == 2 && katakana == 2) || latin1HighOther * 10 >= bytes.count ? .shiftJIS : .isoLatin1
        }
        if canBeLatin1 { return .isoLatin1 }
        if canBeShiftJIS { return .shiftJIS }
        return Charset.gb18030.decode(bytes) != nil ? .gb18030 : .isoLatin1
    }

    /// How many GB 2312 double-byte characters (both bytes 0xA1…0xFE, lead byte at most 0xF7) the bytes
    /// hold if every non-ASCII byte pairs up into one, else 0.
    private static func gb2312Characters(_ bytes: [UInt8]) -> Int {
        var i = 0
        var pairs = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            guard i + 1 < bytes.count, (0xA1...0xF7).contains(b), (0xA1...0xFE).contains(bytes[i + 1]) else { return 0 }
            pairs += 1
            i += 2
        }
        return pairs
    }
}
