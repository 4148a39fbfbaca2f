extension Double {
    /// The whole pixel index of this coordinate clamped to `range`, or nil if it is not a finite number.
    /// Geometry computed from untrusted images can produce any value; converting it with `Int(_:)`
    /// unchecked would trap.
    @inline(__always)
    func pixelIndex(clampedTo range: ClosedRange<Int>) -> Int? {
        guard isFinite else { return nil }
        if self <= Double(range.lowerBound) { return range.lowerBound }
        if self >= Double(range.upperBound) { return range.upperBound }
        return Int(self.rounded(.down))
    }
}
