import QRCore

/// Finds an alignment pattern (a dark module in a light ring in a dark ring, 5 × 5 modules) near where
/// the symbol's geometry predicts it.
enum AlignmentPatternFinder {
    /// The centre of the alignment pattern nearest to `estimate` within `radius` pixels, or nil.
    static func find(in image: BinaryImage, near estimate: Point, moduleSize: Double, radius: Double) -> Point? {
        let m = moduleSize
        guard m >= 0.5, m.isFinite, radius.isFinite,
              let x0 = (estimate.x - radius).pixelIndex(clampedTo: 0...(image.width - 1)),
              let x1 = (estimate.x + radius).pixelIndex(clampedTo: 0...(image.width - 1)),
              let y0 = (estimate.y - radius).pixelIndex(clampedTo: 0...(image.height - 1)),
              let y1 = (estimate.y + radius).pixelIndex(clampedTo: 0...(image.height - 1)),
              Double(x1 - x0) >= m * 3, Double(y1 - y0) >= m * 3,
              let middle = estimate.y.pixelIndex(clampedTo: y0...y1)
        else { return nil }
        var best: Point?
        var bestDistance = Double.infinity
        // Rows from the estimate outwards, so the first good hits are near.
        let rowStep = max(1, Int(m / 3))
        var offsets: [Int] = [0]
        var k = rowStep
        while middle - k >= y0 || middle + k <= y1 {
            if middle - k >= y0 { offsets.append(-k) }
            if middle + k <= y1 { offsets.append(k) }
            k += rowStep
        }
        // The rows' stretches [x0, x1] lie inside the image: their pixels are read unchecked.
        image.withBits { bits in
            for offset in offsets {
                let y = middle + offset
                // Stop once rows are farther away than the best hit.
                if Double(abs(offset)) > bestDistance { break }
                let row = y * image.rowBits
                var x = x0
                while x <= x1 {
                    // A light–dark–light run triple with each part about one module.
                    x = bits.runEnd(from: row + x, to: row + x1 + 1, color: 0) - row
                    let end = bits.runEnd(from: row + x, to: row + x1 + 1, color: 1) - row
                    guard x <= x1 else { break }
                    let run = end - x
                    // A light run of about a module on each side, cheap to check on the row, before the
                    // ray casting of `confirm`: data areas are full of module-sized dark runs.
                    if Double(run) <= m * 1.8 + 1, Double(run) >= m * 0.4,
                       lightRunFits(image, y: y, from: x - 1, step: -1, moduleSize: m),
                       lightRunFits(image, y: y, from: end, step: 1, moduleSize: m) {
                        let cx = Double(x + end) / 2
                        if let center = confirm(in: image, x: cx, y: Double(y) + 0.5, moduleSize: m) {
                            let d = center.distance(to: estimate)
                            if d < bestDistance && d <= radius {
                                best = center
                                bestDistance = d
                            }
                        }
                    }
                    x = end
                }
            }
        }
        return best
    }

    /// Whether the light run starting at `x` and going in `step` direction is about a module long and
    /// ends in a dark pixel (the pattern's outer ring).
    @inline(__always)
    private static func lightRunFits(_ image: BinaryImage, y: Int, from x: Int, step: Int, moduleSize m: Double) -> Bool {
        let longest = Int(m * 1.8 + 1)
        var length = 0
        var x = x
        while image.contains(x, y), !image.isDark(x, y) {
            length += 1
            if length > longest { return false }
            x += step
        }
        return image.contains(x, y) && Double(length) >= m * 0.3
    }

    /// Checks the 1:1:1 light–dark–light core with dark rings beyond, horizontally, vertically and
    /// diagonally, and returns the refined centre.
    static func confirm(in image: BinaryImage, x: Double, y: Double, moduleSize m: Double) -> Point? {
        var center = Point(x, y)
        let maxRun = m * 3 + 2
        for direction in refinementDirections {
            // The runs are counted in whole pixels from the one under the centre: re-centred from that
            // pixel's middle, the centre lands on the core's midpoint (from elsewhere in the pixel it would
            // be off by up to half a pixel, a quarter of a module in a dense symbol of 2-pixel modules).
            center = Point(direction.x == 0 ? center.x : center.x.rounded(.down) + 0.5,
                           direction.y == 0 ? center.y : center.y.rounded(.down) + 0.5)
            guard let read = PatternRuns.symmetricRuns(in: image, center: center, direction: direction, maxRun: maxRun),
                  core(read.runs, m)
            else { return nil }
            // Re-centre along this direction on the middle of the dark core.
            center = center + direction * read.centerOffset
        }
        // Along a diagonal the runs stretch by up to √2 depending on rotation: check their ratio only.
        let diagonal = Point(0.5.squareRoot(), 0.5.squareRoot())
        guard let runs = PatternRuns.symmetricRuns(in: image, center: center, direction: diagonal, maxRun: maxRun * 1.5)?.runs,
              let module = PatternRuns.moduleSize(runs.slice(1..<4), pattern: RunLengths(1, 1, 1), tolerance: 0.7),
              module > m * 0.5, module < m * 2, runs[0] > 0, runs[4] > 0
        else { return nil }
        return center
    }

    /// Vertical, horizontal, then vertical again once the horizontal centre is known.
    private static let refinementDirections = [Point(0, 1), Point(1, 0), Point(0, 1)]

    /// Light ring, dark core, light ring of about one module each, with some dark beyond on both sides.
    private static func core(_ runs: RunLengths, _ m: Double) -> Bool {
        let limit = max(m * 0.7, 1.0)
        return abs(runs[1] - m) <= limit && abs(runs[2] - m) <= limit && abs(runs[3] - m) <= limit
            && runs[0] >= m * 0.3 && runs[4] >= m * 0.3
    }
}
