import QRCore

/// The penalty score of ISO/IEC 18004 §7.8.3 (rules N1–N4) used to choose a data mask, computed as
/// Nayuki's qrcodegen does: finder-like patterns (N3) are counted with the light border outside the symbol
/// taken into account, and the format information is drawn before scoring.
enum MaskEvaluator {
    static let n1 = 3, n2 = 3, n3 = 40, n4 = 10

    /// The penalty of a square matrix of 0/1 bytes.
    static func penalty(_ modules: UnsafeBufferPointer<UInt8>, size: Int) -> Int {
        var result = 0
        // Rows, then columns: runs of the same colour (N1) and finder-like patterns (N3).
        for line in 0..<size {
            result += linePenalty(modules, size: size, start: line * size, step: 1)
            result += linePenalty(modules, size: size, start: line, step: size)
        }
        // 2×2 blocks of one colour (N2).
        for y in 0..<(size - 1) {
            var i = y * size
            for _ in 0..<(size - 1) {
                let c = modules[i]
                if c == modules[i + 1] && c == modules[i + size] && c == modules[i + size + 1] { result += n2 }
                i += 1
            }
        }
        // Balance of dark and light modules (N4): the smallest k with (45 − 5k)% ≤ dark ≤ (55 + 5k)%.
        var dark = 0
        for m in modules { dark &+= Int(m) }
        let total = size * size
        let k = (abs(dark * 20 - total * 10) + total - 1) / total - 1
        result += k * n4
        return result
    }

    /// N1 and N3 along one row or column.
    private static func linePenalty(_ modules: UnsafeBufferPointer<UInt8>, size: Int, start: Int, step: Int) -> Int {
        var result = 0
        var runColor: UInt8 = 0
        var runLength = 0
        // The last seven run lengths, newest first; the light border counts into the first run.
        var history = RunHistory(size: size)
        var index = start
        for _ in 0..<size {
            let color = modules[index]
            if color == runColor {
                runLength += 1
                if runLength == 5 { result += n1 } else if runLength > 5 { result += 1 }
            } else {
                history.add(runLength)
                if runColor == 0 { result += history.finderLikePatterns() * n3 }
                runColor = color
                runLength = 1
            }
            index += step
        }
        // Terminate: close a dark run, then add the light border to the final light run.
        if runColor == 1 {
            history.add(runLength)
            runLength = 0
        }
        history.add(runLength + size)
        result += history.finderLikePatterns() * n3
        return result
    }

    /// The seven most recent run lengths of a line, newest at index 0.
    private struct RunHistory {
        var r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0
        let size: Int

        init(size: Int) { self.size = size }

        mutating func add(_ length: Int) {
            // The first run is preceded by the light border outside the symbol.
            let run = r0 == 0 ? length + size : length
            (r6, r5, r4, r3, r2, r1, r0) = (r5, r4, r3, r2, r1, r0, run)
        }

        /// Dark:light:dark:light:dark runs of 1:1:3:1:1 with 4 light modules on either side: 0, 1 or 2.
        func finderLikePatterns() -> Int {
            let n = r1
            let core = n > 0 && r2 == n && r3 == n * 3 && r4 == n && r5 == n
            return (core && r0 >= n * 4 && r6 >= n ? 1 : 0) + (core && r6 >= n * 4 && r0 >= n ? 1 : 0)
        }
    }
}
