import QRCore

/// Cheap plausibility checks of a sampling grid before the expensive decoding work.
enum GridCheck {
    /// The share of timing-pattern modules (row 6 and column 6 between the finder patterns, dark on even
    /// positions) that the grid reads as expected: about 1 for a well-placed grid, about 0.5 for a wrong
    /// dimension or misplaced grid.
    static func timingScore(_ grid: SamplingGrid, binary image: BinaryImage) -> Double {
        let d = grid.dimension
        guard d > 16 else { return 0 }
        var matches = 0, total = 0
        for i in 8..<(d - 8) {
            let expected = i % 2 == 0
            let horizontal = grid.pixel(Double(i) + 0.5, 6.5), vertical = grid.pixel(6.5, Double(i) + 0.5)
            if image.isDark(at: horizontal.x, horizontal.y) == expected { matches += 1 }
            if image.isDark(at: vertical.x, vertical.y) == expected { matches += 1 }
            total += 2
        }
        return Double(matches) / Double(total)
    }
}
