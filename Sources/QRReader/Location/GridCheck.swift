import QRCore

/// Cheap plausibility checks of a sampling grid before the expensive decoding work.
enum GridCheck {
    /// Timing scores (share of timing modules read right) a grid needs to be sampled from the binary image,
    /// and to be sampled again from luminance. Every code decoded in the development corpus scored 0.88 or
    /// more; wrong grids mostly score 0.5–0.75, and sampling and error-correcting them was most of the time
    /// spent on images without a readable code.
    static let samplingScore = 0.75
    static let luminanceScore = 0.8
    /// A set whose first grid scores this is taken for a real symbol and tried in full at once; below it,
    /// the rest of its grids wait until every set's first grid has been tried.
    static let convincingScore = 0.9

    /// The share of timing-pattern modules (row 6 and column 6 between the finder patterns, dark on even
    /// positions) that the grid reads as expected: about 1 for a well-placed grid, about 0.5 for a wrong
    /// dimension or misplaced grid.
    ///
    /// Callers only compare the score with a threshold: once the modules left cannot lift it to `minimum`,
    /// reading stops and the share so far (below `minimum`) is returned. Most grids tried are false and
    /// miss by far, so their reads stop early.
    static func timingScore(_ grid: SamplingGrid, binary image: BinaryImage, minimum: Double = 0) -> Double {
        timingScore(dimension: grid.dimension, binary: image, minimum: minimum, place: grid.pixel)
    }

    /// ``timingScore(_:binary:minimum:)`` of the modules of a symbol `dimension` modules wide placed by `place`
    /// (module coordinates to pixels), for placements tried before any grid is built of them.
    @inline(__always)
    static func timingScore(dimension d: Int, binary image: BinaryImage, minimum: Double,
                            place: (Double, Double) -> Point) -> Double {
        guard d > 16 else { return 0 }
        let total = 2 * (d - 16)
        // Matches needed; a mismatch beyond `total − needed` decides the score is below `minimum`.
        // (The small slack keeps a score exactly at `minimum` from being cut short by rounding.)
        let allowedMisses = total - Int((minimum * Double(total) - 1e-9).rounded(.up))
        var matches = 0, misses = 0
        for i in 8..<(d - 8) {
            let expected = i % 2 == 0
            let horizontal = place(Double(i) + 0.5, 6.5), vertical = place(6.5, Double(i) + 0.5)
            if image.isDark(at: horizontal.x, horizontal.y) == expected { matches += 1 } else { misses += 1 }
            if image.isDark(at: vertical.x, vertical.y) == expected { matches += 1 } else { misses += 1 }
            if misses > allowedMisses { return Double(matches) / Double(total) }
        }
        return Double(matches) / Double(total)
    }

    /// The share of `expected` modules (module coordinates and colour) that the grid reads as expected:
    /// the same test for symbols whose timing patterns lie elsewhere (Micro QR, rMQR).
    static func score(_ grid: SamplingGrid, binary image: BinaryImage, expected: [(x: Int, y: Int, dark: Bool)]) -> Double {
        guard !expected.isEmpty else { return 0 }
        let matches = expected.count { module in
            let p = grid.pixel(Double(module.x) + 0.5, Double(module.y) + 0.5)
            return image.isDark(at: p.x, p.y) == module.dark
        }
        return Double(matches) / Double(expected.count)
    }
}
