import QRCore

/// Locates a Micro QR symbol from its single finder pattern: the pattern's outer square gives a transform
/// for each of its four rotations (and mirror images); the one whose timing modules and format information
/// read best wins, and the format information says how large the symbol is.
enum MicroQRLocator {
    struct Candidate: Sendable {
        /// Sampling grids to try in turn: an affine fit of the finder's square first, because extrapolating
        /// a 7-module square's perspective to 17 modules magnifies every pixel of corner error, then the
        /// full perspective fit for symbols photographed at a steep angle. When neither reads the timing
        /// modules, that fit redrawn through the timing patterns instead (``redrawn(_:binary:)``). For a
        /// skewed square, candidates of the affine fit through its three outer corners alone follow.
        let grids: [SamplingGrid]
        /// The last of the fits, to be redrawn through the timing patterns if `grids` (the fits) do not decode;
        /// nil when `grids` are redrawn ones already.
        let toRedraw: SamplingGrid?
        let format: MicroQRDecoder.Format
        let mirrored: Bool
    }

    /// Tap offsets from the module centres (in modules) at which format and timing are read.
    private static let offsets = [Point(0, 0), Point(0.2, 0), Point(-0.2, 0), Point(0, 0.2), Point(0, -0.2)]
    /// The timing modules next to the finder: dark, light, dark along the top row and left column.
    private static let timing = [(8, 0, true), (9, 0, false), (10, 0, true), (0, 8, true), (0, 9, false), (0, 10, true)]

    /// Orientations, best first, of a Micro QR symbol around the finder pattern whose fitted outer square
    /// is `square` (from ``FinderCorners/square(of:in:)``), in which the format information decodes and
    /// whose grids read the timing modules as such.
    /// Format and timing modules are read from the binary image and, with a threshold calibrated on the
    /// finder pattern's own modules, from luminance, at the module centres and slightly offset: small,
    /// blurred symbols rarely survive global thresholding exactly.
    static func candidates(square fitted: FinderCorners, in image: BinaryImage, luminance plane: LuminancePlane) -> [Candidate] {
        guard let square = fitted.corners else { return [] }
        let unit = FinderCorners.moduleCorners
        var found: [Candidate] = []
        // The finder's modules that calibrate the threshold are the same under every rotation and mirroring.
        let threshold = PerspectiveTransform(from: unit, to: square).flatMap { calibratedThreshold(plane, $0) }
        for orientation in FinderCorners.orientations(of: square) {
            let transform = orientation.transform
            guard let format = bestFormat(transform, image: image, plane: plane, threshold: threshold) else { continue }
            let size = format.version.size
            // The four corners' affine least-squares fit first; the outer corners' fit is affine already.
            let affine = orientation.isOuterCornersFit ? nil : PerspectiveTransform.fittingAffine(from: unit, to: orientation.corners)
            // The QR grids' gate: a format read correcting 3 bit errors passes on a large share of
            // random textures; timing modules read as noise tell a false candidate before it is sampled.
            let fits = [affine, transform].compactMap { $0.map { SamplingGrid(dimension: size, transform: $0) } }
            let passing = fits.filter { readsTiming($0, in: image) }
            // Redrawn here only when the fits leave nothing to try: redrawing every orientation whose
            // format reads made reading a clean Micro QR picture two to three times slower.
            let grids = passing.isEmpty ? fits.last.map { redrawn($0, binary: image) } ?? [] : passing
            if !grids.isEmpty {
                found.append(Candidate(grids: grids, toRedraw: passing.isEmpty ? nil : fits.last, format: format,
                                       mirrored: orientation.mirrored))
            }
        }
        return found.sorted { $0.format.distance < $1.format.distance }
    }

    /// The best format information read around `transform` (module coordinates to the image), tapping module
    /// centres and slightly offset, in the binary image and, with the finder's calibrated `threshold`, in
    /// luminance; nil unless the timing modules next to the finder read with at most one wrong and no QR
    /// code's corner shows beyond the symbol.
    private static func bestFormat(_ transform: PerspectiveTransform, image: BinaryImage, plane: LuminancePlane,
                                   threshold: Double?) -> MicroQRDecoder.Format? {
        var best: MicroQRDecoder.Format?
        // A format read without error cannot be bettered.
        for offset in offsets where best?.distance != 0 {
            // Where module (x, y) is tapped at this offset.
            func tap(_ x: Int, _ y: Int) -> Point { transform.apply(Point(Double(x) + 0.5 + offset.x, Double(y) + 0.5 + offset.y)) }
            // Where the timing modules lie, for both readings: most orientations fail on them.
            let timingPoints = timing.map { tap($0.0, $0.1) }
            for useLuminance in [false, true] where (!useLuminance || threshold != nil) && best?.distance != 0 {
                func isDark(at p: Point) -> Bool {
                    if useLuminance, let threshold { return (plane.sample(p.x, p.y) ?? 255) < threshold }
                    return image.isDark(at: p.x, p.y)
                }
                func isDark(_ x: Int, _ y: Int) -> Bool { isDark(at: tap(x, y)) }
                // At most one timing module may read wrong: stop at the second.
                var misread = 0
                for (point, module) in zip(timingPoints, timing) where isDark(at: point) != module.2 {
                    misread += 1
                    if misread > 1 { break }
                }
                guard misread <= 1,
                      let format = MicroQRDecoder.readFormat(isDark),
                      format.distance < (best?.distance ?? 4)
                else { continue }
                let size = format.version.size
                // A QR code's corner has dark modules just outside where a Micro QR symbol would end.
                let outside = (0..<size).filter { isDark($0, size) && isDark(size, $0) }.count
                guard outside * 3 <= size else { continue }
                best = format
            }
        }
        return best
    }

