import QRCore

/// From three finder patterns to sampling grids: estimates the symbol's dimension, fits a homography to
/// the finder centres and the fitted outer edges of the finder patterns, refines it with the bottom-right
/// alignment pattern, reads the version information of large symbols, and for those builds a piecewise
/// grid from every alignment pattern; last, the grids of a bent symbol. Candidates are returned best first.
enum SymbolLocator {
    /// Candidate grids for `set`, most precise first, fitted as they are consumed: the grids from the
    /// finder centres refined by the fitted squares are only built once those from the detected centres
    /// have all been tried, and one of them was marked promising (``GridCandidates/markPromising()``).
    /// `estimate` is what ``firstLook(at:in:cache:)`` measured of the same set, used instead of measuring again.
    static func grids(for detected: FinderPatternSet, in image: BinaryImage, cache: FinderCorners.Cache? = nil,
                      estimate: Estimate? = nil) -> GridCandidates {
        let patterns = detected.patterns
        let corners = squares(of: detected, in: image, cache: cache ?? FinderCorners.Cache())
        // Where a finder's outer square was fitted, its diagonals cross at the perspective-correct centre,
        // steadier than the midpoints of thresholded runs.
        let refined = zip(patterns, corners).map { pattern, square in
            guard let quad = square?.corners, let a = Line(through: quad[0], quad[2]), let b = Line(through: quad[1], quad[3]),
                  let centre = a.intersection(with: b), centre.distance(to: pattern.center) < pattern.moduleSize
            else { return pattern }
            var moved = pattern
            moved.center = centre
            return moved
        }
        // The grids of bent symbols, the meshes pinned to the finders' squares
        // (``finderMesh(_:squares:transform:dimension:)``) and the cylinders (``CylinderProjection``), come after
        // every other grid: a luminance sample is taken of the first few grids that time well, and those of
        // the homographies decode more. They are tried even where no homography timed well (on a symbol bent
        // round a bottle none may), and fitted only then: most symbols decode from their first grid.
        var bentGrids: [() -> [SamplingGrid]] = []
        func stage(_ set: FinderPatternSet, estimate: Estimate?) -> () -> [SamplingGrid] {
            {
                let (fitted, bent) = grids(for: set, corners: corners, in: image, estimate: estimate)
                bentGrids += [bent].compactMap { $0 }
                return fitted
            }
        }
        // The refined centres make a stage of their own once any of them moved by a twentieth of a module: a
        // large symbol's grid is off by that much at its far side many times over. With a fifth of a module
        // asked, a version 7 symbol in blurred/image016 read only turned by 90° (where the detected centres lay
        // further off), and 3 of 1,600 made symbols at 30 % perspective, of versions 30 to 40, did not read.
        var stages = [stage(detected, estimate: estimate)]
        if zip(refined, patterns).contains(where: { $0.center.distance(to: $1.center) > 0.05 * $1.moduleSize }) {
            let set = FinderPatternSet(topLeft: refined[0], topRight: refined[1], bottomLeft: refined[2], indices: detected.indices)
            stages.append(stage(set, estimate: nil))
        }
        return GridCandidates(stages: stages, last: { bentGrids.flatMap { $0() } })
    }

    /// A set's dimension and module size as its finder spacing implies them (or as the version information
    /// beside its finders says, then `confirmed`), and the homography of that dimension fitted to its finder
    /// patterns (nil if none fits).
    struct Estimate {
        let dimension: Int
        let moduleSize: Double
        let confirmed: Bool
        var transform: PerspectiveTransform?
        /// The dimension the finder spacing alone implies, where the version information may have moved it from.
        let spacingDimension: Int
    }

