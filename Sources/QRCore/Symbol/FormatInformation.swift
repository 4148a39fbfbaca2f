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
        (0..<2).map { copy in (0..<15).map { position(copy: copy, bit: $0, size: size) } }
    }

    /// The module (x, y) of bit `bit` (0…14) in copy `copy` (0 or 1) of ``positions(size:)``, for readers
    /// that look at a few bits of many candidate symbols without building the lists.
    @inlinable
    public static func position(copy: Int, bit: Int, size: Int) -> (x: Int, y: Int) {
        if copy == 0 {
            // Up the column beside the finder (skipping the timing row), then left along the row below it.
            return bit < 6 ? (8, bit) : bit < 8 ? (8, bit + 1) : bit == 8 ? (7, 8) : (14 - bit, 8)
        }
        return bit < 8 ? (size - 1 - bit, 8) : (8, size - 15 + bit)
    }
}
