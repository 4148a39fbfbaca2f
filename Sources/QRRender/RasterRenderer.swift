import QREncoder
import QRImage

/// Renders symbols as pixels: an `RGBAImage`, or a PNG in the smallest encoding that holds it exactly.
///
/// Every module is a square of whole pixels, so the output is perfectly sharp at any size. Dark modules
/// show the foreground painted over the background; under the logo and its padding only the background
/// shows, with the logo painted over it.
public enum RasterRenderer {
    /// Largest image produced, in pixels (the decoder's default limit, so outputs can be read back).
    public static let maximumPixels = ImageLimits().maxPixels

    /// The symbol as an image.
    public static func image(for code: QRCode, style: RenderStyle) throws(RenderError) -> RGBAImage {
        let layout = try checkedLayout(code: code, style: style)
        let indices = moduleIndices(layout)
        let palette = [style.background.pixel, style.darkColor.pixel]
        return try imageOperation { () throws(ImageError) -> RGBAImage in
            var image = try IndexedImage(width: layout.pixelsPerSide, height: layout.pixelsPerSide, indices: indices,
                                         palette: palette).rgbaImage
            if let (logo, placement) = layout.logo {
                let box = layout.pixelRect(of: placement.logoArea)
                let scale = Swift.min(Double(box.width) / Double(logo.image.width),
                                      Double(box.height) / Double(logo.image.height))
                let width = Swift.max(1, Swift.min(box.width, Int((Double(logo.image.width) * scale).rounded())))
                let height = Swift.max(1, Swift.min(box.height, Int((Double(logo.image.height) * scale).rounded())))
                let scaled = try logo.image.resized(width: width, height: height)
                image.draw(scaled, x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2)
            }
            return image
        }
    }

    /// The symbol as PNG bytes: 1-bit grayscale for black on white, a 1-bit palette (with tRNS for
    /// alpha) for any other two colours, and with a logo a palette of up to 256 colours when the picture
    /// has that few, RGBA otherwise.
    public static func png(for code: QRCode, style: RenderStyle) throws(RenderError) -> [UInt8] {
        if style.logo != nil {
            let image = try image(for: code, style: style)
            return try imageOperation { () throws(ImageError) -> [UInt8] in try compactPNG(image) }
        }
        let layout = try checkedLayout(code: code, style: style)
        let indices = moduleIndices(layout)
        let side = layout.pixelsPerSide
        let blackOnWhite = style.background == .white && style.darkColor == .black
        return try imageOperation { () throws(ImageError) -> [UInt8] in
            if blackOnWhite {
                let gray = try GrayImage(width: side, height: side, pixels: indices.map { $0 == 0 ? 255 : 0 })
                return try PNGEncoder.encode(gray, bitDepth: 1)
            }
            let indexed = try IndexedImage(width: side, height: side, indices: indices,
                                           palette: [style.background.pixel, style.darkColor.pixel])
            return try PNGEncoder.encode(indexed)
        }
    }

    /// A palette PNG when the image has at most 256 colours, RGBA otherwise.
    static func compactPNG(_ image: RGBAImage) throws(ImageError) -> [UInt8] {
        if let indexed = IndexedImage(image) { return try PNGEncoder.encode(indexed) }
        return try PNGEncoder.encode(image)
    }

    /// Runs image code, reporting its errors as render errors.
    static func imageOperation<T>(_ body: () throws(ImageError) -> T) throws(RenderError) -> T {
        do {
            return try body()
        } catch {
            throw .image(error)
        }
    }

    private static func checkedLayout(code: QRCode, style: RenderStyle) throws(RenderError) -> SymbolLayout {
        let layout = try SymbolLayout(code: code, style: style)
        let (pixels, overflow) = layout.pixelsPerSide.multipliedReportingOverflow(by: layout.pixelsPerSide)
        guard !overflow, pixels <= maximumPixels else {
            throw .imageTooLarge(side: layout.pixelsPerSide, limit: maximumPixels)
        }
        return layout
    }

    /// One byte per pixel: 1 where a dark module is drawn, 0 elsewhere. Built a module row at a time and
    /// repeated, since all pixel rows of a module row are identical.
    private static func moduleIndices(_ layout: SymbolLayout) -> [UInt8] {
        let side = layout.pixelsPerSide, size = layout.moduleSize
        var indices: [UInt8] = []
        indices.reserveCapacity(side * side)
        var row = [UInt8](repeating: 0, count: side)
        for moduleRow in 0..<layout.modulesPerSide {
            for column in 0..<layout.modulesPerSide {
                let value: UInt8 = layout.isDark(column: column, row: moduleRow) ? 1 : 0
                for x in column * size..<(column + 1) * size { row[x] = value }
            }
            for _ in 0..<size { indices += row }
        }
        return indices
    }
}
