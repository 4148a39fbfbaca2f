import Foundation
import QRCore

/// The outer square of a finder pattern, found by casting rays from its centre to the outer edge of the
/// dark ring and fitting a line to each side; works under rotation and perspective.
struct FinderCorners: Sendable {
    /// Sides in the symbol's orientation (u = towards top-right, v = towards bottom-left).
    let top: Line, right: Line, bottom: Line, left: Line

    /// Corners: (−u,−v), (+u,−v), (+u,+v), (−u,+v) of the pattern, i.e. its top-left, top-right,
    /// bottom-right and bottom-left in the symbol's orientation.
    var corners: [Point]? {
        guard let tl = top.intersection(with: left), let tr = top.intersection(with: right),
              let br = bottom.intersection(with: right), let bl = bottom.intersection(with: left)
        else { return nil }
        return [tl, tr, br, bl]
    }

    /// Where ``corners`` lie in the pattern's module coordinates (7 modules a side): a transform from these
    /// to the corners places the modules around a symbol's finder.
    static let moduleCorners = [Point(0, 0), Point(7, 0), Point(7, 7), Point(0, 7)]

    /// The transform from the pattern's module coordinates (``moduleCorners``) to the image, placing the
    /// modules around it by its own square; nil where the sides do not meet.
    var moduleTransform: PerspectiveTransform? {
        corners.flatMap { PerspectiveTransform(from: Self.moduleCorners, to: $0) }
    }

    /// How far the square `corners` (in order round it) are from a parallelogram, in modules of the 7-module
    /// pattern. A finder spans too little of the view for perspective to skew it by more than a fraction of a
    /// module; a data module blurred onto the corner facing a symbol's data, joined to the ring by
    /// thresholding, pulls that corner off by half a module to one.
    static func skew(_ corners: [Point]) -> Double {
        let side = (0..<4).map { (corners[($0 + 1) % 4] - corners[$0]).length }.reduce(0, +) / 4
        return (corners[0] + corners[2] - corners[1] - corners[3]).length / (side / 7)
    }

    /// Skews (``skew(_:)``) for which a one-finder symbol's square is also fitted through its three outer
    /// corners (``orientations(of:)``): a corner pulled off by a data module. Squares skewed further are grain
    /// and moiré, which the fits would only make candidates of (monitor pictures took 4 % longer).
    static let innerCornerSkews = 0.3...1.2

    /// One of the eight ways a Micro QR or rMQR symbol can lie around its one finder pattern.
    struct Orientation {
        /// The square's corners in the symbol's orientation: top-left, top-right, bottom-right, bottom-left.
        let corners: [Point]
        let mirrored: Bool
        /// From the pattern's module coordinates (``moduleCorners``) to the image.
        let transform: PerspectiveTransform
        /// Whether `transform` is the affine fit through the three outer corners alone (all but the one
        /// facing the data) rather than the homography of all four.
        let isOuterCornersFit: Bool
    }

    /// The eight orientations (four turns, each also mirrored) of a one-finder symbol around the fitted
    /// square `square`, each with the homography of its four corners; then, where the square is skewed as by
    /// a data module blurred onto its inner corner (``innerCornerSkews``), each with the affine fit through
    /// its three outer corners: extrapolated to the timing patterns and the far modules, that skew misplaces
    /// them by a module, whether or not the format beside the finder reads.
    static func orientations(of square: [Point]) -> [Orientation] {
        let outer = [0, 1, 3]
        return [false, true].flatMap { throughOuterCorners -> [Orientation] in
            guard !throughOuterCorners || innerCornerSkews.contains(skew(square)) else { return [] }
            return (0..<4).flatMap { rotation in
                [false, true].compactMap { mirrored -> Orientation? in
                    var corners = (0..<4).map { square[($0 + rotation) % 4] }
                    if mirrored { corners = [corners[0], corners[3], corners[2], corners[1]] }
                    let fitted = throughOuterCorners
                        ? PerspectiveTransform.fittingAffine(from: outer.map { moduleCorners[$0] }, to: outer.map { corners[$0] })
                        : PerspectiveTransform(from: moduleCorners, to: corners)
                    return fitted.map {
                        Orientation(corners: corners, mirrored: mirrored, transform: $0, isOuterCornersFit: throughOuterCorners)
                    }
                }
            }
        }
    }

