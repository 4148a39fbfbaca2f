/// Why a Reed–Solomon block could not be corrected.
public enum ReedSolomonError: Error, Equatable, Sendable {
    /// More errors (and erasures) than the block's error-correction codewords can correct.
    case tooManyErrors
}

/// Reed–Solomon error and erasure correction for the codes of ``ReedSolomonEncoder``.
///
/// Syndromes, then Berlekamp–Massey on the Forney-modified syndromes (so that known erasures cost one
/// error-correction codeword each instead of two), a Chien search for the error positions and Forney's
/// formula for their values. A result is accepted only if the corrected block has all-zero syndromes.
public enum ReedSolomonDecoder {
    /// Corrects `block` (data followed by `errorCorrectionCount` EC codewords) in place.
    ///
    /// - Parameter erasures: indices into `block` known to be unreliable.
    /// - Returns: the number of codewords that were changed.
    /// - Throws: ``ReedSolomonError/tooManyErrors`` when the block cannot be corrected; `block` is left as it was.
    @discardableResult
    public static func correct(
        _ block: inout [UInt8], errorCorrectionCount: Int, erasures: [Int] = []
    ) throws(ReedSolomonError) -> Int {
        let n = block.count
        let nsym = errorCorrectionCount
        guard nsym > 0, n > nsym, n <= 255 else { throw .tooManyErrors }
        // A reader tries many candidate blocks, most of them hopeless: the whole correction runs on tables
        // fetched once.
        let received = block
        guard let (corrected, changed) = GF256.withTables({ field in
            correct(received, nsym: nsym, erasures: erasures, field: field)
        }) else { throw .tooManyErrors }
        block = corrected
        return changed
    }

    /// Whether `block` is a codeword as it stands (all syndromes zero): error detection without correction.
    public static func isValid(_ block: [UInt8], errorCorrectionCount: Int) -> Bool {
        guard errorCorrectionCount > 0 else { return errorCorrectionCount == 0 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: errorCorrectionCount) { values in
            GF256.withTables { field in
                block.withUnsafeBufferPointer { syndromes($0, into: values, count: errorCorrectionCount, field: field) }
            }
        }
    }

