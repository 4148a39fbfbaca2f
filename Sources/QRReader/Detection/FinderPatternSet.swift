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

    /// Its patterns: top-left, top-right, bottom-left (the order of ``indices``).
    var patterns: [FinderPattern] { [topLeft, topRight, bottomLeft] }

    /// Whether one of its patterns read sheared (``FinderPattern/isSheared``): a symbol seen steeply.
    var hasShearedPattern: Bool { topLeft.isSheared || topRight.isSheared || bottomLeft.isSheared }

    /// Whether all three patterns are specks of grain (``FinderPattern/isGrain``).
    var isGrain: Bool { topLeft.isGrain && topRight.isGrain && bottomLeft.isGrain }

    /// The middle of the outer two patterns' centres: the symbol's centre, in the plane the patterns came from.
    var center: Point { (topRight.center + bottomLeft.center) / 2 }

    /// The patterns' mean module size.
    var moduleSize: Double { (topLeft.moduleSize + topRight.moduleSize + bottomLeft.moduleSize) / 3 }

    /// The parallelogram of the three centres, completed at the bottom right as the classic detectors place
    /// the symbol: clockwise from the top-left centre.
    var parallelogram: Quadrilateral {
        Quadrilateral(topLeft: topLeft.center, topRight: topRight.center,
                      bottomRight: topRight.center - topLeft.center + bottomLeft.center, bottomLeft: bottomLeft.center)
    }
}

/// Builds plausible finder pattern sets: the three patterns must have similar sizes, form a roughly
/// right-angled, roughly isosceles triangle, and imply between 21 and 177 modules across. Patterns are
/// binned spatially so that sheets with hundreds of symbols stay fast.
enum FinderPatternGrouper {
    static let maximumSets = 400

    /// Up to this many patterns, every triple is considered, without the filters for similar sizes, legs and
    /// angles: a steeply sheared symbol's finders can measure very different sizes.
    static let unfilteredPatterns = 5

    /// The triples of ``unfilteredPatterns`` patterns.
    private static let unfilteredTriples = unfilteredPatterns * (unfilteredPatterns - 1) * (unfilteredPatterns - 2) / 6

    /// More patterns than this in one pass are texture (a tiling of finder-like squares shows thousands to
    /// the megapixel): no picture of the development corpus, nor any of 450 synthetic photos and sheets of
    /// labels, showed more than 300 in a pass.
    static let texturePatterns = 1_000

    /// Sets of the patterns that read whole (not ``FinderPattern/isDamaged``), best first, leaving out
    /// those at `excluded` indices and the sets whose ``FinderPatternSet/indices`` are in `tried`, and
    /// forming none of `retired` patterns alone (each set holds at least one other). Past `deadline`, no
    /// more triples are scored: the best of those scored so far are returned.
    static func sets(from patterns: [FinderPattern], excluding excluded: Set<Int> = [], retired: Set<Int> = [],
                     leavingOut tried: Set<[Int]> = [], until deadline: ContinuousClock.Instant? = nil) -> [FinderPatternSet]
    {
        let among = patterns.indices.filter { !patterns[$0].isDamaged && !excluded.contains($0) }
        let sets = sets(from: patterns, among: among, withDamage: false, retired: retired, leavingOut: tried, until: deadline)
        // Specks of sensor noise can turn the filters on for a steeply sheared symbol too (see below): where a
        // handful of patterns stand out from grain, they also get every triple considered, after the sets above
        // (its near finder's modules 7.5 px and its far ones' 3, faded with noise of 5 levels: zxing-cpp/qrcode-2/30a
        // in `read-transformed-vs-zxing-cpp.py --shade 0.6 --contrast 0.4 --noise 5`). Only in a pass's first
        // grouping, and not past a full list: what a regrouping among the patterns left forms, and whether it
        // regroups at all (``maximumSets``), decide which leftovers the reader searches near for damaged patterns.
        let solid = among.filter { !patterns[$0].isGrain }
        guard excluded.isEmpty, tried.isEmpty, among.count > unfilteredPatterns, (3...unfilteredPatterns).contains(solid.count),
              sets.count < maximumSets - unfilteredTriples
        else { return sets }
        let taken = Set(sets.map(\.indices))
        return sets + Self.sets(from: patterns, among: solid, withDamage: false, retired: retired, until: deadline)
            .filter { !taken.contains($0.indices) }
    }

