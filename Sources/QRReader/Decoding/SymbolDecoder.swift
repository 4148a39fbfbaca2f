import QRCore

/// A decoded symbol, before it is placed in the image.
struct DecodedSymbol: Sendable {
    let symbology: Symbology
    /// The version number within the symbology (1…40, M1…M4 as 1…4, …).
    let versionNumber: Int
    /// The version as people write it: "7", "M3", "R11x27".
    let versionName: String
    let level: ErrorCorrectionLevel
    let mask: MaskPattern
    let mirrored: Bool
    let payload: DecodedPayload
    let correctedCodewords: Int
    /// Codewords the symbol's error correction can repair (errors only).
    let correctableCodewords: Int
}

/// Format information → unmasking → Reed–Solomon → bitstream, for one sampled module matrix.
enum SymbolDecoder {
    /// Decodes `modules` (in the orientation sampled, possibly mirrored); `confidence` per module enables
    /// erasure decoding.
    static func decode(_ modules: BitMatrix, confidence: [Float]? = nil) -> DecodedSymbol? {
        guard modules.width == modules.height, let version = Version(size: modules.width) else { return nil }
        let readings = FormatReader.readings(modules)
        for reading in readings {
            let oriented = reading.mirrored ? modules.transposed() : modules
            let orientedConfidence = reading.mirrored ? confidence.map { ModuleSampler.transposed($0, size: modules.width) } : confidence
            let codewords = CodewordReader.codewords(oriented, version: version, mask: reading.format.mask)
            let reliability = orientedConfidence.map { CodewordReader.codewordConfidence($0, version: version) }
            guard let corrected = CodewordReader.correct(codewords, version: version, level: reading.format.level,
                                                         codewordConfidence: reliability),
                  let payload = try? BitstreamParser.parse(corrected.data, version: version)
            else { continue }
            let layout = BlockLayout(version: version, level: reading.format.level)
            return DecodedSymbol(symbology: .qrCode, versionNumber: version.number, versionName: version.description,
                                 level: reading.format.level, mask: reading.format.mask, mirrored: reading.mirrored,
                                 payload: payload, correctedCodewords: corrected.corrected,
                                 correctableCodewords: layout.blockCount * (layout.errorCorrectionCodewordsPerBlock / 2))
        }
        // Model 1 symbols look the same from outside; their format information (another mask) says
        // otherwise. Only worth trying when Model 2's format read with two or more bit errors (a Model 1
        // symbol's comes within one of a Model 2 format code about 2 % of the time) and Model 1's reads closer.
        let model2Distance = readings.first?.distance ?? .max
        guard modules.width <= 73, model2Distance >= 2 else { return nil }
        return Model1Decoder.decode(modules, formatCloserThan: model2Distance)
    }
}
