import QRCore

/// Format information → unmasking → Reed–Solomon → bitstream for a sampled Micro QR symbol.
enum MicroQRDecoder {
    /// A Micro QR format information reading.
    struct Format: Sendable {
        let version: MicroQRVersion
        let level: ErrorCorrectionLevel
        let mask: MaskPattern
        let distance: Int
    }

    /// The format information read through `isDark(x, y)` (module coordinates), if it decodes.
    static func readFormat(_ isDark: (Int, Int) -> Bool) -> Format? {
        var bits = 0
        for p in MicroQRVersion.formatPositions { bits = bits << 1 | (isDark(p.x, p.y) ? 1 : 0) }
        guard let (data, distance) = BCHCode.microQRFormat.decode(bits, candidates: 0..<32, maximumDistance: 3),
              let (version, level) = MicroQRVersion.fromSymbolNumber(data >> 2)
        else { return nil }
        return Format(version: version, level: level, mask: MicroQRVersion.masks[data & 3], distance: distance)
    }

    /// Decodes `modules` (already in the symbol's orientation) with a known format.
    static func decode(_ modules: BitMatrix, format: Format, confidence: [Float]? = nil) -> DecodedSymbol? {
        let version = format.version
        guard modules.width == version.size, let dataCodewords = version.dataCodewords(format.level) else { return nil }
        let template = MicroQRTemplate.of(version)
        let size = template.size
        // Codewords in placement order; the last data codeword of M1 and M3 has only 4 bits (high nibble).
        var codewords = [UInt8](repeating: 0, count: version.totalCodewords)
        var reliability = [Float](repeating: .infinity, count: version.totalCodewords)
        var k = 0
        for index in 0..<version.totalCodewords {
            let bits = version.hasHalfDataCodeword && index == dataCodewords - 1 ? 4 : 8
            for bit in 0..<bits {
                guard k < template.dataPositions.count else { return nil }
                let position = Int(template.dataPositions[k])
                var value = modules.storage[position]
                if format.mask.inverts(row: position / size, column: position % size) { value ^= 1 }
                if value != 0 { codewords[index] |= 0x80 >> UInt8(bit) }
                if let confidence { reliability[index] = min(reliability[index], confidence[position]) }
                k += 1
            }
        }
        let ecc = version.totalCodewords - dataCodewords
        var block = codewords
        var corrected = 0
        if version.number == 1 {
            // M1 only detects errors: its two check codewords must agree exactly.
            guard ReedSolomonDecoder.isValid(block, errorCorrectionCount: ecc) else { return nil }
        } else if let count = try? ReedSolomonDecoder.correct(&block, errorCorrectionCount: ecc) {
            corrected = count
        } else if confidence != nil, ecc >= 8,
                  let count = try? ReedSolomonDecoder.correct(&block, errorCorrectionCount: ecc,
                                                               erasures: Array(reliability.indices.sorted { reliability[$0] < reliability[$1] }.prefix(ecc - 6))) {
            corrected = count
        } else {
            return nil
        }
        guard let payload = try? BitstreamParser.parse(Array(block.prefix(dataCodewords)), format: .microQR(version)) else { return nil }
        return DecodedSymbol(symbology: .microQRCode, versionNumber: version.number, versionName: version.description,
                             level: format.level, mask: format.mask, mirrored: false, payload: payload,
                             correctedCodewords: corrected, correctableCodewords: version.number == 1 ? 0 : ecc / 2)
    }
}
