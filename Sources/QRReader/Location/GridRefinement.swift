import Foundation
import QRCore

/// Follows a symbol that one homography fits only near the points it was fitted to: printed on cloth,
/// wrapped round a bottle, or crumpled. Module edges lie on whole module coordinates; where the grid
/// drifts off the symbol, the edges seen through it sit at a fractional offset (their phase), the same for
/// every edge nearby whatever the modules' colours. The grid is moved by the local phase at a mesh of
/// anchor points and sampled piecewise between them.
enum GridRefinement {
    /// Anchor spacing in modules: the warps this follows bend over several modules, and each anchor needs
    /// a few dozen edges around it to measure a steady phase.
    static let spacing = 4.0

    /// A grid moved by less than this everywhere samples the same modules as before.
    static let smallestMove = 0.15

    /// `grid` moved onto the module edges seen in `image`, or nil when the grid is not square, its modules
    /// are under 2 pixels (edges then cannot be placed to a fraction of a module), the edges show no
    /// consistent phase anywhere, or they show the grid on them already (no anchor moves by
    /// ``smallestMove``).
    static func refined(_ grid: SamplingGrid, binary image: BinaryImage) -> SamplingGrid? {
        let size = grid.width
        guard grid.height == size, grid.moduleSize >= 2 else { return nil }
        let count = max(2, Int((Double(size) / spacing).rounded())) + 1
        let anchors = (0..<count).map { Double(size) * Double($0) / Double(count - 1) }
        let gap = anchors[1]
        guard let across = phases(grid, image: image, anchors: anchors, gap: gap, horizontal: true),
              let down = phases(grid, image: image, anchors: anchors, gap: gap, horizontal: false),
              zip(across, down).contains(where: { max(abs($0), abs($1)) >= smallestMove })
        else { return nil }
        var lattice = [Point]()
        lattice.reserveCapacity(count * count)
        for j in 0..<count {
            for i in 0..<count {
                lattice.append(grid.pixel(anchors[i] + across[j * count + i], anchors[j] + down[j * count + i]))
            }
        }
        guard let tiles = SamplingGrid.Tiles(anchors: anchors, lattice: lattice) else { return nil }
        return SamplingGrid(dimension: size, transform: grid.transform, tiles: tiles)
    }

