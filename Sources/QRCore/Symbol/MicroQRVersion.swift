/// A Micro QR code version, M1…M4 (ISO/IEC 18004 §6, tables 1, 7 and 9): one finder pattern, timing patterns
/// along the top row and left column, one Reed–Solomon block.
public struct MicroQRVersion: Hashable, Sendable, CustomStringConvertible {
    /// 1…4 for M1…M4.
    public let number: Int

    public init?(_ number: Int) {
        guard (1...4).contains(number) else { return nil }
        self.number = number
    }

    /// Modules per side: 11, 13, 15, 17.
    public var size: Int { 2 * number + 9 }

    /// Data and error-correction codewords in the symbol.
    public var totalCodewords: Int { [5, 10, 17, 24][number - 1] }

    /// M1 and M3 end their data with a 4-bit codeword.
    public var hasHalfDataCodeword: Bool { number == 1 || number == 3 }

    /// Bits of the mode indicator: none in M1 (numeric only), then 1, 2 and 3.
    public var modeIndicatorBits: Int { number - 1 }

    /// Zero bits of the terminator: 3, 5, 7, 9.
    public var terminatorBits: Int { 2 * number + 1 }

    public var description: String { "M\(number)" }

    /// Data bits at a level, or nil for a level the version does not offer (M1 has only error detection,
    /// taken as `.low`; M2 and M3 offer L and M; M4 offers L, M and Q).
    public func dataBits(_ level: ErrorCorrectionLevel) -> Int? {
        switch (number, level) {
        case (1, .low): 20
        case (2, .low): 40
        case (2, .medium): 32
        case (3, .low): 84
        case (3, .medium): 68
        case (4, .low): 128
        case (4, .medium): 112
        case (4, .quartile): 80
        default: nil
        }
    }

    /// Data codewords at a level (a 4-bit last codeword counts as one).
    public func dataCodewords(_ level: ErrorCorrectionLevel) -> Int? {
        dataBits(level).map { ($0 + 7) / 8 }
    }

    /// The bits of a mode's character count indicator, or nil if the version cannot hold the mode.
    public func characterCountBits(_ mode: SegmentMode) -> Int? {
        let table: [SegmentMode: [Int]] = [.numeric: [3, 4, 5, 6], .alphanumeric: [0, 3, 4, 5], .byte: [0, 0, 4, 5], .kanji: [0, 0, 3, 4]]
        guard let bits = table[mode]?[number - 1], bits > 0 else { return nil }
        return bits
    }

    /// The mode a mode indicator value stands for.
    public func mode(forIndicator value: Int) -> SegmentMode? {
        let modes: [SegmentMode] = [.numeric, .alphanumeric, .byte, .kanji]
        guard value >= 0, value < modes.count, characterCountBits(modes[value]) != nil else { return nil }
        return modes[value]
    }

    /// The version and level a format information symbol number (0…7) stands for.
    public static func fromSymbolNumber(_ number: Int) -> (version: MicroQRVersion, level: ErrorCorrectionLevel)? {
        let table: [(Int, ErrorCorrectionLevel)] = [(1, .low), (2, .low), (2, .medium), (3, .low), (3, .medium),
                                                    (4, .low), (4, .medium), (4, .quartile)]
        guard (0..<8).contains(number), let version = MicroQRVersion(table[number].0) else { return nil }
        return (version, table[number].1)
    }

    /// The four data masks Micro QR uses, as QR mask patterns (ISO/IEC 18004 table 10).
    public static let masks: [MaskPattern] = [1, 4, 6, 7].compactMap { MaskPattern($0) }

    /// Positions (x, y) of format information bits 14…0 (most significant first): along row 8 from
    /// column 1 to 8, then up column 8 from row 7 to 1.
    public static let formatPositions: [(x: Int, y: Int)] =
        (1...8).map { (x: $0, y: 8) } + (1...7).reversed().map { (x: 8, y: $0) }
}

/// The fixed structure of a Micro QR version: function modules and data placement.
public struct MicroQRTemplate: Sendable {
    public let version: MicroQRVersion
    public let size: Int
    /// 1 where the module belongs to the finder, separator, timing patterns or format information.
    public let isFunction: [UInt8]
    /// Data module indices (y · size + x) in bit-placement order.
    public let dataPositions: [Int32]

    /// The template of `version`, built once and shared (a reader decodes many candidates of each version).
    public static func of(_ version: MicroQRVersion) -> MicroQRTemplate {
        cache.value(for: version.number) { MicroQRTemplate(version: version) }
    }

    private static let cache = BuiltOnce<Int, MicroQRTemplate>()

    public init(version: MicroQRVersion) {
        self.version = version
        let size = version.size
        self.size = size
        var function = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size where (x < 8 && y < 8) || x == 0 || y == 0 { function[y * size + x] = 1 }
        }
        for p in MicroQRVersion.formatPositions { function[p.y * size + p.x] = 1 }
        isFunction = function
        dataPositions = ModulePlacement.order(width: size, height: size, isFunction: function)
    }
}
