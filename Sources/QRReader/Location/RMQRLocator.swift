import QRCore

/// Locates an rMQR symbol from its finder pattern: each orientation of the pattern's outer square is tried
/// until the timing pattern along the top edge and the format information beside the finder read; the
/// format gives the size, and the finder sub-pattern in the far corner anchors the long axis.
enum RMQRLocator {
    struct Candidate: Sendable {
        let grid: SamplingGrid
        /// Whether `grid` was redrawn through the timing patterns already; if not and it does not decode, it is
        /// redrawn (``redrawn(_:version:moduleSize:binary:)``).
        let isRedrawn: Bool
        let version: RMQRVersion
        let level: ErrorCorrectionLevel
        let mirrored: Bool
        let distance: Int
    }

    /// The top timing pattern starts dark, light, dark, light right of the separator.
    private static let timing = [(8, true), (9, false), (10, true), (11, false)]
    /// Tap offsets from the module centres (in modules) at which format and timing are read.
    private static let offsets = [Point(0, 0), Point(0.2, 0), Point(-0.2, 0), Point(0, 0.2), Point(0, -0.2)]

    /// The top row's timing modules of `version`, right of the finder's separator and clear of the
    /// alignment patterns and the corner pattern, dark on even columns.
    static func timingModules(_ version: RMQRVersion) -> [(x: Int, y: Int, dark: Bool)] {
        let alignment = version.alignmentColumns
        return (8..<max(8, version.width - 2))
            .filter { x in !alignment.contains { abs($0 - x) <= 1 } }
            .map { (x: $0, y: 0, dark: $0 % 2 == 0) }
    }

    /// Orientations of an rMQR symbol around `pattern`, whose fitted outer square is `square` (from
    /// ``FinderCorners/square(of:in:)``), with readable format information, a sub-pattern found and a top
    /// timing row that reads as one, best first.
    static func candidates(_ pattern: FinderPattern, square fitted: FinderCorners, in image: BinaryImage) -> [Candidate] {
        guard let square = fitted.corners else { return [] }
        let unit = FinderCorners.moduleCorners
        var found: [Candidate] = []
        for orientation in FinderCorners.orientations(of: square) {
            let near = orientation.transform, corners = orientation.corners, mirrored = orientation.mirrored
            // The timing and format modules read best at the module centres or slightly off them: the
            // square of a blurred, thresholded finder can lie a pixel off its modules. Not for patterns of
            // small modules, mostly sensor grain, whose every orientation this would try five times over.
            var best: (data: Int, distance: Int)?
            for offset in pattern.moduleSize >= 3 ? Self.offsets : [.zero] where best?.distance != 0 {
                func isDark(_ x: Int, _ y: Int) -> Bool {
                    let p = near.apply(Point(Double(x) + 0.5 + offset.x, Double(y) + 0.5 + offset.y))
                    return image.isDark(at: p.x, p.y)
                }
                guard timing.count(where: { isDark($0.0, 0) == $0.1 }) >= 3 else { continue }
                var bits = 0
                for (i, p) in RMQRVersion.formatPositionsLeft.enumerated() where isDark(p.x, p.y) { bits |= 1 << i }
                guard let (data, distance) = BCHCode.rMQRFormatLeft.decode(bits, candidates: 0..<64, maximumDistance: 3),
                      distance < (best?.distance ?? 4), RMQRVersion.fromFormatData(data) != nil
                else { continue }
                best = (data, distance)
            }
            guard let (data, distance) = best, let (version, level) = RMQRVersion.fromFormatData(data) else { continue }
            let w = Double(version.width), h = Double(version.height)
            // Anchor the far end on the finder sub-pattern, found near where the finder's square predicts: by
            // its affine fit first, as the homography of a 7-module square extrapolated ten times as far
            // magnifies its corners' error in its perspective terms (a symbol 77 modules long turned by 55°
            // was predicted outside the picture), then by the homography, for a symbol seen at an angle.
            let far = Point(w - 2.5, h - 2.5)
            let squareFit = orientation.isOuterCornersFit ? near : PerspectiveTransform.fittingAffine(from: unit, to: corners)
            let radius = pattern.moduleSize * max(4, w / 8)
            // With one anchor at the far end a homography's perspective terms are unreliable: fit an
            // affine map, which a photo of a long, narrow symbol follows closely.
            func fit(anchoredNear predicted: Point) -> SamplingGrid? {
                guard let anchor = AlignmentPatternFinder.find(in: image, near: predicted, moduleSize: pattern.moduleSize,
                                                           radius: radius),
                      let transform = PerspectiveTransform.fittingAffine(from: unit + [far], to: corners + [anchor])
                else { return nil }
                return SamplingGrid(width: version.width, height: version.height, transform: transform)
            }
            // The QR grids' gate (see MicroQRLocator): the top timing row must read as one.
            var timed: SamplingGrid?, firstFit: SamplingGrid?
            for case let predicted? in [squareFit?.apply(far), near.apply(far)] where timed == nil {
                guard let grid = fit(anchoredNear: predicted) else { continue }
                if readsTiming(grid, version, in: image) { timed = grid } else if firstFit == nil { firstFit = grid }
            }
            // A symbol seen at an angle bends away from any affine fit along its length, and its sub-pattern
            // may lie far from both predictions: then its timing patterns are followed from the finder (the
            // first fit, or the square's own affine map), if the first of them read there. Texture passes the
            // format's check in about one orientation in thirteen; following it on screens' moiré cost a
            // millisecond.
            if let timed {
                found.append(Candidate(grid: timed, isRedrawn: false, version: version, level: level, mirrored: mirrored,
                                       distance: distance))
            } else if let square = squareFit.map({ SamplingGrid(width: version.width, height: version.height, transform: $0) }),
                      GridCheck.score(square, binary: image, expected: timingModules(version).filter { $0.x < 14 })
                          >= GridCheck.samplingScore,
                      let grid = redrawn(firstFit ?? square, version: version, moduleSize: pattern.moduleSize,
                                         binary: image).first {
                found.append(Candidate(grid: grid, isRedrawn: true, version: version, level: level, mirrored: mirrored,
                                       distance: distance))
            }
        }
        return found.sorted { $0.distance < $1.distance }
    }