    /// The shift in modules along rows (`horizontal`) or columns at every anchor (row-major), from the
    /// phase of the edges crossed by scans along the module rows or columns; nil when no anchor has a
    /// steady phase.
    private static func phases(_ grid: SamplingGrid, image: BinaryImage, anchors: [Double], gap: Double,
                               horizontal: Bool) -> [Double]? {
        let size = grid.width, count = anchors.count
        // Edge phases as unit vectors, summed with tent weights to the anchors around each edge, edges
        // into dark modules (polarity 0) apart from edges out of them (1).
        var sums = [Phasor](repeating: Phasor(), count: 2 * count * count)
        // One sample per pixel, at least four per module (coarser steps lost a code in the development
        // corpus) and at most sixteen: each edge is placed within half a step, and many average.
        let step = max(1.0 / 16, min(0.25, 1 / grid.moduleSize))
        let steps = Int((Double(size) + 1) / step)
        // What an edge found between samples k − 1 and k contributes, the same on every line: its phase
        // as a unit vector (turning by the same angle at every step), the anchor before it and its tent
        // weight towards the next anchor.
        let turn = (cosine: cos(2 * Double.pi * step), sine: sin(2 * Double.pi * step))
        var phase = (cosine: cos(2 * Double.pi * (-0.5 - step / 2)), sine: sin(2 * Double.pi * (-0.5 - step / 2)))
        let edges = (0...steps).map { k in
            let edge = -0.5 + (Double(k) - 0.5) * step
            let anchor = min(count - 2, max(0, Int(edge / gap)))
            defer {
                phase = (phase.cosine * turn.cosine - phase.sine * turn.sine, phase.sine * turn.cosine + phase.cosine * turn.sine)
            }
            return (cosine: phase.cosine, sine: phase.sine, anchor: anchor, weight: min(1, max(0, (edge - anchors[anchor]) / gap)))
        }
        // Along a row the anchors step by 1, along a column by a row of anchors.
        let alongStride = horizontal ? 1 : count, acrossStride = horizontal ? count : 1
        for line in 0..<size {
            let across = Double(line) + 0.5
            let b = min(count - 2, Int(across / gap)), fb = min(1, max(0, (across - anchors[b]) / gap))
            var previous = false
            var walk = GridLineWalk(grid, from: horizontal ? Point(-0.5, across) : Point(across, -0.5),
                                step: horizontal ? Point(step, 0) : Point(0, step))
            for k in 0...steps {
                let p = walk.next()
                let dark = image.isDark(at: p.x, p.y)
                defer { previous = dark }
                guard k > 0, previous != dark else { continue }
                let edge = edges[k]
                let base = (dark ? 0 : count * count) + edge.anchor * alongStride + b * acrossStride
                let fa = edge.weight
                sums[base].add(edge.cosine, edge.sine, weight: (1 - fa) * (1 - fb))
                sums[base + alongStride].add(edge.cosine, edge.sine, weight: fa * (1 - fb))
                sums[base + acrossStride].add(edge.cosine, edge.sine, weight: (1 - fa) * fb)
                sums[base + alongStride + acrossStride].add(edge.cosine, edge.sine, weight: fa * fb)
            }
        }
        // Blur and the threshold widen dark modules (or narrow them) by the same amount on both sides:
        // edges into dark modules sit at shift − spread, edges out of them at shift + spread. Their mean
        // phase is the shift (taking the spread under a quarter module). An anchor's phases are steady
        // when its edges mostly agree (long mean vectors) and there are enough of them; the others take
        // their neighbours' shift.
        var shifts = [Double?](repeating: nil, count: count * count)
        for index in shifts.indices {
            guard let into = sums[index].steadyPhase, let out = sums[count * count + index].steadyPhase else { continue }
            var spread = out - into
            spread -= spread.rounded()
            shifts[index] = into + spread / 2
        }
        guard shifts.contains(where: { $0 != nil }) else { return nil }
        // The phase gives the shift modulo one module: unwrapped from the top-left anchor (at a finder,
        // where the grid was fitted) towards its neighbours, each taking the value nearest theirs.
        var result = [Double?](repeating: nil, count: count * count)
        func neighbourMean(_ i: Int, _ j: Int) -> Double? {
            var sum = 0.0, n = 0.0
            for b in max(0, j - 1)...min(count - 1, j + 1) {
                for a in max(0, i - 1)...min(count - 1, i + 1) where a != i || b != j {
                    if let s = result[b * count + a] { sum += s; n += 1 }
                }
            }
            return n > 0 ? sum / n : nil
        }
        for j in 0..<count {
            for i in 0..<count {
                let expected = neighbourMean(i, j) ?? 0
                guard let phase = shifts[j * count + i] else { continue }
                result[j * count + i] = phase + (expected - phase).rounded()
            }
        }
        // Anchors without a steady phase move as their neighbours do (filled outwards).
        while result.contains(where: { $0 == nil }) {
            let filled = (0..<(count * count)).map { index in result[index] ?? neighbourMean(index % count, index / count) }
            if filled.allSatisfy({ $0 == nil }) { return nil }
            result = filled
        }
        return result.map { $0 ?? 0 }
    }

    /// A sum of unit vectors at edge phases.
    private struct Phasor {
        var cosine = 0.0, sine = 0.0, weight = 0.0

        mutating func add(_ c: Double, _ s: Double, weight w: Double) {
            cosine += w * c
            sine += w * s
            weight += w
        }

        /// The mean phase in modules (−0.5…0.5) when enough edges (a weight of 2) mostly agree (the mean
        /// vector at least 0.4 long).
        var steadyPhase: Double? {
            guard weight >= 2, (cosine * cosine + sine * sine).squareRoot() >= 0.4 * weight else { return nil }
            return atan2(sine, cosine) / (2 * Double.pi)
        }
    }
}
