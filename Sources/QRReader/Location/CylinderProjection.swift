import Foundation
import QRCore

/// A symbol printed on a cylinder (a label round a bottle, a can or a pipe) as a camera sees it. Its modules
/// narrow towards the cylinder's sides and its rows curve, so that no homography places them, nor a mesh
/// extrapolated from the finder patterns across the bulge between them. A point of the cylinder's surface is
/// linear in (sin θ, cos θ, h, 1), θ its angle round the axis and h its height along it, and a pinhole camera
/// projects it through one 3 × 4 projective map: with θ proportional to the module coordinate across the
/// axis, that map places every module. It is fitted by least squares to the finder patterns for each
/// curvature tried; the timing patterns, which run across the bend, choose among the curvatures.
struct CylinderProjection {
    let bend: Bend
    /// The map's rows, from the features (``Bend/features(_:_:)``) to normalised pixels; the last row's constant is 1.
    private let rowX: SIMD4<Double>, rowY: SIMD4<Double>, rowW: SIMD4<Double>
    /// Undoes the normalisation of the pixels the map was fitted to.
    private let centroid: Point, scale: Double

    /// How the symbol lies round the cylinder.
    struct Bend {
        let dimension: Int
        /// Whether the symbol bends along its rows (the cylinder's axis runs along its columns).
        let alongRows: Bool
        /// Half the angle the symbol's width spans round the cylinder, in radians.
        let halfAngle: Double
        private let sinHalf: Double, versinHalf: Double

        init(dimension: Int, alongRows: Bool, halfAngle: Double) {
            self.dimension = dimension
            self.alongRows = alongRows
            self.halfAngle = halfAngle
            sinHalf = sin(halfAngle)
            versinHalf = 1 - cos(halfAngle)
        }

        /// (sin θ, 1 − cos θ, h, 1) of module coordinates (x, y), the first two scaled to 1 at the symbol's sides
        /// and h to ±1 at its edges along the axis: a linear change of (sin θ, cos θ, h, 1), which the map
        /// absorbs, that keeps the system well conditioned where the bend is slight (cos θ then hardly
        /// differs from 1).
        @inline(__always)
        func features(_ x: Double, _ y: Double) -> SIMD4<Double> {
            let half = Double(dimension) / 2
            let (across, along) = alongRows ? (x, y) : (y, x)
            let angle = (across - half) / half * halfAngle
            return SIMD4(sin(angle) / sinHalf, (1 - cos(angle)) / versinHalf, (along - half) / half, 1)
        }
    }

    /// The projection of a symbol lying round a cylinder as `bend` says that best maps module coordinates
    /// `source` to pixels `destination` (weighted least squares), or nil when the points do not determine it.
    /// The map has 11 unknowns: at least six points, not all on the finders' one side.
    init?(_ bend: Bend, from source: [Point], to destination: [Point], weights: [Double]) {
        guard source.count >= 6, destination.count == source.count, weights.count == source.count, bend.halfAngle > 0
        else { return nil }
        self.bend = bend
        // Pixels centred and scaled to a mean distance of √2, for a well-conditioned system.
        let n = Double(destination.count)
        let centroid = destination.reduce(Point.zero, +) / n
        let spread = destination.reduce(0) { $0 + $1.distance(to: centroid) } / n
        guard spread > 0 else { return nil }
        self.centroid = centroid
        scale = 2.0.squareRoot() / spread
        // Normal equations of x·(W·f) = X·f and y·(W·f) = Y·f, f the features, W's constant 1: 11 unknowns, X's
        // four first, then Y's, then W's other three. Each point's two rows are (f, 0, −x·f′) and (0, f, −y·f′),
        // f′ the first three features; their products are added block by block (this runs for every
        // curvature tried, and arrays per row were heap allocations).
        var ata = [Double](repeating: 0, count: 121), atb = [Double](repeating: 0, count: 11)
        for (k, module) in source.enumerated() {
            let f = bend.features(module.x, module.y), w = weights[k]
            let p = (destination[k] - centroid) * scale
            let squared = p.x * p.x + p.y * p.y
            for i in 0..<4 {
                atb[i] += w * f[i] * p.x
                atb[4 + i] += w * f[i] * p.y
                for j in 0..<4 {
                    let product = w * f[i] * f[j]
                    ata[i * 11 + j] += product
                    ata[(4 + i) * 11 + 4 + j] += product
                }
                for j in 0..<3 {
                    ata[i * 11 + 8 + j] -= w * p.x * f[i] * f[j]
                    ata[(4 + i) * 11 + 8 + j] -= w * p.y * f[i] * f[j]
                }
            }
            for i in 0..<3 {
                atb[8 + i] -= w * squared * f[i]
                for j in 0..<3 { ata[(8 + i) * 11 + 8 + j] += w * squared * f[i] * f[j] }
                for j in 0..<4 {
                    ata[(8 + i) * 11 + j] -= w * p.x * f[i] * f[j]
                    ata[(8 + i) * 11 + 4 + j] -= w * p.y * f[i] * f[j]
                }
            }
        }
        guard let m = LinearSystem.solve(ata, atb, size: 11), m.allSatisfy(\.isFinite) else { return nil }
        rowX = SIMD4(m[0], m[1], m[2], m[3])
        rowY = SIMD4(m[4], m[5], m[6], m[7])
        rowW = SIMD4(m[8], m[9], m[10], 1)
    }

