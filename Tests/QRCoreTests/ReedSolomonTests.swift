import QRTestSupport
import Testing
@testable import QRCore

@Suite struct ReedSolomonTests {
    // "HELLO WORLD" at version 1-M (ISO/IEC 18004 annex I style worked example).
    let helloData: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
    let helloECC: [UInt8] = [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]

    @Test func encoderMatchesKnownVector() {
        #expect(ReedSolomonEncoder.errorCorrection(for: helloData, count: 10) == helloECC)
    }

    @Test func generatorPolynomialsHaveOnlyNonZeroCoefficients() {
        // The encoder's log-table shortcut relies on it.
        for degree in 1...ReedSolomonEncoder.maximumDegree {
            let ecc = ReedSolomonEncoder.errorCorrection(for: [1] + [UInt8](repeating: 0, count: degree), count: degree)
            #expect(!ecc.contains(0), "degree \(degree)")
        }
    }

    @Test func cleanBlockNeedsNoCorrection() throws {
        var block = helloData + helloECC
        #expect(try ReedSolomonDecoder.correct(&block, errorCorrectionCount: 10) == 0)
    }

    private func corrupt(_ block: inout [UInt8], positions: [Int], using rng: inout SeededGenerator) {
        for p in positions { block[p] ^= UInt8.random(in: 1...255, using: &rng) }
    }

    @Test(arguments: [(26, 10), (44, 28), (100, 30), (255, 68), (35, 7)])
    func correctsUpToHalfTheECCodewords(length: Int, ecc: Int) throws {
        var rng = SeededGenerator(seed: UInt64(length * 1000 + ecc))
        for _ in 0..<20 {
            let data = (0..<(length - ecc)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let original = data + ReedSolomonEncoder.errorCorrection(for: data, count: ecc)
            var block = original
            let errors = Array((0..<length).shuffled(using: &rng).prefix(ecc / 2))
            corrupt(&block, positions: errors, using: &rng)
            #expect(try ReedSolomonDecoder.correct(&block, errorCorrectionCount: ecc) == errors.count)
            #expect(block == original)
        }
    }

    @Test func failsCleanlyWithOneErrorTooMany() {
        var rng = SeededGenerator(seed: 7)
        var failures = 0
        for _ in 0..<50 {
            let data = (0..<60).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let original = data + ReedSolomonEncoder.errorCorrection(for: data, count: 20)
            var block = original
            corrupt(&block, positions: Array((0..<80).shuffled(using: &rng).prefix(11)), using: &rng)
            let received = block
            do {
                try ReedSolomonDecoder.correct(&block, errorCorrectionCount: 20)
                // A miscorrection is only possible onto another valid codeword, never the original.
                #expect(block != original)
                #expect(ReedSolomonDecoder.isValid(block, errorCorrectionCount: 20))
            } catch {
                #expect(error == .tooManyErrors)
                #expect(block == received, "a failed correction leaves the block unchanged")
                failures += 1
            }
        }
        #expect(failures >= 45)
    }

    @Test func erasuresCostOneCodewordEach() throws {
        var rng = SeededGenerator(seed: 11)
        for trial in 0..<30 {
            let data = (0..<40).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let original = data + ReedSolomonEncoder.errorCorrection(for: data, count: 16)
            var block = original
            // e errors + f erasures with 2e + f ≤ 16.
            let errors = trial % 5
            let erasureCount = 16 - 2 * errors
            let positions = Array((0..<56).shuffled(using: &rng).prefix(errors + erasureCount))
            corrupt(&block, positions: positions, using: &rng)
            try ReedSolomonDecoder.correct(&block, errorCorrectionCount: 16, erasures: Array(positions.prefix(erasureCount)))
            #expect(block == original)
        }
    }

    @Test func rejectsImpossibleInput() {
        var tooShort: [UInt8] = [1, 2, 3]
        #expect(throws: ReedSolomonError.tooManyErrors) {
            try ReedSolomonDecoder.correct(&tooShort, errorCorrectionCount: 10)
        }
        var block = helloData + helloECC
        block[0] ^= 1
        #expect(throws: ReedSolomonError.tooManyErrors) {
            try ReedSolomonDecoder.correct(&block, errorCorrectionCount: 10, erasures: Array(0..<11))
        }
    }
}