    /// The corrected block and the number of codewords changed, or nil when it cannot be corrected.
    /// Polynomials (coefficients lowest degree first) live in zero-filled slices of one scratch buffer:
    /// a reader runs this on thousands of hopeless blocks, where allocating a dozen arrays per block cost
    /// more than the arithmetic.
    private static func correct(_ block: [UInt8], nsym: Int, erasures: [Int], field: GF256.Tables) -> ([UInt8], Int)? {
        let n = block.count
        // The syndromes, Γ and the Forney syndromes have at most nsym + 1 coefficients; Berlekamp–Massey's
        // polynomials, Λ and Ω at most 2 · nsym + 2. For every QR code's blocks (at most 68 EC codewords)
        // the buffer stays under 1 KB, which is taken from the stack without asking the runtime.
        let short = nsym + 2, long = 2 * nsym + 4
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * short + 4 * long) { scratch -> ([UInt8], Int)? in
            scratch.initialize(repeating: 0)
            var offset = 0
            func take(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
                defer { offset += count }
                return UnsafeMutableBufferPointer(rebasing: scratch[offset..<(offset + count)])
            }
            let syndromes = take(short), gamma = take(short), modified = take(short)
            let current = take(long), previous = take(long), locator = take(long), omega = take(long)
            // Erased positions (n ≤ 255), one bit each.
            var isErased = SIMD4<UInt64>(repeating: 0)

            if block.withUnsafeBufferPointer({ Self.syndromes($0, into: syndromes, count: nsym, field: field) }) { return (block, 0) }

            // Erasure locator Γ(x) = ∏(1 − Zₗ·x), multiplied out one factor at a time.
            gamma[0] = 1
            var erasureCount = 0
            for index in erasures where index >= 0 && index < n && isErased[index >> 6] & (1 << UInt64(index & 63)) == 0 {
                isErased[index >> 6] |= 1 << UInt64(index & 63)
                erasureCount += 1
                guard erasureCount <= nsym else { return nil }
                let z = field.alphaPower(n - 1 - index)
                for i in stride(from: erasureCount, through: 1, by: -1) { gamma[i] ^= field.multiply(z, gamma[i - 1]) }
            }
            let syndromeTerms = UnsafeBufferPointer(rebasing: syndromes[..<nsym])
            let gammaTerms = UnsafeBufferPointer(rebasing: gamma[...erasureCount])
            // Forney syndromes: T(x) = S(x)·Γ(x) mod x^nsym; T_ν… (ν = erasures) obey the error locator's
            // recurrence only.
            let sequenceLength = nsym - erasureCount
            product(syndromeTerms, gammaTerms, coefficients: erasureCount..<nsym, into: modified, field: field)
            // Ω's buffer is not needed until Forney's formula: meanwhile it is the algorithm's spare.
            guard let sigmaDegree = berlekampMassey(UnsafeBufferPointer(rebasing: modified[..<sequenceLength]),
                                                    current: current, previous: previous, spare: omega, field: field)
            else { return nil }
            // Λ(x) = σ(x)·Γ(x).
            product(UnsafeBufferPointer(rebasing: current[...sigmaDegree]), gammaTerms,
                    coefficients: 0..<(sigmaDegree + erasureCount + 1), into: locator, field: field)
            var degree = sigmaDegree + erasureCount
            while degree > 0 && locator[degree] == 0 { degree -= 1 }
            guard degree > 0 else { return nil }
            let locatorTerms = UnsafeBufferPointer(rebasing: locator[...degree])

            // Chien search over the block's positions: index i holds the coefficient of x^(n−1−i).
            var positions: [Int] = []
            positions.reserveCapacity(degree)
            for index in 0..<n where evaluate(locatorTerms, at: field.alphaPower(-(n - 1 - index)), field: field) == 0 {
                positions.append(index)
                if positions.count > degree { return nil }
            }
            guard positions.count == degree else { return nil }

            // Forney: eₖ = Xₖ · Ω(Xₖ⁻¹) / Λ′(Xₖ⁻¹) for generator roots starting at α⁰, with Ω = S·Λ mod x^nsym.
            product(syndromeTerms, locatorTerms, coefficients: 0..<nsym, into: omega, field: field)
            let omegaTerms = UnsafeBufferPointer(rebasing: omega[..<nsym])
            var corrected = block
            var changed = 0
            for index in positions {
                let x = field.alphaPower(n - 1 - index)
                let xInverse = field.divide(1, x)
                // Λ′: over GF(2ᵐ) even powers vanish and odd powers keep their coefficient.
                var denominator: UInt8 = 0
                var power: UInt8 = 1
                let xInverseSquared = field.multiply(xInverse, xInverse)
                for i in stride(from: 1, through: degree, by: 2) {
                    denominator ^= field.multiply(locator[i], power)
                    power = field.multiply(power, xInverseSquared)
                }
                guard denominator != 0 else { return nil }
                let magnitude = field.multiply(x, field.divide(evaluate(omegaTerms, at: xInverse, field: field), denominator))
                if magnitude != 0 {
                    corrected[index] ^= magnitude
                    changed += 1
                }
            }
            let verified = corrected.withUnsafeBufferPointer { Self.syndromes($0, into: syndromes, count: nsym, field: field) }
            guard verified else { return nil }
            return (corrected, changed)
        }
    }

    /// Sⱼ = c(αʲ) for j in 0..<count into `values`, the first codeword being the highest power (Horner's
    /// rule); whether all are zero.
    @discardableResult
    private static func syndromes(_ block: UnsafeBufferPointer<UInt8>, into values: UnsafeMutableBufferPointer<UInt8>, count: Int,
                                  field: GF256.Tables) -> Bool {
        // Horner's rule for every syndrome at once, codeword by codeword: the syndromes' chains of
        // dependent table lookups then overlap instead of running one after another.
        for j in 0..<count { values[j] = 0 }
        for c in block {
            for j in 0..<count {
                let value = values[j]
                values[j] = (value == 0 ? 0 : field.exp[Int(field.log[Int(value)]) + j]) ^ c
            }
        }
        return !values[0..<count].contains { $0 != 0 }
    }

    /// The shortest LFSR that generates `sequence`: its connection polynomial is left in `current` and
    /// its degree returned; nil when the LFSR is longer than the sequence can determine (more errors than
    /// the syndromes can locate). `current` and `previous` must be zero on entry; `spare` is scratch. All
    /// three hold at least 2 · `sequence.count` + 2 coefficients.
    private static func berlekampMassey(_ sequence: UnsafeBufferPointer<UInt8>, current: UnsafeMutableBufferPointer<UInt8>,
                                        previous: UnsafeMutableBufferPointer<UInt8>, spare: UnsafeMutableBufferPointer<UInt8>,
                                        field: GF256.Tables) -> Int? {
        current[0] = 1
        previous[0] = 1
        // Coefficients in use: current[0..<currentCount], previous[0..<previousCount].
        var currentCount = 1, previousCount = 1
        var length = 0
        var shift = 1
        var previousDiscrepancy: UInt8 = 1
        for step in 0..<sequence.count {
            var discrepancy = sequence[step]
            if length > 0 {
                for i in 1...length where i < currentCount {
                    discrepancy ^= field.multiply(current[i], sequence[step - i])
                }
            }
            if discrepancy == 0 {
                shift += 1
                continue
            }
            let scale = field.divide(discrepancy, previousDiscrepancy)
            let updatedCount = max(currentCount, previousCount + shift)
            if 2 * length <= step {
                // The current polynomial becomes the previous one: keep a copy before updating it.
                for i in 0..<currentCount { spare[i] = current[i] }
                for i in 0..<previousCount { current[i + shift] ^= field.multiply(scale, previous[i]) }
                for i in 0..<max(previousCount, currentCount) { previous[i] = i < currentCount ? spare[i] : 0 }
                previousCount = currentCount
                length = step + 1 - length
                previousDiscrepancy = discrepancy
                shift = 1
            } else {
                for i in 0..<previousCount { current[i + shift] ^= field.multiply(scale, previous[i]) }
                shift += 1
            }
            currentCount = updatedCount
        }
        guard 2 * length <= sequence.count else { return nil }
        var degree = currentCount - 1
        while degree > 0 && current[degree] == 0 { degree -= 1 }
        return degree
    }

    /// Coefficients `coefficients` of the product a(x)·b(x) (coefficients lowest degree first), written to
    /// `out` from its start; every one of them must have a term, below the product's degree + 1.
    private static func product(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, coefficients: Range<Int>,
                                into out: UnsafeMutableBufferPointer<UInt8>, field: GF256.Tables) {
        for k in coefficients {
            var c: UInt8 = 0
            for i in max(0, k - (b.count - 1))...min(k, a.count - 1) { c ^= field.multiply(a[i], b[k - i]) }
            out[k - coefficients.lowerBound] = c
        }
    }

    /// poly(x) for coefficients listed lowest power first (Horner's rule from the highest).
    private static func evaluate(_ poly: UnsafeBufferPointer<UInt8>, at x: UInt8, field: GF256.Tables) -> UInt8 {
        var value: UInt8 = 0
        for c in poly.reversed() { value = field.multiply(value, x) ^ c }
        return value
    }
}
