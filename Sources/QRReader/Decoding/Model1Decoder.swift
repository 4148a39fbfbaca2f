import QRCore

/// Decodes a sampled symbol as QR code Model 1, once Model 2 decoding has failed on it.
enum Model1Decoder {
    /// Decodes `modules` if its Model 1 format information reads within fewer than `formatCloserThan` bit
    /// errors.
    static func decode(_ modules: BitMatrix, formatCloserThan limit: Int = .max) -> DecodedSymbol? {
        guard modules.width == modules.height, let version = Model1Version((modules.width - 17) / 4),
              version.size == modules.width
        else { return nil }
        for mirrored in [false, true] {
            let oriented = mirrored ? modules.transposed() : modules
            guard let (level, mask) = readFormat(oriented, closerThan: limit) else { continue }
            let positions = codewordPositions[version.number - 1]
            guard positions.count == version.totalCodewords else { return nil }
            var codewords = positions.map { bits in
                bits.reduce(UInt8(0)) { value, p in
                    let dark = oriented[p.x, p.y] != mask.inverts(row: p.y, column: p.x)
                    return value << 1 | (dark ? 1 : 0)
                }
            }
            // The first codeword's upper half lies in the corner beside the finder: not data.
            codewords[0] &= 0x0F
            let layout = version.blockLayout(level)
            guard let (data, corrected) = correct(codewords, layout: layout),
                  let payload = try? BitstreamParser.parse(shiftedByHalfByte(data), format: .model1(version))
            else { continue }
            return DecodedSymbol(symbology: .qrCodeModel1, versionNumber: version.number, versionName: "\(version.number)",
                                 level: level, mask: mask, mirrored: mirrored, payload: payload,
                                 correctedCodewords: corrected,
                                 correctableCodewords: layout.blockCount * (layout.errorCorrectionCodewordsPerBlock / 2))
        }
        return nil
    }

    /// Each version's codeword positions (``Model1Version/codewordPositions``), built once: most matrices
    /// tried as Model 1 are not symbols at all, and building the positions cost as much as reading them.
    private static let codewordPositions = (1...14).map { Model1Version($0)?.codewordPositions ?? [] }

    /// Model 1 does not interleave: all blocks' data codewords come first, block after block, then all
    /// their error-correction codewords in the same order.
    private static func correct(_ codewords: [UInt8], layout: BlockLayout) -> (data: [UInt8], corrected: Int)? {
        let ecc = layout.errorCorrectionCodewordsPerBlock
        var data: [UInt8] = []
        var corrected = 0
        var dataStart = 0, eccStart = layout.dataCodewords
        for length in layout.dataCodewordsPerBlock {
            var block = Array(codewords[dataStart..<dataStart + length]) + Array(codewords[eccStart..<eccStart + ecc])
            guard let count = try? ReedSolomonDecoder.correct(&block, errorCorrectionCount: ecc) else { return nil }
            corrected += count
            data += block.prefix(length)
            dataStart += length
            eccStart += ecc
        }
        return (data, corrected)
    }

    /// The data bits start after the first codeword's unused upper half.
    private static func shiftedByHalfByte(_ data: [UInt8]) -> [UInt8] {
        data.indices.map { i in data[i] << 4 | (i + 1 < data.count ? data[i + 1] >> 4 : 0) }
    }

    /// Level and mask from either copy of the format information under Model 1's mask (or none).
    private static func readFormat(_ modules: BitMatrix, closerThan limit: Int) -> (ErrorCorrectionLevel, MaskPattern)? {
        var best: (data: Int, distance: Int)?
        for copy in 0..<2 {
            let bits = FormatReader.bits(modules, copy: copy, mirrored: false)
            for code in Model1Version.formatCodes {
                if let decoded = code.decode(bits, candidates: 0..<32, maximumDistance: 3),
                   decoded.distance < (best?.distance ?? .max) {
                    best = decoded
                }
            }
        }
        guard let data = best?.data, let distance = best?.distance, distance < limit, let level = ErrorCorrectionLevel(formatBits: data >> 3),
              let mask = MaskPattern(data & 7)
        else { return nil }
        return (level, mask)
    }
}
