/// An 8-bit grayscale image (0 = black, 255 = white), row-major, without row padding.
public struct GrayImage: Sendable, Hashable, InterleavedImage {
    static var channels: Int { 1 }

    /// Pixels per row (at least 1).
    public let width: Int
    /// Rows (at least 1).
    public let height: Int
    /// Luminance of pixel (x, y) at index `y * width + x`.
    public internal(set) var pixels: [UInt8]

    /// An image from existing pixels; `pixels.count` must be `width × height`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: 1)
        guard pixels.count == count else {
            throw .invalidArgument("a \(width)×\(height) gray image needs \(count) pixels, not \(pixels.count)")
        }
        self.init(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// An image filled with one value (white by default).
    public init(width: Int, height: Int, value: UInt8 = 255) throws(ImageError) {
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: 1)
        self.init(uncheckedWidth: width, height: height, pixels: [UInt8](repeating: value, count: count))
    }

    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`; both must lie inside the image.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
            return pixels[y * width + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
            pixels[y * width + x] = newValue
        }
    }

    /// `image` reduced to gray with `conversion`, translucent pixels composited onto white first.
    public init(_ image: RGBAImage, conversion: GrayConversion = .luminance) {
        var gray = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { rgba in
            for i in gray.indices {
                let alpha = rgba[4 * i + 3]
                gray[i] = conversion.gray(red: GrayConversion.onWhite(rgba[4 * i], alpha: alpha),
                                          green: GrayConversion.onWhite(rgba[4 * i + 1], alpha: alpha),
                                          blue: GrayConversion.onWhite(rgba[4 * i + 2], alpha: alpha))
            }
        }
        self.init(uncheckedWidth: image.width, height: image.height, pixels: gray)
    }
}
