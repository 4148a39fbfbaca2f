import QRCore

/// Bright spots far brighter than the rest of a picture (a flash's reflection, a stroke of white marker, a
/// lamp in view) raise the local thresholds around them: paper beside one thresholds dark, and a finder
/// pattern next to one merges with its quiet zone into a blob. Lowered to the picture's brightest ordinary
/// level, they no longer do.
extension LuminancePlane {
    /// Pixels at least this bright are highlights.
    static let highlightLevel = 250

    /// The level to lower this plane's bright spots to, its ordinary pixels' 99th percentile, or nil when it
    /// has no bright spots to lower: highlights that `explained` does not account for covering under 0.01 %
    /// of it (none to speak of) or over 5 % (a code on white paper saturates large areas, and its paper is no
    /// spot); an ordinary level above 100 (spots less than 2.5 times as bright as the picture move its
    /// thresholds less, and lowering them to a bright picture's level read no code in the corpus); or under
    /// 24 levels between the ordinary pixels' 1st and 99th percentiles (a picture in two levels, dark and
    /// saturated, would keep nothing to read). Given the codes found with their quiet zones, `explained`
    /// accounts for their paper and light modules, which are no spots either. Counted on a grid of about
    /// 1,000 pixels (every fourth one of every fourth row at most), which costs a read a few microseconds:
    /// a spot large enough to matter covers some of them.
    func highlightCeiling(explained: (Point) -> Bool) -> UInt8? {
        let step = Swift.max(4, Int((Double(width) * Double(height) / 1_000).squareRoot()))
        var histogram = [Int](repeating: 0, count: 256)
        histogram.withUnsafeMutableBufferPointer { counts in
            pixels.withUnsafeBufferPointer { p in
                for y in stride(from: 0, to: height, by: step) {
                    for x in stride(from: 0, to: width, by: step) { counts[Int(p[y * width + x] ^ inversion)] += 1 }
                }
            }
        }
        let total = histogram.reduce(0, +)
        let ordinary = histogram[..<Self.highlightLevel].reduce(0, +)
        guard ordinary > 0, (total - ordinary) * 10_000 >= total else { return nil }
        var count = 0, firstPercentile = -1, level = 0
        while level < Self.highlightLevel {
            count += histogram[level]
            if firstPercentile < 0 && count * 100 >= ordinary { firstPercentile = level }
            if count * 100 >= ordinary * 99 { break }
            level += 1
        }
        guard level <= 100, level - firstPercentile >= 24 else { return nil }
        // Last, as it is the dearest: which highlights the codes found account for, until too many are not.
        var highlights = 0
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) where Int(pixels[y * width + x] ^ inversion) >= Self.highlightLevel {
                if explained(Point(Double(x) + 0.5, Double(y) + 0.5)) { continue }
                highlights += 1
                if highlights * 20 > total { return nil }
            }
        }
        return highlights * 10_000 >= total ? UInt8(level) : nil
    }

    /// The plane with every pixel brighter than `ceiling` lowered to it.
    func clipped(at ceiling: UInt8) -> LuminancePlane {
        LuminancePlane(width: width, height: height, pixels: pixels.map { Swift.min($0 ^ inversion, ceiling) })
    }
}
