import CImageCodecs

/// JPEG decoding through libjpeg-turbo (in the C shim).
///
/// A file that ends early is refused as `.truncated` rather than returned half gray, the same as a
/// truncated PNG; a baseline file that lacks only its end marker holds every row and decodes whole. Other
/// recoverable libjpeg warnings (such as stray bytes before a marker) are ignored.
enum JPEGDecoding {
    /// Decodes `bytes`; with `grayscale`, libjpeg delivers luma directly, which is much faster.
    static func decode(_ bytes: [UInt8], grayscale: Bool, limits: ImageLimits) throws(ImageError) -> DecodedPixels {
        try bytes.withUnsafeBufferPointer { (data) throws(ImageError) -> DecodedPixels in
            try CodecCall.decode(.jpeg, limits: limits) { result, message in
                qrc_jpeg_decode(data.baseAddress, data.count, grayscale ? 1 : 0, UInt64(max(0, limits.maxPixels)),
                                result, message)
            }
        }
    }
}
