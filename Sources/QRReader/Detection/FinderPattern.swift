import QRCore

/// A located finder pattern (the 7 × 7 concentric squares in three corners of a QR code).
struct FinderPattern: Sendable, Equatable {
    /// Centre in pixel coordinates.
    var center: Point
    /// Estimated module size in pixels (the pattern is 7 modules across).
    var moduleSize: Double
    /// How many scan lines confirmed it.
    var hits: Int = 1
    /// Whether it only read as a finder pattern with allowances for damage: through lines a module off its
    /// centre (a module of its centre stone missing), or with an outer run clipped (its ring merging with
    /// dark surroundings); or only its core showed (``FinderCoreFinder``). Texture and data pass those
    /// checks more often: such patterns are looked for only where nothing else was found.
    var isDamaged = false
    /// Whether its axes read 3:1 apart or more: a symbol seen steeply and turned to the tilt shears its
    /// patterns into narrow rhombi. Such a pattern is kept only if its outer square fits (``FinderCorners``).
    var isSheared = false
    /// Whether nothing was seen of it: it stands where two finder patterns found place a third that no
    /// reading showed (``FinderPatternGrouper/standInThirdPatterns(completing:width:height:)``).
    /// It counts as damaged, and its place and its partners' module size are all it has.
    var isStandIn = false

    /// Width of the whole pattern in pixels.
    var size: Double { moduleSize * 7 }

    /// Whether `other` is this pattern found again: its centre within half the larger one's width.
    func coincides(with other: FinderPattern) -> Bool {
        center.distance(to: other.center) < max(size, other.size) / 2
    }

    /// Finder patterns whose modules measure under this many pixels in the plane that showed them are sensor
    /// or print grain more often than symbols, and a plane shows no finder pattern of smaller modules.
    static let grainModuleSize = 2.0

    /// Whether its modules are under ``grainModuleSize`` in the plane that showed it.
    var isGrain: Bool { moduleSize < Self.grainModuleSize }
}
