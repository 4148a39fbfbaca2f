import CImageCodecs

/// JPEG writing through libjpeg-turbo, with optimised Huffman tables.
public enum JPEGEncoder {
    /// A grayscale JPEG of `quality` 1…100, baseline or progressive.
    public static func encode(_ image: GrayImage, quality: Int = 90, progressive: Bool = false)
        throws(ImageError) -> [UInt8] {
        try write(image.pixels, width: image.width, height: image.height, channels: 1, quality: quality,
                  progressive: progressive)
    }

    /// A colour JPEG of `quality` 1…100; JPEG has no alpha, so translucent pixels are composited onto white.
    public static func encode(_ image: RGBAImage, quality: Int = 90, progressive: Bool = false)
        throws(ImageError) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<(image.width * image.height) {
                let alpha = p[4 * i + 3]
                rgb[3 * i] = GrayConversion.onWhite(p[4 * i], alpha: alpha)
                rgb[3 * i + 1] = GrayConversion.onWhite(p[4 * i + 1], alpha: alpha)
                rgb[3 * i + 2] = GrayConversion.onWhite(p[4 * i + 2], alpha: alpha)
            }
        }
        return try write(rgb, width: image.width, height: image.height, channels: 3, quality: quality,
                         progressive: progressive)
    }

    private static func write(_ samples: [UInt8], width: Int, height: Int, channels: Int, quality: Int,
                              progressive: Bool) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidArgument("JPEG quality must be 1…100, not \(quality)") }
        guard width <= 65500, height <= 65500 else {
            throw .invalidArgument("JPEG images are at most 65500 pixels wide and high, not \(width)×\(height)")
        }
        return try samples.withUnsafeBufferPointer { (buffer) throws(ImageError) -> [UInt8] in
            try CodecCall.encode(.jpeg) { output, size, message in
                qrc_jpeg_encode(buffer.baseAddress, UInt32(width), UInt32(height), Int32(channels), Int32(quality),
                                progressive ? 1 : 0, output, size, message)
            }
        }
    }
}
