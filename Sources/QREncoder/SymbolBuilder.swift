import QRCore

/// Turns segments into a finished symbol of a given version and level: bit stream, padding, Reed–Solomon
/// codewords, module placement, mask choice and format/version information.
enum SymbolBuilder {
    /// The data codewords for `segments`: the segments' bits, the terminator, zero bits to a byte boundary,
    /// then the pad codewords 0xEC 0x11 alternately (ISO/IEC 18004 §7.4.10).
    static func dataCodewords(_ segments: [Segment], header: StructuredAppendInfo?, version: Version,
                              level: ErrorCorrectionLevel) -> [UInt8] {
        let capacity = version.dataBits(level)
        var bits = BitBuffer()
        if let header {
            bits.append(SegmentMode.structuredAppend.indicator, bits: 4)
            bits.append(header.index, bits: 4)
            bits.append(header.count - 1, bits: 4)
            bits.append(Int(header.parity), bits: 8)
        }
        for segment in segments { segment.write(to: &bits, version: version) }
        precondition(bits.count <= capacity, "segments exceed the symbol's capacity")
        bits.append(0, bits: Swift.min(4, capacity - bits.count))
        bits.append(0, bits: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// The symbol holding `segments`; `mask` nil chooses the mask with the lowest penalty.
    static func build(_ segments: [Segment], header: StructuredAppendInfo? = nil, version: Version,
                      level: ErrorCorrectionLevel, mask: MaskPattern?) -> QRCode {
        let data = dataCodewords(segments, header: header, version: version, level: level)
        let codewords = BlockLayout(version: version, level: level).interleavedWithErrorCorrection(data)
        let template = SymbolTemplate.of(version)
        let size = template.size
        var modules = template.functionPatterns

        // Place the codeword bits, most significant first; remainder bits stay light.
        template.dataPositions.withUnsafeBufferPointer { positions in
            modules.storage.withUnsafeMutableBufferPointer { matrix in
                var k = 0
                for byte in codewords {
                    for shift in stride(from: 7, through: 0, by: -1) {
                        matrix[Int(positions[k])] = (byte >> UInt8(shift)) & 1
                        k += 1
                    }
                }
            }
        }
        if version.hasVersionInformation {
            let bits = VersionInformation.codeword(for: version)
            for copy in VersionInformation.positions(size: size) {
                for (i, p) in copy.enumerated() { modules[p.x, p.y] = (bits >> i) & 1 == 1 }
            }
        }

        let chosen = mask ?? MaskEvaluator.bestMask(modules, template: template, level: level)
        apply(chosen, to: &modules, template: template)
        drawFormat(FormatInformation(level: level, mask: chosen), into: &modules)
        return QRCode(version: version, errorCorrectionLevel: level, mask: chosen, segments: segments,
                      modules: modules, structuredAppend: header)
    }

    /// XORs the mask onto every non-function module.
    static func apply(_ mask: MaskPattern, to modules: inout BitMatrix, template: SymbolTemplate) {
        let size = template.size
        template.isFunction.withUnsafeBufferPointer { function in
            modules.storage.withUnsafeMutableBufferPointer { matrix in
                for y in 0..<size {
                    let row = y * size
                    for x in 0..<size where function[row + x] == 0 && mask.inverts(row: y, column: x) {
                        matrix[row + x] ^= 1
                    }
                }
            }
        }
    }

    static func drawFormat(_ format: FormatInformation, into modules: inout BitMatrix) {
        let bits = format.codeword
        for copy in FormatInformation.positions(size: modules.width) {
            for (i, p) in copy.enumerated() { modules[p.x, p.y] = (bits >> i) & 1 == 1 }
        }
    }
}
