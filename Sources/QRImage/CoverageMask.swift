import QRCore

/// Which pixels of a region of an image a shape covers, sampled at pixel centres (no anti-aliasing, so
/// outlines stay crisp). Shapes are accumulated first and the colour is blended once, so overlapping
/// parts of an outline (its joins) are not painted twice when the colour is translucent.
///
/// The region is the shapes' bounding box clipped to the image, so memory never exceeds the image's
/// size however far outside the shapes reach. Non-finite coordinates make the shape draw nothing.
struct CoverageMask {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    private(set) var covered: [Bool]

    /// A mask over the part of a `imageWidth` × `imageHeight` image inside the bounding box of `points`
    /// grown by `margin`; nil when that is empty or a coordinate is not finite.
    init?(bounding points: [Point], margin: Double, imageWidth: Int, imageHeight: Int) {
        guard !points.isEmpty, margin.isFinite, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let box = Rect(bounding: points)
        let x0 = Self.clamp((box.minX - margin).rounded(.down), imageWidth)
        let y0 = Self.clamp((box.minY - margin).rounded(.down), imageHeight)
        let x1 = Self.clamp((box.maxX + margin).rounded(.up) + 1, imageWidth)
        let y1 = Self.clamp((box.maxY + margin).rounded(.up) + 1, imageHeight)
        guard x1 > x0, y1 > y0 else { return nil }
        originX = x0
        originY = y0
        width = x1 - x0
        height = y1 - y0
        covered = [Bool](repeating: false, count: width * height)
    }

    /// A coordinate converted to an index in 0…limit; safe for any value, NaN included.
    private static func clamp(_ value: Double, _ limit: Int) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(Swift.max(0, Swift.min(Double(limit), value)))
    }

    /// Covers the pixels whose centres lie inside the polygon (non-zero winding rule).
    mutating func fill(polygon points: [Point]) {
        guard points.count >= 3, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        var crossings: [(x: Double, winding: Int)] = []
        for row in 0..<height {
            let centerY = Double(originY + row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                let upward = a.y <= centerY && b.y > centerY
                let downward = b.y <= centerY && a.y > centerY
                guard upward || downward else { continue }
                let x = a.x + (centerY - a.y) * (b.x - a.x) / (b.y - a.y)
                // Only coordinates near Double's range can overflow to NaN here; skip such an edge.
                if !x.isNaN { crossings.append((x, upward ? 1 : -1)) }
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for (i, crossing) in crossings.enumerated() {
                winding += crossing.winding
                if winding != 0, i + 1 < crossings.count { cover(row: row, from: crossing.x, to: crossings[i + 1].x) }
            }
        }
    }

    /// Covers the pixels whose centres lie within `radius` of `center`.
    mutating func fill(circleAt center: Point, radius: Double) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, radius > 0 else { return }
        for row in 0..<height {
            let dy = Double(originY + row) + 0.5 - center.y
            guard abs(dy) <= radius else { continue }
            let dx = (radius * radius - dy * dy).squareRoot()
            cover(row: row, from: center.x - dx, to: center.x + dx, inclusive: true)
        }
    }

    /// Covers the pixels of `row` whose centre x lies in [from, to) (or [from, to] when inclusive).
    private mutating func cover(row: Int, from: Double, to: Double, inclusive: Bool = false) {
        // Pixel x has its centre at x + 0.5; indices are taken relative to the mask and clipped to it.
        let first = Self.clamp((from - 0.5).rounded(.up) - Double(originX), width)
        let end = Self.clamp((inclusive ? (to - 0.5).rounded(.down) + 1 : (to - 0.5).rounded(.up)) - Double(originX), width)
        guard end > first else { return }
        for x in first..<end { covered[row * width + x] = true }
    }
}