    /// Sets with at least one damaged pattern, best first. Damaged patterns are found in dense data and
    /// texture too: these sets are worth trying only after the others. `deadline` as for
    /// ``sets(from:excluding:leavingOut:until:)``.
    static func damagedSets(from patterns: [FinderPattern], until deadline: ContinuousClock.Instant? = nil) -> [FinderPatternSet] {
        guard patterns.contains(where: \.isDamaged) else { return [] }
        return sets(from: patterns, among: Array(patterns.indices), withDamage: true, until: deadline)
    }

    /// Sets in which a damaged pattern (one of `patterns[thirds]`, if given) completes two of
    /// `patterns[partners]`, taken in turn from two orders: best first by the usual score (small, square-like
    /// triples first), and the most square-like first whatever their size. A damaged pattern in a symbol's
    /// data can complete two of its finders as a smaller triple (the pair as its hypotenuse) that the usual
    /// score puts before the symbol's own, while among many partners the most square-like triples are often
    /// large false ones. `deadline` as for ``sets(from:excluding:leavingOut:until:)``.
    static func completingSets(from patterns: [FinderPattern], partners: [Int], thirds: [Int]? = nil,
                               until deadline: ContinuousClock.Instant? = nil) -> [FinderPatternSet]
    {
        let thirds = thirds ?? patterns.indices.filter { patterns[$0].isDamaged }
        var scored: [Candidate] = []
        pairs: for (n, i) in partners.enumerated() {
            for j in partners[(n + 1)...] {
                if let deadline, ContinuousClock.now >= deadline { break pairs }
                for k in thirds {
                    if let candidate = candidate(i, j, k, in: patterns, useFilters: true) { scored.append(candidate) }
                }
            }
        }
        let compact = ordered(scored, of: patterns)
        let square = ordered(scored.map { ($0.badness, 0, $0.badness, $0.topLeft, $0.topRight, $0.bottomLeft) }, of: patterns)
        var taken = Set<[Int]>()
        var merged: [FinderPatternSet] = []
        for k in 0..<max(compact.count, square.count) {
            for list in [compact, square] where k < list.count && taken.insert(list[k].indices).inserted { merged.append(list[k]) }
        }
        return merged
    }

    /// Where the third finder pattern of a symbol would lie that two of `partners` belong to: around the
    /// points that complete each pair of similar patterns as two neighbouring corners of a square, or as
    /// opposite ones, with room for perspective: `slack`, a share of the pair's distance plus modules, on
    /// each side of those points. Nil when the regions would cover most of a `width` × `height` image
    /// anyway (dense texture leaves many partners).
    static func thirdPatternRegions(completing partners: [FinderPattern], width: Int, height: Int,
                                    slack: (share: Double, modules: Double) = (0.25, 7)) -> [Rect]? {
        var regions: [Rect] = []
        var area = 0.0
        let imageArea = Double(width * height)
        for i in partners.indices {
            for j in partners.indices where j > i {
                let p = partners[i], q = partners[j]
                guard mayShareSymbol(p, q) else { continue }
                let distance = p.center.distance(to: q.center)
                let moduleSize = (p.moduleSize + q.moduleSize) / 2
                let reach = slack.share * distance + slack.modules * moduleSize
                for corner in thirdPatternCentres(completing: p, q) {
                    let region = Rect(x: corner.x - reach, y: corner.y - reach, width: 2 * reach, height: 2 * reach)
                    guard region.maxX > 0, region.maxY > 0, region.minX < Double(width), region.minY < Double(height) else { continue }
                    regions.append(region)
                    area += region.width * region.height
                    if area > imageArea { return nil }
                }
            }
        }
        return regions
    }

