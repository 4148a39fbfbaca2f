/// CCITT bilevel coding for tests: Modified Huffman, T.4 (1-D, or 2-D with a 1-D row every k rows; EOLs
/// optionally byte-aligned) and T.6 rows of pixels, 1 for black and 0 for white. The 2-D coder chooses modes
/// as T.4 §4.2.1.3 says (pass when b2 lies left of a1, vertical when a1 is within 3 of b1, else horizontal).
public enum CCITTEncoder {
    public enum Coding: Sendable {
        case modifiedHuffman
        /// T.4: with `twoDimensionalEvery` k, rows 0, k, 2k… are 1-D and the others 2-D; nil codes all 1-D.
        case group3(twoDimensionalEvery: Int?, byteAlignedEOL: Bool)
        case group4
    }

    /// `pixels` (`width` × `height`, row-major, 1 = black) coded as one strip.
    public static func encode(_ pixels: [UInt8], width: Int, height: Int, coding: Coding) -> [UInt8] {
        var writer = BitWriter()
        var reference: [Int] = []
        for y in 0..<height {
            let changes = changingElements(Array(pixels[y * width..<(y + 1) * width]))
            switch coding {
            case .modifiedHuffman:
                oneDimensional(changes, width: width, into: &writer)
                writer.alignToByte()
            case let .group3(k, aligned):
                if aligned { writer.padForEndOfLine() }
                writer.write(endOfLine)
                if let k {
                    writer.write((y % k == 0 ? 1 : 0, 1))
                    if y % k != 0 {
                        twoDimensional(changes, reference: reference, width: width, into: &writer)
                        break
                    }
                }
                oneDimensional(changes, width: width, into: &writer)
            case .group4:
                twoDimensional(changes, reference: reference, width: width, into: &writer)
            }
            reference = changes
        }
        switch coding {
        case .modifiedHuffman: break
        // RTC: six EOLs (each with the 1-D tag bit when 2-D coding is on).
        case let .group3(k, _):
            for _ in 0..<6 {
                writer.write(endOfLine)
                if k != nil { writer.write((1, 1)) }
            }
        // EOFB: two EOLs.
        case .group4:
            writer.write(endOfLine)
            writer.write(endOfLine)
        }
        writer.alignToByte()
        return writer.bytes
    }

    /// The columns where the colour differs from the pixel to the left (white before the row).
    private static func changingElements(_ row: [UInt8]) -> [Int] {
        var changes: [Int] = [], black = false
        for (x, pixel) in row.enumerated() where (pixel != 0) != black {
            changes.append(x)
            black.toggle()
        }
        return changes
    }

    private static func oneDimensional(_ changes: [Int], width: Int, into writer: inout BitWriter) {
        var start = 0, white = true
        for end in changes + [width] {
            writeRun(end - start, white: white, into: &writer)
            start = end
            white.toggle()
        }
    }

    private static func twoDimensional(_ changes: [Int], reference: [Int], width: Int, into writer: inout BitWriter) {
        let coding = changes + [width, width], ref = reference + [width, width, width]
        var a0 = -1, white = true
        while a0 < width {
            let a1Index = coding.firstIndex { $0 > a0 } ?? coding.count - 1
            let a1 = coding[a1Index]
            var b1Index = ref.firstIndex { $0 > a0 } ?? ref.count - 2
            if (b1Index % 2 == 0) != white { b1Index += 1 }
            let b1 = ref[b1Index], b2 = ref[b1Index + 1]
            if b2 < a1 {
                writer.write(pass)
                a0 = b2
            } else if abs(a1 - b1) <= 3 {
                writer.write(vertical[a1 - b1 + 3])
                a0 = a1
                white.toggle()
            } else {
                let a2 = coding[a1Index + 1]
                writer.write(horizontal)
                writeRun(a1 - max(a0, 0), white: white, into: &writer)
                writeRun(a2 - a1, white: !white, into: &writer)
                a0 = a2
            }
        }
    }

    /// Make-up codes of 2560 while more remains, one make-up code of the remaining multiple of 64, then a
    /// terminating code.
    private static func writeRun(_ length: Int, white: Bool, into writer: inout BitWriter) {
        var length = length
        while length > 2560 + 63 {
            writer.write(extendedMakeUp[12])
            length -= 2560
        }
        if length >= 64 {
            let index = length / 64 - 1
            writer.write(index < 27 ? (white ? whiteMakeUp : blackMakeUp)[index] : extendedMakeUp[index - 27])
            length %= 64
        }
        writer.write((white ? whiteTerminating : blackTerminating)[length])
    }

    private typealias Code = (value: Int, length: Int)

    private static let endOfLine: Code = (1, 12)
    private static let pass: Code = (1, 4)
    private static let horizontal: Code = (1, 3)
    /// VL3 … V0 … VR3.
    private static let vertical: [Code] = [(0x2, 7), (0x2, 6), (0x2, 3), (0x1, 1), (0x3, 3), (0x3, 6), (0x3, 7)]

