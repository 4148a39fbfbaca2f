/// A QR code (Model 2) version, 1…40, with the geometry and codeword capacity the standard assigns to it.
public struct Version: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The version number, 1…40.
    public let number: Int

    /// The version `number`, or nil outside 1…40.
    public init?(_ number: Int) {
        guard Self.range.contains(number) else { return nil }
        self.number = number
    }

    /// Versions the standard defines.
    public static let range = 1...40
    /// Every version, smallest first.
    public static let all: [Version] = range.map { Version(unchecked: $0) }
    /// Version 1.
    public static let min = Version(unchecked: 1)
    /// Version 40.
    public static let max = Version(unchecked: 40)

    init(unchecked number: Int) { self.number = number }

    /// Modules per side: 17 + 4·version.
    public var size: Int { 17 + 4 * number }

    /// The version whose symbol has `size` modules per side, if any.
    public init?(size: Int) {
        guard (size - 17) % 4 == 0, let version = Version((size - 17) / 4) else { return nil }
        self = version
    }

    /// Row/column coordinates of alignment pattern centres (ISO/IEC 18004 annex E).
    public var alignmentPatternCenters: [Int] {
        if number == 1 { return [] }
        let count = number / 7 + 2
        let step = number == 32 ? 26 : (number * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        for i in stride(from: count - 2, through: 0, by: -1) { result.append(size - 7 - i * step) }
        return result
    }

    /// Centres (column, row) of the alignment patterns the symbol carries: every pair of
    /// ``alignmentPatternCenters`` but the three that would overlap a finder pattern.
    public var alignmentPatternPositions: [(x: Int, y: Int)] {
        let centers = alignmentPatternCenters, last = centers.count - 1
        return centers.indices.flatMap { i in
            centers.indices.compactMap { j -> (x: Int, y: Int)? in
                (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) ? nil : (centers[j], centers[i])
            }
        }
    }

    /// Whether the symbol carries version information (versions 7 and up).
    public var hasVersionInformation: Bool { number >= 7 }

    /// Modules available for data and error-correction bits (all but function patterns, format and
    /// version information).
    public var dataModuleCount: Int {
        var result = (16 * number + 128) * number + 64
        if number >= 2 {
            let alignments = number / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if number >= 7 { result -= 36 }
        }
        return result
    }

    /// Codewords (data + error correction) in the symbol.
    public var totalCodewords: Int { dataModuleCount / 8 }

    /// Modules left over after the last whole codeword (0, 3, 4 or 7).
    public var remainderBits: Int { dataModuleCount % 8 }

    /// Error-correction codewords per block at `level`.
    public func errorCorrectionCodewordsPerBlock(_ level: ErrorCorrectionLevel) -> Int {
        Self.eccPerBlock[level.rawValue][number - 1]
    }

    /// Number of error-correction blocks at `level`.
    public func blockCount(_ level: ErrorCorrectionLevel) -> Int {
        Self.blocks[level.rawValue][number - 1]
    }

    /// Data codewords at `level`.
    public func dataCodewords(_ level: ErrorCorrectionLevel) -> Int {
        totalCodewords - errorCorrectionCodewordsPerBlock(level) * blockCount(level)
    }

    /// Data bits at `level`.
    public func dataBits(_ level: ErrorCorrectionLevel) -> Int { dataCodewords(level) * 8 }

    public static func < (lhs: Version, rhs: Version) -> Bool { lhs.number < rhs.number }

    public var description: String { "\(number)" }

    // ISO/IEC 18004 table 9, by level (L, M, Q, H) then version 1…40.
    private static let eccPerBlock: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]
    private static let blocks: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]
}