    /// A cheap first look at a set: the timing score of the grid of its estimated dimension fitted to its
    /// finder patterns (0 if none fits), and the estimate, for ``grids(for:in:cache:estimate:)`` to start
    /// from. A false set scores low on it, as on every grid ``grids(for:in:cache:estimate:)`` would fit, and
    /// costs a tenth of fitting them all. A set whose version information reads beside its finders passes
    /// whatever its timing: a bent symbol of small modules can read as noise in a single homography. Where
    /// the look at a set with a damaged pattern misses, it is looked at again without that pattern's square
    /// and at the sizes a version either side, the score the best of them.
    static func firstLook(at detected: FinderPatternSet, in image: BinaryImage, cache: FinderCorners.Cache)
        -> (score: Double, estimate: Estimate?)
    {
        guard let raw = estimatedDimension(of: detected, in: image) else { return (0, nil) }
        let corners = squares(of: detected, in: image, cache: cache)
        let measured = measure(detected, estimate: raw, corners: corners, in: image)
        let transform = fit(detected, corners: corners, dimension: measured.dimension, alignment: nil)
        var estimate = Estimate(dimension: measured.dimension, moduleSize: measured.moduleSize, confirmed: measured.confirmed,
                                transform: transform, spacingDimension: raw.dimension)
        guard let transform else { return (0, estimate) }
        if measured.confirmed { return (1, estimate) }
        func timing(_ dimension: Int, _ transform: PerspectiveTransform) -> Double {
            GridCheck.timingScore(SamplingGrid(dimension: dimension, transform: transform), binary: image, minimum: GridCheck.samplingScore)
        }
        var score = timing(measured.dimension, transform)
        let patterns = detected.patterns
        guard score < GridCheck.samplingScore, patterns.contains(where: \.isDamaged) else { return (score, estimate) }
        // A damaged pattern's square is fitted round whatever merged with its ring or ate into it, and can pull
        // the whole grid off: a crumpled label's finder merged with a dark fold timed 0.31 with its square and
        // 0.98 without (damaged/image036 turned by 90°). Where the look misses, the fit without it is looked at.
        if zip(patterns, corners).contains(where: { $0.isDamaged && $1 != nil }),
           let refit = fit(detected, corners: zip(patterns, corners).map { $0.isDamaged ? nil : $1 },
                           dimension: measured.dimension, alignment: nil),
           case let refitScore = timing(measured.dimension, refit), refitScore > score {
            score = refitScore
            estimate.transform = refit
        }
        // Its modules, eaten into or merged with what lies round it, can also measure the symbol a version
        // too large or too small (a version 6 symbol under glare, measured as 37, 45 or 49 modules across
        // in glare/image048). The grids fitted later try the neighbouring sizes; the look does too.
        for dimension in [measured.dimension + 4, measured.dimension - 4]
        where score < GridCheck.samplingScore && dimensions.contains(dimension) {
            if let neighbour = fit(detected, corners: corners, dimension: dimension, alignment: nil) {
                score = max(score, timing(dimension, neighbour))
            }
        }
        return (score, estimate)
    }

    /// The modules across of QR codes, version 1 to 40: the sizes a grid is fitted at.
    private static let dimensions = Version.min.size...Version.max.size

    /// The fitted outer squares of a set's patterns (top-left, top-right, bottom-left), labelled for the
    /// symbol the set would be. A stand-in (``FinderPattern/isStandIn``) has none: the square fitted round its
    /// place follows whatever is left there (a ring round a blotted stone, turned by 45°, fitted askew and read
    /// no symbol; without it, the grid hangs on the stand-in's centre and the other two squares).
    private static func squares(of set: FinderPatternSet, in image: BinaryImage, cache: FinderCorners.Cache) -> [FinderCorners?] {
        let u = (set.topRight.center - set.topLeft.center).normalized
        let v = (set.bottomLeft.center - set.topLeft.center).normalized
        return zip(set.patterns, set.indices).map { pattern, index in
            pattern.isStandIn ? nil : cache.corners(of: pattern, index: index, u: u, v: v, in: image, amongSheared: set.hasShearedPattern)
        }
    }

    /// The dimension (21…177) and module size the finder spacing implies, or nil when neither side
    /// measures or the two sides disagree.
    private static func estimatedDimension(of set: FinderPatternSet, in image: BinaryImage) -> (dimension: Int, moduleSize: Double)? {
        let top = estimateDimension(image, set.topLeft, set.topRight)
        let left = estimateDimension(image, set.topLeft, set.bottomLeft)
        let best: (dimension: Int, moduleSize: Double, error: Int)
        switch (top, left) {
        case let (t?, l?):
            // A square symbol's two sides measure alike (within 16 % in the development corpus, perspective
            // included); false triples over data or texture often differ by far more.
            guard Double(abs(t.dimension - l.dimension)) <= 0.3 * Double(max(t.dimension, l.dimension)) else { return nil }
            best = t.error == l.error ? (t.dimension >= l.dimension ? t : l) : (t.error < l.error ? t : l)
        case let (t?, nil): best = t
        case let (nil, l?): best = l
        default: return nil
        }
        // An estimate a version or two above 40 is a version 40 symbol measured loosely (its modules
        // foreshortened by perspective); the candidates in grids(for:corners:in:) try the neighbouring sizes too.
        guard (21...185).contains(best.dimension), best.moduleSize >= 1 else { return nil }
        return (min(best.dimension, 177), best.moduleSize)
    }

