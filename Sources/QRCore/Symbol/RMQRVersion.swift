/// A rectangular Micro QR code (rMQR, ISO/IEC 23941) version: 32 sizes from R7x43 to R17x139, levels M and H.
public struct RMQRVersion: Hashable, Sendable, CustomStringConvertible {
    /// The version indicator of the format information, 0…31 (R7x43 … R17x139).
    public let index: Int

    public init?(_ index: Int) {
        guard (0..<32).contains(index) else { return nil }
        self.index = index
    }

    private static let heights = [7, 7, 7, 7, 7, 9, 9, 9, 9, 9, 11, 11, 11, 11, 11, 11, 13, 13, 13, 13, 13, 13,
                                  15, 15, 15, 15, 15, 17, 17, 17, 17, 17]
    private static let widths = [43, 59, 77, 99, 139, 43, 59, 77, 99, 139, 27, 43, 59, 77, 99, 139, 27, 43, 59, 77, 99, 139,
                                 43, 59, 77, 99, 139, 43, 59, 77, 99, 139]
    // ISO/IEC 23941 table 6 (data codewords) and table 8 (blocks).
    private static let totalCodewordsTable = [13, 21, 32, 44, 68, 21, 33, 49, 66, 99, 15, 31, 47, 67, 89, 132,
                                              21, 41, 60, 85, 113, 166, 51, 74, 103, 136, 199, 61, 88, 122, 160, 232]
    private static let dataM = [6, 12, 20, 28, 44, 12, 21, 31, 42, 63, 7, 19, 31, 43, 57, 84, 12, 27, 38, 53, 73, 106,
                                33, 48, 67, 88, 127, 39, 56, 78, 100, 152]
    private static let dataH = [3, 7, 10, 14, 24, 7, 11, 17, 22, 33, 5, 11, 15, 23, 29, 42, 7, 13, 20, 29, 35, 54,
                                15, 26, 31, 48, 69, 21, 28, 38, 56, 76]
    private static let blocksM = [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 2, 2, 3, 1, 1, 2, 2, 3, 1, 2, 2, 3, 4]
    private static let blocksH = [1, 1, 1, 1, 2, 1, 1, 2, 2, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2, 2, 3, 4, 2, 2, 3, 4, 5, 2, 2, 3, 4, 6]
    // Table 3: character count indicator bits for numeric, alphanumeric, byte, kanji.
    private static let countBits: [[Int]] = [
        [4, 5, 6, 7, 7, 5, 6, 7, 7, 8, 4, 6, 7, 7, 8, 8, 5, 6, 7, 7, 8, 8, 7, 7, 8, 8, 9, 7, 8, 8, 8, 9],
        [3, 5, 5, 6, 6, 5, 5, 6, 6, 7, 4, 5, 6, 6, 7, 7, 5, 6, 6, 7, 7, 8, 6, 7, 7, 7, 8, 6, 7, 7, 8, 8],
        [3, 4, 5, 5, 6, 4, 5, 5, 6, 6, 3, 5, 5, 6, 6, 7, 4, 5, 6, 6, 7, 7, 6, 6, 7, 7, 7, 6, 6, 7, 7, 8],
        [2, 3, 4, 5, 5, 3, 4, 5, 5, 6, 2, 4, 5, 5, 6, 6, 3, 5, 5, 6, 6, 7, 5, 5, 6, 6, 7, 5, 6, 6, 6, 7],
    ]

    /// Rows of modules.
    public var height: Int { Self.heights[index] }
    /// Columns of modules.
    public var width: Int { Self.widths[index] }
    /// Data and error-correction codewords.
    public var totalCodewords: Int { Self.totalCodewordsTable[index] }

    public var description: String { "R\(height)x\(width)" }

    /// The version with this size, if any.
    public init?(height: Int, width: Int) {
        guard let index = (0..<32).first(where: { Self.heights[$0] == height && Self.widths[$0] == width }) else { return nil }
        self.index = index
    }

    /// Column centres of the alignment patterns along the top and bottom edges (annex D).
    public var alignmentColumns: [Int] {
        switch width {
        case 43: [21]
        case 59: [19, 39]
        case 77: [25, 51]
        case 99: [23, 49, 75]
        case 139: [27, 55, 83, 111]
        default: []
        }
    }

