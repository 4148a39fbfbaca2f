/// An RGBA image, 8 bits per channel, straight (not premultiplied) alpha, row-major, without row padding.
public struct RGBAImage: Sendable, Hashable, InterleavedImage {
    static var channels: Int { 4 }

    /// Pixels per row (at least 1).
    public let width: Int
    /// Rows (at least 1).
    public let height: Int
    /// Samples R, G, B, A of pixel (x, y) at index `4 * (y * width + x)`.
    public internal(set) var pixels: [UInt8]

    /// An image from existing samples; `pixels.count` must be `4 × width × height`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: 4)
        guard pixels.count == count else {
            throw .invalidArgument("a \(width)×\(height) RGBA image needs \(count) samples, not \(pixels.count)")
        }
        self.init(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// An image filled with one colour (transparent by default).
    public init(width: Int, height: Int, color: RGBAPixel = .clear) throws(ImageError) {
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: 4)
        var pixels = [UInt8](repeating: 0, count: count)
        for i in stride(from: 0, to: count, by: 4) {
            pixels[i] = color.red
            pixels[i + 1] = color.green
            pixels[i + 2] = color.blue
            pixels[i + 3] = color.alpha
        }
        self.init(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// An opaque colour image showing a gray image.
    public init(_ image: GrayImage) {
        var pixels = [UInt8](repeating: 255, count: image.pixels.count * 4)
        for (i, value) in image.pixels.enumerated() {
            pixels[4 * i] = value
            pixels[4 * i + 1] = value
            pixels[4 * i + 2] = value
        }
        self.init(uncheckedWidth: image.width, height: image.height, pixels: pixels)
    }

    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`; both must lie inside the image.
    public subscript(x: Int, y: Int) -> RGBAPixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
            let i = 4 * (y * width + x)
            return RGBAPixel(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside the image")
            let i = 4 * (y * width + x)
            pixels[i] = newValue.red
            pixels[i + 1] = newValue.green
            pixels[i + 2] = newValue.blue
            pixels[i + 3] = newValue.alpha
        }
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    }
}
