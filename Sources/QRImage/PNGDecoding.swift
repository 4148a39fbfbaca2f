import CImageCodecs

/// PNG decoding through libpng (in the C shim).
enum PNGDecoding {
    /// Decodes `bytes`, which start with the PNG signature, into 8-bit samples.
    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> DecodedPixels {
        try checkHeader(bytes, limits: limits)
        return try bytes.withUnsafeBufferPointer { (data) throws(ImageError) -> DecodedPixels in
            try CodecCall.decode(.png, limits: limits) { result, message in
                qrc_png_decode(data.baseAddress, data.count, UInt64(max(0, limits.maxPixels)), result, message)
            }
        }
    }

    /// Refuses an oversized image from the IHDR chunk (always first, at byte 8) before libpng starts,
    /// so the refusal is the same whether a dimension alone or only their product is too large.
    private static func checkHeader(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) {
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return }
        func uint32(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = uint32(at: 16), height = uint32(at: 20)
        if width > 0, height > 0, !limits.allowsPixels(width: width, height: height) {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
    }
}