    /// Where the third finder pattern's centre lies of a square symbol that `p` and `q` are two finders of:
    /// the two points completing them as opposite corners, and, for a pair no farther apart than a
    /// symbol's side (with slack for perspective), the four completing them as neighbouring corners.
    static func thirdPatternCentres(completing p: FinderPattern, _ q: FinderPattern) -> [Point] {
        let side = q.center - p.center
        let across = Point(-side.y, side.x)
        var centres = [p.center + across / 2 + side / 2, p.center - across / 2 + side / 2]
        if side.length <= 170 * 1.5 * (p.moduleSize + q.moduleSize) / 2 {
            centres += [p.center + across, p.center - across, q.center + across, q.center - across]
        }
        return centres
    }

    /// Stand-ins for a third finder pattern destroyed beyond any ratio test (its stone blotted away, torn
    /// off, under a sticker), for each pair of `partners` that may share a symbol: a pattern of the pair's
    /// module size at each of the pair's ``thirdPatternCentres(completing:_:)`` whose whole pattern lies
    /// inside a `width` × `height` image (``FinderPattern/isStandIn``). None stands where a partner or
    /// another stand-in is. One may stand where a damaged pattern was found: what is left of a blotted
    /// stone can read as a smaller pattern, off centre, that misleads the grid.
    static func standInThirdPatterns(completing partners: [FinderPattern], width: Int, height: Int) -> [FinderPattern] {
        var standIns: [FinderPattern] = []
        for (n, p) in partners.enumerated() {
            for q in partners[(n + 1)...] where mayShareSymbol(p, q) {
                let moduleSize = (p.moduleSize + q.moduleSize) / 2
                let margin = 3.5 * moduleSize
                for centre in thirdPatternCentres(completing: p, q)
                where centre.x >= margin && centre.y >= margin && centre.x <= Double(width) - margin && centre.y <= Double(height) - margin {
                    let standIn = FinderPattern(center: centre, moduleSize: moduleSize, isDamaged: true, isStandIn: true)
                    if !partners.contains(where: standIn.coincides) && !standIns.contains(where: standIn.coincides) {
                        standIns.append(standIn)
                    }
                }
            }
        }
        return standIns
    }

    /// Whether two patterns may be two finder patterns of one symbol: similar in size, and as far apart as
    /// two finders' centres are, 14 modules in the smallest symbol to 170 in the largest (with slack for
    /// perspective), or √2 times that along the diagonal.
    static func mayShareSymbol(_ p: FinderPattern, _ q: FinderPattern) -> Bool {
        guard max(p.size, q.size) <= 2 * min(p.size, q.size) + 2 else { return false }
        let distance = p.center.distance(to: q.center)
        let moduleSize = (p.moduleSize + q.moduleSize) / 2
        return distance >= 13 * moduleSize && distance <= 170 * 1.5 * 1.42 * moduleSize
    }

