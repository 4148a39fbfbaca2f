/// Bounds on untrusted image input, checked before memory is committed to it.
public struct ImageLimits: Sendable, Hashable {
    /// Largest width × height accepted; checked right after the image header is parsed.
    public var maxPixels: Int
    /// Largest encoded file accepted, in bytes.
    public var maxFileSize: Int

    /// 100 megapixels (about 400 MB as RGBA) and 256 MiB of encoded data by default.
    public init(maxPixels: Int = 100_000_000, maxFileSize: Int = 256 << 20) {
        self.maxPixels = maxPixels
        self.maxFileSize = maxFileSize
    }

    /// Whether a `width` × `height` image lies within ``maxPixels``. A header can claim any dimensions (PNG's
    /// are 32-bit each), so their product is checked for overflow rather than computed.
    public func allowsPixels(width: Int, height: Int) -> Bool {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }
}
