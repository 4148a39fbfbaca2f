/// Netpbm decoding (P1–P6), written in Swift: the formats are simple enough that a bounds-checked
/// parser is safer than another C dependency.
enum PNMDecoding {
    /// Decodes `bytes`, which start with "P1"…"P6". Samples of any maxval (1…65535) are scaled to 8 bits;
    /// in PBM files 1 is black.
    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> DecodedPixels {
        var reader = Reader(bytes: bytes)
        let kind = bytes[1] - UInt8(ascii: "0")
        reader.position = 2
        let bitmap = kind == 1 || kind == 4
        let channels = kind == 3 || kind == 6 ? 3 : 1
        let binary = kind >= 4

        let width = try reader.number(), height = try reader.number()
        let maxValue = bitmap ? 1 : try reader.number()
        guard width > 0, height > 0 else { throw .corrupt(.pnm, "the image size \(width)×\(height) is empty") }
        guard (1...65535).contains(maxValue) else {
            throw .corrupt(.pnm, "the maximum sample value \(maxValue) is outside 1…65535")
        }
        guard limits.allowsPixels(width: width, height: height) else {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        let sampleCount = width * height * channels

        if binary {
            // Exactly one whitespace character separates the header from the raster.
            guard reader.position < bytes.count else { throw .truncated(.pnm) }
            guard Reader.isWhitespace(bytes[reader.position]) else {
                throw .corrupt(.pnm, "the header does not end with whitespace")
            }
            reader.position += 1
        }
        // Every sample takes at least one byte (PBM: one bit), so a short file is refused before allocating.
        let minimumBytes = kind == 4 ? (width + 7) / 8 * height
            : binary ? sampleCount * (maxValue > 255 ? 2 : 1) : sampleCount
        guard bytes.count - reader.position >= minimumBytes else { throw .truncated(.pnm) }

        var samples = [UInt8](repeating: 0, count: sampleCount)
        switch kind {
        case 1:
            for i in 0..<sampleCount { samples[i] = try reader.plainBit() ? 0 : 255 }
        case 4:
            let rowBytes = (width + 7) / 8
            for y in 0..<height {
                let row = reader.position + y * rowBytes
                for x in 0..<width {
                    samples[y * width + x] = bytes[row + x / 8] & (0x80 >> UInt8(x % 8)) != 0 ? 0 : 255
                }
            }
        case 2, 3:
            for i in 0..<sampleCount { samples[i] = try scaled(reader.number(), maxValue: maxValue) }
        default:
            let start = reader.position
            if maxValue == 255 {
                samples = Array(bytes[start..<start + sampleCount])
            } else if maxValue < 256 {
                for i in 0..<sampleCount { samples[i] = try scaled(Int(bytes[start + i]), maxValue: maxValue) }
            } else {
                for i in 0..<sampleCount {
                    let value = Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1])
                    samples[i] = try scaled(value, maxValue: maxValue)
                }
            }
        }
        return DecodedPixels(width: width, height: height, channels: channels, samples: samples)
    }

    private static func scaled(_ value: Int, maxValue: Int) throws(ImageError) -> UInt8 {
        guard value <= maxValue else { throw .corrupt(.pnm, "a sample value \(value) exceeds the maximum \(maxValue)") }
        return UInt8((value * 255 + maxValue / 2) / maxValue)
    }

    /// A cursor over the header and plain (ASCII) rasters.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (0x09...0x0D).contains(byte)
        }

        /// Skips whitespace and `#` comments (which run to the end of the line).
        mutating func skipSeparators() {
            while position < bytes.count {
                if Self.isWhitespace(bytes[position]) {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
                } else {
                    return
                }
            }
        }

        /// The next decimal number.
        mutating func number() throws(ImageError) -> Int {
            skipSeparators()
            guard position < bytes.count else { throw .truncated(.pnm) }
            var value = 0
            var digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                digits += 1
                position += 1
                guard digits <= 9 else { throw .corrupt(.pnm, "a number in the file is too large") }
            }
            guard digits > 0 else { throw .corrupt(.pnm, "expected a number at byte \(position)") }
            return value
        }

        /// The next plain-PBM bit: "0" or "1", separators optional.
        mutating func plainBit() throws(ImageError) -> Bool {
            skipSeparators()
            guard position < bytes.count else { throw .truncated(.pnm) }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "0"): return false
            case UInt8(ascii: "1"): return true
            default: throw .corrupt(.pnm, "expected 0 or 1 at byte \(position - 1)")
            }
        }
    }
}
