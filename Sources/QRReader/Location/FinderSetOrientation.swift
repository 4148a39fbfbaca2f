import Foundation
import QRCore

extension SymbolLocator {
    /// A top-left whose own sides miss the directions to the other two patterns by more than this (radians)
    /// is questioned...
    private static let misfitTopLeft = 25 * Double.pi / 180
    /// ...and another pattern takes its place if its sides run towards the other two within this.
    private static let fittingTopLeft = 12 * Double.pi / 180

    /// `set` with another of its patterns as the top-left when the patterns' fitted outer squares say so.
    ///
    /// The grouper names the top-left by the triangle the three centres form (the corner opposite its
    /// longest side, where the angle is nearest a right one). A symbol seen steeply and turned about 45° to
    /// the tilt is sheared so hard that its top-left angle drops to 60° and below, and the longest side of
    /// the triangle becomes one of the symbol's sides: another corner then looks more right-angled. The
    /// finder patterns themselves still tell: the top-left finder's sides run towards both other finders,
    /// while the others' sides each miss the diagonal by about 45°. Unchanged when the current top-left
    /// fits, when no other pattern fits clearly, or when squares cannot be fitted.
    static func reoriented(_ set: FinderPatternSet, in image: BinaryImage, cache: FinderCorners.Cache) -> FinderPatternSet {
        let patterns = set.patterns
        /// How far the sides of pattern `k`'s square miss the directions to the other two patterns: the
        /// larger of the two misses, with each direction matched to a different side.
        func misfit(_ k: Int) -> Double? {
            guard let square = cache.square(of: patterns[k], index: set.indices[k], in: image, amongSheared: set.hasShearedPattern)
            else { return nil }
            let sides = [square.top, square.left].map { Point(-$0.normal.y, $0.normal.x) }
            let others = [patterns[(k + 1) % 3], patterns[(k + 2) % 3]].map { ($0.center - patterns[k].center).normalized }
            func angle(_ a: Point, _ b: Point) -> Double { acos(min(1, abs(a.dot(b)))) }
            let straight = max(angle(others[0], sides[0]), angle(others[1], sides[1]))
            let crossed = max(angle(others[0], sides[1]), angle(others[1], sides[0]))
            return min(straight, crossed)
        }
        guard let current = misfit(0), current > misfitTopLeft,
              let best = [1, 2].compactMap({ k in misfit(k).map { (k, $0) } }).min(by: { $0.1 < $1.1 }),
              best.1 < fittingTopLeft
        else { return set }
        let k = best.0
        let corner = patterns[k], a = patterns[(k + 1) % 3], c = patterns[(k + 2) % 3]
        let (ai, ci) = (set.indices[(k + 1) % 3], set.indices[(k + 2) % 3])
        // Top-left → top-right → bottom-left turns clockwise on screen (y down), as the grouper names them.
        let clockwise = (c.center - corner.center).cross(a.center - corner.center) < 0
        return clockwise
            ? FinderPatternSet(topLeft: corner, topRight: a, bottomLeft: c, indices: [set.indices[k], ai, ci])
            : FinderPatternSet(topLeft: corner, topRight: c, bottomLeft: a, indices: [set.indices[k], ci, ai])
    }
}