    /// 48 rays around the centre, every 7.5°.
    private static let rayDirections: [Point] = (0..<48).map { k in
        let angle = Double(k) * 2 * .pi / 48
        return Point(cos(angle), sin(angle))
    }

    /// From the centre outwards: half the 3-module core, the light ring, the dark ring.
    private static let halfPattern = RunLengths(3, 2, 2)

    /// Where each of the rays from the pattern's centre leaves its dark ring (rays that do not cross the
    /// core, light ring and dark ring in finder proportions give none, nor those with a run longer than
    /// `longestRun` modules and 2 px). The rays do not depend on the symbol's axes, so one cast serves every fit.
    static func ringEdges(of pattern: FinderPattern, in image: BinaryImage, longestRun: Double = 4) -> [Point] {
        let c = pattern.center
        let maxRun = pattern.moduleSize * longestRun + 2
        var edges: [Point] = []
        edges.reserveCapacity(rayDirections.count)
        for direction in rayDirections {
            guard let runs = PatternRuns.runs(in: image, from: c, direction: direction, count: 3, maxRun: maxRun),
                  PatternRuns.moduleSize(runs, pattern: halfPattern, tolerance: 0.6) != nil
            else { continue }
            edges.append(c + direction * (runs[0] + runs[1] + runs[2] - 0.5))
        }
        return edges
    }

    /// How far (pixels) a ring edge may lie from the side it belongs to: ring edges are cast from
    /// thresholded runs, a pixel or so off, more in large blurred patterns.
    private static func sideTolerance(moduleSize: Double) -> Double { max(1.5, 0.3 * moduleSize) }

    /// The square whose sides fit `edges` (from ``ringEdges(of:in:)``) sorted by the axes `u` and `v`; `sheared` when
    /// those are a sheared pattern's own (``square(of:in:amongSheared:)``).
    init?(edges: [Point], pattern: FinderPattern, u: Point, v: Point, sheared: Bool = false) {
        let c = pattern.center
        let m = pattern.moduleSize
        // Basis change to (s, t) with p − c = s·u + t·v.
        let det = u.x * v.y - u.y * v.x
        guard abs(det) > 1e-6 else { return nil }
        let tolerance = Self.sideTolerance(moduleSize: m)
        // Each side's points are gathered in turn in one scratch buffer: this runs up to four times for
        // every pattern, and an array per side cost four allocations each time.
        let sides = withUnsafeTemporaryAllocation(of: Point.self, capacity: max(edges.count, 1)) { scratch -> (Line, Line, Line, Line)? in
            // Side 0…3 = top, right, bottom, left.
            func fitSide(_ wanted: Int) -> Line? {
                var count = 0
                for edge in edges {
                    let d = edge - c
                    let s = (d.x * v.y - d.y * v.x) / det
                    let t = (u.x * d.y - u.y * d.x) / det
                    // Only points near the middle of a side: corners belong to two sides, and on round finder
                    // patterns the middles are where the circle touches its enclosing square.
                    guard min(abs(s), abs(t)) < 0.6 * max(abs(s), abs(t)) else { continue }
                    if (abs(s) > abs(t) ? (s > 0 ? 1 : 3) : (t > 0 ? 2 : 0)) == wanted {
                        scratch[count] = edge
                        count += 1
                    }
                }
                return Self.robustLine(UnsafeMutableBufferPointer(rebasing: scratch[..<count]), tolerance: tolerance)
            }
            guard let top = fitSide(0), let right = fitSide(1), let bottom = fitSide(2), let left = fitSide(3) else { return nil }
            return (top, right, bottom, left)
        }
        guard let (top, right, bottom, left) = sides else { return nil }
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        // Adjacent sides must cross at a clear angle, and the corners must surround the centre at a plausible
        // distance: about half a diagonal, 4.95 modules, stretched by perspective. A `sheared` pattern's module
        // size is its narrowest reading, and its far corners lie further out than that implies, as far as the
        // wider of its heights (between opposite sides) does.
        let sidesInOrder = [top, right, bottom, left]
        for i in 0..<4 where abs(sidesInOrder[i].normal.cross(sidesInOrder[(i + 1) % 4].normal)) < 0.4 {
            return nil
        }
        var reach = 12 * m
        if sheared {
            let widerHeight = max(abs(top.distance(to: c)) + abs(bottom.distance(to: c)), abs(left.distance(to: c)) + abs(right.distance(to: c)))
            reach = 12 * max(m, widerHeight / 7)
        }
        guard let corners = corners,
              corners.allSatisfy({ (2 * m...reach).contains($0.distance(to: c)) }),
              Quadrilateral(corners).contains(c)
        else { return nil }
    }

