import QRCore

/// One segment of a QR code's data: a mode, its character count and payload, ready to be written as bits.
public struct Segment: Sendable, Hashable {
    /// The mode of the segment.
    public let mode: SegmentMode
    /// The value of the character count indicator (digits, characters, bytes or kanji); for an ECI
    /// segment, the assignment number.
    public let characterCount: Int
    /// The source bytes: ASCII digits or characters, the raw bytes, or Shift_JIS bytes for kanji.
    public let payload: [UInt8]

    /// A segment from parts already known to be valid together (the optimizer's output).
    init(mode: SegmentMode, characterCount: Int, payload: [UInt8]) {
        self.mode = mode
        self.characterCount = characterCount
        self.payload = payload
    }

    /// A numeric segment; `digits` may only hold 0–9.
    public static func numeric(_ digits: String) throws(EncoderError) -> Segment {
        let bytes = Array(digits.utf8)
        if let bad = bytes.first(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            throw .invalidCharacter(String(UnicodeScalar(bad)), mode: .numeric)
        }
        return Segment(mode: .numeric, characterCount: bytes.count, payload: bytes)
    }

    /// An alphanumeric segment; `text` may only hold 0–9, A–Z, space and $ % * + - . / :
    public static func alphanumeric(_ text: String) throws(EncoderError) -> Segment {
        let bytes = Array(text.utf8)
        if let bad = text.unicodeScalars.first(where: { $0.value > 127 || AlphanumericCharset.value(of: UInt8($0.value)) == nil }) {
            throw .invalidCharacter(String(bad), mode: .alphanumeric)
        }
        return Segment(mode: .alphanumeric, characterCount: bytes.count, payload: bytes)
    }

    /// A byte segment carrying `bytes` as they are.
    public static func bytes(_ bytes: [UInt8]) -> Segment {
        Segment(mode: .byte, characterCount: bytes.count, payload: bytes)
    }

    /// A kanji segment from text; every character must be a double-byte Shift_JIS character in the ranges
    /// kanji mode can carry (0x8140–0x9FFC, 0xE040–0xEBBF).
    public static func kanji(_ text: String) throws(EncoderError) -> Segment {
        var payload: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard let sjis = Charset.shiftJIS.encode(String(scalar)), sjis.count == 2,
                  KanjiMode.isKanji(sjis[0], sjis[1])
            else { throw .invalidCharacter(String(scalar), mode: .kanji) }
            payload += sjis
        }
        return Segment(mode: .kanji, characterCount: payload.count / 2, payload: payload)
    }

    /// A kanji segment from Shift_JIS bytes (pairs in the kanji ranges).
    public static func kanji(shiftJIS bytes: [UInt8]) throws(EncoderError) -> Segment {
        guard bytes.count % 2 == 0 else { throw .invalidKanjiBytes("an odd number of bytes") }
        for i in stride(from: 0, to: bytes.count, by: 2) where !KanjiMode.isKanji(bytes[i], bytes[i + 1]) {
            throw .invalidKanjiBytes(String(format2Hex: bytes[i], bytes[i + 1]))
        }
        return Segment(mode: .kanji, characterCount: bytes.count / 2, payload: bytes)
    }

    /// An ECI designator switching the interpretation of following byte segments (assignment 0…999999).
    public static func eci(_ assignment: Int) throws(EncoderError) -> Segment {
        guard (0...999_999).contains(assignment) else { throw .invalidECI(assignment) }
        return Segment(mode: .eci, characterCount: assignment, payload: [])
    }

    /// Bits of the payload after the mode and count indicators.
    public var dataBitCount: Int {
        switch mode {
        case .numeric: return characterCount / 3 * 10 + [0, 4, 7][characterCount % 3]
        case .alphanumeric: return characterCount / 2 * 11 + (characterCount % 2) * 6
        case .byte: return characterCount * 8
        case .kanji: return characterCount * 13
        case .eci: return characterCount < 128 ? 8 : characterCount < 16384 ? 16 : 24
        default: return 0
        }
    }

    /// Bits of the whole segment in `version`, or nil if the count does not fit its indicator there.
    public func bitCount(version: Version) -> Int? {
        let countBits = mode.characterCountBits(version: version)
        if mode != .eci, characterCount >= 1 << countBits { return nil }
        return 4 + countBits + dataBitCount
    }

    /// Total bits of `segments` in `version`, or nil if a count does not fit.
    public static func totalBits(_ segments: [Segment], version: Version) -> Int? {
        var total = 0
        for segment in segments {
            guard let bits = segment.bitCount(version: version) else { return nil }
            total += bits
        }
        return total
    }

    /// Appends the segment's mode indicator, count and data to `buffer`, for `version`.
    func write(to buffer: inout BitBuffer, version: Version) {
        buffer.append(mode.indicator, bits: 4)
        switch mode {
        case .eci:
            let value = characterCount
            if value < 128 { buffer.append(value, bits: 8) }
            else if value < 16384 { buffer.append(0b10 << 14 | value, bits: 16) }
            else { buffer.append(0b110 << 21 | value, bits: 24) }
            return
        default:
            buffer.append(characterCount, bits: mode.characterCountBits(version: version))
        }
        switch mode {
        case .numeric:
            var i = 0
            while i < payload.count {
                let n = Swift.min(3, payload.count - i)
                var value = 0
                for j in 0..<n { value = value * 10 + Int(payload[i + j] - UInt8(ascii: "0")) }
                buffer.append(value, bits: [0, 4, 7, 10][n])
                i += n
            }
        case .alphanumeric:
            var i = 0
            while i + 1 < payload.count {
                let value = (AlphanumericCharset.value(of: payload[i]) ?? 0) * 45
                    + (AlphanumericCharset.value(of: payload[i + 1]) ?? 0)
                buffer.append(value, bits: 11)
                i += 2
            }
            if i < payload.count { buffer.append(AlphanumericCharset.value(of: payload[i]) ?? 0, bits: 6) }
        case .byte:
            for byte in payload { buffer.append(Int(byte), bits: 8) }
        case .kanji:
            for i in stride(from: 0, to: payload.count, by: 2) {
                buffer.append(KanjiMode.compact(payload[i], payload[i + 1]), bits: 13)
            }
        default:
            break
        }
    }
}

/// The 13-bit compaction of Shift_JIS double-byte characters in kanji mode (ISO/IEC 18004 §7.4.6).
enum KanjiMode {
    /// Whether the Shift_JIS pair lies in a range kanji mode can carry.
    static func isKanji(_ high: UInt8, _ low: UInt8) -> Bool {
        let code = Int(high) << 8 | Int(low)
        return ((0x8140...0x9FFC).contains(code) || (0xE040...0xEBBF).contains(code)) && low >= 0x40 && low != 0x7F && low <= 0xFC
    }

    /// The 13-bit value of a kanji-mode character.
    static func compact(_ high: UInt8, _ low: UInt8) -> Int {
        let code = Int(high) << 8 | Int(low)
        let offset = code >= 0xE040 ? code - 0xC140 : code - 0x8140
        return (offset >> 8) * 0xC0 + (offset & 0xFF)
    }
}

extension String {
    /// "0x8140"-style text for a byte pair, for error messages.
    init(format2Hex high: UInt8, _ low: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = "0x" + String([digits[Int(high >> 4)], digits[Int(high & 15)], digits[Int(low >> 4)], digits[Int(low & 15)]])
    }
}
