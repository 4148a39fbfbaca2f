import QRCore

/// Up to five run lengths (or ratio units), stored inline: the ratio tests run hundreds of thousands of
/// times per image and must not allocate.
struct RunLengths: Sendable {
    private(set) var count: Int
    private var storage: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)

    /// `count` (at most 5) zero lengths.
    init(count: Int) {
        precondition((0...5).contains(count), "at most five runs")
        self.count = count
    }

    /// Three lengths, in order.
    init(_ a: Double, _ b: Double, _ c: Double) {
        count = 3
        storage = (a, b, c, 0, 0)
    }

    /// Five lengths, in order.
    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double) {
        count = 5
        storage = (a, b, c, d, e)
    }

    subscript(index: Int) -> Double {
        get {
            switch index {
            case 0: return storage.0
            case 1: return storage.1
            case 2: return storage.2
            case 3: return storage.3
            case 4: return storage.4
            default: preconditionFailure("run index out of range")
            }
        }
        set {
            switch index {
            case 0: storage.0 = newValue
            case 1: storage.1 = newValue
            case 2: storage.2 = newValue
            case 3: storage.3 = newValue
            case 4: storage.4 = newValue
            default: preconditionFailure("run index out of range")
            }
        }
    }

    /// The sum of the lengths.
    var total: Double {
        var sum = 0.0
        for i in 0..<count { sum += self[i] }
        return sum
    }

    /// Lengths `range` of these, e.g. the middle three of five.
    func slice(_ range: Range<Int>) -> RunLengths {
        var result = RunLengths(count: range.count)
        for (i, j) in range.enumerated() { result[i] = self[j] }
        return result
    }
}

/// Run lengths read along a line through a binary image, and tests of their ratios against patterns such
/// as the finder pattern's 1:1:3:1:1.
enum PatternRuns {
    /// Whether `runs` match `pattern` (e.g. 1:1:3:1:1) within `tolerance` of a module per unit, and the
    /// module size they imply.
    @inline(__always)
    static func moduleSize(_ runs: RunLengths, pattern: RunLengths, tolerance: Double = 0.5) -> Double? {
        var total = 0.0, units = 0.0
        for i in 0..<runs.count {
            if runs[i] <= 0 { return nil }
            total += runs[i]
            units += pattern[i]
        }
        let module = total / units
        // Blur and thresholding shift edges by up to a pixel whatever the module size.
        let slack = max(tolerance * module, 0.75)
        for i in 0..<runs.count where abs(runs[i] - pattern[i] * module) > slack * pattern[i] {
            return nil
        }
        return module
    }

    /// Reads the lengths of `count` alternating runs starting at `start` (whose colour begins the first run)
    /// and going in direction (dx, dy) in whole-pixel steps; the first run includes the start pixel. Stops
    /// with nil if a run exceeds `maxRun` or the image ends before `count` runs are complete (the last run
    /// may end at the border).
    static func runs(in image: BinaryImage, fromX x0: Int, y y0: Int, dx: Int, dy: Int, count: Int, maxRun: Int) -> RunLengths? {
        guard image.contains(x0, y0) else { return nil }
        // How many pixels of the line lie inside, the start included: the border is checked once, not at
        // every pixel (this runs for every row hit of the finder scan).
        func inside(_ start: Int, _ step: Int, _ size: Int) -> Int { step > 0 ? size - start : step < 0 ? start + 1 : .max }
        let pixels = min(inside(x0, dx, image.width), inside(y0, dy, image.height))
        let stride = dy * image.rowBits + dx
        // A run is too long at one pixel past `maxRun` (below zero, at its first pixel).
        let tooLong = maxRun == .max ? .max : max(maxRun, -1) + 1
        return image.withBits { bits -> RunLengths? in
            var offset = y0 * image.rowBits + x0
            var left = pixels
            var color = bits[offset]
            var runs = RunLengths(count: count)
            for index in 0..<count {
                // One run at a time, in a tight loop (this reads every confirmation line of the finder scan):
                // its pixels up to the border or one past the longest allowed.
                let end = min(left, max(tooLong, 1))
                var length = 0
                while length < end && bits[offset] == color {
                    length &+= 1
                    offset &+= stride
                }
                left -= length
                // Too long, or ended by the border: only the last run may be.
                if length >= tooLong || left == 0 {
                    guard index == count - 1, length > 0 else { return nil }
                    runs[index] = Double(length)
                    return runs
                }
                runs[index] = Double(length)
                // Pixels are 0 or 1: the next run has the other colour.
                color ^= 1
            }
            return runs
        }
    }

    /// The five runs of a symmetric pattern centred on a dark pixel, read both ways along (dx, dy):
    /// [outer, gap, centre, gap, outer], with the centre counted once. Also returns the centre run's
    /// offset: how far its midpoint lies from the start pixel along the direction, in steps.
    static func symmetricRuns(in image: BinaryImage, x: Int, y: Int, dx: Int, dy: Int, maxRun: Int)
        -> (runs: RunLengths, centerOffset: Double)?
    {
        guard image.isDark(x, y),
              let forward = runs(in: image, fromX: x, y: y, dx: dx, dy: dy, count: 3, maxRun: maxRun),
              let backward = runs(in: image, fromX: x, y: y, dx: -dx, dy: -dy, count: 3, maxRun: maxRun)
        else { return nil }
        // Centre run spans from −(backward[0] − 1) to forward[0] − 1 in steps; its midpoint:
        let offset = (forward[0] - backward[0]) / 2
        return (RunLengths(backward[2], backward[1], forward[0] + backward[0] - 1, forward[1], forward[2]), offset)
    }

