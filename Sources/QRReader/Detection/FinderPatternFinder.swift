import QRCore

/// Finds every finder pattern in a binary image: rows are scanned for dark–light–dark–light–dark runs in
/// the ratio 1:1:3:1:1, and each hit is confirmed by reading the same ratio vertically and along both
/// diagonals through its centre, so rotated, skewed and mirrored symbols are found and texture is not.
enum FinderPatternFinder {
    static let pattern = RunLengths(1, 1, 3, 1, 1)
    /// The middle three runs of ``pattern``: the centre stone and the light ring around it.
    private static let stoneAndRing = RunLengths(1, 3, 1)

    /// All finder patterns; `rowStep` rows are skipped between scans (1 scans every row). Those that read
    /// sheared (``FinderPattern/isSheared``) follow the others; with `allowingDamage`, those that only read
    /// with allowances for damage (``FinderPattern/isDamaged``) come last. With `regions`, only patterns whose
    /// row runs lie inside one of them are found.
    /// Past `deadline`, or once more than `maximumDamaged` damaged patterns are found, no more rows are
    /// scanned: those found so far are returned.
    static func find(in image: BinaryImage, rowStep: Int = 2, allowingDamage: Bool = false, regions: [Rect]? = nil,
                     maximumDamaged: Int = .max, until deadline: ContinuousClock.Instant? = nil) -> [FinderPattern] {
        var found = FinderPatternIndex(width: image.width, height: image.height)
        var damaged = FinderPatternIndex(width: image.width, height: image.height)
        var sheared = FinderPatternIndex(width: image.width, height: image.height)
        let width = image.width, rowBits = image.rowBits
        var intervals = [(start: 0, end: width)]
        image.withBits { bits in
            var y = rowStep / 2
            while y < image.height {
                // A picture tiled with finder-like squares confirms hundreds of hits per row.
                if let deadline, ContinuousClock.now >= deadline { break }
                if damaged.patterns.count > maximumDamaged { break }
                let row = y &* rowBits
                if let regions { intervals = rowIntervals(of: regions, at: y, width: width) }
                for (segmentStart, end) in intervals {
                    // The last five runs, oldest first; a pattern is checked each time a dark run ends.
                    var r0 = 0, r1 = 0, r2 = 0, r3 = 0
                    var x = segmentStart
                    var color = bits[row &+ x]
                    while x < end {
                        // The end of the current run, up to 64 pixels at a time.
                        let start = x
                        x = bits.runEnd(from: row &+ x, to: row &+ end, color: color) &- row
                        let r4 = x - start
                        // The ratio test's shape first, in whole pixels: most runs of texture fail it. With
                        // allowances, the clipped reading's outer runs are the shorter one.
                        if color == 1 && r0 > 0
                            && isFinderShaped(center: r2, inner: max(r1, r3), outer: allowingDamage ? min(r0, r4) : max(r0, r4)) {
                            let runs = RunLengths(Double(r0), Double(r1), Double(r2), Double(r3), Double(r4))
                            if plausible(runs) || (allowingDamage && plausible(clippingOuterRun(runs).runs)) {
                                let centerX = Double(x - r4 - r3) - Double(r2) / 2
                                let probe = Point(centerX, Double(y) + 0.5)
                                let total = r0 + r1 + r2 + r3 + r4
                                func isNear(_ pattern: FinderPattern) -> Bool { pattern.center.distance(to: probe) < pattern.size / 2 }
                                if !found.contains(near: probe, where: isNear) && !sheared.contains(near: probe, where: isNear) {
                                    // One confirmation serves both lists: allowances are only taken where a line
                                    // does not read whole, so a pattern that needed none is one that reads whole.
                                    // Near a damaged pattern already found, only a whole reading adds anything.
                                    let damageAllowed = allowingDamage && !damaged.contains(near: probe, where: isNear)
                                    if let pattern = confirm(in: image, x: centerX, y: y, horizontalTotal: total, allowingDamage: damageAllowed) {
                                        if pattern.isDamaged {
                                            merge(pattern, into: &damaged)
                                        } else if pattern.isSheared {
                                            merge(pattern, into: &sheared)
                                        } else {
                                            merge(pattern, into: &found)
                                        }
                                    }
                                }
                            }
                        }
                        (r0, r1, r2, r3) = (r1, r2, r3, r4)
                        color ^= 1
                    }
                }
                y += rowStep
            }
        }
        // A pattern that reads whole on some line needs no allowance for damage, nor is it sheared. Texture
        // and screen moiré read sheared all too often (a photo of a monitor showed 173 patterns instead of 50,
        // 61 with any square fitted): a sheared pattern is kept only if its outer square fits cleanly.
        let largest = found.patterns.map(\.size).max() ?? 0
        return found.patterns + (sheared.patterns + damaged.patterns).filter { pattern in
            !found.contains(near: pattern.center, within: max(largest, pattern.size) / 2) { $0.coincides(with: pattern) }
                && (!pattern.isSheared || FinderCorners.fitsCleanly(pattern, in: image))
        }
    }