    /// Sets of `patterns[among]`; `withDamage` keeps only those with a damaged pattern, and none is made of
    /// `retired` patterns alone. Indices in the sets are indices into `patterns`.
    private static func sets(from patterns: [FinderPattern], among: [Int], withDamage: Bool, retired: Set<Int> = [],
                             leavingOut tried: Set<[Int]> = [], until deadline: ContinuousClock.Instant?) -> [FinderPatternSet]
    {
        let count = among.count
        guard count >= 3 else { return [] }
        // Largest first: large patterns are less likely to be noise.
        let order = among.sorted { patterns[$0].size > patterns[$1].size }
        let sorted = order.map { patterns[$0] }
        let isRetired = order.map(retired.contains)

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

        // Sets with their index arrays are built only for the few kept, as sheets of labels give tens of
        // thousands of candidates.
        func scoredTriples(useFilters: Bool) -> [Candidate] {
            var scored: [Candidate] = []
            // Once pruned, an octave holding all it can give takes no worse triple again. (Octaves, size
            // classes of ``sizeClass(length:of:classes:)``, are below 64.)
            var bars = [Double](repeating: .infinity, count: Int.bitWidth)
            // What a pruning keeps waits for at least as many more before the next.
            var nextPruning = pruningThreshold
            // Partners are taken nearest first. With few patterns every pair is considered: a large symbol's
            // own finders are its farthest patterns when its data mimics finder patterns. With many (sheets of
            // labels), the nearest sixteen are enough and keep the count of triples linear.
            let maxCandidates = count <= 60 ? count : 16
            let isTexture = count > texturePatterns
            // Among many patterns of one size, a few of twice the median module size or more stand out: a
            // large symbol's finders among sensor noise on a faded page.
            let classes: SizeClasses = isTexture ? .byModuleSize
                : count > 60 ? .apartFrom(moduleSize: 2 * sorted[count / 2].moduleSize) : .byLength
            for i in 0..<count {
                // A picture tiled with finder-like squares scores about a thousand triples per pattern.
                if i % 16 == 0, let deadline, ContinuousClock.now >= deadline { break }
                let c = sorted[i]
                // The farthest a partner can be: the largest symbol at this module size, with slack for tilt.
                let reach = c.moduleSize * 177 * 1.5
                let (cbx, cby) = bin(c.center)
                // Rings beyond the grid of bins hold nothing.
                let radius = min(Int((reach / binSize).rounded(.up)), max(binsX, binsY))
                var candidates: [Int] = []
                // Nearest bins first, ring by ring, each ring row by row: only the ring's own cells are visited
                // (the first and last rows whole, the others at both ends), not the square inside it.
                ringLoop: for r in 0...radius {
                    for by in max(0, cby - r)...min(binsY - 1, cby + r) {
                        let edgeRow = by == cby - r || by == cby + r
                        var bx = cbx - r >= 0 ? cbx - r : edgeRow ? 0 : cbx + r
                        while bx <= min(binsX - 1, cbx + r) {
                            for j in bins[by * binsX + bx] where j > i {
                                if useFilters && c.size > sorted[j].size * 2 + 2 { continue }
                                candidates.append(j)
                            }
                            bx = edgeRow || bx >= cbx + r ? bx + 1 : cbx + r
                        }
                    }
                    if candidates.count >= maxCandidates { break ringLoop }
                }
                // The last ring can hold far more than were asked for: a picture tiled with finder-like
                // squares put hundreds in each and made the pairs below quadratic in them. The nearest three
                // times as many are kept. In the development corpus no pattern had more than 35; cut to
                // sixteen, a photo of 60 labels formed other sets, whose leftovers asked for four more passes.
                // Among more patterns than ``texturePatterns``, texture, the nearest sixteen are kept.
                let kept = isTexture ? maxCandidates : 3 * maxCandidates
                if candidates.count > kept {
                    func distance(_ j: Int) -> Double { let d = sorted[j].center - c.center; return d.dot(d) }
                    candidates = Array(candidates.sorted { distance($0) < distance($1) }.prefix(kept))
                }
                guard candidates.count >= 2 else { continue }
                for u in 0..<(candidates.count - 1) {
                    for v in (u + 1)..<candidates.count {
                        if isRetired[i] && isRetired[candidates[u]] && isRetired[candidates[v]] { continue }
                        let (x, y, z) = (order[max(candidates[u], candidates[v])], order[min(candidates[u], candidates[v])], order[i])
                        if withDamage && !patterns[x].isDamaged && !patterns[y].isDamaged && !patterns[z].isDamaged { continue }
                        if let candidate = candidate(x, y, z, in: patterns, useFilters: useFilters, classes: classes),
                           candidate.score < bars[candidate.octave],
                           tried.isEmpty || !tried.contains([candidate.topLeft, candidate.topRight, candidate.bottomLeft]) {
                            scored.append(candidate)
                        }
                    }
                }
                if scored.count >= nextPruning {
                    prune(&scored, bars: &bars)
                    nextPruning = max(pruningThreshold, 2 * scored.count)
                }
            }
            return scored
        }
        // A handful of patterns get every triple considered. A few more are filtered, unless that leaves
        // none: a steeply sheared symbol's finders measure very different sizes, and one false pattern in
        // its data would otherwise turn the filters on and reject its only set.
        var scored = scoredTriples(useFilters: count > unfilteredPatterns)
        if scored.isEmpty && (6...8).contains(count) { scored = scoredTriples(useFilters: false) }
        return ordered(scored, of: patterns)
    }