    /// The pixel position of module coordinates (x, y).
    @inline(__always)
    func apply(_ x: Double, _ y: Double) -> Point {
        let f = bend.features(x, y)
        let w = (rowW * f).sum()
        return Point((rowX * f).sum() / w, (rowY * f).sum() / w) / scale + centroid
    }

    /// Half-angles tried, in radians: from a label wrapped a tenth of the way round (where a homography and
    /// the module edges still place it) to one wrapped over a third of the way round, whose modules at the
    /// sides are foreshortened to a third.
    private static let halfAngles = stride(from: 0.35, through: 1.25, by: 0.15).map { $0 }

    /// The grid of the cylinder that reads `set`'s timing patterns best, fitted to its finder centres and the
    /// corners of their fitted `squares` (top-left, top-right, bottom-left; two at least), bending along its
    /// rows or its columns, at each of `dimensions`; nil when none reads them as well as a grid must to be
    /// sampled. `transform` is the set's homography, which the grid keeps for what needs one transform.
    ///
    /// A flat symbol that the homographies missed for other reasons (blur, glare, or a code the picture only reads
    /// in a later pass) reads its timing patterns as well or a little better on a slight cylinder, with four more
    /// unknowns; tried, its grids cost a refinement and luminance samples in every pass (perspective/image033 took
    /// 5 → 12 ms, high_version/image000 4 → 12 ms). So a cylinder must also explain the finders' squares clearly
    /// better than a plane does: at most half the homography's residual. Bent symbols' cylinders fit with a third
    /// to a half of it (curved/image011 and 013), flat ones' with over half. Where the homography fits the squares
    /// within 0.15 of a module on average, no bend shows and none is tried: the false sets of a tiling of
    /// finder-like squares of 1 px modules (`Benchmarks/read-adversarial-vs-zxing-cpp.py`) took 18 % longer to
    /// give up on with every bend fitted (the bent symbols benchmarked read as many with the floor).
    static func grid(for set: FinderPatternSet, squares: [FinderCorners?], dimensions: [Int], transform: PerspectiveTransform,
                     in image: BinaryImage) -> SamplingGrid? {
        guard squares.count(where: { $0 != nil }) >= 2 else { return nil }
        var best: (projection: CylinderProjection, score: Double, residual: Double, points: Correspondences, limit: Double)?
        // The timing patterns choose; where they read alike (a small symbol's are too short to tell one bend
        // from another), the fit to the finders' squares does.
        func tryFit(_ bend: Bend, _ points: Correspondences, within limit: Double) {
            guard let projection = CylinderProjection(bend, from: points.source, to: points.destination, weights: points.weights)
            else { return }
            let residual = residual(of: projection.apply, points)
            guard residual < limit else { return }
            let floor = best?.score ?? GridCheck.samplingScore
            let score = GridCheck.timingScore(dimension: bend.dimension, binary: image, minimum: floor, place: projection.apply)
            guard score >= floor else { return }
            if let best, score == best.score ? residual >= best.residual : score < best.score { return }
            best = (projection, score, residual, points, limit)
        }
        for dimension in dimensions {
            let points = correspondences(of: set, squares: squares, dimension: dimension)
            guard let plane = PerspectiveTransform.fitting(from: points.source, to: points.destination, weights: points.weights)
            else { continue }
            let planeResidual = residual(of: { plane.apply(Point($0, $1)) }, points)
            guard planeResidual >= 0.15 * set.moduleSize else { continue }
            let limit = 0.5 * planeResidual
            for alongRows in [true, false] {
                for halfAngle in halfAngles {
                    tryFit(Bend(dimension: dimension, alongRows: alongRows, halfAngle: halfAngle), points, within: limit)
                }
            }
        }
        // Between the steps tried, the curvature either side of the best.
        if let (found, _, _, points, limit) = best {
            let bend = found.bend
            for halfAngle in [bend.halfAngle - 0.075, bend.halfAngle + 0.075] {
                tryFit(Bend(dimension: bend.dimension, alongRows: bend.alongRows, halfAngle: halfAngle), points, within: limit)
            }
        }
        guard let (projection, _, _, points, _) = best else { return nil }
        return projection.refitted(toAlignmentPatternsIn: image, points: points).grid(transform: transform)
    }