    /// Run lengths in pixels along a ray from `start` in unit direction `direction`, stepping one pixel
    /// at a time: the first run has the start pixel's colour. Nil if a run before the last exceeds `maxRun`
    /// or the image ends before `count` runs are complete.
    static func runs(in image: BinaryImage, from start: Point, direction: Point, count: Int, maxRun: Double) -> RunLengths? {
        var x = start.x, y = start.y
        guard image.contains(x, y), direction.x.isFinite, direction.y.isFinite,
              let limit = (maxRun * Double(count) + 2).pixelIndex(clampedTo: 0...(4 * (image.width + image.height)))
        else { return nil }
        // These rays are cast 48 times around every finder pattern whose square is fitted: the steps that
        // surely stay inside read their pixels without checking the border, the rest check it once each.
        let inside = min(stepsInside(x, direction.x, image.width, limit: limit), stepsInside(y, direction.y, image.height, limit: limit))
        return image.withBits { bits -> RunLengths? in
            let rowBits = image.rowBits
            var tally = RunTally(count: count, color: bits[Int(y) &* rowBits &+ Int(x)], maxRun: maxRun)
            for step in 0..<limit {
                guard step < inside || image.contains(x, y) else { return tally.atBorder }
                if case let .finished(runs) = tally.add(bits[Int(y) &* rowBits &+ Int(x)]) { return runs }
                x += direction.x
                y += direction.y
            }
            return nil
        }
    }

    /// How many steps of `step` from `start` (inside 0..<`size`) surely stay inside, at most `limit`: the
    /// margin of two steps and a millionth of a pixel is far above the rounding of the repeated additions.
    private static func stepsInside(_ start: Double, _ step: Double, _ size: Int, limit: Int) -> Int {
        let room = step > 0 ? Double(size) - start : start
        let steps = (room - 1e-6) / abs(step) - 2
        return steps >= Double(limit) ? limit : max(0, Int(steps))
    }

    /// [outer, gap, centre, gap, outer] of a finder-like pattern read through `center` along `direction`
    /// (unit vector), in pixels, and how far the centre run's midpoint lies from `center` along `direction`.
    static func symmetricRuns(in image: BinaryImage, center: Point, direction: Point, maxRun: Double)
        -> (runs: RunLengths, centerOffset: Double)?
    {
        guard let forward = runs(in: image, from: center, direction: direction, count: 3, maxRun: maxRun),
              let backward = runs(in: image, from: center, direction: direction * -1, count: 3, maxRun: maxRun)
        else { return nil }
        return (RunLengths(backward[2], backward[1], forward[0] + backward[0] - 1, forward[1], forward[2]),
                (forward[0] - backward[0]) / 2)
    }
}

/// Run lengths counted one pixel at a time along a ray (``PatternRuns/runs(in:from:direction:count:maxRun:)``),
/// whose fractional steps make every pixel a separate read: each pixel extends the current run or starts the
/// next (counted a run at a time, as the whole-pixel reader counts, rays were no faster). The count is
/// finished once `count` runs are complete, or when a run grows past `maxRun` (allowed only for the last run,
/// which may merge with dark modules beyond).
private struct RunTally {
    enum Step {
        case reading
        /// The runs, or nil when a run before the last grew too long.
        case finished(RunLengths?)
    }

    private var runs: RunLengths
    private var color: UInt64
    private var index = 0
    /// Counted in whole pixels (an integer addition per pixel, not a floating-point one).
    private var length = 0
    /// The longest run within `maxRun`, in whole pixels (no limit when `maxRun` is not a number).
    private let longest: Int

    /// A count whose first run has the colour `color` (of the line's first pixel).
    init(count: Int, color: UInt64, maxRun: Double) {
        runs = RunLengths(count: count)
        self.color = color
        // Below zero every run is too long, as with a limit of −1.
        longest = maxRun.isNaN || maxRun >= Double(Int.max) ? .max : Int(max(maxRun, -1).rounded(.down))
    }

    /// Counts the line's next pixel.
    @inline(__always)
    mutating func add(_ pixel: UInt64) -> Step {
        if pixel != color {
            runs[index] = Double(length)
            index += 1
            if index == runs.count { return .finished(runs) }
            color = pixel
            length = 0
        }
        length += 1
        if length > longest {
            guard index == runs.count - 1 else { return .finished(nil) }
            runs[index] = Double(length)
            return .finished(runs)
        }
        return .reading
    }

    /// The runs when the image's border ends the line: it ends the last run; earlier runs must be complete.
    var atBorder: RunLengths? {
        guard index == runs.count - 1 && length > 0 else { return nil }
        var ended = runs
        ended[index] = Double(length)
        return ended
    }
}