    /// `grid` redrawn through its timing patterns (``timingFitted(_:binary:)``), twice (the second time the
    /// timing modules are looked for where the first put them), the redrawn grids that read the timing
    /// modules as such.
    static func redrawn(_ grid: SamplingGrid, binary image: BinaryImage) -> [SamplingGrid] {
        let once = timingFitted(grid, binary: image)
        return [once, once.flatMap { timingFitted($0, binary: image) }].compactMap { $0 }.filter { readsTiming($0, in: image) }
    }

    /// Whether `grid` reads the timing modules as such: the QR grids' gate (``GridCheck/samplingScore``).
    private static func readsTiming(_ grid: SamplingGrid, in image: BinaryImage) -> Bool {
        GridCheck.score(grid, binary: image, expected: timingModules(size: grid.width)) >= GridCheck.samplingScore
    }

    /// `grid` refitted through where the timing patterns' dark modules lie, for a symbol seen at a steep
    /// angle: a transform fitted to the 7-module finder alone extrapolates its perspective to the far
    /// edges with every pixel of the finder's error magnified. The dark timing modules along the top row
    /// and left column are followed with ``TimingModuleTracker``. Nil when under half of either pattern's
    /// dark modules are found.
    static func timingFitted(_ grid: SamplingGrid, binary image: BinaryImage) -> SamplingGrid? {
        let size = grid.width
        let unit = FinderCorners.moduleCorners
        var from = unit, to = unit.map(grid.transform.apply)
        for horizontal in [true, false] {
            let modules = stride(from: 8, to: size, by: 2).map { i in
                horizontal ? Point(Double(i) + 0.5, 0.5) : Point(0.5, Double(i) + 0.5)
            }
            let found = TimingModuleTracker.darkModuleCentres(modules, along: horizontal ? Point(1, 0) : Point(0, 1),
                                                              inwards: horizontal ? Point(0, 1) : Point(1, 0),
                                                              transform: grid.transform, in: image)
            guard found.count * 2 >= (size - 7) / 2 else { return nil }
            from += found.map(\.module)
            to += found.map(\.centre)
        }
        guard let transform = PerspectiveTransform.fitting(from: from, to: to) else { return nil }
        return SamplingGrid(dimension: size, transform: transform)
    }

    /// The timing modules of a symbol `size` modules wide: the top row and left column beyond the finder's
    /// separator, dark on even positions.
    static func timingModules(size: Int) -> [(x: Int, y: Int, dark: Bool)] {
        (8..<max(8, size)).flatMap { i in [(x: i, y: 0, dark: i % 2 == 0), (x: 0, y: i, dark: i % 2 == 0)] }
    }

    /// The luminance halfway between the finder pattern's known dark and light modules, if they differ.
    private static func calibratedThreshold(_ plane: LuminancePlane, _ transform: PerspectiveTransform) -> Double? {
        let dark = [(3, 3), (2, 3), (4, 3), (3, 2), (3, 4), (0, 0), (6, 0), (0, 6), (6, 6), (3, 0), (0, 3), (6, 3), (3, 6)]
        let light = [(1, 1), (5, 1), (1, 5), (5, 5), (3, 1), (1, 3), (5, 3), (3, 5)]
        func mean(_ modules: [(Int, Int)]) -> Double? {
            let values = modules.compactMap { plane.sample(transform.apply(Point(Double($0.0) + 0.5, Double($0.1) + 0.5)).x,
                                                           transform.apply(Point(Double($0.0) + 0.5, Double($0.1) + 0.5)).y) }
            return values.count * 2 >= modules.count ? values.reduce(0, +) / Double(values.count) : nil
        }
        guard let d = mean(dark), let l = mean(light), l - d >= 16 else { return nil }
        return (d + l) / 2
    }
}
