import QRCore

/// Run lengths read along a line through a binary image, and tests of their ratios against patterns such
/// as the finder pattern's 1:1:3:1:1.
enum PatternRuns {
    /// Whether `runs` match `pattern` (e.g. [1, 1, 3, 1, 1]) within `tolerance` of a module per unit, and the
    /// module size they imply.
    @inline(__always)
    static func moduleSize(_ runs: [Int], pattern: [Int], tolerance: Double = 0.5) -> Double? {
        var total = 0, units = 0
        for i in 0..<runs.count {
            if runs[i] == 0 { return nil }
            total += runs[i]
            units += pattern[i]
        }
        let module = Double(total) / Double(units)
        // Blur and thresholding shift edges by up to a pixel whatever the module size.
        let slack = max(tolerance * module, 0.75)
        for i in 0..<runs.count where abs(Double(runs[i]) - Double(pattern[i]) * module) > slack * Double(pattern[i]) {
            return nil
        }
        return module
    }

    /// Reads the lengths of `count` alternating runs starting at `start` (whose colour begins the first run)
    /// and going in direction (dx, dy) in whole-pixel steps; the first run includes the start pixel. Stops
    /// with nil if a run exceeds `maxRun` or the image ends before `count` runs are complete (the last run
    /// may end at the border).
    static func runs(in image: BinaryImage, fromX x0: Int, y y0: Int, dx: Int, dy: Int, count: Int, maxRun: Int) -> [Int]? {
        guard image.contains(x0, y0) else { return nil }
        var result = [Int](repeating: 0, count: count)
        var color = image.isDark(x0, y0)
        var index = 0
        var x = x0, y = y0
        while true {
            if !image.contains(x, y) {
                // The image border ends the last run; earlier runs must be complete.
                return index == count - 1 && result[index] > 0 ? result : nil
            }
            let dark = image.isDark(x, y)
            if dark != color {
                index += 1
                if index == count { return result }
                color = dark
            }
            result[index] += 1
            if result[index] > maxRun {
                // The last run only has to be there: it may merge with dark modules beyond.
                return index == count - 1 ? result : nil
            }
            x += dx
            y += dy
        }
    }

    /// The five runs of a symmetric pattern centred on a dark pixel, read both ways along (dx, dy):
    /// [outer, gap, centre, gap, outer], with the centre counted once. Also returns the centre run's
    /// offset: how far its midpoint lies from the start pixel along the direction, in steps.
    static func symmetricRuns(in image: BinaryImage, x: Int, y: Int, dx: Int, dy: Int, maxRun: Int)
        -> (runs: [Int], centerOffset: Double)?
    {
        guard image.isDark(x, y),
              let forward = runs(in: image, fromX: x, y: y, dx: dx, dy: dy, count: 3, maxRun: maxRun),
              let backward = runs(in: image, fromX: x, y: y, dx: -dx, dy: -dy, count: 3, maxRun: maxRun)
        else { return nil }
        let center = forward[0] + backward[0] - 1
        // Centre run spans from −(backward[0] − 1) to forward[0] − 1 in steps; its midpoint:
        let offset = Double(forward[0] - backward[0]) / 2
        return ([backward[2], backward[1], center, forward[1], forward[2]], offset)
    }
}

extension PatternRuns {
    /// Run lengths in pixels along a ray from `start` in unit direction `direction`, stepping one pixel
    /// at a time: the first run has the start pixel's colour. Nil if a run before the last exceeds `maxRun`
    /// or the image ends before `count` runs are complete.
    static func runs(in image: BinaryImage, from start: Point, direction: Point, count: Int, maxRun: Double) -> [Double]? {
        var result = [Double](repeating: 0, count: count)
        var p = start
        guard image.contains(p.x, p.y), direction.x.isFinite, direction.y.isFinite,
              let limit = (maxRun * Double(count) + 2).pixelIndex(clampedTo: 0...(4 * (image.width + image.height)))
        else { return nil }
        var color = image.isDark(at: p.x, p.y)
        var index = 0
        for _ in 0..<limit {
            guard image.contains(p.x, p.y) else {
                return index == count - 1 && result[index] > 0 ? result : nil
            }
            let dark = image.isDark(at: p.x, p.y)
            if dark != color {
                index += 1
                if index == count { return result }
                color = dark
            }
            result[index] += 1
            if result[index] > maxRun { return index == count - 1 ? result : nil }
            p = p + direction
        }
        return nil
    }

    /// [outer, gap, centre, gap, outer] of a finder-like pattern read through `center` along `direction`
    /// (unit vector), in pixels.
    static func symmetricRuns(in image: BinaryImage, center: Point, direction: Point, maxRun: Double) -> [Double]? {
        guard let forward = runs(in: image, from: center, direction: direction, count: 3, maxRun: maxRun),
              let backward = runs(in: image, from: center, direction: direction * -1, count: 3, maxRun: maxRun)
        else { return nil }
        return [backward[2], backward[1], forward[0] + backward[0] - 1, forward[1], forward[2]]
    }

    /// Double-valued variant of the ratio test.
    static func moduleSize(_ runs: [Double], pattern: [Int], tolerance: Double) -> Double? {
        guard !runs.contains(where: { $0 <= 0 }) else { return nil }
        let total = runs.reduce(0, +)
        let module = total / Double(pattern.reduce(0, +))
        let slack = max(tolerance * module, 0.75)
        for i in runs.indices where abs(runs[i] - Double(pattern[i]) * module) > slack * Double(pattern[i]) { return nil }
        return module
    }
}
