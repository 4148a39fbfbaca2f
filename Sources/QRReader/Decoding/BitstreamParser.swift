import QRCore

/// Why the data codewords could not be parsed.
enum BitstreamError: Error, Equatable {
    /// An undefined mode indicator or a value out of range for its mode.
    case invalidData(String)
    /// A segment claims more characters than the data holds.
    case truncated
    /// Every data codeword is zero: what a grid over a flat area reads under the right mask (the all-zero
    /// block is a valid Reed–Solomon codeword), never what an encoder writes, which pads with 0xEC and 0x11.
    case blank
}

/// How a symbology writes its bitstream: mode indicators, character count lengths and the terminator.
struct BitstreamFormat {
    /// Bits of each mode indicator (0 in Micro QR M1, which holds numeric data only).
    let modeIndicatorBits: Int
    /// The mode of a mode indicator value, nil for values the symbology does not define.
    let mode: (Int) -> SegmentMode?
    /// Bits of a mode's character count indicator.
    let characterCountBits: (SegmentMode) -> Int?
    /// Zero bits that end the data (or fewer bits left).
    let terminatorBits: Int

    /// QR code Model 2 (and Model 1) of a version.
    static func qr(_ version: Version) -> BitstreamFormat {
        BitstreamFormat(modeIndicatorBits: 4, mode: { SegmentMode(rawValue: $0) },
                        characterCountBits: { $0.characterCountBits(version: version) }, terminatorBits: 4)
    }

    /// Micro QR of a version.
    static func microQR(_ version: MicroQRVersion) -> BitstreamFormat {
        BitstreamFormat(modeIndicatorBits: version.modeIndicatorBits, mode: { version.mode(forIndicator: $0) },
                        characterCountBits: { version.characterCountBits($0) }, terminatorBits: version.terminatorBits)
    }
}

extension BitstreamFormat {
    /// QR code Model 1: Model 2's modes and character counts for the same size.
    static func model1(_ version: Model1Version) -> BitstreamFormat {
        .qr(Version(version.number) ?? .min)
    }

    /// rMQR of a version: 3-bit mode indicators.
    static func rMQR(_ version: RMQRVersion) -> BitstreamFormat {
        BitstreamFormat(modeIndicatorBits: 3, mode: { RMQRVersion.mode(forIndicator: $0) },
                        characterCountBits: { version.characterCountBits($0) }, terminatorBits: 3)
    }
}

/// Parses a QR code bitstream (ISO/IEC 18004 §7.4) into text and bytes.
enum BitstreamParser {
    /// A run of decoded bytes with the charset to read them in.
    private struct Piece {
        enum Kind { case ascii, bytes(eci: Charset?), shiftJIS, gb2312 }
        var kind: Kind
        var bytes: [UInt8]
    }

    static func parse(_ codewords: [UInt8], version: Version) throws(BitstreamError) -> DecodedPayload {
        try parse(codewords, format: .qr(version))
    }

