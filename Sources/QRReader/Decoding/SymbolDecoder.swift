import QRCore

/// A decoded QR code symbol, before it is placed in the image.
struct DecodedSymbol: Sendable {
    let version: Version
    let level: ErrorCorrectionLevel
    let mask: MaskPattern
    let mirrored: Bool
    let payload: DecodedPayload
    let correctedCodewords: Int
}

/// Format information → unmasking → Reed–Solomon → bitstream, for one sampled module matrix.
enum SymbolDecoder {
    /// Decodes `modules` (in the orientation sampled, possibly mirrored); `confidence` per module enables
    /// erasure decoding.
    static func decode(_ modules: BitMatrix, confidence: [Float]? = nil) -> DecodedSymbol? {
        guard modules.width == modules.height, let version = Version(size: modules.width) else { return nil }
        for reading in FormatReader.readings(modules) {
            let oriented = reading.mirrored ? modules.transposed() : modules
            let orientedConfidence = reading.mirrored ? confidence.map { transpose($0, size: modules.width) } : confidence
            let codewords = CodewordReader.codewords(oriented, version: version, mask: reading.format.mask)
            let reliability = orientedConfidence.map { CodewordReader.codewordConfidence($0, version: version) }
            guard let corrected = CodewordReader.correct(codewords, version: version, level: reading.format.level,
                                                         codewordConfidence: reliability),
                  let payload = try? BitstreamParser.parse(corrected.data, version: version)
            else { continue }
            return DecodedSymbol(version: version, level: reading.format.level, mask: reading.format.mask,
                                 mirrored: reading.mirrored, payload: payload, correctedCodewords: corrected.corrected)
        }
        return nil
    }

    private static func transpose(_ values: [Float], size: Int) -> [Float] {
        var result = values
        for y in 0..<size { for x in 0..<size { result[x * size + y] = values[y * size + x] } }
        return result
    }
}
