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
        GF256.withTables { syndromes(block, count: errorCorrectionCount, field: $0).allSatisfy { $0 == 0 } }
    }

    /// The corrected block and the number of codewords changed, or nil when it cannot be corrected.
    private static func correct(_ block: [UInt8], nsym: Int, erasures: [Int], field: GF256.Tables) -> ([UInt8], Int)? {
        let n = block.count
        let syndromes = Self.syndromes(block, count: nsym, field: field)
        if syndromes.allSatisfy({ $0 == 0 }) { return (block, 0) }

        var isErased = [Bool](repeating: false, count: n)
        var erasurePositions: [Int] = []
        for index in erasures where index >= 0 && index < n && !isErased[index] {
            isErased[index] = true
            erasurePositions.append(index)
        }
        guard erasurePositions.count <= nsym else { return nil }

        // Erasure locator Γ(x) = ∏(1 − Zₗ·x), coefficients lowest degree first.
        var gamma: [UInt8] = [1]
        for index in erasurePositions {
            gamma = multiply(gamma, [1, field.alphaPower(n - 1 - index)], field: field)
        }
        // Forney syndromes: T(x) = S(x)·Γ(x) mod x^nsym; T_ν… obey the error locator's recurrence only.
        let modified = Array(multiply(syndromes, gamma, field: field).prefix(nsym).dropFirst(erasurePositions.count))
        guard let sigma = berlekampMassey(modified, field: field) else { return nil }
        let locator = multiply(sigma, gamma, field: field)
        let degree = locator.lastIndex(where: { $0 != 0 }) ?? 0
        guard degree > 0 else { return nil }

        // Chien search over the block's positions: index i holds the coefficient of x^(n−1−i).
        var positions: [Int] = []
        for index in 0..<n where evaluate(locator, at: field.alphaPower(-(n - 1 - index)), field: field) == 0 {
            positions.append(index)
        }
        guard positions.count == degree else { return nil }

        // Forney: eₖ = Xₖ · Ω(Xₖ⁻¹) / Λ′(Xₖ⁻¹) for generator roots starting at α⁰.
        let omega = Array(multiply(syndromes, locator, field: field).prefix(nsym))
        let derivative = formalDerivative(locator)
        var corrected = block
        var changed = 0
        for index in positions {
            let x = field.alphaPower(n - 1 - index)
            let xInverse = field.divide(1, x)
            let denominator = evaluate(derivative, at: xInverse, field: field)
            guard denominator != 0 else { return nil }
            let magnitude = field.multiply(x, field.divide(evaluate(omega, at: xInverse, field: field), denominator))
            if magnitude != 0 {
                corrected[index] ^= magnitude
                changed += 1
            }
        }
        guard Self.syndromes(corrected, count: nsym, field: field).allSatisfy({ $0 == 0 }) else { return nil }
        return (corrected, changed)
    }

    /// Sⱼ = c(αʲ) for j in 0..<count, the first codeword being the highest power (Horner's rule).
    private static func syndromes(_ block: [UInt8], count: Int, field: GF256.Tables) -> [UInt8] {
        // Horner's rule for every syndrome at once, codeword by codeword: the syndromes' chains of
        // dependent table lookups then overlap instead of running one after another.
        var values = [UInt8](repeating: 0, count: count)
        values.withUnsafeMutableBufferPointer { values in
            for c in block {
                for j in 0..<count {
                    let value = values[j]
                    values[j] = (value == 0 ? 0 : field.exp[Int(field.log[Int(value)]) + j]) ^ c
                }
            }
        }
        return values
    }

    /// The shortest LFSR (connection polynomial, lowest degree first) that generates `sequence`, or nil
    /// when it is longer than the sequence can determine (more errors than the syndromes can locate).
    private static func berlekampMassey(_ sequence: [UInt8], field: GF256.Tables) -> [UInt8]? {
        var current: [UInt8] = [1]
        var previous: [UInt8] = [1]
        var length = 0
        var shift = 1
        var previousDiscrepancy: UInt8 = 1
        for step in 0..<sequence.count {
            var discrepancy = sequence[step]
            if length > 0 {
                for i in 1...length where i < current.count {
                    discrepancy ^= field.multiply(current[i], sequence[step - i])
                }
            }
            if discrepancy == 0 {
                shift += 1
                continue
            }
            let scale = field.divide(discrepancy, previousDiscrepancy)
            var updated = current
            let needed = previous.count + shift
            if updated.count < needed { updated += [UInt8](repeating: 0, count: needed - updated.count) }
            for (i, c) in previous.enumerated() { updated[i + shift] ^= field.multiply(scale, c) }
            if 2 * length <= step {
                previous = current
                length = step + 1 - length
                previousDiscrepancy = discrepancy
                shift = 1
            } else {
                shift += 1
            }
            current = updated
        }
        return 2 * length <= sequence.count ? current : nil
    }

    private static func multiply(_ a: [UInt8], _ b: [UInt8], field: GF256.Tables) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count + b.count - 1)
        for (i, x) in a.enumerated() where x != 0 {
            for (j, y) in b.enumerated() { result[i + j] ^= field.multiply(x, y) }
        }
        return result
    }

    /// poly(x) for coefficients listed lowest power first (Horner's rule from the highest).
    private static func evaluate(_ poly: [UInt8], at x: UInt8, field: GF256.Tables) -> UInt8 {
        var value: UInt8 = 0
        for c in poly.reversed() { value = field.multiply(value, x) ^ c }
        return value
    }

    /// d/dx over GF(2ᵐ): even powers vanish, odd powers keep their coefficient.
    private static func formalDerivative(_ poly: [UInt8]) -> [UInt8] {
        guard poly.count > 1 else { return [0] }
        return (1..<poly.count).map { $0 % 2 == 1 ? poly[$0] : 0 }
    }
}
