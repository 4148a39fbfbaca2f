/// The 4-bit mode indicators of a QR code bitstream (ISO/IEC 18004 table 2) and the length of each mode's
/// character count indicator.
public enum SegmentMode: Int, CaseIterable, Sendable, CustomStringConvertible {
    case terminator = 0b0000
    case numeric = 0b0001
    case alphanumeric = 0b0010
    case structuredAppend = 0b0011
    case byte = 0b0100
    case fnc1FirstPosition = 0b0101
    case eci = 0b0111
    case kanji = 0b1000
    case fnc1SecondPosition = 0b1001
    /// Chinese GB 2312 characters (GB/T 18284); read, never written by default.
    case hanzi = 0b1101

    /// The mode indicator value.
    public var indicator: Int { rawValue }

    /// Bits of the character count indicator in a QR code of `version`, or 0 for modes without one.
    public func characterCountBits(version: Version) -> Int {
        let group = version.number <= 9 ? 0 : version.number <= 26 ? 1 : 2
        switch self {
        case .numeric: return [10, 12, 14][group]
        case .alphanumeric: return [9, 11, 13][group]
        case .byte: return [8, 16, 16][group]
        case .kanji, .hanzi: return [8, 10, 12][group]
        default: return 0
        }
    }

    public var description: String {
        switch self {
        case .terminator: "terminator"
        case .numeric: "numeric"
        case .alphanumeric: "alphanumeric"
        case .structuredAppend: "structured append"
        case .byte: "byte"
        case .fnc1FirstPosition: "FNC1 (first position)"
        case .eci: "ECI"
        case .kanji: "kanji"
        case .fnc1SecondPosition: "FNC1 (second position)"
        case .hanzi: "hanzi"
        }
    }
}

/// The 45 characters of alphanumeric mode and their values (ISO/IEC 18004 table 5).
public enum AlphanumericCharset {
    /// The characters in value order: 0–9, A–Z, space, $ % * + - . / :
    public static let characters: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    @usableFromInline static let valueTable: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (value, c) in characters.enumerated() { table[Int(c)] = Int8(value) }
        return table
    }()

    /// The value of ASCII byte `c`, or nil if alphanumeric mode cannot carry it.
    @inlinable
    public static func value(of c: UInt8) -> Int? {
        guard c < 128 else { return nil }
        let v = valueTable[Int(c)]
        return v >= 0 ? Int(v) : nil
    }
}
