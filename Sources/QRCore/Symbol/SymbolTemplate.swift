/// The fixed structure of a QR code version: its function patterns and the order in which data bits fill
/// the remaining modules (ISO/IEC 18004 §7.7.3). The encoder draws with it, the reader reads with it.
public struct SymbolTemplate: Sendable {
    /// The version described.
    public let version: Version
    /// Modules per side.
    public let size: Int
    /// 1 where the module belongs to a function pattern, format or version information (index y·size + x).
    public let isFunction: [UInt8]
    /// Finder, separator, timing and alignment patterns and the dark module drawn; format and version
    /// areas left light.
    public let functionPatterns: BitMatrix
    /// Module indices (y·size + x) in bit-placement order: the first is the most significant bit of the
    /// first codeword. Also holds the remainder-bit modules at the end.
    public let dataPositions: [Int32]

    /// The template of `version`, built once and shared.
    public static func of(_ version: Version) -> SymbolTemplate {
        cache.value(for: version.number) { SymbolTemplate(building: version) }
    }

    private static let cache = BuiltOnce<Int, SymbolTemplate>()

    private init(building version: Version) {
        self.version = version
        let size = version.size
        self.size = size
        var function = [UInt8](repeating: 0, count: size * size)
        var modules = BitMatrix(size: size)

        func set(_ x: Int, _ y: Int, _ dark: Bool) {
            modules.storage[y * size + x] = dark ? 1 : 0
            function[y * size + x] = 1
        }
        // Timing patterns first; finders and alignments overwrite their crossings.
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        // Finder patterns with their separators.
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(cx + dx) && (0..<size).contains(cy + dy) {
                    let distance = Swift.max(abs(dx), abs(dy))
                    set(cx + dx, cy + dy, distance != 2 && distance != 4)
                }
            }
        }
        // Alignment patterns, except where they would overlap a finder.
        for (cx, cy) in version.alignmentPatternPositions {
            for dy in -2...2 {
                for dx in -2...2 { set(cx + dx, cy + dy, Swift.max(abs(dx), abs(dy)) != 1) }
            }
        }
        // Reserve format and version information areas (left light here).
        for (x, y) in FormatInformation.positions(size: size).flatMap({ $0 }) { set(x, y, false) }
        if version.hasVersionInformation {
            for (x, y) in VersionInformation.positions(size: size).flatMap({ $0 }) { set(x, y, false) }
        }
        set(8, size - 8, true)  // the dark module

        let order = ModulePlacement.order(width: size, height: size, isFunction: function, skipColumn: 6)
        isFunction = function
        functionPatterns = modules
        dataPositions = order
    }
}
