#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A straight line in the plane, n · p = c with unit normal n.
public struct Line: Sendable, Equatable {
    /// Unit normal.
    public let normal: Point
    /// Signed distance of the line from the origin along the normal.
    public let offset: Double

    /// The total-least-squares line through `points` (at least two distinct ones), or nil.
    @inlinable
    public init?<Points: Collection>(fitting points: Points) where Points.Element == Point {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let mean = points.reduce(Point.zero, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let d = p - mean
            sxx += d.x * d.x; sxy += d.x * d.y; syy += d.y * d.y
        }
        guard sxx + syy > 1e-12 else { return nil }
        // The direction is the eigenvector of the larger eigenvalue of the scatter matrix.
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let direction = Point(cos(angle), sin(angle))
        normal = Point(-direction.y, direction.x)
        offset = normal.dot(mean)
    }

    /// The line through two distinct points.
    public init?(through a: Point, _ b: Point) {
        self.init(fitting: [a, b])
    }

    /// Signed distance of `p` from the line.
    public func distance(to p: Point) -> Double { normal.dot(p) - offset }

    /// The intersection with another line, or nil if they are (nearly) parallel.
    public func intersection(with other: Line) -> Point? {
        let det = normal.x * other.normal.y - normal.y * other.normal.x
        guard abs(det) > 1e-9 else { return nil }
        return Point((offset * other.normal.y - normal.y * other.offset) / det,
                     (normal.x * other.offset - offset * other.normal.x) / det)
    }
}
