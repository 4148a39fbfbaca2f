/// CCITT bilevel decoding for TIFF: Modified Huffman (compression 2), T.4 (Group 3, compression 3, 1-D or 2-D)
/// and T.6 (Group 4, compression 4).
///
/// Rows come out packed as TIFF stores 1-bit pixels, most significant bit first, a white run as 0 bits and a
/// black run as 1 bits (the file's PhotometricInterpretation then says which is dark). Each strip or tile is
/// coded on its own: its first 2-D row refers to an imaginary white row. What follows the last row (RTC,
/// EOFB, padding) is not read. Choices on damaged data:
/// - a code that is not in the tables, or a run past the end of the row, is `.corrupt`;
/// - data that ends before the last row does is `.truncated`;
/// - the uncompressed mode of the extension code is refused as unsupported.
struct CCITTFaxDecoder {
    /// How the rows are coded (TIFF's Compression and T4Options).
    enum Coding: Equatable {
        /// Compression 2: 1-D rows, each starting on a byte boundary, no EOL codes.
        case modifiedHuffman
        /// Compression 3: rows led by EOL codes (any number of fill bits may precede them); with
        /// `twoDimensional`, a bit after each EOL chooses a 1-D (1) or 2-D (0) row.
        case group3(twoDimensional: Bool)
        /// Compression 4: 2-D rows, no EOL codes.
        case group4
    }

    /// Decodes `rows` rows of `width` pixels from `input` into `out`, which holds `rows` rows of
    /// `(width + 7) / 8` bytes.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, coding: Coding, width: Int, rows: Int,
                       into out: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
        let rowBytes = (width + 7) / 8
        var bits = BitReader(input)
        // Changing elements (where the colour changes, white first) of the reference and the coding row, each
        // followed by three sentinels at `width` so that b1 and b2 can always be looked up.
        let sentinels = [width, width, width]
        var reference = sentinels
        var changes: [Int] = []
        for row in 0..<rows {
            changes.removeAll(keepingCapacity: true)
            let twoDimensional: Bool
            switch coding {
            case .modifiedHuffman:
                bits.alignToByte()
                twoDimensional = false
            case let .group3(allowsTwoDimensional):
                bits.skipEndOfLine()
                twoDimensional = allowsTwoDimensional ? try bits.read(1) == 0 : false
            case .group4:
                twoDimensional = true
            }
            if twoDimensional {
                try decodeTwoDimensionalRow(&bits, reference: reference, width: width, into: &changes)
            } else {
                try decodeOneDimensionalRow(&bits, width: width, into: &changes)
            }
            let start = row * rowBytes
            paint(changes, width: width, into: UnsafeMutableBufferPointer(rebasing: out[start..<start + rowBytes]))
            reference = changes + sentinels
        }
    }

    /// A row of alternating white and black runs, each a chain of make-up codes and a terminating code.
    private static func decodeOneDimensionalRow(_ bits: inout BitReader, width: Int,
                                                into changes: inout [Int]) throws(ImageError) {
        var position = 0, white = true
        while position < width {
            position += try bits.run(white: white, limit: width - position)
            changes.append(position)
            white.toggle()
        }
    }

    /// A row coded against `reference` with the pass, horizontal and vertical modes (T.4 §4.2.1.3).
    private static func decodeTwoDimensionalRow(_ bits: inout BitReader, reference: [Int], width: Int,
                                                into changes: inout [Int]) throws(ImageError) {
        // a0 starts on an imaginary white pixel just before the row.
        var a0 = -1, white = true, next = 0
        while a0 < width {
            // b1: the first change of the reference row right of a0 to the colour opposite a0's; changes to
            // black sit at even indices. b2: the change after b1.
            while reference[next] <= a0 { next += 1 }
            let b1Index = next + ((next & 1 == 0) == white ? 0 : 1)
            let b1 = reference[b1Index], b2 = reference[b1Index + 1]
            let start = max(a0, 0)
            switch try bits.mode() {
            case .pass:
                a0 = b2
            case .horizontal:
                let a1 = start + (try bits.run(white: white, limit: width - start))
                let a2 = a1 + (try bits.run(white: !white, limit: width - a1))
                changes += [a1, a2]
                a0 = a2
            case let .vertical(offset):
                let a1 = b1 + offset
                guard a1 >= start, a1 <= width else {
                    throw .corrupt(.tiff, "a CCITT vertical mode code moves to pixel \(a1), outside \(start)…\(width)")
                }
                changes.append(a1)
                a0 = a1
                white.toggle()
            }
        }
    }

    /// Sets the bits of the black runs, which lie between changes 2k and 2k+1 (the last runs to the row's end).
    private static func paint(_ changes: [Int], width: Int, into row: UnsafeMutableBufferPointer<UInt8>) {
        row.update(repeating: 0)
        for index in stride(from: 0, to: changes.count, by: 2) {
            var x = changes[index]
            let end = index + 1 < changes.count ? changes[index + 1] : width
            while x < end, x & 7 != 0 {
                row[x >> 3] |= 0x80 >> UInt8(x & 7)
                x += 1
            }
            while x + 8 <= end {
                row[x >> 3] = 0xFF
                x += 8
            }
            while x < end {
                row[x >> 3] |= 0x80 >> UInt8(x & 7)
                x += 1
            }
        }
    }
}

