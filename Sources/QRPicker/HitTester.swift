import QRCore

/// Which of several codes a tap means: inside its outline, or within a tolerance of it.
public enum HitTester {
    /// The seed apps accept a tap 10 points outside a code.
    public static let defaultTolerance = 10.0

    /// The index of the quadrilateral `point` hits: one containing it (the one whose centre is nearest
    /// when they overlap), else the nearest within `tolerance`, else nil. A negative or NaN tolerance counts
    /// as 0: a point inside a code always hits it.
    public static func hit(_ point: Point, in quadrilaterals: [Quadrilateral], tolerance: Double = defaultTolerance) -> Int? {
        let tolerance = tolerance > 0 ? tolerance : 0
        var best: (index: Int, distance: Double, centre: Double)?
        for (index, quad) in quadrilaterals.enumerated() {
            let distance = quad.distance(to: point)
            guard distance <= tolerance else { continue }
            let centre = quad.center.distance(to: point)
            if let current = best, (distance, centre) >= (current.distance, current.centre) { continue }
            best = (index, distance, centre)
        }
        return best?.index
    }
}