    /// The dimension and module size of `set`: as its finder spacing implies them (`estimate`), or for a large
    /// symbol as its version information says, read beside the top-right and bottom-left finder patterns
    /// through each one's own fitted square. The module size measured across the finder patterns can be a tenth off (2-pixel
    /// modules on bent paper), and a dense symbol's estimate then misses by four versions or more (a version
    /// 34 symbol measured as 137 modules wide), beyond the sizes the timing patterns choose among; placed by
    /// its finder's square, the version information reads the same. A version read with at most 2 bit errors
    /// is `confirmed`.
    private static func measure(_ set: FinderPatternSet, estimate: (dimension: Int, moduleSize: Double),
                                corners: [FinderCorners?], in image: BinaryImage) -> (dimension: Int, moduleSize: Double, confirmed: Bool)
    {
        let (measured, moduleSize) = estimate
        // Version information starts at 45 modules (version 7), measured 15 % short at most (below).
        guard measured >= 37 else { return (measured, moduleSize, false) }
        // Each copy's modules in its finder's module coordinates: left of the top-right pattern, above the
        // bottom-left one (the positions of any size, moved to that finder's corner).
        let size = Version.max.size
        let origins = finderOrigins(size: size)
        let copies = zip(VersionInformation.positions(size: size), [1, 2]).compactMap { copy, finder in
            corners[finder]?.moduleTransform.map { local in (copy, { (p: Point) in local.apply(p - origins[finder]) }) }
        }
        let best = readVersion(image, copies: copies)
        // A copy read over data decodes to some version about one time in eight, with at most 2 bit errors
        // one time in forty-five: only a version near the measured size is taken, and only the rarer read
        // is trusted.
        guard let (version, distance) = best, Double(abs(version.size - measured)) <= 0.15 * Double(measured)
        else { return (measured, moduleSize, false) }
        let spacing = (set.topLeft.center.distance(to: set.topRight.center) + set.topLeft.center.distance(to: set.bottomLeft.center)) / 2
        return (version.size, spacing / Double(version.size - 7), distance <= 2)
    }

