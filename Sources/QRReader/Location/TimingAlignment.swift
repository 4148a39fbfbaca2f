import QRCore

/// Follows a symbol stretched unevenly along its rows or columns, as a label round a bottle is: its modules
/// narrow towards the bottle's edges, which one homography cannot do. The timing patterns alternate at every
/// module, so the edges along them show where each column (along row 6) and each row (along column 6)
/// really is, counted module by module from the finder patterns with no ambiguity. The grid is redrawn
/// through those positions, the same for the whole symbol, as a curve round one axis keeps them.
enum TimingAlignment {
    /// How far apart (in modules) the boundaries' offsets from the grid must range for the redrawn grid
    /// to differ from what a homography and the edges' phase (``GridRefinement``) already follow.
    static let minimumOffsetRange = 1.0

    /// `grid` with its columns and rows moved to where the timing patterns show them, or nil when the
    /// timing patterns cannot be followed (under three quarters of their edges found where expected), show
    /// no curve (their offsets range over less than ``minimumOffsetRange``), the grid is not square or its
    /// modules are under 2 pixels.
    static func aligned(_ grid: SamplingGrid, binary image: BinaryImage) -> SamplingGrid? {
        let size = grid.width
        guard grid.height == size, size >= 21, grid.moduleSize >= 2,
              let columns = boundaries(grid, image: image, horizontal: true),
              let rows = boundaries(grid, image: image, horizontal: false)
        else { return nil }
        func offsetRange(_ positions: [Double]) -> Double {
            let offsets = positions.enumerated().map { $0.element - Double($0.offset) }
            return (offsets.max() ?? 0) - (offsets.min() ?? 0)
        }
        guard max(offsetRange(columns), offsetRange(rows)) >= minimumOffsetRange else { return nil }
        // Anchors every two modules (at most 17 per side, so that finding a point's cell stays cheap);
        // the cells in between interpolate.
        let spacing = max(2, (size + 15) / 16)
        let anchors = Array(stride(from: 0, to: size, by: spacing)) + [size]
        let lattice = anchors.flatMap { j in anchors.map { i in grid.pixel(columns[i], rows[j]) } }
        guard let tiles = SamplingGrid.Tiles(anchors: anchors.map(Double.init), lattice: lattice) else { return nil }
        return SamplingGrid(dimension: size, transform: grid.transform, tiles: tiles)
    }

    /// Where, in the grid's module coordinates, each module boundary 0…size lies along the timing pattern
    /// in row 6 (`horizontal`) or column 6, or nil when too few of its edges are found.
    private static func boundaries(_ grid: SamplingGrid, image: BinaryImage, horizontal: Bool) -> [Double]? {
        let size = grid.width
        // Row 6 (or column 6) is dark through the finder patterns (modules 0…6 and size − 7…size − 1),
        // light at the separators (7 and size − 8) and dark on even modules of the timing pattern between.
        func isDark(_ module: Int) -> Bool {
            module <= 6 || module >= size - 7 || (module > 7 && module < size - 8 && module % 2 == 0)
        }
        // Edges crossed along the line through the middle of the timing modules, with the colour they lead
        // to: one sample per pixel, from four to sixteen per module (as in ``GridRefinement``).
        let step = max(1.0 / 16, min(0.25, 1 / grid.moduleSize))
        let steps = Int((Double(size) + 1) / step)
        var walk = GridLineWalk(grid, from: horizontal ? Point(-0.5, 6.5) : Point(6.5, -0.5),
                                step: horizontal ? Point(step, 0) : Point(0, step))
        var edges: [(position: Double, intoDark: Bool)] = []
        var previous = false
        for k in 0...steps {
            let along = horizontal ? walk.module.x : walk.module.y
            let p = walk.next()
            let dark = image.isDark(at: p.x, p.y)
            if k > 0 && dark != previous { edges.append((along - step / 2, dark)) }
            previous = dark
        }
        // Boundaries between the finder patterns, matched from the top-left finder outwards, each expected
        // as far off as the one before was, within half a module and with the right polarity.
        var found = [Double?](repeating: nil, count: size + 1)
        var shift = 0.0
        // Every boundary from 7 to size − 7 is an edge, their colours alternating.
        for boundary in 7...(size - 7) {
            let intoDark = isDark(boundary)
            let expected = Double(boundary) + shift
            guard let nearest = edges.lazy.filter({ $0.intoDark == intoDark && abs($0.position - expected) < 0.5 })
                .min(by: { abs($0.position - expected) < abs($1.position - expected) })
            else { continue }
            found[boundary] = nearest.position
            shift = nearest.position - Double(boundary)
        }
        // The symbol's own edges are the ends of the finder patterns' dark rows (row or column 6 is dark
        // through a finder): the edge just before the top-left finder's end and the one just after the
        // top-right (or bottom-left) finder's start, taken when they lie a finder's width away (4 to 10
        // modules, for finders narrowed or widened by the bend) and lead from and to a light quiet zone.
        if let end = found[7], let edge = edges.last(where: { $0.position < end - 0.5 }), edge.intoDark,
           (4...10).contains(end - edge.position) {
            found[0] = edge.position
        }
        if let start = found[size - 7], let edge = edges.first(where: { $0.position > start + 0.5 }), !edge.intoDark,
           (4...10).contains(edge.position - start) {
            found[size] = edge.position
        }
        // Blur and the threshold widen dark modules by the same amount on both sides: edges into dark
        // modules sit that much early, edges out of them that much late, alternately along the timing
        // pattern. The difference between neighbouring boundaries' offsets is twice that spread, with
        // alternating sign (the bend's own slope cancels out in the mean). Without this correction the
        // anchors (every second boundary, all of one polarity) would carry the spread.
        var differences = 0.0, pairs = 0.0
        for boundary in 7..<(size - 7) {
            guard let here = found[boundary], let next = found[boundary + 1] else { continue }
            let difference = (next - Double(boundary + 1)) - (here - Double(boundary))
            differences += isDark(boundary) ? difference : -difference
            pairs += 1
        }
        if pairs > 0 {
            let spread = differences / pairs / 2
            for boundary in found.indices {
                guard let position = found[boundary] else { continue }
                let intoDark = boundary == 0 || (boundary < size && isDark(boundary) && !isDark(boundary - 1))
                found[boundary] = position + (intoDark ? spread : -spread)
            }
        }
        // Inside the finder patterns (1…6, size − 6…size − 1) there is no edge on this line; those
        // boundaries are interpolated, as are the few timing edges not found.
        let timingEdges = 7...(size - 7)
        guard timingEdges.count(where: { found[$0] != nil }) * 4 >= timingEdges.count * 3 else { return nil }
        // Gaps take the positions on a straight line between the found boundaries either side; the ends
        // keep the shift of the nearest found one.
        let known = found.enumerated().compactMap { boundary, position in position.map { (boundary, $0) } }
        guard let first = known.first, let last = known.last else { return nil }
        var next = 0
        return (0...size).map { boundary in
            while next < known.count && known[next].0 < boundary { next += 1 }
            if next < known.count && known[next].0 == boundary { return known[next].1 }
            if boundary < first.0 { return Double(boundary) + first.1 - Double(first.0) }
            if boundary > last.0 { return Double(boundary) + last.1 - Double(last.0) }
            let (before, after) = (known[next - 1], known[next])
            let t = Double(boundary - before.0) / Double(after.0 - before.0)
            return before.1 + t * (after.1 - before.1)
        }
    }
}
