import QRCore

/// Finds finder patterns of which only the core shows: the centre stone, a dark square of three modules,
/// with light all round it where the gap and then the dark ring should be. Glare and fading wash out a
/// ring's thin modules long before the stone's solid block, and leave a symbol with two finder patterns
/// that read and a third that no ratio test passes. Dark blocks with light round them are everywhere in
/// text and data, so cores are only looked for where two patterns place a third.
enum FinderCoreFinder {
    /// The cores in `regions` whose module size lies in `moduleSizes`, as damaged finder patterns
    /// (``FinderPattern/isDamaged``), at most ``maximumCores``. Past `deadline`, no more rows are scanned.
    static func find(in image: BinaryImage, regions: [Rect], moduleSizes: ClosedRange<Double>,
                     until deadline: ContinuousClock.Instant? = nil) -> [FinderPattern] {
        guard moduleSizes.lowerBound > 0, moduleSizes.upperBound.isFinite else { return [] }
        var cores: [FinderPattern] = []
        // A stone is three modules tall: rows the smallest module apart cross it at least twice.
        let rowStep = max(1, Int(moduleSizes.lowerBound))
        let stones = 3 * moduleSizes.lowerBound...3 * moduleSizes.upperBound
        guard let top = regions.map(\.minY).min()?.pixelIndex(clampedTo: 0...image.height),
              let bottom = regions.map(\.maxY).max()?.rounded(.up).pixelIndex(clampedTo: 0...image.height)
        else { return [] }
        var y = top
        while y < bottom {
            if let deadline, ContinuousClock.now >= deadline { return cores }
            // The dark runs of stone width in the row's stretches inside the regions, each read once where
            // regions overlap, as (start, end) pixel columns.
            let runs = image.withBits { bits in
                var runs: [(start: Int, end: Int)] = []
                let row = y * image.rowBits
                for (start, end) in FinderPatternFinder.rowIntervals(of: regions, at: y, width: image.width) {
                    var x = start
                    while x < end {
                        // To the next dark pixel, then to the end of its run.
                        x = bits.runEnd(from: row + x, to: row + end, color: 0) - row
                        guard x < end else { break }
                        let first = x
                        x = bits.runEnd(from: row + x, to: row + end, color: 1) - row
                        if stones.contains(Double(x - first)) { runs.append((first, x)) }
                    }
                }
                return runs
            }
            for run in runs {
                let probe = Point(Double(run.start + run.end) / 2, Double(y) + 0.5)
                guard !cores.contains(where: { $0.center.distance(to: probe) < $0.size / 2 }),
                      let core = confirm(in: image, at: probe, stones: stones)
                else { continue }
                cores.append(core)
                if cores.count == maximumCores { return cores }
            }
            y += rowStep
        }
        return cores
    }

    /// At most this many cores are returned: the regions round a few pairs of patterns hold a handful of
    /// stones, texture dozens.
    static let maximumCores = 32

    /// The core whose stone a row crossed at `probe`: read vertically through it, then horizontally through
    /// the vertical middle, the stone must be a dark run within `stones` pixels (and the two within 2:1)
    /// with a light run of at least a third of a module beyond each end, and along both diagonals through
    /// the centre a dark run as long as a square of those sides shows at some rotation, with light beyond.
    private static func confirm(in image: BinaryImage, at probe: Point, stones: ClosedRange<Double>) -> FinderPattern? {
        guard image.contains(probe.x, probe.y) else { return nil }
        var (x, y) = (Int(probe.x), Int(probe.y))
        var center = probe
        var axes: [Double] = []
        for (dx, dy) in [(0, 1), (1, 0)] {
            guard let read = stoneRuns(in: image, x: x, y: y, dx: dx, dy: dy, longest: stones.upperBound),
                  stones.contains(read.stone), read.lights >= max(1, read.stone / 9)
            else { return nil }
            // Re-centred on the run's middle along this direction (from the middle of the pixel read).
            if dx == 0 { center.y = Double(y) + 0.5 + read.centerOffset } else { center.x = Double(x) + 0.5 + read.centerOffset }
            (x, y) = (Int(center.x), Int(center.y))
            axes.append(read.stone)
        }
        guard axes[0] <= 2 * axes[1], axes[1] <= 2 * axes[0] else { return nil }
        // A square's diagonal through its centre crosses between 1/√2 and 1 of its axis runs' length in
        // whole diagonal steps (one step moves √2 pixels), from upright to turned by 45°.
        let side = (axes[0] + axes[1]) / 2
        var diagonals: [Double] = []
        for dx in [1, -1] {
            guard let read = stoneRuns(in: image, x: x, y: y, dx: dx, dy: 1, longest: stones.upperBound),
                  read.stone >= 0.5 * side, read.stone <= 1.2 * side + 1, read.lights >= max(1, read.stone / 9)
            else { return nil }
            diagonals.append(read.stone * 2.0.squareRoot())
        }
        // Along the line closest to a side's normal the stone is shortest: a third of that is the module.
        let moduleSize = min(axes[0], axes[1], diagonals[0], diagonals[1]) / 3
        return FinderPattern(center: center, moduleSize: moduleSize, isDamaged: true)
    }

    /// The dark run through pixel (x, y) along (dx, dy) (in steps of it), the shorter of the light runs at
    /// its two ends (each cut at `longest`: a washed-out ring leaves long ones), and how far the run's
    /// middle lies from the pixel in steps. Nil if the pixel is light or the stone runs on past `longest`.
    private static func stoneRuns(in image: BinaryImage, x: Int, y: Int, dx: Int, dy: Int, longest: Double)
        -> (stone: Double, lights: Double, centerOffset: Double)?
    {
        // No run is longer than the picture is wide and high.
        let maxRun = Int(min(longest, Double(image.width + image.height)))
        guard image.isDark(x, y),
              let forward = PatternRuns.runs(in: image, fromX: x, y: y, dx: dx, dy: dy, count: 2, maxRun: maxRun),
              let backward = PatternRuns.runs(in: image, fromX: x, y: y, dx: -dx, dy: -dy, count: 2, maxRun: maxRun)
        else { return nil }
        return (forward[0] + backward[0] - 1, min(forward[1], backward[1]), (forward[0] - backward[0]) / 2)
    }
}
