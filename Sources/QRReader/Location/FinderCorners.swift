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

    init?(image: BinaryImage, pattern: FinderPattern, u: Point, v: Point) {
        let c = pattern.center
        let m = pattern.moduleSize
        let rays = 48
        // Basis change to (s, t) with p − c = s·u + t·v.
        let det = u.x * v.y - u.y * v.x
        guard abs(det) > 1e-6 else { return nil }
        var sides: [[Point]] = [[], [], [], []]  // top, right, bottom, left
        for k in 0..<rays {
            let angle = Double(k) * 2 * .pi / Double(rays)
            let direction = Point(cos(angle), sin(angle))
            guard let runs = PatternRuns.runs(in: image, from: c, direction: direction, count: 3, maxRun: m * 4 + 2),
                  PatternRuns.moduleSize(runs, pattern: [3, 2, 2], tolerance: 0.9) != nil
            else { continue }
            let edge = c + direction * (runs[0] + runs[1] + runs[2] - 0.5)
            let d = edge - c
            let s = (d.x * v.y - d.y * v.x) / det
            let t = (u.x * d.y - u.y * d.x) / det
            // Points near a corner belong to two sides: leave them out.
            guard abs(abs(s) - abs(t)) > 0.2 * max(abs(s), abs(t)) else { continue }
            let side = abs(s) > abs(t) ? (s > 0 ? 1 : 3) : (t > 0 ? 2 : 0)
            sides[side].append(edge)
        }
        guard sides.allSatisfy({ $0.count >= 3 }),
              let top = Line(fitting: sides[0]), let right = Line(fitting: sides[1]),
              let bottom = Line(fitting: sides[2]), let left = Line(fitting: sides[3])
        else { return nil }
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        // The corners must lie about half a diagonal (≈ 4.95 modules) from the centre.
        guard let corners = corners,
              corners.allSatisfy({ (2.5 * m...8 * m).contains($0.distance(to: c)) })
        else { return nil }
    }
}
