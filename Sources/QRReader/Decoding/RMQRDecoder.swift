import QRCore

/// Unmasking → Reed–Solomon → bitstream for a sampled rMQR symbol (ISO/IEC 23941).
enum RMQRDecoder {
    /// rMQR has a single data mask: (y div 2 + x div 3) mod 2 = 0, the QR code's mask 4.
    static let mask = MaskPattern.all[4]

    static func decode(_ modules: BitMatrix, version: RMQRVersion, level: ErrorCorrectionLevel,
                       confidence: [Float]? = nil) -> DecodedSymbol? {
        guard modules.width == version.width, modules.height == version.height,
              let layout = version.blockLayout(level)
        else { return nil }
        let template = RMQRTemplate.of(version)
        let width = version.width
        var codewords = [UInt8](repeating: 0, count: version.totalCodewords)
        var reliability = [Float](repeating: .infinity, count: version.totalCodewords)
        guard template.dataPositions.count >= codewords.count * 8 else { return nil }
        for k in 0..<(codewords.count * 8) {
            let position = Int(template.dataPositions[k])
            var bit = modules.storage[position]
            if mask.inverts(row: position / width, column: position % width) { bit ^= 1 }
            if bit != 0 { codewords[k >> 3] |= 0x80 >> UInt8(k & 7) }
            if let confidence { reliability[k >> 3] = min(reliability[k >> 3], confidence[position]) }
        }
        guard let corrected = CodewordReader.correct(codewords, layout: layout,
                                                     codewordConfidence: confidence == nil ? nil : reliability),
              let payload = try? BitstreamParser.parse(corrected.data, format: .rMQR(version))
        else { return nil }
        return DecodedSymbol(symbology: .rectangularMicroQRCode, versionNumber: version.index + 1,
                             versionName: version.description, level: level, mask: mask, mirrored: false,
                             payload: payload, correctedCodewords: corrected.corrected,
                             correctableCodewords: layout.blockCount * (layout.errorCorrectionCodewordsPerBlock / 2))
    }
}