/// The coding modes of 2-D rows (T.4 Table 4).
private enum Mode {
    case pass
    case horizontal
    /// a1 lies this many pixels right (positive) or left of b1.
    case vertical(Int)
}

/// Reads CCITT codes, most significant bit first. Peeks look past the end as zero bits; consuming them is
/// `.truncated`.
private struct BitReader {
    let data: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ data: UnsafeBufferPointer<UInt8>) {
        self.data = data
    }

    private var bitCount: Int { data.count * 8 }

    /// The next `count` (at most 16) bits.
    private func peek(_ count: Int) -> Int {
        let byte = position >> 3
        var word = 0
        for k in 0..<3 { word = word << 8 | (byte + k < data.count ? Int(data[byte + k]) : 0) }
        return word >> (24 - (position & 7) - count) & ((1 << count) - 1)
    }

    private mutating func consume(_ count: Int) throws(ImageError) {
        guard count <= bitCount - position else { throw .truncated(.tiff) }
        position += count
    }

    mutating func read(_ count: Int) throws(ImageError) -> Int {
        let value = peek(count)
        try consume(count)
        return value
    }

    mutating func alignToByte() {
        position = (position + 7) & ~7
    }

    /// Skips an EOL code if one comes next: eleven or more zero bits (fill bits make more) and a one.
    mutating func skipEndOfLine() {
        var end = position
        while end < bitCount, data[end >> 3] & (0x80 >> UInt8(end & 7)) == 0 { end += 1 }
        if end - position >= 11, end < bitCount { position = end + 1 }
    }

    /// The code looked up in a table indexed by the next `Int(table.bits)` bits, consumed.
    private mutating func lookUp(_ table: CodeTable, what: String) throws(ImageError) -> Int {
        let entry = table.entries[peek(table.bits)]
        guard entry.length > 0 else {
            // Zero bits read past the end match no code: the data ended inside one.
            if position + table.bits > bitCount { throw .truncated(.tiff) }
            throw .corrupt(.tiff, "no CCITT \(what) code starts at bit \(position) of its strip or tile")
        }
        try consume(Int(entry.length))
        return Int(entry.value)
    }

    /// A run of one colour: make-up codes (64 and more pixels) until a terminating code (0–63 pixels).
    mutating func run(white: Bool, limit: Int) throws(ImageError) -> Int {
        var total = 0
        while true {
            let length = try lookUp(white ? CCITTCodes.white : CCITTCodes.black, what: white ? "white run" : "black run")
            total += length
            guard total <= limit else { throw .corrupt(.tiff, "a CCITT run passes the end of its row") }
            if length < 64 { return total }
        }
    }

    mutating func mode() throws(ImageError) -> Mode {
        let value = try lookUp(CCITTCodes.modes, what: "mode")
        switch value {
        case CCITTCodes.pass: return .pass
        case CCITTCodes.horizontal: return .horizontal
        case CCITTCodes.uncompressed:
            throw .unsupportedFormat("a CCITT-compressed TIFF using uncompressed mode")
        default: return .vertical(value - 3)
        }
    }
}

