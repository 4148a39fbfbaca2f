import QRCore

/// Finds every finder pattern in a binary image: rows are scanned for dark–light–dark–light–dark runs in
/// the ratio 1:1:3:1:1, and each hit is confirmed by reading the same ratio vertically and along both
/// diagonals through its centre, so rotated, skewed and mirrored symbols are found and texture is not.
enum FinderPatternFinder {
    static let pattern = RunLengths(1, 1, 3, 1, 1)

    /// All finder patterns; `rowStep` rows are skipped between scans (1 scans every row).
    static func find(in image: BinaryImage, rowStep: Int = 2) -> [FinderPattern] {
        var found: [FinderPattern] = []
        let width = image.width
        image.bits.withUnsafeBytes { bits in
            var y = rowStep / 2
            while y < image.height {
                let row = y * width
                // The last five runs, oldest first; a pattern is checked each time a dark run ends.
                var r0 = 0, r1 = 0, r2 = 0, r3 = 0
                var x = 0
                var color = bits[row]
                while x < width {
                    // Find the end of the current run eight pixels at a time: XOR with the run's color leaves
                    // the first differing pixel as the lowest non-zero byte (pixels are 0 or 1 bytes).
                    let start = x
                    let colorBytes: UInt64 = color == 0 ? 0 : 0x0101_0101_0101_0101
                    // Sixteen pixels per step while both words match (long runs of background and quiet zone).
                    while x &+ 16 <= width {
                        let first = bits.loadUnaligned(fromByteOffset: row &+ x, as: UInt64.self) ^ colorBytes
                        let second = bits.loadUnaligned(fromByteOffset: row &+ x &+ 8, as: UInt64.self) ^ colorBytes
                        if first | second != 0 { break }
                        x &+= 16
                    }
                    while x &+ 8 <= width {
                        let differing = bits.loadUnaligned(fromByteOffset: row &+ x, as: UInt64.self).littleEndian ^ colorBytes
                        if differing != 0 {
                            x &+= differing.trailingZeroBitCount >> 3
                            break
                        }
                        x &+= 8
                    }
                    // The last few pixels of the row (after a break this stops at once).
                    while x < width && bits[row + x] == color { x += 1 }
                    let r4 = x - start
                    if color == 1 && r0 > 0 {
                        let runs = RunLengths(Double(r0), Double(r1), Double(r2), Double(r3), Double(r4))
                        if plausible(runs) {
                            let centerX = Double(x - r4 - r3) - Double(r2) / 2
                            let probe = Point(centerX, Double(y) + 0.5)
                            let inside = found.contains { $0.center.distance(to: probe) < $0.size / 2 }
                            if !inside, let pattern = confirm(in: image, x: centerX, y: y, horizontalTotal: r0 + r1 + r2 + r3 + r4) {
                                merge(pattern, into: &found)
                            }
                        }
                    }
                    (r0, r1, r2, r3) = (r1, r2, r3, r4)
                    color ^= 1
                }
                y += rowStep
            }
        }
        return found
    }

    /// Cheap ratio test on a row before the cross checks.
    @inline(__always)
    private static func plausible(_ r: RunLengths) -> Bool {
        let center = r[2]
        guard center >= 3, center >= max(r[1], r[3]), 2 * center >= 3 * max(r[0], r[4]) - 2 else { return false }
        return PatternRuns.moduleSize(r, pattern: pattern, tolerance: 0.7) != nil
    }

    /// Confirms a row hit by reading the pattern vertically, horizontally again and diagonally through
    /// the refined centre; returns the pattern with its centre and module size, or nil.
    static func confirm(in image: BinaryImage, x: Double, y: Int, horizontalTotal: Int) -> FinderPattern? {
        let maxRun = horizontalTotal * 2
        var cx = Int(x), cy = y
        guard let vertical = PatternRuns.symmetricRuns(in: image, x: cx, y: cy, dx: 0, dy: 1, maxRun: maxRun),
              let verticalModule = PatternRuns.moduleSize(vertical.runs, pattern: pattern, tolerance: 0.7)
        else { return nil }
        let centerY = Double(cy) + 0.5 + vertical.centerOffset
        cy = Int(centerY)
        guard let horizontal = PatternRuns.symmetricRuns(in: image, x: cx, y: cy, dx: 1, dy: 0, maxRun: maxRun),
              let horizontalModule = PatternRuns.moduleSize(horizontal.runs, pattern: pattern, tolerance: 0.7)
        else { return nil }
        let centerX = Double(cx) + 0.5 + horizontal.centerOffset
        cx = Int(centerX)
        // Perspective can squeeze a pattern, but not by more than 3:1 between the axes.
        let ratio = horizontalModule / verticalModule
        guard ratio > 1.0 / 3, ratio < 3 else { return nil }
        // Both diagonals must show the pattern too (ratios along any line through the centre are kept).
        var diagonalModules: [Double] = []
        for dx in [1, -1] {
            guard let diagonal = PatternRuns.symmetricRuns(in: image, x: cx, y: cy, dx: dx, dy: 1, maxRun: maxRun),
                  let module = PatternRuns.moduleSize(diagonal.runs, pattern: pattern, tolerance: 0.8)
            else { return nil }
            diagonalModules.append(module * 2.0.squareRoot())
        }
        // Along the axis closest to a side's normal the run is shortest: the minimum is the module size
        // within 8 % whatever the rotation.
        let moduleSize = min(horizontalModule, verticalModule, diagonalModules[0], diagonalModules[1])
        return FinderPattern(center: Point(centerX, centerY), moduleSize: moduleSize)
    }

    /// Adds a pattern, or averages it into one already found at the same place and scale.
    private static func merge(_ pattern: FinderPattern, into found: inout [FinderPattern]) {
        if let index = found.firstIndex(where: {
            $0.center.distance(to: pattern.center) < max($0.moduleSize, pattern.moduleSize) * 2
                && abs($0.moduleSize - pattern.moduleSize) < max($0.moduleSize, pattern.moduleSize) * 0.5
        }) {
            var existing = found[index]
            let n = Double(existing.hits)
            existing.center = (existing.center * n + pattern.center) / (n + 1)
            existing.moduleSize = (existing.moduleSize * n + pattern.moduleSize) / (n + 1)
            existing.hits += 1
            found[index] = existing
        } else {
            found.append(pattern)
        }
    }
}
