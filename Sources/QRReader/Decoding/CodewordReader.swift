import QRCore

/// Reads the codewords of a sampled symbol (unmasking its data modules in placement order) and corrects
/// each Reed–Solomon block, optionally with unreliable codewords marked as erasures.
enum CodewordReader {
    /// Corrected data codewords and how many codewords were repaired.
    struct Result: Sendable {
        let data: [UInt8]
        let corrected: Int
    }

    /// The interleaved codewords of `modules` (already in the symbol's orientation) unmasked with `mask`.
    static func codewords(_ modules: BitMatrix, version: Version, mask: MaskPattern) -> [UInt8] {
        let template = SymbolTemplate.of(version)
        let size = template.size
        var codewords = [UInt8](repeating: 0, count: version.totalCodewords)
        template.dataPositions.withUnsafeBufferPointer { positions in
            modules.storage.withUnsafeBufferPointer { matrix in
                for k in 0..<(codewords.count * 8) {
                    let index = Int(positions[k])
                    var bit = matrix[index]
                    if mask.inverts(row: index / size, column: index % size) { bit ^= 1 }
                    if bit != 0 { codewords[k >> 3] |= 0x80 >> UInt8(k & 7) }
                }
            }
        }
        return codewords
    }

    /// Reliability of each interleaved codeword: the lowest module confidence among its 8 bits.
    static func codewordConfidence(_ confidence: [Float], version: Version) -> [Float] {
        let template = SymbolTemplate.of(version)
        var result = [Float](repeating: .infinity, count: version.totalCodewords)
        for k in 0..<(result.count * 8) {
            result[k >> 3] = min(result[k >> 3], confidence[Int(template.dataPositions[k])])
        }
        return result
    }

    /// Corrects every block; with `confidence`, if a block fails its least reliable codewords are retried
    /// as erasures.
    static func correct(_ codewords: [UInt8], version: Version, level: ErrorCorrectionLevel,
                        codewordConfidence: [Float]? = nil) -> Result? {
        correct(codewords, layout: BlockLayout(version: version, level: level), codewordConfidence: codewordConfidence)
    }

    /// Corrects every block of `layout`, as above.
    static func correct(_ codewords: [UInt8], layout: BlockLayout, codewordConfidence: [Float]? = nil) -> Result? {
        let ecc = layout.errorCorrectionCodewordsPerBlock
        var data: [UInt8] = []
        data.reserveCapacity(layout.dataCodewords)
        var corrected = 0
        for (b, indices) in layout.blockIndices().enumerated() {
            var block = indices.map { codewords[$0] }
            if let count = try? ReedSolomonDecoder.correct(&block, errorCorrectionCount: ecc) {
                corrected += count
            } else if let confidence = codewordConfidence, let (repaired, count) = correctWithErasures(block, indices: indices, ecc: ecc, confidence: confidence) {
                block = repaired
                corrected += count
            } else {
                return nil
            }
            data += block.prefix(layout.dataCodewordsPerBlock[b])
        }
        return Result(data: data, corrected: corrected)
    }

    /// Retries a failed block with its least reliable codewords as erasures. Each erasure costs one EC
    /// codeword instead of two, but a correction is only trusted while at least four EC codewords stay
    /// unused for checking it: with none left, any received block "decodes".
    private static func correctWithErasures(_ block: [UInt8], indices: [Int], ecc: Int, confidence: [Float]) -> ([UInt8], Int)? {
        let maximum = ecc - 4
        guard maximum >= 2 else { return nil }
        let ranked = indices.indices.sorted { confidence[indices[$0]] < confidence[indices[$1]] }
        for erasureCount in stride(from: maximum, through: 2, by: -max(1, maximum / 3)) {
            let erasures = Array(ranked.prefix(erasureCount))
            var attempt = block
            guard (try? ReedSolomonDecoder.correct(&attempt, errorCorrectionCount: ecc, erasures: erasures)) != nil else { continue }
            // Errors outside the erasures must leave a margin of two more EC codewords.
            var changed = 0, errors = 0
            for i in attempt.indices where attempt[i] != block[i] {
                changed += 1
                if !erasures.contains(i) { errors += 1 }
            }
            guard 2 * errors + erasureCount <= ecc - 4 else { continue }
            return (attempt, changed)
        }
        return nil
    }
}
