import QRCore
import Synchronization

/// Chooses the data mask by the penalty score of ISO/IEC 18004 §7.8.3 (rules N1–N4), computed as Nayuki's
/// qrcodegen does: finder-like patterns (N3) are counted with the light border outside the symbol taken
/// into account, and each mask is scored with its format information drawn.
///
/// The eight candidates are scored on bit-packed rows and columns: runs come from bit transitions, 2 × 2
/// blocks and the dark count from population counts, and each mask's pattern over the data modules is
/// computed once per version. This keeps the encoder ahead of libqrencode.
enum MaskEvaluator {
    static let n1 = 3, n2 = 3, n3 = 40, n4 = 10

    /// The mask with the lowest penalty (ties to the lower number) for `unmasked` (function patterns and
    /// version information drawn, format information areas light).
    static func bestMask(_ unmasked: BitMatrix, template: SymbolTemplate, level: ErrorCorrectionLevel) -> MaskPattern {
        let size = template.size
        let base = PackedMatrix(unmasked)
        let patterns = MaskPatterns.of(template)
        var best = MaskPattern.all[0]
        var bestPenalty = Int.max
        var candidate = base
        let formatPositions = FormatInformation.positions(size: size)
        for mask in MaskPattern.all {
            candidate.rows = base.rows
            candidate.columns = base.columns
            candidate.xor(patterns.rows[mask.rawValue], patterns.columns[mask.rawValue])
            let bits = FormatInformation(level: level, mask: mask).codeword
            for copy in formatPositions {
                for (i, p) in copy.enumerated() where (bits >> i) & 1 == 1 { candidate.set(x: p.x, y: p.y) }
            }
            let score = penalty(candidate, limit: bestPenalty)
            if score < bestPenalty {
                best = mask
                bestPenalty = score
            }
        }
        return best
    }

    /// The total penalty of a packed square matrix, or any value ≥ `limit` once the total reaches it (every
    /// rule adds, so a mask that cannot beat the best so far is abandoned early).
    static func penalty(_ matrix: PackedMatrix, limit: Int = .max) -> Int {
        let size = matrix.size, words = matrix.wordsPerLine
        return matrix.rows.withUnsafeBufferPointer { rows in
            // The cheap rules first (bit counts), then the run scans of N1 and N3 while the mask can still win.
            var result = blockPenalty(rows, size: size, words: words) + balancePenalty(rows, size: size)
            matrix.columns.withUnsafeBufferPointer { columns in
                for line in 0..<size where result < limit {
                    result += linePenalty(rows.baseAddress! + line * words, size: size, words: words)
                    result += linePenalty(columns.baseAddress! + line * words, size: size, words: words)
                }
            }
            return result
        }
    }

    /// N2: 2 × 2 blocks of one colour, from pairs of packed rows.
    private static func blockPenalty(_ rows: UnsafeBufferPointer<UInt64>, size: Int, words: Int) -> Int {
        var blocks = 0
        for y in 0..<(size - 1) {
            let a = rows.baseAddress! + y * words, b = a + words
            for w in 0..<words {
                // Bit i: module i equals module i+1 (same row) — needs the next word's first bit.
                let nextA = w + 1 < words ? a[w + 1] : 0, nextB = w + 1 < words ? b[w + 1] : 0
                let vertical = ~(a[w] ^ b[w])
                let verticalNext = ~((a[w] >> 1 | nextA << 63) ^ (b[w] >> 1 | nextB << 63))
                let horizontal = ~(a[w] ^ (a[w] >> 1 | nextA << 63))
                var same = vertical & verticalNext & horizontal
                // Only blocks whose left column is 0…size−2.
                let firstModule = w * 64
                if firstModule + 64 > size - 1 { same &= size - 1 - firstModule >= 64 ? ~0 : (1 << UInt64(max(0, size - 1 - firstModule))) - 1 }
                blocks += same.nonzeroBitCount
            }
        }
        return blocks * n2
    }

