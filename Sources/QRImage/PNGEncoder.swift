import CImageCodecs

/// PNG writing through libpng.
///
/// Bilevel and palette images use zlib level 9 without filters (tiny and fast for such data); 8-bit gray
/// and RGBA use level 6 with adaptive filtering, the usual balance for photographic content.
public enum PNGEncoder {
    /// A grayscale PNG of 1, 2, 4 or 8 bits per pixel. Below 8 bits every value must be exactly
    /// representable (1 bit: 0 and 255; 2 bits: multiples of 85; 4 bits: multiples of 17), otherwise
    /// `.invalidArgument` — nothing is silently thresholded.
    public static func encode(_ image: GrayImage, bitDepth: Int = 8) throws(ImageError) -> [UInt8] {
        guard [1, 2, 4, 8].contains(bitDepth) else {
            throw .invalidArgument("a gray PNG has 1, 2, 4 or 8 bits per pixel, not \(bitDepth)")
        }
        let step = 255 / ((1 << bitDepth) - 1)
        if let bad = image.pixels.first(where: { Int($0) % step != 0 }) {
            throw .invalidArgument("gray value \(bad) cannot be stored in \(bitDepth) bits (use multiples of \(step))")
        }
        let levels = bitDepth == 8 ? image.pixels : image.pixels.map { $0 / UInt8(step) }
        return try write(width: image.width, height: image.height, bitDepth: bitDepth, colorType: QRC_PNG_GRAY,
                         palette: [], rows: pack(levels, width: image.width, height: image.height, bitDepth: bitDepth),
                         compressionLevel: bitDepth == 8 ? 6 : 9)
    }

    /// A palette PNG at the smallest bit depth for the palette; translucent entries are written to tRNS.
    public static func encode(_ image: IndexedImage) throws(ImageError) -> [UInt8] {
        let depth = image.bitDepth
        return try write(width: image.width, height: image.height, bitDepth: depth, colorType: QRC_PNG_PALETTE,
                         palette: image.palette, rows: pack(image.indices, width: image.width, height: image.height,
                                                            bitDepth: depth),
                         compressionLevel: 9)
    }

    /// An 8-bit RGBA PNG.
    public static func encode(_ image: RGBAImage) throws(ImageError) -> [UInt8] {
        try write(width: image.width, height: image.height, bitDepth: 8, colorType: QRC_PNG_RGBA, palette: [],
                  rows: image.pixels, compressionLevel: 6)
    }

    /// Packs samples of `bitDepth` bits into PNG rows, most significant bits first, each row byte-aligned.
    private static func pack(_ samples: [UInt8], width: Int, height: Int, bitDepth: Int) -> [UInt8] {
        if bitDepth == 8 { return samples }
        let rowBytes = (width * bitDepth + 7) / 8
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let bit = x * bitDepth
                packed[y * rowBytes + bit / 8] |= samples[y * width + x] << UInt8(8 - bitDepth - bit % 8)
            }
        }
        return packed
    }

    private static func write(width: Int, height: Int, bitDepth: Int, colorType: qrc_png_color_type,
                              palette: [RGBAPixel], rows: [UInt8], compressionLevel: Int) throws(ImageError) -> [UInt8] {
        guard width <= Int(UInt32.max >> 1), height <= Int(UInt32.max >> 1) else {
            throw .invalidArgument("PNG images are at most 2147483647 pixels wide and high")
        }
        let channels = colorType == QRC_PNG_RGBA ? 4 : 1
        let rowBytes = (width * channels * bitDepth + 7) / 8
        let paletteBytes = palette.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        return try rows.withUnsafeBufferPointer { (rowBuffer) throws(ImageError) -> [UInt8] in
            try paletteBytes.withUnsafeBufferPointer { (paletteBuffer) throws(ImageError) -> [UInt8] in
                var spec = qrc_png_image(width: UInt32(width), height: UInt32(height), bit_depth: Int32(bitDepth),
                                         color_type: colorType, palette_rgba: paletteBuffer.baseAddress,
                                         palette_count: Int32(palette.count),
                                         compression_level: Int32(compressionLevel),
                                         rows: rowBuffer.baseAddress, row_bytes: rowBytes)
                return try CodecCall.encode(.png) { output, size, message in
                    qrc_png_encode(&spec, output, size, message)
                }
            }
        }
    }
}