    /// The outer square of a finder pattern whose orientation is not known yet: fitted with axes at 0° (and,
    /// unless that is already square, 45°, then along the corners of a sheared one), each fit refitted along
    /// its own sides (a side classification 40° off still fits lines, just poor ones): a nearly square fit at
    /// once, else the fit whose sides pass through the most ring edges (then the more nearly square one).
    /// Its sides are labelled by those axes; ``oriented(u:v:around:)`` relabels them for a symbol.
    /// Among sheared patterns (`amongSheared`: those of a set with one), an unsheared pattern whose square fits
    /// along neither pair of axes is fitted along its own corners too: it may be sheared just under 3:1.
    static func square(of pattern: FinderPattern, in image: BinaryImage, amongSheared: Bool = false) -> FinderCorners? {
        square(of: pattern, edges: ringEdges(of: pattern, in: image), in: image, amongSheared: amongSheared)
    }

    /// As ``square(of:in:amongSheared:)``, from the ring's `edges` already cast.
    private static func square(of pattern: FinderPattern, edges: [Point], in image: BinaryImage, amongSheared: Bool) -> FinderCorners? {
        let diagonal = 0.5.squareRoot()
        let tolerance = sideTolerance(moduleSize: pattern.moduleSize)
        var best: (square: FinderCorners, inliers: Int, squareness: Double)?
        for (u, v) in [(Point(1, 0), Point(0, 1)), (Point(diagonal, diagonal), Point(-diagonal, diagonal))] {
            guard let (square, squareness) = refittedSquare(edges: edges, pattern: pattern, u: u, v: v) else { continue }
            // Nearly square already: the other axes would find the same square.
            if squareness >= 0.9 { return square }
            // Otherwise the fit that explains more of the ring's edges: a finder seen at an angle is no
            // square, and a square-like fit across its corners leaves edges off its sides.
            let count = square.inliers(edges, tolerance: tolerance)
            if let best, (best.inliers, best.squareness) >= (count, squareness) { continue }
            best = (square, count, squareness)
        }
        // Seen steeply and turned to the tilt, a finder is sheared into a narrow rhombus whose sides both lie
        // within 45° of one of those axes: neither sorts its edges into sides. Where it read sheared
        // (``FinderPattern/isSheared``), or among sheared ones no square fitted (texture fits none either: each
        // try costs two casts of rays), its own corners give its axes, and as its core
        // reads longer than four of its (narrowest) modules along some rays, those are cast further. Corners
        // taken from the outermost edges are only as good as the ring is clean (``isClean(inliers:of:)``;
        // a washed-out ring, as of a damaged pattern, leaves a quarter off): that fit is taken if it is, and
        // more of the ring's edges lie on its sides than on those of the fits above (where those explain the
        // ring as well, it finds their square again).
        guard pattern.isSheared || (amongSheared && best == nil) else { return best?.square }
        let longer = ringEdges(of: pattern, in: image, longestRun: 7)
        if let axes = shearedAxes(edges: longer, center: pattern.center),
           let (square, _) = refittedSquare(edges: longer, pattern: pattern, u: axes.u, v: axes.v, sheared: true) {
            let count = square.inliers(edges, tolerance: tolerance)
            if count > best?.inliers ?? 0 && isClean(inliers: count, of: edges.count) { return square }
        }
        return best?.square
    }

