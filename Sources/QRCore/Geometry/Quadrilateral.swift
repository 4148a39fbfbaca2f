/// Four corners of a symbol in an image: top-left, top-right, bottom-right, bottom-left *of the symbol*
/// (its own orientation, whatever its rotation in the image), so clockwise on screen for an unmirrored code.
public struct Quadrilateral: Hashable, Sendable, Codable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// From four corners in the order top-left, top-right, bottom-right, bottom-left.
    public init(_ corners: [Point]) {
        precondition(corners.count == 4, "a quadrilateral has four corners")
        self.init(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    /// The corners in order top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The axis-aligned bounding rectangle.
    public var boundingRect: Rect { Rect(bounding: corners) }

    /// The mean of the corners.
    public var center: Point { (topLeft + topRight + bottomRight + bottomLeft) / 4 }

    /// The enclosed area (shoelace formula; absolute value).
    public var area: Double {
        let c = corners
        var sum = 0.0
        for i in 0..<4 { sum += c[i].cross(c[(i + 1) % 4]) }
        return abs(sum) / 2
    }

    /// Whether `point` lies inside or on the border (even–odd rule, so any simple quadrilateral works).
    public func contains(_ point: Point) -> Bool {
        // Beyond the bounding box (by more than the border's tolerance) nothing is inside: readers ask about
        // every finder pattern against every code found, and most lie far from most codes.
        let tolerance = 1e-9
        if point.x < Swift.min(topLeft.x, topRight.x, bottomRight.x, bottomLeft.x) - tolerance
            || point.x > Swift.max(topLeft.x, topRight.x, bottomRight.x, bottomLeft.x) + tolerance
            || point.y < Swift.min(topLeft.y, topRight.y, bottomRight.y, bottomLeft.y) - tolerance
            || point.y > Swift.max(topLeft.y, topRight.y, bottomRight.y, bottomLeft.y) + tolerance {
            return false
        }
        let c = corners
        var inside = false
        var j = 3
        for i in 0..<4 {
            let a = c[i], b = c[j]
            if (a.y > point.y) != (b.y > point.y) {
                let xCross = (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x
                if point.x < xCross { inside.toggle() }
            }
            j = i
        }
        return inside || distanceToBorder(point) < tolerance
    }

    /// Distance from `point` to the quadrilateral: 0 inside, else to the nearest edge.
    public func distance(to point: Point) -> Double {
        contains(point) ? 0 : distanceToBorder(point)
    }

    private func distanceToBorder(_ point: Point) -> Double {
        let c = corners
        var best = Double.infinity
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let ab = b - a
            let lengthSquared = ab.dot(ab)
            let t = lengthSquared > 0 ? Swift.min(1, Swift.max(0, (point - a).dot(ab) / lengthSquared)) : 0
            best = Swift.min(best, point.distance(to: a + ab * t))
        }
        return best
    }

    /// The quadrilateral with every corner passed through `transform`.
    public func map(_ transform: (Point) -> Point) -> Quadrilateral {
        Quadrilateral(topLeft: transform(topLeft), topRight: transform(topRight),
                      bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}
