/// A QR code Model 1 version, 1…14 (ISO/IEC 18004:2000 annex M): the original QR code, with Model 2's
/// size and finder patterns but no alignment patterns and its own codeword layout.
public struct Model1Version: Hashable, Sendable, CustomStringConvertible {
    public let number: Int

    public init?(_ number: Int) {
        guard (1...14).contains(number) else { return nil }
        self.number = number
    }

    public var size: Int { 17 + 4 * number }

    public var description: String { "\(number) (Model 1)" }

    // Tables M.2 and M.4: per level L, M, Q, H the error-correction codewords per block, the number of
    // blocks and the data codewords per block.
    private static let blocks: [[(ecc: Int, count: Int, data: Int)]] = [
        [(7, 1, 19), (10, 1, 16), (13, 1, 13), (17, 1, 9)],
        [(10, 1, 36), (16, 1, 30), (22, 1, 24), (30, 1, 16)],
        [(15, 1, 57), (28, 1, 44), (36, 1, 36), (48, 1, 24)],
        [(20, 1, 80), (40, 1, 60), (50, 1, 50), (66, 1, 34)],
        [(26, 1, 108), (52, 1, 82), (66, 1, 68), (44, 2, 23)],
        [(34, 1, 136), (32, 2, 53), (42, 2, 43), (56, 2, 29)],
        [(42, 1, 170), (40, 2, 66), (52, 2, 54), (46, 3, 24)],
        [(24, 2, 104), (48, 2, 80), (64, 2, 64), (56, 3, 29)],
        [(30, 2, 123), (60, 2, 93), (50, 3, 52), (68, 3, 34)],
        [(34, 2, 145), (68, 2, 111), (58, 3, 61), (58, 4, 31)],
        [(40, 2, 168), (40, 4, 64), (52, 4, 52), (54, 5, 29)],
        [(46, 2, 192), (46, 4, 73), (58, 4, 61), (62, 5, 33)],
        [(36, 3, 144), (52, 4, 83), (66, 4, 69), (58, 6, 32)],
        [(40, 3, 163), (60, 4, 92), (60, 5, 62), (66, 6, 35)],
    ]

    /// Codewords in the symbol.
    public var totalCodewords: Int {
        let low = Self.blocks[number - 1][0]
        return low.count * (low.data + low.ecc)
    }

    /// The block structure at `level` (all blocks of a level have the same size).
    public func blockLayout(_ level: ErrorCorrectionLevel) -> BlockLayout {
        let entry = Self.blocks[number - 1][level.rawValue]
        return BlockLayout(dataCodewordsPerBlock: [Int](repeating: entry.data, count: entry.count),
                           errorCorrectionCodewordsPerBlock: entry.ecc)
    }

    /// Model 1 format information: Model 2's BCH code under its own mask (some printers leave it unmasked).
    public static let formatCodes = [BCHCode(dataBits: 5, totalBits: 15, generator: 0x537, mask: 0x2825),
                                     BCHCode(dataBits: 5, totalBits: 15, generator: 0x537)]

    /// Codeword module positions (x, y) for each codeword, most significant bit first: two regions of
    /// vertical 2 × 4 codewords down the right and left, horizontal 4 × 2 codewords in between, with the
    /// extension patterns and timing rows skipped (annex M).
    public var codewordPositions: [[(x: Int, y: Int)]] {
        let d = size
        var result: [[(x: Int, y: Int)]] = []
        func codeword(_ x: Int, _ y: Int, width: Int) -> [(x: Int, y: Int)] {
            (0..<8).map { b in (x: x - b % width, y: y - b / width) }
        }
        let columns = d / 4 + 1 + 2
        for j in 0..<columns {
            if j <= 1 {
                let rows = (d - 8) / 4
                for i in 0..<rows where !(j == 0 && i % 2 == 0 && i > 0 && i < rows - 1) {
                    result.append(codeword(d - 1 - j * 2, d - 1 - i * 4, width: 2))
                }
            } else if columns - j <= 4 {
                let rows = (d - 16) / 4
                for i in 0..<rows {
                    let x = (columns - j - 1) * 2 + 1 + (columns - j == 4 ? 1 : 0)
                    result.append(codeword(x, d - 1 - 8 - i * 4, width: 2))
                }
            } else {
                let rows = d / 2
                for i in 0..<rows {
                    if j == 2 && i >= rows - 4 { continue }
                    if i == 0 && j % 2 == 1 && j + 1 != columns - 4 { continue }
                    let x = d - 1 - 4 - (j - 2) * 4
                    let y = d - 1 - i * 2 - (i >= rows - 3 ? 1 : 0)
                    result.append(codeword(x, y, width: 4))
                }
            }
        }
        return result
    }
}