    /// Whether `grid` reads the top timing row of `version` as such: the QR grids' gate (``GridCheck/samplingScore``).
    private static func readsTiming(_ grid: SamplingGrid, _ version: RMQRVersion, in image: BinaryImage) -> Bool {
        GridCheck.score(grid, binary: image, expected: timingModules(version)) >= GridCheck.samplingScore
    }

    /// `grid` redrawn through its timing patterns (``timingFitted(_:version:moduleSize:followingPitch:binary:)``),
    /// twice (the second time the timing modules are looked for where the first put them), then the same
    /// following their pitch, for a symbol seen at a steep angle: the redrawn grids that read the top timing row
    /// as such.
    static func redrawn(_ grid: SamplingGrid, version: RMQRVersion, moduleSize: Double, binary image: BinaryImage) -> [SamplingGrid] {
        [false, true].flatMap { followingPitch in
            func refitted(_ grid: SamplingGrid) -> SamplingGrid? {
                timingFitted(grid, version: version, moduleSize: moduleSize, followingPitch: followingPitch, binary: image)
            }
            let once = refitted(grid)
            return [once, once.flatMap(refitted)].compactMap { $0 }.filter { readsTiming($0, version, in: image) }
        }
    }

    /// `grid` refitted, as a homography, through the finder and the dark modules of the timing patterns along
    /// the top and bottom edges (``TimingModuleTracker``, `followingPitch` or not), then through the sub-pattern
    /// too where that fit places it within two modules: a symbol seen at an angle, 43 to 139 modules long, bends
    /// away from an affine fit at its far end. Nil when under half of either row's dark timing modules are found.
    static func timingFitted(_ grid: SamplingGrid, version: RMQRVersion, moduleSize: Double, followingPitch: Bool,
                             binary image: BinaryImage) -> SamplingGrid? {
        let w = version.width, h = version.height
        let unit = FinderCorners.moduleCorners
        var from = unit, to = unit.map(grid.transform.apply)
        let alignment = version.alignmentColumns
        // Dark on even columns, clear of the finder and its separator, the alignment patterns, the corner
        // pattern (top right) and the sub-pattern (bottom right).
        for (y, last, inwards) in [(0, w - 3, 1.0), (h - 1, w - 7, -1.0)] {
            let modules = stride(from: 8, through: last, by: 2).filter { x in !alignment.contains { abs($0 - x) <= 1 } }
                .map { Point(Double($0) + 0.5, Double(y) + 0.5) }
            let found = TimingModuleTracker.darkModuleCentres(modules, along: Point(1, 0), inwards: Point(0, inwards),
                                                              transform: grid.transform, followingPitch: followingPitch, in: image)
            guard found.count * 2 >= modules.count else { return nil }
            from += found.map(\.module)
            to += found.map(\.centre)
        }
        guard let timed = PerspectiveTransform.fitting(from: from, to: to) else { return nil }
        let far = Point(Double(w) - 2.5, Double(h) - 2.5)
        let farModule = (timed.apply(far + Point(1, 0)) - timed.apply(far)).length
        guard let anchor = AlignmentPatternFinder.find(in: image, near: timed.apply(far), moduleSize: min(moduleSize, farModule),
                                                       radius: 2 * farModule),
              let anchored = PerspectiveTransform.fitting(from: from + [far], to: to + [anchor])
        else { return SamplingGrid(width: w, height: h, transform: timed) }
        return SamplingGrid(width: w, height: h, transform: anchored)
    }
}