    private static let whiteTerminating: [Code] = [
        (0x35, 8), (0x7, 6), (0x7, 4), (0x8, 4), (0xb, 4), (0xc, 4), (0xe, 4), (0xf, 4),
        (0x13, 5), (0x14, 5), (0x7, 5), (0x8, 5), (0x8, 6), (0x3, 6), (0x34, 6), (0x35, 6),
        (0x2a, 6), (0x2b, 6), (0x27, 7), (0xc, 7), (0x8, 7), (0x17, 7), (0x3, 7), (0x4, 7),
        (0x28, 7), (0x2b, 7), (0x13, 7), (0x24, 7), (0x18, 7), (0x2, 8), (0x3, 8), (0x1a, 8),
        (0x1b, 8), (0x12, 8), (0x13, 8), (0x14, 8), (0x15, 8), (0x16, 8), (0x17, 8), (0x28, 8),
        (0x29, 8), (0x2a, 8), (0x2b, 8), (0x2c, 8), (0x2d, 8), (0x4, 8), (0x5, 8), (0xa, 8),
        (0xb, 8), (0x52, 8), (0x53, 8), (0x54, 8), (0x55, 8), (0x24, 8), (0x25, 8), (0x58, 8),
        (0x59, 8), (0x5a, 8), (0x5b, 8), (0x4a, 8), (0x4b, 8), (0x32, 8), (0x33, 8), (0x34, 8),
    ]
    private static let whiteMakeUp: [Code] = [
        (0x1b, 5), (0x12, 5), (0x17, 6), (0x37, 7), (0x36, 8), (0x37, 8), (0x64, 8), (0x65, 8),
        (0x68, 8), (0x67, 8), (0xcc, 9), (0xcd, 9), (0xd2, 9), (0xd3, 9), (0xd4, 9), (0xd5, 9),
        (0xd6, 9), (0xd7, 9), (0xd8, 9), (0xd9, 9), (0xda, 9), (0xdb, 9), (0x98, 9), (0x99, 9),
        (0x9a, 9), (0x18, 6), (0x9b, 9),
    ]
    private static let blackTerminating: [Code] = [
        (0x37, 10), (0x2, 3), (0x3, 2), (0x2, 2), (0x3, 3), (0x3, 4), (0x2, 4), (0x3, 5),
        (0x5, 6), (0x4, 6), (0x4, 7), (0x5, 7), (0x7, 7), (0x4, 8), (0x7, 8), (0x18, 9),
        (0x17, 10), (0x18, 10), (0x8, 10), (0x67, 11), (0x68, 11), (0x6c, 11), (0x37, 11), (0x28, 11),
        (0x17, 11), (0x18, 11), (0xca, 12), (0xcb, 12), (0xcc, 12), (0xcd, 12), (0x68, 12), (0x69, 12),
        (0x6a, 12), (0x6b, 12), (0xd2, 12), (0xd3, 12), (0xd4, 12), (0xd5, 12), (0xd6, 12), (0xd7, 12),
        (0x6c, 12), (0x6d, 12), (0xda, 12), (0xdb, 12), (0x54, 12), (0x55, 12), (0x56, 12), (0x57, 12),
        (0x64, 12), (0x65, 12), (0x52, 12), (0x53, 12), (0x24, 12), (0x37, 12), (0x38, 12), (0x27, 12),
        (0x28, 12), (0x58, 12), (0x59, 12), (0x2b, 12), (0x2c, 12), (0x5a, 12), (0x66, 12), (0x67, 12),
    ]
    private static let blackMakeUp: [Code] = [
        (0xf, 10), (0xc8, 12), (0xc9, 12), (0x5b, 12), (0x33, 12), (0x34, 12), (0x35, 12), (0x6c, 13),
        (0x6d, 13), (0x4a, 13), (0x4b, 13), (0x4c, 13), (0x4d, 13), (0x72, 13), (0x73, 13), (0x74, 13),
        (0x75, 13), (0x76, 13), (0x77, 13), (0x52, 13), (0x53, 13), (0x54, 13), (0x55, 13), (0x5a, 13),
        (0x5b, 13), (0x64, 13), (0x65, 13),
    ]
    private static let extendedMakeUp: [Code] = [
        (0x8, 11), (0xc, 11), (0xd, 11), (0x12, 12), (0x13, 12), (0x14, 12), (0x15, 12), (0x16, 12),
        (0x17, 12), (0x1c, 12), (0x1d, 12), (0x1e, 12), (0x1f, 12),
    ]

    /// Codes packed most significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ code: Code) {
            for bit in stride(from: code.length - 1, through: 0, by: -1) {
                if bitCount % 8 == 0 { bytes.append(0) }
                if code.value >> bit & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount % 8) }
                bitCount += 1
            }
        }

        mutating func alignToByte() {
            bitCount = bytes.count * 8
        }

        /// Zero fill bits so that the EOL written next ends on a byte boundary.
        mutating func padForEndOfLine() {
            write((0, (8 - (bitCount + 12) % 8) % 8))
        }
    }
}