    /// Whether `pattern`'s square (``square(of:in:amongSheared:)``) fits its ring cleanly (``isClean(inliers:of:)``).
    /// The ring is cast once for both the fit and the count.
    static func fitsCleanly(_ pattern: FinderPattern, in image: BinaryImage) -> Bool {
        let edges = ringEdges(of: pattern, in: image)
        guard let square = square(of: pattern, edges: edges, in: image, amongSheared: false) else { return false }
        return isClean(inliers: square.inliers(edges, tolerance: sideTolerance(moduleSize: pattern.moduleSize)), of: edges.count)
    }

    /// Whether `inliers` of a ring's `edges` on a square's sides are seven in eight of them or more.
    private static func isClean(inliers: Int, of edges: Int) -> Bool { 8 * inliers >= 7 * edges }

    /// How many of `edges` lie within `tolerance` of a side.
    private func inliers(_ edges: [Point], tolerance: Double) -> Int {
        edges.reduce(0) { count, edge in
            count + ([top, right, bottom, left].contains { abs($0.distance(to: edge)) <= tolerance } ? 1 : 0)
        }
    }

    /// The square fitted to `edges` with axes `u` and `v`, fitted again along its own sides (a side
    /// classification 40° off still fits lines, just poor ones), and how nearly square it is (1 for a square).
    private static func refittedSquare(edges: [Point], pattern: FinderPattern, u: Point, v: Point,
                                       sheared: Bool = false) -> (square: FinderCorners, squareness: Double)? {
        guard var square = FinderCorners(edges: edges, pattern: pattern, u: u, v: v, sheared: sheared), var corners = square.corners
        else { return nil }
        let ownU = (corners[1] - corners[0]).normalized, ownV = (corners[3] - corners[0]).normalized
        if let refitted = FinderCorners(edges: edges, pattern: pattern, u: ownU, v: ownV, sheared: sheared),
           let refittedCorners = refitted.corners {
            (square, corners) = (refitted, refittedCorners)
        }
        let sides = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        guard let shortest = sides.min(), let longest = sides.max(), longest > 0 else { return nil }
        let diagonals = [corners[0].distance(to: corners[2]), corners[1].distance(to: corners[3])]
        return (square, shortest / longest * min(diagonals[0], diagonals[1]) / max(diagonals[0], diagonals[1]))
    }

    /// The axes along the sides of a pattern seen so steeply that it is sheared into a narrow rhombus, whose
    /// sides both lie within 45° of one image axis or diagonal: no fixed axes then sort its ring edges into
    /// sides. Its corners are its ring edges farthest out: the farthest of all, the farthest on the other
    /// side of the centre, and the farthest on either side of the diagonal between those two. Nil when the
    /// edges do not span a quadrilateral around the centre.
    private static func shearedAxes(edges: [Point], center: Point) -> (u: Point, v: Point)? {
        guard let first = edges.max(by: { $0.distance(to: center) < $1.distance(to: center) }) else { return nil }
        let outward = first - center
        guard let opposite = edges.filter({ ($0 - center).dot(outward) < 0 }).max(by: { $0.distance(to: center) < $1.distance(to: center) })
        else { return nil }
        let diagonal = opposite - first
        func side(_ point: Point) -> Double { diagonal.cross(point - first) }
        guard let left = edges.min(by: { side($0) < side($1) }), let right = edges.max(by: { side($0) < side($1) }),
              side(left) < 0, side(right) > 0
        else { return nil }
        return ((left - first).normalized, (right - first).normalized)
    }

