/// A picture's grey levels counted on a sparse grid of about 1,000 pixels (every fourth pixel of every fourth row
/// at most): enough to judge its light as a whole, for a few microseconds of a read. Anything large enough to
/// matter (a bright spot, the paper of a code) covers some of the grid's points. A read surveys its picture once,
/// for the low-contrast pass and the bright-spot check alike.
struct LuminanceSurvey {
    /// The plane surveyed.
    let plane: LuminancePlane
    /// The grid's spacing in pixels, across and down, from the plane's top-left pixel.
    let step: Int
    /// How many of the grid's pixels lie at each grey level.
    let histogram: [Int]
    /// How many pixels the grid holds.
    let total: Int

    init(_ plane: LuminancePlane) {
        let step = Swift.max(4, Int((Double(plane.width) * Double(plane.height) / 1_000).squareRoot()))
        var histogram = [Int](repeating: 0, count: 256)
        histogram.withUnsafeMutableBufferPointer { counts in
            plane.pixels.withUnsafeBufferPointer { p in
                for y in stride(from: 0, to: plane.height, by: step) {
                    for x in stride(from: 0, to: plane.width, by: step) { counts[Int(p[y * plane.width + x] ^ plane.inversion)] += 1 }
                }
            }
        }
        self.plane = plane
        self.step = step
        self.histogram = histogram
        total = histogram.reduce(0, +)
    }

    /// The 1st and 99th percentiles of the levels below `limit`, or nil when no pixel lies below it.
    func percentiles(below limit: Int = 256) -> (first: Int, last: Int)? {
        let counted = histogram[..<limit].reduce(0, +)
        guard counted > 0 else { return nil }
        var count = 0, first = -1
        for level in 0..<limit {
            count += histogram[level]
            if first < 0 && count * 100 >= counted { first = level }
            if count * 100 >= counted * 99 { return (first, level) }
        }
        return nil
    }

    /// Whether the picture as a whole spans under a quarter of the grey scale between its 1st and 99th
    /// percentiles: dim, washed out or hazy. Its codes' contrast can then fall to the 24 levels below which
    /// the usual local thresholds take a block for flat and make it light. The corpus's dimmest photos span
    /// 33–67 levels; photos of codes in ordinary light, over 100.
    var hasLowContrast: Bool { spans(under: 64) }

    /// Whether the picture spans under three-eighths of the grey scale between its 1st and 99th percentiles: dim enough
    /// that a faint code beside a clearer one can lose its finders to the usual local thresholds. A wider span than
    /// ``hasLowContrast`` takes, as sensor noise widens a faded picture's. Of the corpus, about 14 photos; most in
    /// ordinary light span over 128.
    var isDim: Bool { spans(under: 96) }

    /// Whether the 1st and 99th percentiles lie fewer than `levels` grey levels apart.
    private func spans(under levels: Int) -> Bool {
        guard let (first, last) = percentiles() else { return false }
        return last - first < levels
    }
}