    /// The pixel intervals of row `y` inside any of `regions`, in order, overlapping ones merged.
    static func rowIntervals(of regions: [Rect], at y: Int, width: Int) -> [(start: Int, end: Int)] {
        let row = Double(y) + 0.5
        var intervals: [(start: Int, end: Int)] = regions.compactMap { region in
            guard region.minY <= row, row < region.maxY,
                  let start = region.minX.pixelIndex(clampedTo: 0...width),
                  let end = region.maxX.rounded(.up).pixelIndex(clampedTo: 0...width), start < end
            else { return nil }
            return (start, end)
        }
        intervals.sort { $0.start < $1.start }
        var merged: [(start: Int, end: Int)] = []
        for interval in intervals {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// Runs with the longer outer run taken as long as the other one (a ring merging with a dark surround),
    /// and which was clipped: -1 for the first run, 1 for the last.
    private static func clippingOuterRun(_ runs: RunLengths) -> (runs: RunLengths, side: Int) {
        var clipped = runs
        let side = runs[0] > runs[4] ? 0 : 4
        clipped[side] = runs[4 - side]
        return (clipped, side == 0 ? -1 : 1)
    }

    /// Cheap ratio test on a row before the cross checks.
    @inline(__always)
    private static func plausible(_ r: RunLengths) -> Bool {
        isFinderShaped(center: Int(r[2]), inner: Int(max(r[1], r[3])), outer: Int(max(r[0], r[4])))
            && PatternRuns.moduleSize(r, pattern: pattern, tolerance: 0.7) != nil
    }

    /// The first part of ``plausible(_:)``, in whole pixels: a centre run of 3 px or more, at least as long
    /// as the longer light run beside it (`inner`) and not much shorter than the longer outer run (`outer`).
    @inline(__always)
    private static func isFinderShaped(center: Int, inner: Int, outer: Int) -> Bool {
        center >= 3 && center >= inner && 2 * center >= 3 * outer - 2
    }

    /// Confirms a row hit by reading the pattern vertically, horizontally again and diagonally through
    /// the refined centre; returns the pattern with its centre and module size, or nil. `allowingDamage`
    /// also accepts a pattern with one kind of damage (``Allowances``), marked ``FinderPattern/isDamaged``
    /// unless it reads whole, exactly as it would without allowances. One of the lines may read the pattern
    /// only edge to edge (``edgeToEdgeModuleSize(_:)``): blur and the threshold thin a ring of small modules
    /// along some lines, while texture that passes one line so would rarely pass the other three strictly.
    static func confirm(in image: BinaryImage, x: Double, y: Int, horizontalTotal: Int, allowingDamage: Bool) -> FinderPattern? {
        let maxRun = horizontalTotal * 2
        var allowances: Allowances? = allowingDamage ? Allowances() : nil
        var edgeToEdgeLeft = true
        var cx = Int(x), cy = y
        let rowModule = max(1, Int((Double(horizontalTotal) / 7).rounded()))
        guard let vertical = lineRuns(in: image, x: cx, y: cy, direction: (0, 1), shift: (rowModule, 0), tolerance: 0.7,
                                      maxRun: maxRun, allowances: &allowances, edgeToEdgeLeft: &edgeToEdgeLeft)
        else { return nil }
        let centerY = Double(cy) + 0.5 + vertical.centerOffset
        cx = vertical.x
        cy = Int(centerY)
        let columnModule = max(1, Int(vertical.moduleSize.rounded()))
        // The row through the vertical centre is the same for every row hit: a speck in the centre stone
        // on it would reject the pattern however often the scan finds it. When that row does not read, the
        // rows a third of a module to either side (still well inside the stone) must both read, alike.
        let wholeSoFar = allowances?.areTaken == false
        var horizontalRead = lineRuns(in: image, x: cx, y: cy, direction: (1, 0), shift: (0, columnModule), tolerance: 0.7,
                                      maxRun: maxRun, allowances: &allowances, edgeToEdgeLeft: &edgeToEdgeLeft)
        // Without allowances the nudged rows below come next, and may read whole where this row needed one:
        // the whole reading wins, as it would in a scan that allows no damage.
        if wholeSoFar, allowances?.areTaken == true,
           let whole = confirm(in: image, x: x, y: y, horizontalTotal: horizontalTotal, allowingDamage: false) {
            return whole
        }
        // A third of a module: lines moved so far aside still cross the stone well inside.
        let nudge = max(1, Int((vertical.moduleSize / 3).rounded()))
        if horizontalRead == nil {
            horizontalRead = linesAside(in: image, x: cx, y: cy, direction: (1, 0), aside: (0, nudge), tolerance: 0.7, maxRun: maxRun,
                                        edgeToEdgeLeft: &edgeToEdgeLeft)
        }
        guard let horizontal = horizontalRead else { return nil }
        let centerX = Double(cx) + 0.5 + horizontal.centerOffset
        cx = Int(centerX)
        // Perspective squeezes a pattern, but seldom by more than 3:1 between the axes. Seen steeply and turned
        // to the tilt (a code on a door photographed from beside it), a symbol's patterns are sheared into
        // narrow rhombi whose rows read about 4:1 against their columns: up to 5:1 is taken, as a sheared
        // pattern (``FinderPattern/isSheared``).
        let ratio = horizontal.moduleSize / vertical.moduleSize
        let squeeze = max(ratio, 1 / ratio)
        guard squeeze < 5 else { return nil }
        // Both diagonals must show the pattern too (ratios along any line through the centre are kept). Where
        // both axes read it by the run test, a diagonal may read it as a pattern drawn with round shapes does.
        let roundShapesAllowed = edgeToEdgeLeft && allowances?.areTaken != true
        var diagonalModules: [Double] = []
        for dx in [1, -1] {
            var diagonalRead = lineRuns(in: image, x: cx, y: cy, direction: (dx, 1), shift: (rowModule, 0), tolerance: 0.8,
                                        maxRun: maxRun, allowances: &allowances, edgeToEdgeLeft: &edgeToEdgeLeft,
                                        roundShapes: roundShapesAllowed)
            // As for the row: every hit of one pattern converges on the same centre, so a speck on the ring
            // where one diagonal crosses it would reject the pattern for good (a finder of a code turned by
            // 180° under the global threshold, in bright_spots/image018). When the diagonal shows the stone
            // and its light ring (1:3:1) and only an outer run is off, the diagonals a third of a module to
            // either side must then both read, alike. Texture seldom shows even the middle: it pays one line.
            // A sheared pattern, an allowance already, gets no second one.
            if diagonalRead == nil && allowances == nil && squeeze < 3,
               let line = PatternRuns.symmetricRuns(in: image, x: cx, y: cy, dx: dx, dy: 1, maxRun: maxRun),
               PatternRuns.moduleSize(line.runs.slice(1..<4), pattern: Self.stoneAndRing, tolerance: 0.8) != nil {
                diagonalRead = linesAside(in: image, x: cx, y: cy, direction: (dx, 1), aside: (nudge, 0), tolerance: 0.8,
                                          maxRun: maxRun, edgeToEdgeLeft: &edgeToEdgeLeft)
            }
            guard let diagonal = diagonalRead else { return nil }
            diagonalModules.append(diagonal.moduleSize * 2.0.squareRoot())
        }
        guard allowances?.arePlausible ?? true else { return nil }
        // Along the axis closest to a side's normal the run is shortest: the minimum is the module size
        // within 8 % whatever the rotation.
        let moduleSize = min(horizontal.moduleSize, vertical.moduleSize, diagonalModules[0], diagonalModules[1])
        // Read through a hole in the stone, an axis centres the pattern on the middle of its ring.
        let center = Point(centerX + horizontal.ringShift, centerY + vertical.ringShift)
        return FinderPattern(center: center, moduleSize: moduleSize, isDamaged: allowances?.areTaken ?? false,
                             isSheared: squeeze >= 3)
    }

    /// What reading a damaged pattern allowed. Two kinds of damage are common in print: a module missing
    /// from the centre stone, which breaks an axis line through it, and perhaps a diagonal grazing its
    /// corner (the parallel lines a module aside still cross the stone), and a ring merging with a dark
    /// surround where the quiet zone is missing (the overlong outer run is taken as long as the other
    /// side's). A light blot can also eat a stone's side, opening into the light ring (``holedStone(_:)``).
    /// Texture and dense data pass looser checks all too often, so only one kind is allowed: at most one
    /// shifted axis line and one shifted diagonal, or clipped runs only on one side of the pattern, as a
    /// straight dark edge beyond the ring would clip them, or holes only on one side, as one blot makes.
    private struct Allowances {
        var shiftedAxes = 0, shiftedDiagonals = 0
        /// Per clipped run, the direction from the centre towards it.
        var clippedSides: [Point] = []
        /// Per line read through a hole in the centre stone, the direction from the centre towards the hole.
        var holedSides: [Point] = []

        /// Whether any line needed an allowance.
        var areTaken: Bool { shiftedAxes + shiftedDiagonals > 0 || !clippedSides.isEmpty || !holedSides.isEmpty }

        var arePlausible: Bool {
            if shiftedAxes + shiftedDiagonals > 0 {
                return shiftedAxes <= 1 && shiftedDiagonals <= 1 && clippedSides.isEmpty && holedSides.isEmpty
            }
            if !holedSides.isEmpty && !clippedSides.isEmpty { return false }
            return Self.onOneSide(clippedSides) && Self.onOneSide(holedSides)
        }

        /// At most three directions, none pointing away from another: what one blot or one straight edge
        /// on one side of a pattern does to the lines through it.
        private static func onOneSide(_ sides: [Point]) -> Bool {
            guard sides.count <= 3 else { return false }
            for (i, a) in sides.enumerated() {
                for b in sides[(i + 1)...] where a.dot(b) < 0 { return false }
            }
            return true
        }
    }

    /// The pattern read along the two lines through (x, y) moved by `aside` either way, in `direction`, without
    /// allowances: both must read it, and place its centre within `aside`'s length of each other; their module
    /// sizes and centre offsets (from (x, y)) are averaged. Nil when either does not read it.
    private static func linesAside(in image: BinaryImage, x: Int, y: Int, direction: (x: Int, y: Int), aside: (x: Int, y: Int),
                                   tolerance: Double, maxRun: Int, edgeToEdgeLeft: inout Bool) -> LineRead? {
        var noAllowances: Allowances?
        func line(_ sign: Int) -> LineRead? {
            lineRuns(in: image, x: x + sign * aside.x, y: y + sign * aside.y, direction: direction, shift: (0, 0),
                     tolerance: tolerance, maxRun: maxRun, allowances: &noAllowances, edgeToEdgeLeft: &edgeToEdgeLeft)
        }
        guard let before = line(-1), let after = line(1) else { return nil }
        // A line moved by `aside` passes closest to (x, y) this many steps along from its own start: the
        // projection of -aside on the direction.
        let shift = -Double(aside.x * direction.x + aside.y * direction.y) / Double(direction.x * direction.x + direction.y * direction.y)
        let (first, second) = (before.centerOffset + shift, after.centerOffset - shift)
        guard abs(first - second) <= Double(max(abs(aside.x), abs(aside.y))) else { return nil }
        return ((before.moduleSize + after.moduleSize) / 2, (first + second) / 2, x, y, 0)
    }

    /// A pattern read along one line: its module size (in steps along the line), the centre run's offset
    /// along the line, the start of the line that showed it, and how far the middle of its ring lies beyond
    /// the centre run's middle (0 unless it was read through a hole in the stone, ``holedStone(_:)``).
    private typealias LineRead = (moduleSize: Double, centerOffset: Double, x: Int, y: Int, ringShift: Double)

    /// The pattern read along the line through (x, y) in `direction`; with `allowances`, clipping an outer
    /// run, reading through a hole in the stone (``holedStone(_:)``) or, if that line does not show the
    /// pattern, along the lines moved by `shift` either way. While
    /// `edgeToEdgeLeft`, the line through (x, y) may instead read edge to edge, which uses it up. With
    /// `roundShapes`, that line may last read as a pattern drawn with round shapes (``roundShapesModuleSize(_:)``).
    private static func lineRuns(in image: BinaryImage, x: Int, y: Int, direction: (x: Int, y: Int), shift: (x: Int, y: Int),
                                 tolerance: Double, maxRun: Int, allowances: inout Allowances?, edgeToEdgeLeft: inout Bool,
                                 roundShapes: Bool = false) -> LineRead?
    {
        var centreLine: (runs: RunLengths, centerOffset: Double)?
        /// The direction from the centre towards the run on `side` (-1 before the centre run, 1 after).
        func towards(_ side: Int) -> Point { Point(Double(direction.x), Double(direction.y)) * Double(side) }
        // No array of offsets: this runs for every candidate row hit.
        for attempt in 0..<(allowances == nil ? 1 : 3) {
            let sign = attempt == 0 ? 0 : attempt == 1 ? -1 : 1
            let (lx, ly) = (x + sign * shift.x, y + sign * shift.y)
            guard let line = PatternRuns.symmetricRuns(in: image, x: lx, y: ly, dx: direction.x, dy: direction.y, maxRun: maxRun)
            else { continue }
            if sign == 0 { centreLine = line }
            var found = finderRuns(line.runs, tolerance: tolerance, clipping: allowances != nil && sign == 0)
            if found == nil, sign == 0, edgeToEdgeLeft, let module = edgeToEdgeModuleSize(line.runs) {
                found = (line.runs, module, 0)
                edgeToEdgeLeft = false
            }
            if found == nil, sign == 0, allowances != nil, let holed = holedStone(line.runs) {
                allowances?.holedSides.append(towards(holed.side))
                return (holed.moduleSize, line.centerOffset, lx, ly, holed.centerShift)
            }
            guard let read = found else { continue }
            if sign != 0 {
                if direction.x != 0 && direction.y != 0 { allowances?.shiftedDiagonals += 1 } else { allowances?.shiftedAxes += 1 }
            }
            if read.clippedSide != 0 {
                allowances?.clippedSides.append(towards(read.clippedSide))
            }
            return (read.moduleSize, line.centerOffset, lx, ly, 0)
        }
        guard roundShapes, let line = centreLine, let module = roundShapesModuleSize(line.runs) else { return nil }
        return (module, line.centerOffset, x, y, 0)
    }

    /// Finder runs [outer, gap, centre, gap, outer] in the ratio 1:1:3:1:1 within `tolerance`, and the
    /// module size they imply; nil if they are not. With `clipping`, an overlong outer run (a ring merging
    /// with dark surroundings) may be taken as long as the other side's: `clippedSide` is then -1 for the
    /// first run, 1 for the last (0 when none was clipped).
    static func finderRuns(_ runs: RunLengths, tolerance: Double, clipping: Bool)
        -> (runs: RunLengths, moduleSize: Double, clippedSide: Int)?
    {
        if let module = PatternRuns.moduleSize(runs, pattern: pattern, tolerance: tolerance) { return (runs, module, 0) }
        guard clipping else { return nil }
        let (clipped, side) = clippingOuterRun(runs)
        return PatternRuns.moduleSize(clipped, pattern: pattern, tolerance: tolerance).map { (clipped, $0, side) }
    }

    /// Finder runs read through a light hole in the centre stone that opens into the light ring on one side
    /// (a blot of white, or a punched hole): on the other side the dark ring and the light gap a module
    /// each, the stone shortened to one to two modules, the light run on the hole's side lengthened by as
    /// much or more (the blot may eat into the ring there too, though not through it), the whole seven
    /// modules. Returns the module size, the hole's side (-1 before the centre run, 1 after) and how far the
    /// middle of the whole pattern lies beyond the centre run's middle, in steps: the pattern's centre is
    /// the middle of its ring, not of what is left of its stone. Only confirmation lines read so: the scan
    /// still needs a row that crosses the stone whole. Taking rows through holes as hits too (at the
    /// partners' module sizes) read two more labels in 48 synthetic sheets, but texture showed thousands
    /// of such rows in some photos, and the corpus took 5 % more time.
    static func holedStone(_ runs: RunLengths) -> (moduleSize: Double, side: Int, centerShift: Double)? {
        let module = runs.total / pattern.total
        let side = runs[1] > runs[3] ? -1 : 1
        let (ring, hole, gap, otherRing) = side < 0 ? (runs[0], runs[1], runs[3], runs[4]) : (runs[4], runs[3], runs[1], runs[0])
        func isModule(_ run: Double) -> Bool { abs(run - module) <= max(0.5 * module, 1) }
        guard module >= 2, isModule(otherRing), isModule(gap), ring > 0, ring <= 1.5 * module,
              runs[2] >= module, runs[2] <= 2.25 * module, hole >= 1.75 * module
        else { return nil }
        return (module, side, (runs[3] + runs[4] - runs[0] - runs[1]) / 2)
    }

    /// The module size of finder runs whose edge-to-edge distances (each run with the next: from an edge
    /// to the next edge of the same kind) are 2:4:4:2 modules within half a module per two, or nil. Blurred
    /// small modules thresholded off their middle grey shift both edges of a ring the same way: a ring of
    /// 2.5 px can read 1 px with its light neighbour 5, which fails the run test however lax, while the
    /// sums keep their lengths (zxing-cpp confirms its finder patterns edge to edge too). Blur and glare
    /// move an edge by a pixel or two whatever the module size, so each run must still lie within a module,
    /// and within 4 px, of its length: clean data of large modules (1:3:4:2:2) passes the sums as well. Only
    /// small modules gain (larger ones pass the run test), and modules must be 2 px or more: at single
    /// pixels, noise passes the sums too.
    static func edgeToEdgeModuleSize(_ runs: RunLengths) -> Double? {
        let module = runs.total / pattern.total
        guard module >= 2 else { return nil }
        for i in 0..<5 where runs[i] <= 0 || abs(runs[i] - pattern[i] * module) > min(module, 4) { return nil }
        return edgeToEdgeDistancesFit(runs, module: module) ? module : nil
    }

    /// Whether the distances from each edge of `runs` to the next edge of the same kind fit `module` within
    /// half a module per two: each spans a run and the next, 2:4:4:2 units of the pattern.
    private static func edgeToEdgeDistancesFit(_ runs: RunLengths, module: Double) -> Bool {
        (0..<4).allSatisfy { i in
            let units = pattern[i] + pattern[i + 1]
            return abs(runs[i] + runs[i + 1] - units * module) <= 0.25 * module * units
        }
    }

    /// The module size of finder runs read along a diagonal of a pattern drawn with round shapes, as some
    /// generators style codes (a round centre stone, a ring of round dots or with rounded corners), or nil.
    /// The diagonal cuts the shapes' rounded corners: its dark runs read shorter than a square pattern's and
    /// its light runs longer (a ring of eight dots reads about 0.4:1.7:2.1:1.7:0.4 modules), but each dark
    /// shape shrinks about its own middle, so the distances from each edge to the next edge of the same kind
    /// keep their 2:4:4:2 modules; they must fit within half a module per two. As round shapes make them,
    /// each dark run must be shorter than its length (but a third of it or more) and each light run longer.
    static func roundShapesModuleSize(_ runs: RunLengths) -> Double? {
        // The four distances sum to 12 modules; the outer runs count once, the inner three twice.
        let module = (runs.total + runs[1] + runs[2] + runs[3]) / 12
        guard module >= 2, edgeToEdgeDistancesFit(runs, module: module) else { return nil }
        for i in 0..<5 {
            let length = pattern[i] * module
            if i % 2 == 0 ? runs[i] < length / 3 || runs[i] >= length : runs[i] <= length { return nil }
        }
        return module
    }

    /// Adds a pattern, or averages it into one already found at the same place and scale.
    private static func merge(_ pattern: FinderPattern, into found: inout FinderPatternIndex) {
        if let index = found.firstIndex(near: pattern.center, where: {
            $0.center.distance(to: pattern.center) < max($0.moduleSize, pattern.moduleSize) * 2
                && abs($0.moduleSize - pattern.moduleSize) < max($0.moduleSize, pattern.moduleSize) * 0.5
        }) {
            var existing = found.patterns[index]
            let n = Double(existing.hits)
            existing.center = (existing.center * n + pattern.center) / (n + 1)
            existing.moduleSize = (existing.moduleSize * n + pattern.moduleSize) / (n + 1)
            existing.hits += 1
            found.update(existing, at: index)
        } else {
            found.append(pattern)
        }
    }
}
