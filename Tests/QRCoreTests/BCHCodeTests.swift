import QRTestSupport
import Testing
@testable import QRCore

@Suite struct BCHCodeTests {
    // ISO/IEC 18004 annex C, table C.1: masked format information by level (L, M, Q, H) and mask 0…7.
    static let formatTable: [[Int]] = [
        [0b111011111000100, 0b111001011110011, 0b111110110101010, 0b111100010011101,
         0b110011000101111, 0b110001100011000, 0b110110001000001, 0b110100101110110],
        [0b101010000010010, 0b101000100100101, 0b101111001111100, 0b101101101001011,
         0b100010111111001, 0b100000011001110, 0b100111110010111, 0b100101010100000],
        [0b011010101011111, 0b011000001101000, 0b011111100110001, 0b011101000000110,
         0b010010010110100, 0b010000110000011, 0b010111011011010, 0b010101111101101],
        [0b001011010001001, 0b001001110111110, 0b001110011100111, 0b001100111010000,
         0b000011101100010, 0b000001001010101, 0b000110100001100, 0b000100000111011],
    ]
    // Annex D, table D.1: version information for versions 7…40.
    static let versionTable = [
        0x07C94, 0x085BC, 0x09A99, 0x0A4D3, 0x0BBF6, 0x0C762, 0x0D847, 0x0E60D, 0x0F928, 0x10B78,
        0x1145D, 0x12A17, 0x13532, 0x149A6, 0x15683, 0x168C9, 0x177EC, 0x18EC4, 0x191E1, 0x1AFAB,
        0x1B08E, 0x1CC1A, 0x1D33F, 0x1ED75, 0x1F250, 0x209D5, 0x216F0, 0x228BA, 0x2379F, 0x24B0B,
        0x2542E, 0x26A64, 0x27541, 0x28C69,
    ]

    @Test func formatInformationMatchesTheStandard() throws {
        for level in ErrorCorrectionLevel.allCases {
            for mask in MaskPattern.all {
                let format = FormatInformation(level: level, mask: mask)
                #expect(format.codeword == Self.formatTable[level.rawValue][mask.rawValue])
            }
        }
    }

    @Test func versionInformationMatchesTheStandard() throws {
        for number in 7...40 {
            #expect(VersionInformation.codeword(for: try #require(Version(number))) == Self.versionTable[number - 7])
        }
    }

    @Test func formatInformationCorrectsThreeBitErrors() throws {
        var rng = SeededGenerator(seed: 3)
        for level in ErrorCorrectionLevel.allCases {
            for mask in MaskPattern.all {
                let format = FormatInformation(level: level, mask: mask)
                for _ in 0..<10 {
                    var received = format.codeword
                    for bit in (0..<15).shuffled(using: &rng).prefix(3) { received ^= 1 << bit }
                    let decoded = try #require(FormatInformation.decode(received))
                    #expect(decoded.format == format)
                    #expect(decoded.distance == 3)
                }
            }
        }
    }

    @Test func versionInformationCorrectsThreeBitErrorsAndRejectsNoise() throws {
        var rng = SeededGenerator(seed: 5)
        for number in 7...40 {
            var received = Self.versionTable[number - 7]
            for bit in (0..<18).shuffled(using: &rng).prefix(3) { received ^= 1 << bit }
            #expect(VersionInformation.decode(received)?.version.number == number)
        }
        // The code's minimum distance is 8: a codeword of version 7 with 4 flipped bits can be at most
        // as near to another; whatever is returned must be within 3 bits.
        if let result = VersionInformation.decode(0b101010101010101010) { #expect(result.distance <= 3) }
    }

    @Test func microQRAndRMQRCodesAreMaskedVariants() {
        #expect(BCHCode.microQRFormat.encode(0) == 0x4445)
        #expect(BCHCode.rMQRFormatLeft.encode(0) == 0x1FAB2)
        #expect(BCHCode.rMQRFormatRight.encode(0) == 0x20A7B)
        #expect(BCHCode.qrVersion.encode(7) == 0x07C94)
    }
}
