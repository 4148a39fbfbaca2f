/// A palette image: up to 256 RGBA colours and one palette index per pixel, row-major.
public struct IndexedImage: Sendable, Hashable {
    /// Pixels per row (at least 1).
    public let width: Int
    /// Rows (at least 1).
    public let height: Int
    /// Palette index of pixel (x, y) at `y * width + x`; every index is below `palette.count`.
    public let indices: [UInt8]
    /// 1…256 colours.
    public let palette: [RGBAPixel]

    /// An image from indices and a palette, validated.
    public init(width: Int, height: Int, indices: [UInt8], palette: [RGBAPixel]) throws(ImageError) {
        let count = try ImageDimensions.sampleCount(width: width, height: height, channels: 1)
        guard indices.count == count else {
            throw .invalidArgument("a \(width)×\(height) indexed image needs \(count) indices, not \(indices.count)")
        }
        guard (1...256).contains(palette.count) else {
            throw .invalidArgument("a palette holds 1…256 colours, not \(palette.count)")
        }
        if let bad = indices.first(where: { Int($0) >= palette.count }) {
            throw .invalidArgument("index \(bad) is outside the palette of \(palette.count) colours")
        }
        self.width = width
        self.height = height
        self.indices = indices
        self.palette = palette
    }

    /// The same picture as a palette image, or nil if it has more than `maxColors` (≤ 256) distinct colours.
    /// Fully transparent pixels all become one transparent entry; translucent entries come first so the
    /// PNG tRNS chunk stays short.
    public init?(_ image: RGBAImage, maxColors: Int = 256) {
        let limit = Swift.min(maxColors, 256)
        var lookup: [RGBAPixel: Int] = [:]
        var colors: [RGBAPixel] = []
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let p = image.pixels
        for i in indices.indices {
            var color = RGBAPixel(red: p[4 * i], green: p[4 * i + 1], blue: p[4 * i + 2], alpha: p[4 * i + 3])
            if color.alpha == 0 { color = .clear }
            if let index = lookup[color] {
                indices[i] = UInt8(index)
            } else {
                guard colors.count < limit else { return nil }
                lookup[color] = colors.count
                indices[i] = UInt8(colors.count)
                colors.append(color)
            }
        }
        let order = colors.indices.sorted { (colors[$0].alpha == 255 ? 1 : 0, $0) < (colors[$1].alpha == 255 ? 1 : 0, $1) }
        var newIndex = [UInt8](repeating: 0, count: colors.count)
        for (position, old) in order.enumerated() { newIndex[old] = UInt8(position) }
        self.width = image.width
        self.height = image.height
        self.indices = indices.map { newIndex[Int($0)] }
        self.palette = order.map { colors[$0] }
    }

    /// The smallest PNG bit depth (1, 2, 4 or 8) that can address every palette entry.
    public var bitDepth: Int {
        palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
    }

    /// The colour image this palette image shows.
    public var rgbaImage: RGBAImage {
        var pixels = [UInt8](repeating: 0, count: indices.count * 4)
        for (i, index) in indices.enumerated() {
            let color = palette[Int(index)]
            pixels[4 * i] = color.red
            pixels[4 * i + 1] = color.green
            pixels[4 * i + 2] = color.blue
            pixels[4 * i + 3] = color.alpha
        }
        return RGBAImage(uncheckedWidth: width, height: height, pixels: pixels)
    }
}
