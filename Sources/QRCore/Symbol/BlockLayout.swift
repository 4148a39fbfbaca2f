/// How a symbol's codewords split into Reed–Solomon blocks and interleave (ISO/IEC 18004 §7.6).
///
/// Blocks are "short" first, then "long" ones with one more data codeword; all share the same number of
/// error-correction codewords. The encoder interleaves with it and the reader de-interleaves with it.
public struct BlockLayout: Equatable, Sendable {
    /// Data codewords of each block, in block order.
    public let dataCodewordsPerBlock: [Int]
    /// Error-correction codewords in every block.
    public let errorCorrectionCodewordsPerBlock: Int

    /// A layout from explicit block sizes.
    public init(dataCodewordsPerBlock: [Int], errorCorrectionCodewordsPerBlock: Int) {
        self.dataCodewordsPerBlock = dataCodewordsPerBlock
        self.errorCorrectionCodewordsPerBlock = errorCorrectionCodewordsPerBlock
    }

    /// The layout of a QR code of `version` at `level`.
    public init(version: Version, level: ErrorCorrectionLevel) {
        self.init(totalCodewords: version.totalCodewords, blockCount: version.blockCount(level),
                  errorCorrectionCodewordsPerBlock: version.errorCorrectionCodewordsPerBlock(level))
    }

    /// `blockCount` blocks as equal as possible sharing `totalCodewords`, short blocks first.
    public init(totalCodewords: Int, blockCount: Int, errorCorrectionCodewordsPerBlock ecc: Int) {
        let shortBlockLength = totalCodewords / blockCount
        let longBlocks = totalCodewords % blockCount
        dataCodewordsPerBlock = (0..<blockCount).map { index in
            shortBlockLength - ecc + (index >= blockCount - longBlocks ? 1 : 0)
        }
        errorCorrectionCodewordsPerBlock = ecc
    }

    /// Number of blocks.
    public var blockCount: Int { dataCodewordsPerBlock.count }
    /// Data codewords in all blocks.
    public var dataCodewords: Int { dataCodewordsPerBlock.reduce(0, +) }
    /// Data and error-correction codewords in all blocks.
    public var totalCodewords: Int { dataCodewords + errorCorrectionCodewordsPerBlock * blockCount }

    /// Splits the data codewords into blocks, computes each block's error correction and interleaves
    /// everything into the order the codewords are placed in the symbol.
    public func interleavedWithErrorCorrection(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count == dataCodewords, "data does not fill the symbol's data codewords")
        var blocks: [[UInt8]] = []
        blocks.reserveCapacity(blockCount)
        var start = 0
        for length in dataCodewordsPerBlock {
            let block = data[start..<start + length]
            blocks.append(Array(block) + ReedSolomonEncoder.errorCorrection(
                for: block, count: errorCorrectionCodewordsPerBlock))
            start += length
        }
        return interleave(blocks)
    }

    /// Interleaves complete blocks (data then error correction): first every block's first data codeword,
    /// and so on; error-correction codewords follow the same way.
    public func interleave(_ blocks: [[UInt8]]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(totalCodewords)
        let maxData = dataCodewordsPerBlock.max() ?? 0
        for i in 0..<maxData {
            for (b, length) in dataCodewordsPerBlock.enumerated() where i < length { result.append(blocks[b][i]) }
        }
        for i in 0..<errorCorrectionCodewordsPerBlock {
            for (b, length) in dataCodewordsPerBlock.enumerated() { result.append(blocks[b][length + i]) }
        }
        return result
    }

    /// For each block, the indices into the interleaved codeword sequence of its codewords, data first.
    /// The reader uses this to gather blocks and to map unreliable codewords to erasures.
    public func blockIndices() -> [[Int]] {
        var indices = dataCodewordsPerBlock.map { _ in [Int]() }
        var position = 0
        let maxData = dataCodewordsPerBlock.max() ?? 0
        for i in 0..<maxData {
            for (b, length) in dataCodewordsPerBlock.enumerated() where i < length {
                indices[b].append(position)
                position += 1
            }
        }
        for _ in 0..<errorCorrectionCodewordsPerBlock {
            for b in dataCodewordsPerBlock.indices {
                indices[b].append(position)
                position += 1
            }
        }
        return indices
    }
}
