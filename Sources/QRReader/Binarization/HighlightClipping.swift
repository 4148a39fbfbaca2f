import QRCore

/// Bright spots far brighter than the rest of a picture (a flash's reflection, a stroke of white marker, a
/// lamp in view) raise the local thresholds around them: paper beside one thresholds dark, and a finder
/// pattern next to one merges with its quiet zone into a blob. Lowered to the picture's brightest ordinary
/// level, they no longer do.
extension LuminanceSurvey {
    /// Pixels at least this bright are highlights.
    static let highlightLevel = 250

    /// The level to lower the surveyed plane's bright spots to, its ordinary pixels' 99th percentile, or nil when it
    /// has no bright spots to lower: highlights that `explained` does not account for covering under 0.01 %
    /// of it (none to speak of) or over 5 % (a code on white paper saturates large areas, and its paper is no
    /// spot); an ordinary level above 100 (spots less than 2.5 times as bright as the picture move its
    /// thresholds less, and lowering them to a bright picture's level read no code in the corpus); or under
    /// 24 levels between the ordinary pixels' 1st and 99th percentiles (a picture in two levels, dark and
    /// saturated, would keep nothing to read). Given the codes found with their quiet zones, `explained`
    /// accounts for their paper and light modules, which are no spots either. Counted on the survey's sparse grid.
    func highlightCeiling(explained: (Point) -> Bool) -> UInt8? {
        let ordinary = histogram[..<Self.highlightLevel].reduce(0, +)
        guard (total - ordinary) * 10_000 >= total,
              let (firstPercentile, level) = percentiles(below: Self.highlightLevel),
              level <= 100, level - firstPercentile >= 24 else { return nil }
        // Last, as it is the dearest: which highlights the codes found account for, until too many are not.
        var highlights = 0
        let (width, pixels, inversion) = (plane.width, plane.pixels, plane.inversion)
        for y in stride(from: 0, to: plane.height, by: step) {
            for x in stride(from: 0, to: width, by: step) where Int(pixels[y * width + x] ^ inversion) >= Self.highlightLevel {
                if explained(Point(Double(x) + 0.5, Double(y) + 0.5)) { continue }
                highlights += 1
                if highlights * 20 > total { return nil }
            }
        }
        return highlights * 10_000 >= total ? UInt8(level) : nil
    }
}

extension LuminancePlane {
    /// The plane with every pixel brighter than `ceiling` lowered to it.
    func clipped(at ceiling: UInt8) -> LuminancePlane {
        LuminancePlane(width: width, height: height, pixels: pixels.map { Swift.min($0 ^ inversion, ceiling) })
    }
}
