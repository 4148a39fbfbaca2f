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
        let syndromes = computeSyndromes(block, count: nsym)
        if syndromes.allSatisfy({ $0 == 0 }) { return 0 }

        let erasurePositions = Set(erasures.filter { $0 >= 0 && $0 < n })
        guard erasurePositions.count <= nsym else { throw .tooManyErrors }

        // Erasure locator Γ(x) = ∏(1 − Zₗ·x), coefficients lowest degree first.
        var gamma: [UInt8] = [1]
        for index in erasurePositions {
            gamma = multiply(gamma, [1, GF256.alphaPower(n - 1 - index)])
        }
        // Forney syndromes: T(x) = S(x)·Γ(x) mod x^nsym; T_ν… obey the error locator's recurrence only.
        let modified = Array(multiply(syndromes, gamma).prefix(nsym).dropFirst(erasurePositions.count))
        let sigma = try berlekampMassey(modified)
        let locator = multiply(sigma, gamma)
        let degree = locator.lastIndex(where: { $0 != 0 }) ?? 0
        guard degree > 0 else { throw .tooManyErrors }

        // Chien search over the block's positions: index i holds the coefficient of x^(n−1−i).
        var positions: [Int] = []
        for index in 0..<n where evaluate(locator, at: GF256.alphaPower(-(n - 1 - index))) == 0 {
            positions.append(index)
        }
        guard positions.count == degree else { throw .tooManyErrors }

        // Forney: eₖ = Xₖ · Ω(Xₖ⁻¹) / Λ′(Xₖ⁻¹) for generator roots starting at α⁰.
        let omega = Array(multiply(syndromes, locator).prefix(nsym))
        let derivative = formalDerivative(locator)
        var corrected = block
        var changed = 0
        for index in positions {
            let x = GF256.alphaPower(n - 1 - index)
            let xInverse = GF256.inverse(x)
            let denominator = evaluate(derivative, at: xInverse)
            guard denominator != 0 else { throw .tooManyErrors }
            let magnitude = GF256.multiply(x, GF256.divide(evaluate(omega, at: xInverse), denominator))
            if magnitude != 0 {
                corrected[index] ^= magnitude
                changed += 1
            }
        }
        guard computeSyndromes(corrected, count: nsym).allSatisfy({ $0 == 0 }) else { throw .tooManyErrors }
        block = corrected
        return changed
    }

    /// Whether `block` is a codeword as it stands (all syndromes zero): error detection without correction.
    public static func isValid(_ block: [UInt8], errorCorrectionCount: Int) -> Bool {
        computeSyndromes(block, count: errorCorrectionCount).allSatisfy { $0 == 0 }
    }

    /// Sⱼ = c(αʲ) for j in 0..<count, the first codeword being the highest power.
    static func computeSyndromes(_ block: [UInt8], count: Int) -> [UInt8] {
        (0..<count).map { GF256.evaluate(block, atAlphaPower: $0) }
    }

    /// The shortest LFSR (connection polynomial, lowest degree first) that generates `sequence`.
    private static func berlekampMassey(_ sequence: [UInt8]) throws(ReedSolomonError) -> [UInt8] {
        var current: [UInt8] = [1]
        var previous: [UInt8] = [1]
        var length = 0
        var shift = 1
        var previousDiscrepancy: UInt8 = 1
        for step in 0..<sequence.count {
            var discrepancy = sequence[step]
            if length > 0 {
                for i in 1...length where i < current.count {
                    discrepancy ^= GF256.multiply(current[i], sequence[step - i])
                }
            }
            if discrepancy == 0 {
                shift += 1
                continue
            }
            let scale = GF256.divide(discrepancy, previousDiscrepancy)
            var updated = current
            let needed = previous.count + shift
            if updated.count < needed { updated += [UInt8](repeating: 0, count: needed - updated.count) }
            for (i, c) in previous.enumerated() { updated[i + shift] ^= GF256.multiply(scale, c) }
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
        // More errors than the modified syndromes can locate.
        guard 2 * length <= sequence.count else { throw .tooManyErrors }
        return current
    }

    private static func multiply(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count + b.count - 1)
        for (i, x) in a.enumerated() where x != 0 {
            for (j, y) in b.enumerated() { result[i + j] ^= GF256.multiply(x, y) }
        }
        return result
    }

    /// poly(x) for coefficients listed lowest power first.
    private static func evaluate(_ poly: [UInt8], at x: UInt8) -> UInt8 {
        guard x != 0 else { return poly.first ?? 0 }
        return GF256.evaluate(poly.reversed(), atAlphaPower: Int(GF256.log[Int(x)]))
    }

    /// d/dx over GF(2ᵐ): even powers vanish, odd powers keep their coefficient.
    private static func formalDerivative(_ poly: [UInt8]) -> [UInt8] {
        guard poly.count > 1 else { return [0] }
        return (1..<poly.count).map { $0 % 2 == 1 ? poly[$0] : 0 }
    }
}