    /// The cosines of the narrowest and widest angle a set's corner at the top-left may make: 45° and 135°.
    /// A page seen steeply and slanted besides shows its symbol's finders at over 120° (the corpus turned into
    /// perspective, a fifth to a third of the picture's height on one side: 3 more codes each way, for a few
    /// per cent more time on sheets of labels); 60–120° had been the bound.
    private static let narrowestCosine = cos(45.0 * .pi / 180), widestCosine = cos(135.0 * .pi / 180)

    /// A scored triple of patterns, by index: lower scores are likelier symbols. `badness` is the shape
    /// part of the score alone (unequal legs, off a right angle, unequal module sizes).
    private typealias Candidate = (score: Double, octave: Int, badness: Double, topLeft: Int, topRight: Int, bottomLeft: Int)

    /// Patterns x, y and z named as a symbol's corners and scored, or nil if they cannot be one. The
    /// filters (similar sizes, legs within 2:1, an angle of 45–135°) are left out for a handful of patterns.
    /// `classes`: what besides its length puts the triple in a size class (``sizeClass(length:of:classes:)``).
    private static func candidate(_ x: Int, _ y: Int, _ z: Int, in patterns: [FinderPattern], useFilters: Bool,
                                  classes: SizeClasses = .byLength) -> Candidate? {
        var a = patterns[x], ai = x
        var b = patterns[y], bi = y
        var cc = patterns[z], ci = z
        if useFilters && max(a.size, b.size, cc.size) > 2 * min(a.size, b.size, cc.size) + 2 { return nil }
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
        if useFilters && (ab > 4 * bc || bc > 4 * ab) { return nil }
        let dab = ab.squareRoot(), dbc = bc.squareRoot()
        let moduleCount = (dab + dbc) / (2 * (a.moduleSize + b.moduleSize + cc.moduleSize) / 3) + 7
        if moduleCount < 21 * 0.9 || moduleCount > 177 * 1.5 { return nil }
        let cosine = (ab + bc - ac) / (2 * dab * dbc)
        if useFilters && (cosine.isNaN || cosine > narrowestCosine || cosine < widestCosine) { return nil }
        // Small, square-like triples first. Small: neighbouring symbols on a sheet also form right angles,
        // at a larger scale. Square-like (equal legs, a right angle, equal module sizes): false triples from
        // patterns in data or texture rarely are, and decoding the real symbol first retires the false
        // patterns inside it.
        // No array of the three sizes: this runs for tens of thousands of triples.
        let sizeSpread = (max(a.moduleSize, b.moduleSize, cc.moduleSize) - min(a.moduleSize, b.moduleSize, cc.moduleSize))
            / ((a.moduleSize + b.moduleSize + cc.moduleSize) / 3)
        let badness = abs(dab - dbc) / max(dab, dbc) + (cosine.isNaN ? 1 : abs(cosine)) + sizeSpread
        let score = (dab + dbc) * (1 + 2 * badness)
        // b is top-left; a → b → c clockwise means c is top-right when (c − b) × (a − b) > 0.
        let (tri, bli) = (cc.center - b.center).cross(a.center - b.center) < 0 ? (ai, ci) : (ci, ai)
        return (score, sizeClass(length: dab + dbc, of: (a.moduleSize, b.moduleSize, cc.moduleSize), classes: classes), badness, bi, tri, bli)
    }

    /// What besides their length sorts triples into size classes (``sizeClass(length:of:classes:)``).
    private enum SizeClasses {
        /// Their length alone.
        case byLength
        /// Also their mean module size (under 1 px, 1–2, 2–4, 4 and more).
        case byModuleSize
        /// Triples of patterns whose modules all measure at least `moduleSize` are classed apart from the others.
        case apartFrom(moduleSize: Double)
    }

