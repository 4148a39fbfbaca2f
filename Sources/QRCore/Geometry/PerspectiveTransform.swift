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

    /// The mean length of the images of a unit step in x and in y starting at `p`: the size of a module
    /// there when the transform maps module coordinates to pixels.
    public func moduleSize(at p: Point) -> Double {
        let origin = apply(p)
        return (apply(Point(p.x + 1, p.y)).distance(to: origin) + apply(Point(p.x, p.y + 1)).distance(to: origin)) / 2
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

extension PerspectiveTransform {
    /// The transform that best maps `source[k]` to `destination[k]` in the least-squares sense (at least four
    /// pairs, not three on a line), with optional per-pair weights. Coordinates are normalised first so the
    /// solution is well conditioned whatever their scale.
    public static func fitting(from source: [Point], to destination: [Point], weights: [Double]? = nil) -> PerspectiveTransform? {
        let n = source.count
        guard n >= 4, destination.count == n, weights.map({ $0.count == n }) ?? true else { return nil }
        let sourceNormalised = normalisation(source).forward
        let (destinationNormalised, destinationInverse) = normalisation(destination)
        // Normal equations of the 8 unknowns (h33 = 1).
        var ata = [Double](repeating: 0, count: 64)
        var atb = [Double](repeating: 0, count: 8)
        // Rows in SIMD values: this runs for every candidate symbol, and arrays here were heap allocations.
        func accumulate(_ row: SIMD8<Double>, _ rhs: Double, weight w: Double) {
            for i in 0..<8 {
                atb[i] += w * row[i] * rhs
                for j in 0..<8 { ata[i * 8 + j] += w * row[i] * row[j] }
            }
        }
        for k in 0..<n {
            let s = sourceNormalised.apply(source[k]), d = destinationNormalised.apply(destination[k])
            let w = weights?[k] ?? 1
            accumulate(SIMD8(s.x, s.y, 1, 0, 0, 0, -s.x * d.x, -s.y * d.x), d.x, weight: w)
            accumulate(SIMD8(0, 0, 0, s.x, s.y, 1, -s.x * d.y, -s.y * d.y), d.y, weight: w)
        }
        guard let h = LinearSystem.solve(ata, atb, size: 8) else { return nil }
        let fitted = PerspectiveTransform(a: h[0], b: h[1], c: h[2], d: h[3], e: h[4], f: h[5], g: h[6], h: h[7], i: 1)
        // Undo the normalisations: destination⁻¹ ∘ fitted ∘ source.
        let result = destinationInverse.concatenating(fitted).concatenating(sourceNormalised)
        guard [result.a, result.b, result.c, result.d, result.e, result.f, result.g, result.h, result.i].allSatisfy(\.isFinite),
              result.i != 0 || result.g != 0 || result.h != 0
        else { return nil }
        return result
    }

    /// A similarity moving the points' centroid to the origin with mean distance √2, and its inverse.
    private static func normalisation(_ points: [Point]) -> (forward: PerspectiveTransform, inverse: PerspectiveTransform) {
        let n = Double(points.count)
        let centroid = points.reduce(Point.zero, +) / n
        let meanDistance = points.reduce(0) { $0 + $1.distance(to: centroid) } / n
        let s = meanDistance > 0 ? 2.0.squareRoot() / meanDistance : 1
        let forward = PerspectiveTransform(a: s, b: 0, c: -s * centroid.x, d: 0, e: s, f: -s * centroid.y, g: 0, h: 0, i: 1)
        let inverse = PerspectiveTransform(a: 1 / s, b: 0, c: centroid.x, d: 0, e: 1 / s, f: centroid.y, g: 0, h: 0, i: 1)
        return (forward, inverse)
    }
}

extension PerspectiveTransform {
    /// The affine transform (no perspective) that best maps `source` to `destination` in the least-squares
    /// sense; at least three pairs not on a line. Steadier than a homography when the points cluster at one
    /// end of a long shape.
    public static func fittingAffine(from source: [Point], to destination: [Point]) -> PerspectiveTransform? {
        guard source.count >= 3, destination.count == source.count else { return nil }
        // Normal equations of [x y 1] · (a b c) = x' (and likewise for y'), centred for conditioning.
        let n = Double(source.count)
        let sc = source.reduce(Point.zero, +) / n, dc = destination.reduce(Point.zero, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sxu = 0.0, syu = 0.0, sxv = 0.0, syv = 0.0
        for (s, d) in zip(source, destination) {
            let p = s - sc, q = d - dc
            sxx += p.x * p.x; sxy += p.x * p.y; syy += p.y * p.y
            sxu += p.x * q.x; syu += p.y * q.x; sxv += p.x * q.y; syv += p.y * q.y
        }
        let det = sxx * syy - sxy * sxy
        guard abs(det) > 1e-12 else { return nil }
        let a = (sxu * syy - syu * sxy) / det, b = (syu * sxx - sxu * sxy) / det
        let d = (sxv * syy - syv * sxy) / det, e = (syv * sxx - sxv * sxy) / det
        return PerspectiveTransform(a: a, b: b, c: dc.x - a * sc.x - b * sc.y,
                                    d: d, e: e, f: dc.y - d * sc.x - e * sc.y, g: 0, h: 0, i: 1)
    }
}
