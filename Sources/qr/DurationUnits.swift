/// Durations as the plain numbers that timings are printed in.
extension Duration {
    /// This duration in seconds.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// This duration in milliseconds.
    var inMilliseconds: Double { inSeconds * 1000 }
}
