/// Systematic Reed–Solomon encoding over GF(256) with the generator polynomial ∏(x − αⁱ), i = 0..<n,
/// as ISO/IEC 18004 §7.5.2 prescribes.
public enum ReedSolomonEncoder {
    /// Largest number of error-correction codewords per block used by QR, Micro QR and rMQR symbols.
    public static let maximumDegree = 68

    /// `generatorLogs[n]` holds the logarithms of the coefficients of the degree-n generator polynomial,
    /// highest power first and without the leading 1.
    private static let generatorLogs: [[UInt8]] = {
        var result: [[UInt8]] = [[]]
        var poly: [UInt8] = [1]  // highest power first
        for degree in 1...maximumDegree {
            // poly ·= (x − α^(degree−1)); subtraction is XOR.
            let root = GF256.alphaPower(degree - 1)
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (i, c) in poly.enumerated() {
                next[i] ^= c
                next[i + 1] ^= GF256.multiply(c, root)
            }
            poly = next
            result.append(poly.dropFirst().map { GF256.log[Int($0)] })
        }
        return result
    }()

    /// The `count` error-correction codewords for `data`.
    public static func errorCorrection(for data: some Collection<UInt8>, count: Int) -> [UInt8] {
        precondition(count > 0 && count <= maximumDegree, "unsupported number of error-correction codewords")
        var remainder = [UInt8](repeating: 0, count: count)
        let generator = generatorLogs[count]
        GF256.exp.withUnsafeBufferPointer { exp in
            GF256.log.withUnsafeBufferPointer { log in
                generator.withUnsafeBufferPointer { gen in
                    remainder.withUnsafeMutableBufferPointer { rem in
                        for byte in data {
                            let factor = byte ^ rem[0]
                            // Shift the remainder one place and add factor · generator.
                            for i in 0..<(count - 1) { rem[i] = rem[i + 1] }
                            rem[count - 1] = 0
                            if factor != 0 {
                                let logFactor = Int(log[Int(factor)])
                                for i in 0..<count {
                                    rem[i] ^= exp[Int(gen[i]) + logFactor]
                                }
                            }
                        }
                    }
                }
            }
        }
        return remainder
    }
}