    static func parse(_ codewords: [UInt8], format: BitstreamFormat) throws(BitstreamError) -> DecodedPayload {
        guard codewords.contains(where: { $0 != 0 }) else { throw .blank }
        var reader = BitReader(codewords)
        var pieces: [Piece] = []
        var modes: [SegmentMode] = []
        var ecis: [Int] = []
        var currentECI: Charset?
        var structuredAppend: StructuredAppendInfo?
        var fnc1: DecodedPayload.FNC1?

        func read(_ n: Int) throws(BitstreamError) -> Int {
            guard let value = reader.read(n) else { throw .truncated }
            return value
        }
        func append(_ kind: Piece.Kind, _ bytes: [UInt8]) {
            if case .ascii = kind, let last = pieces.last, case .ascii = last.kind {
                pieces[pieces.count - 1].bytes += bytes
            } else {
                pieces.append(Piece(kind: kind, bytes: bytes))
            }
        }

        parsing: while reader.remaining >= format.terminatorBits, reader.peek(format.terminatorBits) != 0 {
            let indicator = try read(format.modeIndicatorBits)
            guard let mode = format.mode(indicator) else {
                throw .invalidData("undefined mode indicator \(indicator)")
            }
            modes.append(mode)
            func countBits() throws(BitstreamError) -> Int {
                guard let bits = format.characterCountBits(mode) else { throw .invalidData("\(mode) mode is not allowed here") }
                return bits
            }
            switch mode {
            case .terminator:
                break parsing
            case .fnc1FirstPosition:
                fnc1 = .gs1
            case .fnc1SecondPosition:
                fnc1 = .industry(applicationIndicator: try read(8))
            case .structuredAppend:
                let index = try read(4), count = try read(4) + 1, parity = try read(8)
                structuredAppend = StructuredAppendInfo(index: index, count: count, parity: UInt8(parity))
            case .eci:
                let first = try read(8)
                let value: Int
                if first & 0x80 == 0 { value = first }
                else if first & 0xC0 == 0x80 { value = (first & 0x3F) << 8 | (try read(8)) }
                else if first & 0xE0 == 0xC0 { value = (first & 0x1F) << 16 | (try read(16)) }
                else { throw .invalidData("invalid ECI designator") }
                ecis.append(value)
                // An unknown assignment keeps bytes as they are (read as ISO-8859-1).
                currentECI = Charset.forECI(value) ?? .isoLatin1
            case .numeric:
                let count = try read(try countBits())
                var digits: [UInt8] = []
                digits.reserveCapacity(count)
                var left = count
                while left > 0 {
                    let n = min(3, left)
                    let value = try read([0, 4, 7, 10][n])
                    guard value < [1, 10, 100, 1000][n] else { throw .invalidData("numeric group out of range") }
                    let text = String(value)
                    digits += [UInt8](repeating: UInt8(ascii: "0"), count: n - text.utf8.count) + Array(text.utf8)
                    left -= n
                }
                append(.ascii, digits)
            case .alphanumeric:
                let count = try read(try countBits())
                var chars: [UInt8] = []
                chars.reserveCapacity(count)
                var left = count
                while left >= 2 {
                    let value = try read(11)
                    guard value < 45 * 45 else { throw .invalidData("alphanumeric pair out of range") }
                    chars.append(AlphanumericCharset.characters[value / 45])
                    chars.append(AlphanumericCharset.characters[value % 45])
                    left -= 2
                }
                if left == 1 {
                    let value = try read(6)
                    guard value < 45 else { throw .invalidData("alphanumeric character out of range") }
                    chars.append(AlphanumericCharset.characters[value])
                }
                if fnc1 != nil { chars = gs1Separators(chars) }
                append(.ascii, chars)
            case .byte:
                let count = try read(try countBits())
                guard count * 8 <= reader.remaining else { throw .truncated }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(count)
                for _ in 0..<count { bytes.append(UInt8(try read(8))) }
                append(.bytes(eci: currentECI), bytes)
            case .kanji:
                let count = try read(try countBits())
                guard count * 13 <= reader.remaining else { throw .truncated }
                var bytes: [UInt8] = []
                for _ in 0..<count {
                    let value = try read(13)
                    var code = (value / 0xC0) << 8 | (value % 0xC0)
                    code += code < 0x1F00 ? 0x8140 : 0xC140
                    bytes += [UInt8(code >> 8), UInt8(code & 0xFF)]
                }
                append(.shiftJIS, bytes)
            case .hanzi:
                let subset = try read(4)
                guard subset == 1 else { throw .invalidData("unsupported hanzi subset \(subset)") }
                let count = try read(try countBits())
                guard count * 13 <= reader.remaining else { throw .truncated }
                var bytes: [UInt8] = []
                for _ in 0..<count {
                    let value = try read(13)
                    var code = (value / 0x60) << 8 | (value % 0x60)
                    code += code < 0x0A00 ? 0xA1A1 : 0xA6A1
                    bytes += [UInt8(code >> 8), UInt8(code & 0xFF)]
                }
                append(.gb2312, bytes)
            }
        }

        // Byte segments before any ECI share one guessed charset.
        let unlabelled = pieces.flatMap { piece -> [UInt8] in
            if case .bytes(nil) = piece.kind { return piece.bytes }
            return []
        }
        let guessed = unlabelled.isEmpty ? nil : CharsetGuesser.guess(unlabelled)
        var text = ""
        var bytes: [UInt8] = []
        for piece in pieces {
            bytes += piece.bytes
            switch piece.kind {
            case .ascii:
                text += String(decoding: piece.bytes, as: UTF8.self)
            case let .bytes(eci):
                text += decode(piece.bytes, as: eci ?? guessed ?? .utf8)
            case .shiftJIS:
                text += decode(piece.bytes, as: .shiftJIS)
            case .gb2312:
                text += decode(piece.bytes, as: .gb18030)
            }
        }
        let declared = ecis.first.map { Charset.forECI($0) ?? .isoLatin1 }
        return DecodedPayload(text: text, bytes: bytes, charset: declared ?? guessed, charsetGuessed: declared == nil && guessed != nil,
                              eciAssignments: ecis, modes: modes, structuredAppend: structuredAppend, fnc1: fnc1)
    }

    /// Bytes in a charset, falling back to ISO-8859-1 (which accepts every byte) when they are invalid there.
    private static func decode(_ bytes: [UInt8], as charset: Charset) -> String {
        charset.decode(bytes) ?? Charset.isoLatin1.decode(bytes) ?? ""
    }

    /// In FNC1 mode "%" in alphanumeric data stands for the GS separator, and "%%" for a literal "%".
    private static func gs1Separators(_ chars: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var i = 0
        while i < chars.count {
            if chars[i] == UInt8(ascii: "%") {
                if i + 1 < chars.count && chars[i + 1] == UInt8(ascii: "%") {
                    result.append(UInt8(ascii: "%"))
                    i += 2
                    continue
                }
                result.append(0x1D)
            } else {
                result.append(chars[i])
            }
            i += 1
        }
        return result
    }
}
