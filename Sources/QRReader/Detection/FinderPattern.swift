import QRCore

/// A located finder pattern (the 7 × 7 concentric squares in three corners of a QR code).
struct FinderPattern: Sendable, Equatable {
    /// Centre in pixel coordinates.
    var center: Point
    /// Estimated module size in pixels (the pattern is 7 modules across).
    var moduleSize: Double
    /// How many scan lines confirmed it.
    var hits: Int = 1

    /// Width of the whole pattern in pixels.
    var size: Double { moduleSize * 7 }
}