    /// N4: the smallest k with (45 − 5k)% ≤ dark ≤ (55 + 5k)%.
    private static func balancePenalty(_ rows: UnsafeBufferPointer<UInt64>, size: Int) -> Int {
        let dark = rows.reduce(0) { $0 + $1.nonzeroBitCount }
        let total = size * size
        return ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * n4
    }

    /// N1 and N3 along one packed line of `size` modules (bit i of the words is module i).
    private static func linePenalty(_ line: UnsafePointer<UInt64>, size: Int, words: Int) -> Int {
        var result = 0
        var history = RunHistory(size: size)
        var runStart = 0
        var runColor = line[0] & 1 == 1
        // The virtual light run before the line: a dark first module closes it at length 0.
        if runColor {
            history.add(0)
            result += history.finderLikePatterns() * n3
        }
        for w in 0..<words {
            // Bits where a module differs from the one before it start a new run.
            let previous = w == 0 ? (line[0] << 1 | (line[0] & 1)) : (line[w] << 1 | line[w - 1] >> 63)
            var transitions = line[w] ^ previous
            while transitions != 0 {
                let position = w * 64 + transitions.trailingZeroBitCount
                transitions &= transitions - 1
                guard position < size else { break }
                let length = position - runStart
                if length >= 5 { result += n1 + length - 5 }
                history.add(length)
                if !runColor { result += history.finderLikePatterns() * n3 }
                runStart = position
                runColor.toggle()
            }
        }
        // The last run, then the light border after the line.
        var length = size - runStart
        if length >= 5 { result += n1 + length - 5 }
        if runColor {
            history.add(length)
            length = 0
        }
        history.add(length + size)
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

/// A square matrix stored twice, as bit-packed rows and as bit-packed columns (bit i of a line's words is
/// module i), so that both directions are scanned as contiguous words.
struct PackedMatrix {
    let size: Int
    let wordsPerLine: Int
    var rows: [UInt64]
    var columns: [UInt64]

    init(size: Int) {
        self.size = size
        wordsPerLine = (size + 63) / 64
        rows = [UInt64](repeating: 0, count: size * wordsPerLine)
        columns = rows
    }

    init(_ matrix: BitMatrix) {
        self.init(size: matrix.width)
        for y in 0..<size {
            for x in 0..<size where matrix.storage[y * size + x] != 0 { set(x: x, y: y) }
        }
    }

    mutating func set(x: Int, y: Int) {
        rows[y * wordsPerLine + x >> 6] |= 1 << UInt64(x & 63)
        columns[x * wordsPerLine + y >> 6] |= 1 << UInt64(y & 63)
    }

    mutating func xor(_ rowPattern: [UInt64], _ columnPattern: [UInt64]) {
        for i in rows.indices {
            rows[i] ^= rowPattern[i]
            columns[i] ^= columnPattern[i]
        }
    }
}

/// The eight mask patterns restricted to a version's data modules, packed like `PackedMatrix`; built once
/// per version.
struct MaskPatterns: Sendable {
    let rows: [[UInt64]]
    let columns: [[UInt64]]

    static func of(_ template: SymbolTemplate) -> MaskPatterns {
        cache.withLock { patterns in
            if let cached = patterns[template.version.number] { return cached }
            let built = MaskPatterns(template)
            patterns[template.version.number] = built
            return built
        }
    }

    private static let cache = Mutex<[Int: MaskPatterns]>([:])

    private init(_ template: SymbolTemplate) {
        let size = template.size
        var rows: [[UInt64]] = [], columns: [[UInt64]] = []
        for mask in MaskPattern.all {
            var packed = PackedMatrix(size: size)
            for y in 0..<size {
                for x in 0..<size where template.isFunction[y * size + x] == 0 && mask.inverts(row: y, column: x) {
                    packed.set(x: x, y: y)
                }
            }
            rows.append(packed.rows)
            columns.append(packed.columns)
        }
        self.rows = rows
        self.columns = columns
    }
}