    /// Candidate grids for finder centres `set` and the fitted finder squares `corners`, starting from
    /// `estimate` when the set was measured already, and how to fit the grids of a bent symbol: for a small
    /// symbol the mesh pinned to the squares, and the cylinder. Where no homography times well enough to be
    /// worth its alignment patterns, only the cylinder, which may.
    private static func grids(for set: FinderPatternSet, corners: [FinderCorners?], in image: BinaryImage,
                              estimate: Estimate? = nil) -> (grids: [SamplingGrid], bent: (() -> [SamplingGrid])?) {
        let tl = set.topLeft, tr = set.topRight, bl = set.bottomLeft
        guard let (estimated, moduleSize, confirmed, spacingDimension)
                = estimate.map({ ($0.dimension, $0.moduleSize, $0.confirmed, $0.spacingDimension) })
            ?? estimatedDimension(of: set, in: image).map({ raw in
                let measured = measure(set, estimate: raw, corners: corners, in: image)
                return (measured.dimension, measured.moduleSize, measured.confirmed, raw.dimension)
            })
        else { return ([], nil) }
        var dimension = estimated
        let u = (tr.center - tl.center).normalized, v = (bl.center - tl.center).normalized

        var grids: [SamplingGrid] = []
        // Small modules make the estimate uncertain by a version or two: the timing patterns decide.
        var fitted: PerspectiveTransform?
        var bestTiming = -1.0
        // The bottom-right corner where the finders' outer sides meet is extrapolated far: on a slightly
        // rotated symbol the binarized sides are staircases whose fitted angle can be off by a few degrees,
        // so the fit without that corner competes too.
        var farCorner = true
        // Without a far corner (a square missing, or their sides parallel), fitted with it, a grid is fitted
        // without it, so once is enough.
        let hasFarCorner = bottomRightCorner(corners) != nil
        // A confirmed version is doubted only by the next smaller size timing convincingly: a version 6
        // symbol has no version information, and its data beside the finders can read as version 7.
        var sizes = confirmed ? [dimension, dimension - 4] : [dimension, dimension + 4, dimension - 4, dimension + 8, dimension - 8]
        // A version read with 3 bit errors through blurred finder squares can move the estimate further than
        // the timing patterns look: the finder spacing's own estimate competes too.
        if !confirmed && abs(spacingDimension - dimension) > 8 { sizes.append(spacingDimension) }
        candidates: for candidate in sizes where dimensions.contains(candidate) {
            for withFarCorner in hasFarCorner ? [true, false] : [true] {
                // A score within 0.05 of perfect cannot be beaten by the margin required below.
                if bestTiming >= 0.95 { break candidates }
                // The first fit is the one the first look made, if it was made.
                let candidateFit: PerspectiveTransform?
                if candidate == estimated && withFarCorner, let estimate {
                    candidateFit = estimate.transform
                } else {
                    candidateFit = fit(set, corners: corners, dimension: candidate, alignment: nil, farCorner: withFarCorner)
                }
                guard let transform = candidateFit else { continue }
                let doubting = confirmed && candidate != estimated
                let needed = doubting ? max(bestTiming + 0.05, GridCheck.convincingScore) : bestTiming + 0.05
                let timing = GridCheck.timingScore(SamplingGrid(dimension: candidate, transform: transform), binary: image,
                                                   minimum: needed)
                if timing > bestTiming + 0.05 && (!doubting || timing >= GridCheck.convincingScore) {
                    bestTiming = timing
                    fitted = transform
                    dimension = candidate
                    farCorner = withFarCorner
                }
            }
        }
        var versionRead = false
        if !confirmed, dimension >= 41, let transform = fitted,
           let version = readVersion(image, transform: transform, dimension: dimension), abs(version.size - dimension) <= 12 {
            // Version information decides the dimension of large symbols, unless the timing patterns read
            // convincingly at the size fitted and not at the one read: a symbol of 41 modules has none, and
            // its data where a larger symbol's would lie decodes to version 7, 8 or 9 about once in a hundred.
            if version.size == dimension {
                versionRead = true
            } else {
                let refit = fit(set, corners: corners, dimension: version.size, alignment: nil, farCorner: farCorner)
                func timesAsWell(_ refit: PerspectiveTransform) -> Bool {
                    GridCheck.timingScore(SamplingGrid(dimension: version.size, transform: refit), binary: image,
                                          minimum: bestTiming - 0.1) >= bestTiming - 0.1
                }
                if bestTiming < GridCheck.convincingScore || refit.map(timesAsWell) == true {
                    versionRead = true
                    dimension = version.size
                    fitted = refit
                }
            }
        }
        // Dense data, text and texture form many false finder triples; their timing rows read as noise
        // (about half the modules right), so below 0.55 the costly alignment-pattern searches are skipped.
        // Lens distortion can bring a large symbol's score as low as 0.59 (development corpus), but so many
        // false triples of large dimension score 0.55–0.65 that those must also show version information
        // that decodes (about one false triple in four does by chance). A symbol whose version information
        // read beside its finders is tried whatever its timing: the alignment patterns then decide.
        guard let base = fitted else { return ([], nil) }
        guard confirmed || (bestTiming >= 0.55 && (dimension < 45 || bestTiming >= 0.65 || versionRead)) else {
            return ([], { [dimension] in
                [cylinderGrid(set, squares: corners, dimension: dimension, confirmed: false, transform: base, in: image)].compactMap { $0 }
            })
        }

        // The bottom-right alignment pattern with the three finder centres gives an exact transform from
        // the four most reliable points; the fit including the finder edges is the alternative.
        var exact: PerspectiveTransform?
        var withAlignment: PerspectiveTransform?
        if dimension > 21 {
            let estimate = base.apply(Point(Double(dimension) - 6.5, Double(dimension) - 6.5))
            for radius in [3.0, 6.0, 12.0] {
                if let found = AlignmentPatternFinder.find(in: image, near: estimate, moduleSize: moduleSize,
                                                           radius: moduleSize * radius) {
                    let d = Double(dimension)
                    let through = PerspectiveTransform(
                        from: [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(d - 6.5, d - 6.5), Point(3.5, d - 3.5)],
                        to: [tl.center, tr.center, found, bl.center])
                    // Data holds look-alikes: one found more than 3 modules off is the symbol's only if the
                    // grid through it reads the timing patterns at least as well (in the development corpus,
                    // most found that far made them read worse, and a version 7 symbol then decoded only in a
                    // later pass).
                    if radius > 3, let through,
                       GridCheck.timingScore(SamplingGrid(dimension: dimension, transform: through), binary: image,
                                             minimum: bestTiming) < bestTiming {
                        break
                    }
                    exact = through
                    withAlignment = fit(set, corners: corners, dimension: dimension, alignment: found, farCorner: farCorner)
                    break
                }
            }
        }
        let primary = exact ?? base
        if dimension >= 45, let version = Version(size: dimension),
           let tiles = tiles(image, version: version, transform: primary, moduleSize: moduleSize, finders: corners) {
            grids.append(SamplingGrid(dimension: dimension, transform: primary, tiles: tiles))
        }
        grids.append(SamplingGrid(dimension: dimension, transform: primary))
        for alternative in [withAlignment, exact == nil ? nil : base].compactMap({ $0 }) {
            grids.append(SamplingGrid(dimension: dimension, transform: alternative))
        }
        // The plain parallelogram of the three centres, as the classic detectors do.
        let d = Double(dimension)
        if let simple = PerspectiveTransform(
            from: [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(d - 3.5, d - 3.5), Point(3.5, d - 3.5)],
            to: set.parallelogram.corners) {
            grids.append(SamplingGrid(dimension: dimension, transform: simple))
        }
        // Small symbols have no alignment pattern (or it was not found): the bottom-right corner is the
        // least certain point, so also try it nudged by about a module in each direction.
        if dimension < 45 && exact == nil {
            let corner = primary.apply(Point(d, d))
            let step = moduleSize * 0.8
            var nudges: [SamplingGrid] = []
            for (du, dv) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
                let moved = corner + u * (du * step) + v * (dv * step)
                if let nudged = PerspectiveTransform(
                    from: [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(d, d), Point(3.5, d - 3.5)],
                    to: [tl.center, tr.center, moved, bl.center]) {
                    nudges.append(SamplingGrid(dimension: dimension, transform: nudged))
                }
            }
            // The search above missed the alignment pattern (blurred or bent out of shape), but the nudge
            // that places it best (the most of its 25 modules read right) is likeliest to be right: those first.
            if dimension > 21, let version = Version(size: dimension) {
                // The pattern's modules as the symbol's template draws them.
                let modules = SymbolTemplate.of(version).functionPatterns, centre = dimension - 7
                let pattern = (-2...2).flatMap { dy in
                    (-2...2).map { dx in (x: centre + dx, y: centre + dy, dark: modules[centre + dx, centre + dy]) }
                }
                let scores = nudges.map { GridCheck.score($0, binary: image, expected: pattern) }
                nudges = nudges.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.map { nudges[$0] }
            }
            grids += nudges
        }
        return (grids, { [dimension] in
            [dimension < 45 ? finderMesh(set, squares: corners, transform: primary, dimension: dimension) : nil,
             cylinderGrid(set, squares: corners, dimension: dimension, confirmed: confirmed || versionRead, transform: primary,
                          in: image)].compactMap { $0 }
        })
    }

    /// ``CylinderProjection/grid(for:squares:dimensions:transform:in:)`` at `dimension` and,
    /// unless the version information `confirmed` it, at the dimensions each side's finder spacing implies:
    /// the modules of the finders at a cylinder's sides are foreshortened across the bend, so that side
    /// measures the symbol too many modules wide (a version 10 symbol round a can as 77 modules, where the
    /// side along the axis measured 57) and the estimate may have taken it.
    private static func cylinderGrid(_ set: FinderPatternSet, squares: [FinderCorners?], dimension: Int, confirmed: Bool,
                                     transform: PerspectiveTransform, in image: BinaryImage) -> SamplingGrid? {
        var dimensions = [dimension]
        if !confirmed {
            for side in [estimateDimension(image, set.topLeft, set.topRight), estimateDimension(image, set.topLeft, set.bottomLeft)] {
                if let size = side?.dimension, self.dimensions.contains(size), !dimensions.contains(size) { dimensions.append(size) }
            }
        }
        return CylinderProjection.grid(for: set, squares: squares, dimensions: dimensions, transform: transform, in: image)
    }

    /// Dimension from the distance between two finder patterns and the module size measured along the line
    /// joining them; `error` is how far the raw estimate was from a valid size.
    static func estimateDimension(_ image: BinaryImage, _ a: FinderPattern, _ b: FinderPattern)
        -> (dimension: Int, moduleSize: Double, error: Int)?
    {
        func asFound(_ pattern: FinderPattern) -> Double? {
            pattern.isGrain ? nil : pattern.moduleSize
        }
        let moduleSize: Double
        if a.isStandIn || b.isStandIn {
            // A stand-in's place shows nothing of its own (what reads there may be the remnant of a blotted
            // stone, a smaller pattern): the pattern found measures the modules alone.
            let (found, standIn) = a.isStandIn ? (b, a) : (a, b)
            guard let size = moduleSizeAlong(image, from: found, toward: standIn.center) ?? asFound(found) else { return nil }
            moduleSize = size
        } else {
            // Small modules blurred and turned can keep one pattern's runs from reading along the line: it then
            // counts with the module size it was found with, as long as the other reads and it is no grain.
            let ma = moduleSizeAlong(image, from: a, toward: b.center), mb = moduleSizeAlong(image, from: b, toward: a.center)
            guard ma != nil || mb != nil, let sizeA = ma ?? asFound(a), let sizeB = mb ?? asFound(b) else { return nil }
            moduleSize = (sizeA + sizeB) / 2
        }
        guard moduleSize >= 0.5, let modules = (a.center.distance(to: b.center) / moduleSize).rounded().pixelIndex(clampedTo: 0...1000)
        else { return nil }
        let raw = modules + 7
        let error = 1 - ((raw % 4) + 4) % 4
        return (raw + error, moduleSize, abs(error))
    }

    /// Module size of a finder pattern measured through its centre towards `target`. A damaged pattern that
    /// does not read along that line (its ring washed out there, or only its core showing) gives the module
    /// size it was found with.
    private static func moduleSizeAlong(_ image: BinaryImage, from pattern: FinderPattern, toward target: Point) -> Double? {
        let direction = (target - pattern.center).normalized
        guard let read = PatternRuns.symmetricRuns(in: image, center: pattern.center, direction: direction,
                                                   maxRun: pattern.size * 2),
              let runs = FinderPatternFinder.finderRuns(read.runs, tolerance: 0.8, clipping: pattern.isDamaged)?.runs
        else { return pattern.isDamaged ? pattern.moduleSize : nil }
        // The outer runs are the least reliable (they may merge with neighbours): weigh them half.
        return (2 * runs.total - runs[0] - runs[4]) / 12
    }

    /// The symbol's bottom-right corner where the outer edges of the top-right and bottom-left patterns'
    /// fitted squares (`corners[1]`, `corners[2]`) meet, or nil if either is missing or they run parallel.
    private static func bottomRightCorner(_ corners: [FinderCorners?]) -> Point? {
        guard let topRight = corners[1], let bottomLeft = corners[2] else { return nil }
        return topRight.right.intersection(with: bottomLeft.bottom)
    }

    /// Least-squares homography from module coordinates to pixels using the finder centres, the corners
    /// of the finder patterns' outer squares, the symbol's bottom-right corner where the outer edges of
    /// the top-right and bottom-left patterns meet, and the bottom-right alignment pattern if found.
    static func fit(_ set: FinderPatternSet, corners: [FinderCorners?], dimension: Int, alignment: Point?,
                    farCorner: Bool = true) -> PerspectiveTransform? {
        let d = Double(dimension)
        var source: [Point] = [Point(3.5, 3.5), Point(d - 3.5, 3.5), Point(3.5, d - 3.5)]
        var destination: [Point] = [set.topLeft.center, set.topRight.center, set.bottomLeft.center]
        var weights: [Double] = [2, 2, 2]
        // Module positions of each finder's outer corners (top-left, top-right, bottom-right, bottom-left).
        let origins = [Point(0, 0), Point(d - 7, 0), Point(0, d - 7)]
        for (finder, origin) in zip(corners, origins) {
            guard let points = finder?.corners else { continue }
            let modules = [origin, origin + Point(7, 0), origin + Point(7, 7), origin + Point(0, 7)]
            source += modules
            destination += points
            weights += [1, 1, 1, 1]
        }
        if farCorner, let br = bottomRightCorner(corners) {
            source.append(Point(d, d))
            destination.append(br)
            weights.append(1)
        }
        if let alignment {
            source.append(Point(d - 6.5, d - 6.5))
            destination.append(alignment)
            weights.append(4)
        }
        if source.count < 4 {
            // Centres only: complete the parallelogram.
            source.append(Point(d - 3.5, d - 3.5))
            destination.append(set.topRight.center - set.topLeft.center + set.bottomLeft.center)
            weights.append(1)
        }
        return PerspectiveTransform.fitting(from: source, to: destination, weights: weights)
    }

    /// The version from either copy of the version information, if one decodes.
    static func readVersion(_ image: BinaryImage, transform: PerspectiveTransform, dimension: Int) -> Version? {
        readVersion(image, copies: VersionInformation.positions(size: dimension).map { ($0, transform.apply) })?.version
    }

    /// The version the copies of the version information decode to with the fewest bit errors, each copy's
    /// modules (symbol coordinates) placed in the image by its own `place`.
    private static func readVersion(_ image: BinaryImage, copies: [(positions: [(x: Int, y: Int)], place: (Point) -> Point)])
        -> (version: Version, distance: Int)?
    {
        var best: (version: Version, distance: Int)?
        for (positions, place) in copies {
            var bits = 0
            for (i, p) in positions.enumerated() {
                let pixel = place(Point(Double(p.x) + 0.5, Double(p.y) + 0.5))
                if image.isDark(at: pixel.x, pixel.y) { bits |= 1 << i }
            }
            if let decoded = VersionInformation.decode(bits), decoded.distance < (best?.distance ?? .max) {
                best = decoded
            }
        }
        return best
    }

    /// Module coordinates of the top-left corners of the finder patterns (top-left, top-right, bottom-left)
    /// of a symbol `size` modules wide.
    private static func finderOrigins(size: Int) -> [Point] {
        [Point(0, 0), Point(Double(size - 7), 0), Point(0, Double(size - 7))]
    }

    /// A piecewise grid pinned to the finder patterns' own squares, for a small symbol (versions 1 to 6, with
    /// at most one alignment pattern, too few for ``tiles(_:version:transform:moduleSize:finders:)``) that one
    /// homography fits only on average: a label round a bottle has its modules narrowing towards the bottle's
    /// edge and its rows curving, so a fit to all three finders misses each of them by a module or more on
    /// their far sides. The mesh's points on module coordinates
    /// 0, 7, d − 7 and d (d = `dimension`) at the finders are their squares' corners (a finder without a
    /// fitted square keeps where `transform` puts its corners, moved as its centre is); the four in the far
    /// quadrant, where no pattern shows, are displaced from `transform` as their neighbours are, completing
    /// the parallelogram of their displacements as a smooth bend does. Nil when fewer than two of the
    /// `squares` (top-left, top-right, bottom-left) were fitted.
    static func finderMesh(_ set: FinderPatternSet, squares: [FinderCorners?], transform: PerspectiveTransform,
                           dimension: Int) -> SamplingGrid? {
        let fitted = squares.map { $0?.corners }
        guard fitted.count == 3, fitted.count(where: { $0 != nil }) >= 2 else { return nil }
        let d = Double(dimension)
        let anchors = [0, 7, d - 7, d]
        // Displacements from the transform, row-major on the 4 × 4 mesh.
        var shift = [Point?](repeating: nil, count: 16)
        let centres = [set.topLeft.center, set.topRight.center, set.bottomLeft.center]
        for (finder, origin) in finderOrigins(size: dimension).enumerated() {
            let (i, j) = (origin.x == 0 ? 0 : 2, origin.y == 0 ? 0 : 2)
            // A square's corners run clockwise from its top-left; the mesh's cell has them in the same order.
            let cell = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
            let centreShift = centres[finder] - transform.apply(origin + Point(3.5, 3.5))
            for (k, (a, b)) in cell.enumerated() {
                let projection = transform.apply(Point(anchors[a], anchors[b]))
                shift[b * 4 + a] = fitted[finder].map { $0[k] - projection } ?? centreShift
            }
        }
        // The far quadrant, each point from its neighbours before it along the row, the column and diagonally.
        for (i, j) in [(2, 2), (3, 2), (2, 3), (3, 3)] {
            guard let row = shift[j * 4 + i - 1], let column = shift[(j - 1) * 4 + i], let diagonal = shift[(j - 1) * 4 + i - 1]
            else { return nil }
            shift[j * 4 + i] = row + column - diagonal
        }
        let lattice = (0..<16).map { transform.apply(Point(anchors[$0 % 4], anchors[$0 / 4])) + (shift[$0] ?? .zero) }
        guard let tiles = SamplingGrid.Tiles(anchors: anchors, lattice: lattice) else { return nil }
        return SamplingGrid(dimension: dimension, transform: transform, tiles: tiles)
    }

    /// Piecewise grid anchored on every alignment pattern, and at the finder patterns on their fitted squares
    /// `squares` (top-left, top-right, bottom-left) where given. Lens distortion and bending move the
    /// patterns away from where `transform` projects them, smoothly across the symbol: each search starts
    /// where the located neighbours put the pattern (completing their parallelogram, or else moving the
    /// projection as they moved, then searching farther), a pattern placed unlike its neighbours is a
    /// look-alike in the data and is dropped, and patterns not found lie where the homography fitted to those
    /// found puts them, moved as their neighbours are.
    static func tiles(_ image: BinaryImage, version: Version, transform: PerspectiveTransform, moduleSize: Double,
                      finders squares: [FinderCorners?] = [nil, nil, nil]) -> SamplingGrid.Tiles? {
        let centers = version.alignmentPatternCenters.map { Double($0) + 0.5 }
        let n = centers.count
        guard n >= 3 else { return nil }
        // Per anchor (index j·n + i): its module coordinates, its projection, the module size there, and its
        // displacement from the projection once known (nil until located or filled in; set at the finders before
        // any search).
        let module = (0..<(n * n)).map { Point(centers[$0 % n], centers[$0 / n]) }
        let projections = module.map { transform.apply($0) }
        let localModuleSizes = module.map { transform.moduleSize(at: $0) }
        let finders = [0, n - 1, (n - 1) * n]
        // The bottom-right pattern, the lattice's fourth corner, is placed from neighbours on one side only and
        // lies farthest from the finders: the bend of a bulging page departs most from its one parallelogram
        // there (1.7 modules on a bent version 34 symbol, whose grid then missed a whole corner). It is looked
        // for and kept a module farther out than the others.
        let farCorner = n * n - 1
        func reach(_ index: Int) -> Double { index == farCorner ? 1 : 0 }
        var shift = [Point?](repeating: nil, count: n * n)
        // At the finders, the anchor is placed by the finder's own square where one was fitted (the inner
        // corner region, half a module inside it), else where the transform fitted to the finders puts it.
        for (index, (square, origin)) in zip(finders, zip(squares, finderOrigins(size: version.size))) {
            if let placed = square?.moduleTransform {
                shift[index] = placed.apply(module[index] - origin) - projections[index]
            } else {
                shift[index] = .zero
            }
        }
        var located: Int { shift.lazy.filter { $0 != nil }.count - finders.count }
        // Under an eighth of the patterns found (and at least three), the single homography is as good. An eighth
        // is enough: one region's patterns can be lost to blur or glare while the others place the grid (of
        // 1,600 symbols made at 3 px modules in 30 % perspective, asking for half, the rest moved as their
        // neighbours only, read 21 fewer). Fewer placed a grid that timed convincingly and did not decode
        // (high_version/image000, a version 25 symbol with 2 of its 22 found), whose refinement and luminance
        // samples took its read from 6 to 20 ms.
        let enough = max(3, (n * n - 3 + 7) / 8)
        // The mean displacement of the known neighbours of an anchor (8-neighbourhood), and how many there are.
        func neighbourShift(_ index: Int) -> (Point, Int) {
            let i = index % n, j = index / n
            var sum = Point.zero, count = 0
            for b in max(0, j - 1)...min(n - 1, j + 1) {
                for a in max(0, i - 1)...min(n - 1, i + 1) where a != i || b != j {
                    guard let s = shift[b * n + a] else { continue }
                    sum = sum + s
                    count += 1
                }
            }
            return (count > 0 ? sum / Double(count) : .zero, count)
        }
        // Where a pattern's neighbours along a row, along a column and diagonally between them are known, the
        // fourth corner of their parallelogram (the mean over such corners): on a bent symbol the grid is
        // locally affine, where the mean of the neighbours' shifts lags behind.
        func parallelogramGuess(_ index: Int) -> Point? {
            let i = index % n, j = index / n
            var sum = Point.zero, count = 0
            for (di, dj) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] where (0..<n).contains(i + di) && (0..<n).contains(j + dj) {
                let row = index + di, column = index + dj * n, diagonal = index + di + dj * n
                guard let a = shift[row], let b = shift[column], let c = shift[diagonal] else { continue }
                sum = sum + projections[row] + a + projections[column] + b - projections[diagonal] - c
                count += 1
            }
            return count > 0 ? sum / Double(count) : nil
        }
        // Two sweeps: the second gives patterns missed in the first their neighbours on every side.
        for sweep in 0..<2 {
            // A grid from false finder patterns finds few alignment patterns: no second chance for it.
            if sweep == 1 && located < enough { return nil }
            for index in 0..<(n * n) where shift[index] == nil {
                let corner = parallelogramGuess(index)
                let guess = corner ?? projections[index] + neighbourShift(index).0
                // Perspective makes modules larger on the near side of the symbol; blur and ink spread
                // can make a pattern fit the symbol's mean module size better.
                let local = localModuleSizes[index]
                // A parallelogram's corner lies close; the mean of the neighbours' shifts can lag a bend by
                // several modules (four, a quarter of the way along a bent version 34 symbol's top edge).
                let radius = local * (corner != nil ? 2 + reach(index) : 4.5)
                let differs = abs(local - moduleSize) > 0.1 * moduleSize
                if let point = AlignmentPatternFinder.find(in: image, near: guess, moduleSize: local, radius: radius)
                    ?? (differs ? AlignmentPatternFinder.find(in: image, near: guess, moduleSize: moduleSize, radius: radius) : nil) {
                    shift[index] = point - projections[index]
                }
            }
        }
        // A located pattern more than 1.5 modules from where its located neighbours put it (their
        // parallelogram's corner, or else their mean displacement) is a look-alike; so is one with no located
        // neighbour more than 1.5 modules from the projection (data in a region whose patterns are lost).
        for index in 0..<(n * n) where !finders.contains(index) {
            guard let s = shift[index] else { continue }
            if let corner = parallelogramGuess(index) {
                if corner.distance(to: projections[index] + s) > (1.5 + reach(index)) * localModuleSizes[index] { shift[index] = nil }
            } else {
                if s.distance(to: neighbourShift(index).0) > 1.5 * localModuleSizes[index] { shift[index] = nil }
            }
        }
        guard located >= enough else { return nil }
        // The rest lie where the homography fitted to the located anchors puts them, moved from there as their
        // neighbours are (filled in from the located ones outwards). Where a region's patterns are all lost (blur
        // or a stain over a quarter of the symbol), that fit follows the symbol's perspective into it; the
        // neighbours alone would carry the finders' and the nearest patterns' displacements in unchanged.
        let placed = shift.indices.compactMap { index in shift[index].map { (module: module[index], pixel: projections[index] + $0) } }
        let fitted = placed.count < n * n ? PerspectiveTransform.fitting(from: placed.map(\.module), to: placed.map(\.pixel)) : nil
        let base = (0..<(n * n)).map { fitted?.apply(module[$0]) ?? projections[$0] }
        shift = shift.indices.map { index in shift[index].map { projections[index] + $0 - base[index] } }
        while shift.contains(where: { $0 == nil }) {
            shift = (0..<(n * n)).map { index in
                if let s = shift[index] { return s }
                let (expected, known) = neighbourShift(index)
                return known > 0 ? expected : nil
            }
        }
        return SamplingGrid.Tiles(anchors: centers, lattice: (0..<(n * n)).map { base[$0] + (shift[$0] ?? .zero) })
    }
}
