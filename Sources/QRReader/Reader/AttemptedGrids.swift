import QRCore

/// The grids one read has already sampled, so that near-identical candidates are not sampled and decoded
/// again: the finder centres and their refined estimates often give the same grid, and the global
/// threshold pass finds the same symbols as the block pass, whose luminance samples would be identical.
struct AttemptedGrids {
    /// Which sampling a grid went through: the binary image of one pass, or the luminance plane of one
    /// scale and polarity, as it is or with its bright spots lowered (shared by the passes on that plane).
    enum Sampling: Hashable {
        case binary
        case luminance(scale: Double, inverted: Bool, highlightsLowered: Bool)

        var isLuminance: Bool {
            if case .luminance = self { return true }
            return false
        }
    }

    private struct Footprint {
        let sampling: Sampling
        let pass: Int
        let width: Int
        let height: Int
        let isTiled: Bool
        /// Sampled in a search for damaged finder patterns.
        let throughDamagedPattern: Bool
        /// The corners and the centre, in pixels of the searched image.
        let area: Quadrilateral
        let centre: Point

        /// Whether each corner and the centre lie within `tolerance` of `other`'s.
        func isNear(_ other: Footprint, tolerance: Double) -> Bool {
            centre.distance(to: other.centre) <= tolerance
                && area.topLeft.distance(to: other.area.topLeft) <= tolerance
                && area.topRight.distance(to: other.area.topRight) <= tolerance
                && area.bottomRight.distance(to: other.area.bottomRight) <= tolerance
                && area.bottomLeft.distance(to: other.area.bottomLeft) <= tolerance
        }
    }

    private var footprints: [Footprint] = []

    /// Records `grid` (found in a plane scaled down by `scale`) for `sampling` in pass `pass`; false if it
    /// counts as sampled already:
    /// - a grid of the same shape whose corners and centre all lie within a twentieth of a module of these
    ///   was recorded before (for a binary image, in the same pass: each pass has its own);
    /// - or, from luminance, an earlier pass sampled a grid of the same dimension over the same symbol from
    ///   the same plane. Once one pass's grids over a symbol missed there, another pass's did not decode
    ///   either (in the development corpus, also turned by 90°, 180° and 270°; each sample costs 50–150 µs).
    ///   Within a pass, the next grid over the symbol may still decode, and so may a plane averaged at
    ///   another scale.
    ///
    /// Grids of a search for damaged finder patterns (`throughDamagedPattern`) hang on a damaged pattern's less
    /// certain centre: they count as sampled for later searches' grids only, not for those of passes over whole
    /// patterns (a symbol seen steeply, searched first, then still decodes in the midrange pass).
    mutating func insert(_ grid: SamplingGrid, scale: Double, sampling: Sampling, pass: Int,
                         throughDamagedPattern: Bool = false) -> Bool {
        let candidate = Footprint(sampling: sampling, pass: pass, width: grid.width, height: grid.height, isTiled: grid.isTiled,
                                  throughDamagedPattern: throughDamagedPattern, area: grid.corners.map { $0 * scale },
                                  centre: grid.pixel(Double(grid.width) / 2, Double(grid.height) / 2) * scale)
        // Luminance is the same plane for every pass at one scale: a grid within a seventh of a module of
        // one sampled there before reads the same modules (another pass's finder centres move that much).
        let tolerance = (sampling.isLuminance ? 0.15 : 0.05) * grid.moduleSize * scale
        let isNew = !footprints.contains { footprint in
            guard footprint.sampling == sampling, throughDamagedPattern || !footprint.throughDamagedPattern else { return false }
            if footprint.pass != pass {
                guard sampling.isLuminance else { return false }
                if footprint.width == grid.width && Self.coverOneSymbol(footprint.area, candidate.area) { return true }
            }
            return footprint.width == grid.width && footprint.height == grid.height && footprint.isTiled == grid.isTiled
                && footprint.isNear(candidate, tolerance: tolerance)
        }
        if isNew { footprints.append(candidate) }
        return isNew
    }

    /// Whether two grid areas lie over one symbol: one's centre inside the other, and of a similar size.
    static func coverOneSymbol(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        (a.contains(b.center) || b.contains(a.center)) && (0.5...2).contains(a.area / b.area)
    }
}
