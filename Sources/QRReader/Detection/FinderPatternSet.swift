import Foundation
import QRCore

/// Three finder patterns that may be the corners of one symbol, named as they would be in an unmirrored
/// symbol: the top-left is at the right angle, and top-left → top-right → bottom-left turns clockwise
/// on screen (y down).
struct FinderPatternSet: Sendable {
    let topLeft: FinderPattern
    let topRight: FinderPattern
    let bottomLeft: FinderPattern
    /// Indices of the patterns in the list they came from.
    let indices: [Int]
}

/// Builds plausible finder pattern sets: the three patterns must have similar sizes, form a roughly
/// right-angled, roughly isosceles triangle, and imply between 21 and 177 modules across. Patterns are
/// binned spatially so that sheets with hundreds of symbols stay fast.
enum FinderPatternGrouper {
    static let maximumSets = 400

    static func sets(from patterns: [FinderPattern]) -> [FinderPatternSet] {
        let count = patterns.count
        guard count >= 3 else { return [] }
        // Largest first: large patterns are less likely to be noise.
        let order = patterns.indices.sorted { patterns[$0].size > patterns[$1].size }
        let sorted = order.map { patterns[$0] }
        let useFilters = count > 5

        // Spatial bins no smaller than a version-1 symbol of the median pattern size.
        let xs = sorted.map(\.center.x), ys = sorted.map(\.center.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        let medianSize = sorted[count / 2].size
        let binSize = max(32.0, medianSize * 3)
        let binsX = max(1, Int(((xs.max() ?? 0) - minX) / binSize) + 1)
        let binsY = max(1, Int(((ys.max() ?? 0) - minY) / binSize) + 1)
        var bins = [[Int]](repeating: [], count: binsX * binsY)
        func bin(_ p: Point) -> (Int, Int) {
            (min(binsX - 1, max(0, Int((p.x - minX) / binSize))), min(binsY - 1, max(0, Int((p.y - minY) / binSize))))
        }
        for (i, p) in sorted.enumerated() {
            let (bx, by) = bin(p.center)
            bins[by * binsX + bx].append(i)
        }

        // Candidates by position in `sorted` (top-left, top-right, bottom-left): sets with their index arrays
        // are built only for the few kept, as sheets of labels give tens of thousands of candidates.
        var scored: [(score: Double, octave: Int, topLeft: Int, topRight: Int, bottomLeft: Int)] = []
        let cosUpper = cos(60.0 * .pi / 180), cosLower = cos(120.0 * .pi / 180)
        // Partners are taken nearest first. With few patterns every pair is considered: a large symbol's
        // own finders are its farthest patterns when its data mimics finder patterns. With many (sheets of
        // labels), the nearest sixteen are enough and keep the count of triples linear.
        let maxCandidates = count <= 60 ? count : 16
        for i in 0..<count {
            let c = sorted[i]
            // The farthest a partner can be: the largest symbol at this module size, with slack for tilt.
            let reach = c.moduleSize * 177 * 1.5
            let (cbx, cby) = bin(c.center)
            let radius = Int((reach / binSize).rounded(.up))
            var candidates: [Int] = []
            // Nearest bins first, ring by ring.
            ringLoop: for r in 0...radius {
                for by in (cby - r)...(cby + r) where by >= 0 && by < binsY {
                    for bx in (cbx - r)...(cbx + r) where bx >= 0 && bx < binsX {
                        guard max(abs(bx - cbx), abs(by - cby)) == r else { continue }
                        for j in bins[by * binsX + bx] where j > i {
                            if useFilters && c.size > sorted[j].size * 2 + 2 { continue }
                            candidates.append(j)
                        }
                    }
                }
                if candidates.count >= maxCandidates { break ringLoop }
            }
            guard candidates.count >= 2 else { continue }
            for u in 0..<(candidates.count - 1) {
                for v in (u + 1)..<candidates.count {
                    var a = sorted[max(candidates[u], candidates[v])], ai = max(candidates[u], candidates[v])
                    var b = sorted[min(candidates[u], candidates[v])], bi = min(candidates[u], candidates[v])
                    var cc = c, ci = i
                    // Perspective shrinks far patterns and their distances alike: scale distances by size.
                    func d2(_ p: FinderPattern, _ q: FinderPattern) -> Double {
                        let d = p.center - q.center
                        return d.dot(d) * max(p.size, q.size) / min(p.size, q.size)
                    }
                    var ab = d2(a, b), bc = d2(b, cc), ac = d2(a, cc)
                    // Make b the right-angle vertex (opposite the longest side, ac).
                    if bc >= ab && bc >= ac {
                        swap(&a, &b); swap(&ai, &bi)
                        swap(&bc, &ac)
                    } else if ab >= ac && ab >= bc {
                        swap(&b, &cc); swap(&bi, &ci)
                        swap(&ab, &ac)
                    }
                    if useFilters && (ab > 4 * bc || bc > 4 * ab) { continue }
                    let dab = ab.squareRoot(), dbc = bc.squareRoot()
                    let moduleCount = (dab + dbc) / (2 * (a.moduleSize + b.moduleSize + cc.moduleSize) / 3) + 7
                    if moduleCount < 21 * 0.9 || moduleCount > 177 * 1.5 { continue }
                    let cosine = (ab + bc - ac) / (2 * dab * dbc)
                    if useFilters && (cosine.isNaN || cosine > cosUpper || cosine < cosLower) { continue }
                    // Small, square-like triples first. Small: neighbouring symbols on a sheet also form
                    // right angles, at a larger scale. Square-like (equal legs, a right angle, equal module
                    // sizes): false triples from patterns in data or texture rarely are, and decoding the
                    // real symbol first retires the false patterns inside it.
                    let sizes = [a.moduleSize, b.moduleSize, cc.moduleSize]
                    let sizeSpread = ((sizes.max() ?? 0) - (sizes.min() ?? 0)) / (sizes.reduce(0, +) / 3)
                    let badness = abs(dab - dbc) / max(dab, dbc) + (cosine.isNaN ? 1 : abs(cosine)) + sizeSpread
                    let score = (dab + dbc) * (1 + 2 * badness)
                    // b is top-left; a → b → c clockwise means c is top-right when (c − b) × (a − b) > 0.
                    let (tri, bli) = (cc.center - b.center).cross(a.center - b.center) < 0 ? (ai, ci) : (ci, ai)
                    scored.append((score, Int(log2(max(1, dab + dbc))), bi, tri, bli))
                }
            }
        }
        // Best first within each octave of size, the octaves taken in turn: a large symbol whose data
        // forms hundreds of small false triples still gets its turn before the cap.
        scored.sort { $0.score < $1.score }
        var octaves: [Int: [Int]] = [:]
        for (k, entry) in scored.enumerated() { octaves[entry.octave, default: []].append(k) }
        let queues = octaves.keys.sorted().compactMap { octaves[$0] }
        var interleaved: [FinderPatternSet] = []
        var round = 0
        while interleaved.count < maximumSets, queues.contains(where: { $0.count > round }) {
            for queue in queues where queue.count > round && interleaved.count < maximumSets {
                let entry = scored[queue[round]]
                interleaved.append(FinderPatternSet(
                    topLeft: sorted[entry.topLeft], topRight: sorted[entry.topRight], bottomLeft: sorted[entry.bottomLeft],
                    indices: [order[entry.topLeft], order[entry.topRight], order[entry.bottomLeft]]))
            }
            round += 1
        }
        return interleaved
    }
}