    /// The weighted mean distance from where `place` puts `points`' module coordinates to their pixels.
    private static func residual(of place: (Double, Double) -> Point, _ points: Correspondences) -> Double {
        var sum = 0.0
        for k in points.source.indices {
            sum += points.weights[k] * place(points.source[k].x, points.source[k].y).distance(to: points.destination[k])
        }
        return sum / points.weights.reduce(0, +)
    }

    /// Module coordinates, pixels and weights of the points a projection is fitted to.
    private typealias Correspondences = (source: [Point], destination: [Point], weights: [Double])

    /// `set`'s finder centres (weighing double) and the corners of their fitted `squares`, in the module
    /// coordinates of a symbol `dimension` modules wide and in pixels.
    private static func correspondences(of set: FinderPatternSet, squares: [FinderCorners?], dimension: Int) -> Correspondences {
        let d = Double(dimension)
        var source = [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(3.5, d - 3.5)]
        var destination = [set.topLeft.center, set.topRight.center, set.bottomLeft.center]
        var weights = [2.0, 2, 2]
        for (square, origin) in zip(squares, [Point(0, 0), Point(d - 7, 0), Point(0, d - 7)]) {
            guard let corners = square?.corners else { continue }
            source += FinderCorners.moduleCorners.map { $0 + origin }
            destination += corners
            weights += [1, 1, 1, 1]
        }
        return (source, destination, weights)
    }

    /// The projection fitted again to `points` and to the alignment patterns found near where it puts them,
    /// twice (the second search starts from the first refit), at the half-angle within 0.15 of its own that fits
    /// best: a larger symbol's patterns show the bulge between the finders, where the fit to the finders alone
    /// extrapolates. Itself when none is found.
    private func refitted(toAlignmentPatternsIn image: BinaryImage, points: Correspondences) -> CylinderProjection {
        guard let version = Version(size: bend.dimension) else { return self }
        let patterns = version.alignmentPatternPositions.map { Point(Double($0.x) + 0.5, Double($0.y) + 0.5) }
        var projection = self
        for _ in 0..<2 {
            var all = points
            for module in patterns {
                let centre = projection.apply(module.x, module.y)
                let across = projection.apply(module.x + 1, module.y).distance(to: centre)
                let down = projection.apply(module.x, module.y + 1).distance(to: centre)
                let size = (across + down) / 2
                guard let pixel = AlignmentPatternFinder.find(in: image, near: centre, moduleSize: size, radius: 2 * size) else { continue }
                all.source.append(module)
                all.destination.append(pixel)
                all.weights.append(2)
            }
            guard all.source.count > points.source.count else { break }
            var bestResidual = Double.infinity
            let halfAngle = projection.bend.halfAngle
            for step in [-0.15, -0.075, 0, 0.075, 0.15] {
                let bend = Bend(dimension: bend.dimension, alongRows: bend.alongRows, halfAngle: halfAngle + step)
                guard let refit = CylinderProjection(bend, from: all.source, to: all.destination, weights: all.weights) else { continue }
                let residual = Self.residual(of: refit.apply, all)
                if residual < bestResidual {
                    bestResidual = residual
                    projection = refit
                }
            }
        }
        return projection
    }

    /// The projection as a piecewise grid: a lattice of points every three modules or so, each cell a homography.
    /// Bent by a half-angle of 1.25, the cells at the sides, where modules are narrowest, stray from the cylinder
    /// by up to a quarter of a module on a version 1 symbol and a tenth on version 10 (where the refinement onto
    /// the module edges follows); a lattice of every module, within a thirtieth, read one symbol fewer of the
    /// bent-symbol benchmark (seed 5) and as many of another (seed 9).
    private func grid(transform: PerspectiveTransform) -> SamplingGrid? {
        let dimension = bend.dimension, d = Double(dimension)
        let steps = max(2, Int((d / 3).rounded()))
        let anchors = (0...steps).map { d * Double($0) / Double(steps) }
        let lattice = anchors.flatMap { y in anchors.map { x in apply(x, y) } }
        guard lattice.allSatisfy({ $0.x.isFinite && $0.y.isFinite }),
              let tiles = SamplingGrid.Tiles(anchors: anchors, lattice: lattice)
        else { return nil }
        return SamplingGrid(dimension: dimension, transform: transform, tiles: tiles)
    }
}
