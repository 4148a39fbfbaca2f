import QRCore

/// Locates an rMQR symbol from its finder pattern: each orientation of the pattern's outer square is tried
/// until the timing pattern along the top edge and the format information beside the finder read; the
/// format gives the size, and the finder sub-pattern in the far corner anchors the long axis.
enum RMQRLocator {
    struct Candidate: Sendable {
        let grid: SamplingGrid
        let version: RMQRVersion
        let level: ErrorCorrectionLevel
        let mirrored: Bool
        let distance: Int
    }

    /// The top timing pattern starts dark, light, dark, light right of the separator.
    private static let timing = [(8, true), (9, false), (10, true), (11, false)]

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
        for rotation in 0..<4 {
            for mirrored in [false, true] {
                var corners = (0..<4).map { square[($0 + rotation) % 4] }
                if mirrored { corners = [corners[0], corners[3], corners[2], corners[1]] }
                guard let near = PerspectiveTransform(from: unit, to: corners) else { continue }
                func isDark(_ x: Int, _ y: Int, _ transform: PerspectiveTransform) -> Bool {
                    let p = transform.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    return image.isDark(at: p.x, p.y)
                }
                guard timing.count(where: { isDark($0.0, 0, near) == $0.1 }) >= 3 else { continue }
                var bits = 0
                for (i, p) in RMQRVersion.formatPositionsLeft.enumerated() where isDark(p.x, p.y, near) { bits |= 1 << i }
                guard let (data, distance) = BCHCode.rMQRFormatLeft.decode(bits, candidates: 0..<64, maximumDistance: 3),
                      let (version, level) = RMQRVersion.fromFormatData(data)
                else { continue }
                let w = Double(version.width), h = Double(version.height)
                // Anchor the far end on the finder sub-pattern, found near where the finder's square predicts.
                let predicted = near.apply(Point(w - 2.5, h - 2.5))
                let moduleSize = pattern.moduleSize
                // With one anchor at the far end a homography's perspective terms are unreliable: fit an
                // affine map, which a photo of a long, narrow symbol follows closely.
                guard let subPattern = AlignmentPatternFinder.find(in: image, near: predicted, moduleSize: moduleSize,
                                                                   radius: moduleSize * max(4, w / 8)),
                      let transform = PerspectiveTransform.fittingAffine(
                          from: unit + [Point(w - 2.5, h - 2.5)], to: corners + [subPattern])
                else { continue }
                let grid = SamplingGrid(width: version.width, height: version.height, transform: transform)
                // The QR grids' gate (see MicroQRLocator): the top timing row must read as one.
                guard GridCheck.score(grid, binary: image, expected: Self.timingModules(version)) >= GridCheck.samplingScore
                else { continue }
                found.append(Candidate(grid: grid, version: version, level: level, mirrored: mirrored, distance: distance))
            }
        }
        return found.sorted { $0.distance < $1.distance }
    }
}