    /// The same square with its sides relabelled for a symbol whose axes are `u` (towards its top-right)
    /// and `v` (towards its bottom-left): each side takes the role whose outward direction it faces from
    /// `center`. Nil if two sides would face the same way.
    func oriented(u: Point, v: Point, around center: Point) -> FinderCorners? {
        let sides = [top, right, bottom, left]
        let outward = [v * -1, u, v, u * -1]
        var roles = [Int](repeating: -1, count: 4)
        for (role, direction) in outward.enumerated() {
            let facing = sides.indices.max { a, b in
                (center - sides[a].normal * sides[a].distance(to: center) - center).dot(direction)
                    < (center - sides[b].normal * sides[b].distance(to: center) - center).dot(direction)
            }
            guard let facing, !roles.contains(facing) else { return nil }
            roles[role] = facing
        }
        // Each side runs along the symbol axis it belongs to, within 30° (perspective and skew stay well
        // inside that): a square fitted to a blurred pattern merged with neighbouring modules can come out
        // a diamond, whose corners would pull a homography far off.
        for (role, axis) in [u, v, u, v].enumerated() where abs(sides[roles[role]].normal.dot(axis.normalized)) > 0.5 {
            return nil
        }
        return FinderCorners(top: sides[roles[0]], right: sides[roles[1]], bottom: sides[roles[2]], left: sides[roles[3]])
    }

    private init(top: Line, right: Line, bottom: Line, left: Line) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    /// A line through `points` after dropping outliers (stray edges in the rays) one at a time, the rest
    /// kept in order; nil if fewer than three points remain within `tolerance`. Overwrites `points`.
    private static func robustLine(_ points: UnsafeMutableBufferPointer<Point>, tolerance: Double) -> Line? {
        var count = points.count
        while count >= 3, let line = Line(fitting: UnsafeMutableBufferPointer(rebasing: points[..<count])) {
            var worst = 0, worstDistance = -1.0
            for i in 0..<count where abs(line.distance(to: points[i])) > worstDistance {
                (worst, worstDistance) = (i, abs(line.distance(to: points[i])))
            }
            guard worstDistance > tolerance else { return line }
            for i in worst..<(count - 1) { points[i] = points[i + 1] }
            count -= 1
        }
        return nil
    }

    /// The fitted squares of one scan's finder patterns, each fitted once, then relabelled for every
    /// candidate set the pattern takes part in and reused when it is tried alone as Micro QR or rMQR.
    final class Cache {
        private var squares: [Int: FinderCorners?] = [:]
        /// Of patterns whose square ``squares`` holds as nil, the square fitted among sheared ones.
        private var amongSheared: [Int: FinderCorners?] = [:]

        /// The square of `pattern` (number `index` in the scan's list), as ``FinderCorners/square(of:in:amongSheared:)``.
        func square(of pattern: FinderPattern, index: Int, in image: BinaryImage, amongSheared sheared: Bool = false) -> FinderCorners? {
            let plain: FinderCorners?
            if let cached = squares[index] {
                plain = cached
            } else {
                plain = FinderCorners.square(of: pattern, in: image)
                squares[index] = plain
            }
            // Only a square that did not fit can fit otherwise among sheared patterns (a sheared one's fits alike).
            guard plain == nil, sheared, !pattern.isSheared else { return plain }
            if let cached = amongSheared[index] { return cached }
            let square = FinderCorners.square(of: pattern, in: image, amongSheared: true)
            amongSheared[index] = square
            return square
        }

        func corners(of pattern: FinderPattern, index: Int, u: Point, v: Point, in image: BinaryImage,
                     amongSheared: Bool = false) -> FinderCorners? {
            square(of: pattern, index: index, in: image, amongSheared: amongSheared)?.oriented(u: u, v: v, around: pattern.center)
        }
    }
}
