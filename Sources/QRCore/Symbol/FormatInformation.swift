/// The 15-bit format information of a QR code: error-correction level and mask (ISO/IEC 18004 §7.9).
public struct FormatInformation: Hashable, Sendable {
    /// The error-correction level.
    public let level: ErrorCorrectionLevel
    /// The data mask.
    public let mask: MaskPattern

    public init(level: ErrorCorrectionLevel, mask: MaskPattern) {
        self.level = level
        self.mask = mask
    }

    /// The 5 data bits: level then mask.
    public var dataBits: Int { level.formatBits << 3 | mask.rawValue }

    /// The masked 15-bit codeword; bit i goes to `positions(size:)[copy][i]`.
    public var codeword: Int { BCHCode.qrFormat.encode(dataBits) }

    /// Decodes a 15-bit read-out (up to 3 bit errors are corrected).
    public static func decode(_ bits: Int) -> (format: FormatInformation, distance: Int)? {
        guard let (data, distance) = BCHCode.qrFormat.decode(bits, candidates: 0..<32, maximumDistance: 3),
              let level = ErrorCorrectionLevel(formatBits: data >> 3),
              let mask = MaskPattern(data & 7)
        else { return nil }
        return (FormatInformation(level: level, mask: mask), distance)
    }

    /// The two copies' module positions (x, y) for bits 0…14 (bit 0 is the least significant).
    /// Copy 0 surrounds the top-left finder; copy 1 is split below the top-right and beside the
    /// bottom-left finder.
    public static func positions(size: Int) -> [[(x: Int, y: Int)]] {
        var first: [(x: Int, y: Int)] = []
        for i in 0..<6 { first.append((8, i)) }
        first.append((8, 7))
        first.append((8, 8))
        first.append((7, 8))
        for i in 9..<15 { first.append((14 - i, 8)) }
        var second: [(x: Int, y: Int)] = []
        for i in 0..<8 { second.append((size - 1 - i, 8)) }
        for i in 8..<15 { second.append((8, size - 15 + i)) }
        return [first, second]
    }
}