    /// The size class of a triple whose legs measure `length` px together and whose patterns' modules measure
    /// `modules`: ⌊log₂⌋ of the length, as one index below 64; with `classes` other than by length, the length's
    /// part capped at 15 and a multiple of 16 added for the module sizes' class.
    /// Among texture (more than ``texturePatterns`` patterns), a tiling of finder-like squares of 1 px modules
    /// beside a code of 4 px modules forms thousands of triples as long as the code's own: classed by length
    /// alone, they filled the code's class (``maximumSets`` each) with better scores, and the code was never
    /// tried. Classed so in every picture, the order of the sets changed, and two sheets of labels lost three
    /// codes (seed 134). Among fewer patterns (over 60), only triples of large patterns are classed apart: in
    /// shadows/image001 faded to 0.3 of its contrast with noise of 6 grey levels, two hundred patterns of 2–4 px
    /// modules crowded out a symbol of 7 px modules. The sheets of labels, whose patterns are all of one size,
    /// keep their order.
    private static func sizeClass(length: Double, of modules: (Double, Double, Double), classes: SizeClasses) -> Int {
        let byLength = Int(max(1, length).exponent)
        switch classes {
        case .byLength:
            return byLength
        case .byModuleSize:
            let moduleSize = (modules.0 + modules.1 + modules.2) / 3
            return min(15, byLength) + 16 * min(3, max(0, Int(max(0.5, moduleSize).exponent) + 1))
        case .apartFrom(let large):
            return min(15, byLength) + (min(modules.0, modules.1, modules.2) >= large ? 16 : 0)
        }
    }

    /// Scored triples are pruned (``prune(_:bars:)``) once this many have gathered, and again whenever their
    /// count has doubled since, which bounds the memory of a picture tiled with finder-like squares (tens of
    /// millions of triples in 16 MP). Pruning early also raises each octave's bar early, so that fewer
    /// triples are kept only to be sorted and dropped: on sheets of labels (tens of thousands of triples)
    /// reading took 7 % less time than pruning at 65,536, for the same sets.
    private static let pruningThreshold = 1 << 10

    /// Leaves the ``maximumSets`` best of each octave of `scored`, in order of score (ties in their order
    /// in `scored`): all that ``ordered(_:of:)`` can take from it. An octave left holding that many sets
    /// its bar (indexed by octave) to the score of its worst.
    private static func prune(_ scored: inout [Candidate], bars: inout [Double]) {
        var taken = [Int](repeating: 0, count: bars.count)
        scored = scored.sorted { $0.score < $1.score }.filter { entry in
            taken[entry.octave] += 1
            if taken[entry.octave] == maximumSets { bars[entry.octave] = entry.score }
            return taken[entry.octave] <= maximumSets
        }
    }

    /// The sets of `scored`, best first within each octave of size, the octaves taken in turn (a large
    /// symbol whose data forms hundreds of small false triples still gets its turn), at most
    /// ``maximumSets``.
    private static func ordered(_ scored: [Candidate], of patterns: [FinderPattern]) -> [FinderPatternSet] {
        let scored = scored.sorted { $0.score < $1.score }
        // Indexed by octave (below 64), not a dictionary: a process's first read paid the runtime's lookup of
        // that dictionary's type, a few tenths of a millisecond.
        var octaves = [[Int]](repeating: [], count: Int.bitWidth)
        for (k, entry) in scored.enumerated() { octaves[entry.octave].append(k) }
        let queues = octaves.filter { !$0.isEmpty }
        var interleaved: [FinderPatternSet] = []
        var round = 0
        while interleaved.count < maximumSets, queues.contains(where: { $0.count > round }) {
            for queue in queues where queue.count > round && interleaved.count < maximumSets {
                let entry = scored[queue[round]]
                interleaved.append(FinderPatternSet(
                    topLeft: patterns[entry.topLeft], topRight: patterns[entry.topRight], bottomLeft: patterns[entry.bottomLeft],
                    indices: [entry.topLeft, entry.topRight, entry.bottomLeft]))
            }
            round += 1
        }
        return interleaved
    }
}
