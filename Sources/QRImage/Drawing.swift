import QRCore

/// Drawing on colour images: for marking detected codes and composing logos. Colours are blended over the
/// existing pixels (source-over); shapes are sampled at pixel centres, so edges are crisp, and clipped to
/// the image, so coordinates far outside it are harmless.
extension RGBAImage {
    /// Paints the rectangle of `width` × `height` pixels at (x, y), clipped to the image.
    public mutating func fillRect(x: Int, y: Int, width: Int, height: Int, color: RGBAPixel) {
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(self.width, PixelTransforms.clampedEnd(x, width))
        let y1 = Swift.min(self.height, PixelTransforms.clampedEnd(y, height))
        guard x1 > x0, y1 > y0 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 { blend(color, at: row * self.width + column) }
        }
    }

    /// Paints the inside of a polygon (non-zero winding rule, so self-intersecting outlines fill whole).
    public mutating func fillPolygon(_ points: [Point], color: RGBAPixel) {
        guard var mask = CoverageMask(bounding: points, margin: 0, imageWidth: width, imageHeight: height) else { return }
        mask.fill(polygon: points)
        blend(color, through: mask)
    }

    /// Paints a disc.
    public mutating func fillCircle(center: Point, radius: Double, color: RGBAPixel) {
        guard var mask = CoverageMask(bounding: [center], margin: radius, imageWidth: width, imageHeight: height)
        else { return }
        mask.fill(circleAt: center, radius: radius)
        blend(color, through: mask)
    }

    /// Strokes a straight line `lineWidth` pixels wide, centred on the segment, with flat ends.
    public mutating func strokeLine(from start: Point, to end: Point, lineWidth: Double, color: RGBAPixel) {
        guard lineWidth > 0,
              var mask = CoverageMask(bounding: [start, end], margin: lineWidth, imageWidth: width, imageHeight: height)
        else { return }
        if let band = Self.band(from: start, to: end, halfWidth: lineWidth / 2) { mask.fill(polygon: band) }
        blend(color, through: mask)
    }

    /// Strokes the closed outline through `points` (last joined to first) `lineWidth` pixels wide, centred
    /// on the edges, with round joins so corners are solid at any angle.
    public mutating func strokePolygon(_ points: [Point], lineWidth: Double, color: RGBAPixel) {
        guard lineWidth > 0, points.count >= 2,
              var mask = CoverageMask(bounding: points, margin: lineWidth, imageWidth: width, imageHeight: height)
        else { return }
        for i in points.indices {
            if let band = Self.band(from: points[i], to: points[(i + 1) % points.count], halfWidth: lineWidth / 2) {
                mask.fill(polygon: band)
            }
            mask.fill(circleAt: points[i], radius: lineWidth / 2)
        }
        blend(color, through: mask)
    }

    /// Paints `image` with its top-left corner at (x, y), blending by its alpha, clipped to this image.
    public mutating func draw(_ image: RGBAImage, x: Int, y: Int) {
        let x0 = Swift.max(0, x), y0 = Swift.max(0, y)
        let x1 = Swift.min(width, PixelTransforms.clampedEnd(x, image.width))
        let y1 = Swift.min(height, PixelTransforms.clampedEnd(y, image.height))
        guard x1 > x0, y1 > y0 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 {
                let source = image[column - x, row - y]
                blend(source, at: row * width + column)
            }
        }
    }

    /// The rectangle of half-width `halfWidth` around a segment, or nil for a zero-length segment.
    private static func band(from a: Point, to b: Point, halfWidth: Double) -> [Point]? {
        let direction = b - a
        let length = direction.length
        guard length > 0, length.isFinite else { return nil }
        let normal = Point(-direction.y, direction.x) * (halfWidth / length)
        return [a + normal, b + normal, b - normal, a - normal]
    }

    private mutating func blend(_ color: RGBAPixel, through mask: CoverageMask) {
        for row in 0..<mask.height {
            for column in 0..<mask.width where mask.covered[row * mask.width + column] {
                blend(color, at: (mask.originY + row) * width + mask.originX + column)
            }
        }
    }

    private mutating func blend(_ color: RGBAPixel, at index: Int) {
        let i = 4 * index
        let existing = RGBAPixel(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
        let result = color.composited(over: existing)
        pixels[i] = result.red
        pixels[i + 1] = result.green
        pixels[i + 2] = result.blue
        pixels[i + 3] = result.alpha
    }
}
