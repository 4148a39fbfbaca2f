/// A plane projective transform (homography), x' = (a·x + b·y + c) / (g·x + h·y + i), likewise y'.
public struct PerspectiveTransform: Sendable, Equatable {
    // Row-major 3×3 matrix.
    public var a, b, c, d, e, f, g, h, i: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double, i: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h, self.i) = (a, b, c, d, e, f, g, h, i)
    }

    /// The identity transform.
    public static let identity = PerspectiveTransform(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0, g: 0, h: 0, i: 1)

    /// The transform taking the unit square (0,0), (1,0), (1,1), (0,1) to `p0`…`p3`.
    public static func squareToQuadrilateral(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> PerspectiveTransform {
        let dx3 = p0.x - p1.x + p2.x - p3.x
        let dy3 = p0.y - p1.y + p2.y - p3.y
        if dx3 == 0 && dy3 == 0 {
            return PerspectiveTransform(a: p1.x - p0.x, b: p3.x - p0.x, c: p0.x,
                                        d: p1.y - p0.y, e: p3.y - p0.y, f: p0.y, g: 0, h: 0, i: 1)
        }
        let dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dy1 = p1.y - p2.y, dy2 = p3.y - p2.y
        let denominator = dx1 * dy2 - dx2 * dy1
        let g = (dx3 * dy2 - dx2 * dy3) / denominator
        let h = (dx1 * dy3 - dx3 * dy1) / denominator
        return PerspectiveTransform(a: p1.x - p0.x + g * p1.x, b: p3.x - p0.x + h * p3.x, c: p0.x,
                                    d: p1.y - p0.y + g * p1.y, e: p3.y - p0.y + h * p3.y, f: p0.y,
                                    g: g, h: h, i: 1)
    }

    /// The transform taking `source[k]` to `destination[k]` for k = 0…3.
    public init?(from source: [Point], to destination: [Point]) {
        guard source.count == 4, destination.count == 4 else { return nil }
        let toSquare = Self.squareToQuadrilateral(source[0], source[1], source[2], source[3]).adjugate
        let fromSquare = Self.squareToQuadrilateral(destination[0], destination[1], destination[2], destination[3])
        self = fromSquare.concatenating(toSquare)
        guard [a, b, c, d, e, f, g, h, i].allSatisfy(\.isFinite) else { return nil }
    }

    /// Applies the transform.
    @inlinable
    public func apply(_ p: Point) -> Point {
        let w = g * p.x + h * p.y + i
        return Point((a * p.x + b * p.y + c) / w, (d * p.x + e * p.y + f) / w)
    }

    /// The inverse up to scale (which is all a homography needs).
    public var adjugate: PerspectiveTransform {
        PerspectiveTransform(a: e * i - f * h, b: c * h - b * i, c: b * f - c * e,
                             d: f * g - d * i, e: a * i - c * g, f: c * d - a * f,
                             g: d * h - e * g, h: b * g - a * h, i: a * e - b * d)
    }

    /// `self` applied after `other`.
    public func concatenating(_ other: PerspectiveTransform) -> PerspectiveTransform {
        let m = self, n = other
        return PerspectiveTransform(
            a: m.a * n.a + m.b * n.d + m.c * n.g, b: m.a * n.b + m.b * n.e + m.c * n.h, c: m.a * n.c + m.b * n.f + m.c * n.i,
            d: m.d * n.a + m.e * n.d + m.f * n.g, e: m.d * n.b + m.e * n.e + m.f * n.h, f: m.d * n.c + m.e * n.f + m.f * n.i,
            g: m.g * n.a + m.h * n.d + m.i * n.g, h: m.g * n.b + m.h * n.e + m.i * n.h, i: m.g * n.c + m.h * n.f + m.i * n.i)
    }
}
