/// One of the eight data-mask patterns of ISO/IEC 18004 §7.8.2 (table 10).
public struct MaskPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern reference, 0…7.
    public let rawValue: Int

    /// Mask `rawValue`, or nil outside 0…7.
    public init?(_ rawValue: Int) {
        guard (0...7).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// All eight masks.
    public static let all: [MaskPattern] = (0...7).map { MaskPattern(unchecked: $0) }

    init(unchecked rawValue: Int) { self.rawValue = rawValue }

    /// Whether the module at `row`, `column` is inverted by this mask.
    @inlinable
    public func inverts(row i: Int, column j: Int) -> Bool {
        switch rawValue {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }

    public var description: String { "\(rawValue)" }
}
