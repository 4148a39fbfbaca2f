/// Validation shared by the image types: positive sizes whose samples can be allocated.
enum ImageDimensions {
    /// At most this many samples (4 GiB) in one image: an allocation that fails ends the process, which no
    /// caller can catch, so sizes beyond any picture QRKit handles are refused before allocating.
    static let maximumSamples = 1 << 32

    /// `width × height × channels`, or a typed error for non-positive sizes or more than ``maximumSamples``.
    static func sampleCount(width: Int, height: Int, channels: Int) throws(ImageError) -> Int {
        guard width > 0, height > 0 else {
            throw .invalidArgument("image dimensions must be positive, not \(width)×\(height)")
        }
        let (pixels, overflow1) = width.multipliedReportingOverflow(by: height)
        let (samples, overflow2) = pixels.multipliedReportingOverflow(by: channels)
        guard !overflow1, !overflow2, samples <= maximumSamples else {
            throw .tooLarge(width: width, height: height, limit: maximumSamples / channels)
        }
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
