/// The four error-correction levels of a QR code, lowest to highest.
public enum ErrorCorrectionLevel: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    /// L: about 7 % of codewords can be restored.
    case low = 0
    /// M: about 15 %.
    case medium = 1
    /// Q: about 25 %.
    case quartile = 2
    /// H: about 30 %.
    case high = 3

    /// The letter used by the standard and by every tool: L, M, Q or H.
    public var letter: String { ["L", "M", "Q", "H"][rawValue] }

    /// The approximate share of codewords that can be restored, in percent.
    public var recoveryPercent: Int { [7, 15, 25, 30][rawValue] }

    /// The two bits this level occupies in the format information (ISO/IEC 18004 table 12).
    public var formatBits: Int { [0b01, 0b00, 0b11, 0b10][rawValue] }

    /// The level whose format bits are `bits` (0…3).
    public init?(formatBits bits: Int) {
        guard let level = Self.allCases.first(where: { $0.formatBits == bits }) else { return nil }
        self = level
    }

    /// Parses "L", "M", "Q", "H" (any case), or "low", "medium", "quartile", "high".
    public init?(_ text: String) {
        switch text.lowercased() {
        case "l", "low": self = .low
        case "m", "medium": self = .medium
        case "q", "quartile": self = .quartile
        case "h", "high": self = .high
        default: return nil
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { letter }
}
