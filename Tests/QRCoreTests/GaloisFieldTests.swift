import Testing
@testable import QRCore

@Suite struct GaloisFieldTests {
    @Test func exponentTableFollowsThePrimitivePolynomial() {
        #expect(GF256.exp[0] == 1)
        #expect(GF256.exp[7] == 0x80)
        #expect(GF256.exp[8] == 0x1D)  // x⁸ = x⁴ + x³ + x² + 1
        #expect(GF256.exp[255] == 1)
        #expect(Set(GF256.exp[0..<255]).count == 255)  // α generates the whole multiplicative group
    }

    @Test func multiplicationAgreesWithCarrylessProductModuloThePolynomial() {
        func slowMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            var product = 0
            for bit in 0..<8 where (Int(b) >> bit) & 1 == 1 { product ^= Int(a) << bit }
            for bit in stride(from: 15, through: 8, by: -1) where (product >> bit) & 1 == 1 { product ^= 0x11D << (bit - 8) }
            return UInt8(product)
        }
        for a in stride(from: 0, through: 255, by: 7) {
            for b in stride(from: 0, through: 255, by: 5) {
                #expect(GF256.multiply(UInt8(a), UInt8(b)) == slowMultiply(UInt8(a), UInt8(b)))
            }
        }
    }

    @Test func inverseAndDivision() {
        for a in 1...255 {
            let x = UInt8(a)
            #expect(GF256.multiply(x, GF256.inverse(x)) == 1)
            #expect(GF256.divide(GF256.multiply(x, 0x53), 0x53) == x)
        }
        #expect(GF256.alphaPower(-1) == GF256.exp[254])
    }
}