/// A prefix-code table indexed by the next `bits` bits: every index starting with a code holds its value and
/// length; the others hold length 0.
private struct CodeTable: Sendable {
    struct Entry: Sendable {
        var value: Int16 = 0
        var length: UInt8 = 0
    }

    let bits: Int
    let entries: [Entry]

    /// `codes` (bit strings separated by spaces) standing for `first`, `first + step`, … per group.
    init(bits: Int, _ groups: [(first: Int, step: Int, codes: String)]) {
        var entries = [Entry](repeating: Entry(), count: 1 << bits)
        for (first, step, codes) in groups {
            for (index, code) in codes.split(separator: " ").enumerated() {
                let shift = bits - code.count
                let prefix = code.reduce(0) { $0 << 1 | ($1 == "1" ? 1 : 0) } << shift
                let entry = Entry(value: Int16(first + index * step), length: UInt8(code.count))
                for low in 0..<(1 << shift) { entries[prefix | low] = entry }
            }
        }
        self.bits = bits
        self.entries = entries
    }
}

/// The code tables of T.4 (Tables 2, 3a, 3b and 4), as its bit strings.
private enum CCITTCodes {
    static let white = CodeTable(bits: 12, [
        (0, 1, """
            00110101 000111 0111 1000 1011 1100 1110 1111 10011 10100 00111 01000 001000 000011 110100 110101 \
            101010 101011 0100111 0001100 0001000 0010111 0000011 0000100 0101000 0101011 0010011 0100100 \
            0011000 00000010 00000011 00011010 00011011 00010010 00010011 00010100 00010101 00010110 00010111 \
            00101000 00101001 00101010 00101011 00101100 00101101 00000100 00000101 00001010 00001011 01010010 \
            01010011 01010100 01010101 00100100 00100101 01011000 01011001 01011010 01011011 01001010 01001011 \
            00110010 00110011 00110100
            """),
        (64, 64, """
            11011 10010 010111 0110111 00110110 00110111 01100100 01100101 01101000 01100111 011001100 \
            011001101 011010010 011010011 011010100 011010101 011010110 011010111 011011000 011011001 011011010 \
            011011011 010011000 010011001 010011010 011000 010011011
            """),
        (1792, 64, extendedMakeUp),
    ])

    static let black = CodeTable(bits: 13, [
        (0, 1, """
            0000110111 010 11 10 011 0011 0010 00011 000101 000100 0000100 0000101 0000111 00000100 00000111 \
            000011000 0000010111 0000011000 0000001000 00001100111 00001101000 00001101100 00000110111 \
            00000101000 00000010111 00000011000 000011001010 000011001011 000011001100 000011001101 \
            000001101000 000001101001 000001101010 000001101011 000011010010 000011010011 000011010100 \
            000011010101 000011010110 000011010111 000001101100 000001101101 000011011010 000011011011 \
            000001010100 000001010101 000001010110 000001010111 000001100100 000001100101 000001010010 \
            000001010011 000000100100 000000110111 000000111000 000000100111 000000101000 000001011000 \
            000001011001 000000101011 000000101100 000001011010 000001100110 000001100111
            """),
        (64, 64, """
            0000001111 000011001000 000011001001 000001011011 000000110011 000000110100 000000110101 \
            0000001101100 0000001101101 0000001001010 0000001001011 0000001001100 0000001001101 0000001110010 \
            0000001110011 0000001110100 0000001110101 0000001110110 0000001110111 0000001010010 0000001010011 \
            0000001010100 0000001010101 0000001011010 0000001011011 0000001100100 0000001100101
            """),
        (1792, 64, extendedMakeUp),
    ])

    /// Make-up codes 1792–2560, the same for both colours.
    private static let extendedMakeUp = """
        00000001000 00000001100 00000001101 000000010010 000000010011 000000010100 000000010101 \
        000000010110 000000010111 000000011100 000000011101 000000011110 000000011111
        """

    /// Mode values: vertical modes VL3…VR3 are 0…6 (3 + the offset), then pass, horizontal and the extension
    /// code 0000001, which is followed by three bits that name uncompressed mode.
    static let pass = 7, horizontal = 8, uncompressed = 9
    static let modes = CodeTable(bits: 7, [
        (0, 1, "0000010 000010 010 1 011 000011 0000011 0001 001 0000001"),
    ])
}