    /// The block structure at level M or H (nil for other levels).
    public func blockLayout(_ level: ErrorCorrectionLevel) -> BlockLayout? {
        let (data, blocks): (Int, Int)
        switch level {
        case .medium: (data, blocks) = (Self.dataM[index], Self.blocksM[index])
        case .high: (data, blocks) = (Self.dataH[index], Self.blocksH[index])
        default: return nil
        }
        return BlockLayout(totalCodewords: totalCodewords, blockCount: blocks,
                           errorCorrectionCodewordsPerBlock: (totalCodewords - data) / blocks)
    }

    /// Bits of a mode's character count indicator.
    public func characterCountBits(_ mode: SegmentMode) -> Int? {
        switch mode {
        case .numeric: Self.countBits[0][index]
        case .alphanumeric: Self.countBits[1][index]
        case .byte: Self.countBits[2][index]
        case .kanji: Self.countBits[3][index]
        default: nil
        }
    }

    /// The mode of a 3-bit mode indicator.
    public static func mode(forIndicator value: Int) -> SegmentMode? {
        let modes: [SegmentMode] = [.terminator, .numeric, .alphanumeric, .byte, .kanji, .fnc1FirstPosition,
                                    .fnc1SecondPosition, .eci]
        return modes.indices.contains(value) ? modes[value] : nil
    }

    /// Positions (x, y) of the format information bits 0…17 beside the finder pattern.
    public static let formatPositionsLeft: [(x: Int, y: Int)] = (0..<18).map { (x: 8 + $0 / 5, y: 1 + $0 % 5) }

    /// Positions (x, y) of the format information bits 0…17 beside the finder sub-pattern.
    public func formatPositionsRight() -> [(x: Int, y: Int)] {
        (0..<15).map { (x: width - 8 + $0 / 5, y: height - 6 + $0 % 5) }
            + [(x: width - 5, y: height - 6), (x: width - 4, y: height - 6), (x: width - 3, y: height - 6)]
    }

    /// The level (M or H) and version of 6 format data bits.
    public static func fromFormatData(_ data: Int) -> (version: RMQRVersion, level: ErrorCorrectionLevel)? {
        guard let version = RMQRVersion(data & 31) else { return nil }
        return (version, data >> 5 == 1 ? .high : .medium)
    }
}

/// The fixed structure of an rMQR version: function modules and data placement.
public struct RMQRTemplate: Sendable {
    public let version: RMQRVersion
    /// 1 where the module belongs to a function pattern or format information (index y · width + x).
    public let isFunction: [UInt8]
    /// Data module indices in bit-placement order.
    public let dataPositions: [Int32]

    /// The template of `version`, built once and shared (a reader decodes many candidates of each version).
    public static func of(_ version: RMQRVersion) -> RMQRTemplate {
        cache.value(for: version.index) { RMQRTemplate(version: version) }
    }

    private static let cache = BuiltOnce<Int, RMQRTemplate>()

    public init(version: RMQRVersion) {
        self.version = version
        let w = version.width, h = version.height
        var function = [UInt8](repeating: 0, count: w * h)
        func mark(_ x: Int, _ y: Int) { if x >= 0, y >= 0, x < w, y < h { function[y * w + x] = 1 } }
        // Finder pattern with its separator.
        for y in 0..<min(h, 8) { for x in 0..<8 { mark(x, y) } }
        // Finder sub-pattern.
        for y in (h - 5)..<h { for x in (w - 5)..<w { mark(x, y) } }
        // Timing patterns on the top and bottom rows and in the outer and alignment columns.
        for x in 0..<w { mark(x, 0); mark(x, h - 1) }
        let timingColumns = [0, w - 1] + version.alignmentColumns
        for y in 0..<h { for x in timingColumns { mark(x, y) } }
        // Alignment patterns (3 × 3) at the top and bottom, and the corner patterns.
        for column in version.alignmentColumns {
            for dy in 0..<3 { for dx in -1...1 { mark(column + dx, dy); mark(column + dx, h - 1 - dy) } }
        }
        for (x, y) in [(w - 2, 1), (w - 1, 1), (0, h - 2), (1, h - 2)] { mark(x, y) }
        for p in RMQRVersion.formatPositionsLeft + version.formatPositionsRight() { mark(p.x, p.y) }
        isFunction = function
        // Column pairs start left of the right-hand timing column.
        dataPositions = ModulePlacement.order(width: w, height: h, isFunction: function, firstColumn: w - 2)
    }
}
