/// Validation shared by the image types: positive sizes whose sample count fits in memory arithmetic.
enum ImageDimensions {
    /// `width × height × channels`, or a typed error for non-positive or overflowing sizes.
    static func sampleCount(width: Int, height: Int, channels: Int) throws(ImageError) -> Int {
        guard width > 0, height > 0 else {
            throw .invalidArgument("image dimensions must be positive, not \(width)×\(height)")
        }
        let (pixels, overflow1) = width.multipliedReportingOverflow(by: height)
        let (samples, overflow2) = pixels.multipliedReportingOverflow(by: channels)
        guard !overflow1, !overflow2 else { throw .invalidArgument("image dimensions \(width)×\(height) are too large") }
        return samples
    }
}

/// The storage both image types share, so geometric operations are written once.
protocol InterleavedImage: Sendable {
    /// Samples per pixel.
    static var channels: Int { get }
    var width: Int { get }
    var height: Int { get }
    var pixels: [UInt8] { get }
    /// Wraps samples already known to match the dimensions.
    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8])
}
