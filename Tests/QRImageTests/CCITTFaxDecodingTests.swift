import Testing
import QRTestSupport
import QRImage

/// A black and white picture (1 for black): rows of random runs, rows close to the one above (vertical
/// modes), white rows, black rows (runs past 2560 pixels when wide), and pixel-wide stripes (pass modes).
private func bilevelPicture(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    var pixels: [UInt8] = [], previous = [UInt8](repeating: 0, count: width)
    for y in 0..<height {
        var row: [UInt8] = []
        switch y % 6 {
        case 0, 5:
            var black: UInt8 = .random(in: 0...1, using: &random)
            while row.count < width {
                let run = Int.random(in: 1...(Bool.random(using: &random) ? 6 : max(1, width / 2)), using: &random)
                row += [UInt8](repeating: black, count: min(run, width - row.count))
                black ^= 1
            }
        case 1:
            row = previous
            for _ in 0..<max(1, width / 10) { row[Int.random(in: 0..<width, using: &random)] ^= 1 }
        case 2: row = [UInt8](repeating: 0, count: width)
        case 3: row = [UInt8](repeating: 1, count: width)
        default: row = (0..<width).map { UInt8(($0 / (1 + y % 3)) % 2) }
        }
        pixels += row
        previous = row
    }
    return pixels
}

/// Gray pixels of a decoded bilevel picture: black 0, white 255.
private func gray(_ pixels: [UInt8]) -> [UInt8] {
    pixels.map { $0 == 1 ? 0 : 255 }
}

private func decodeGray(_ file: TIFFFile) throws -> [UInt8] {
    try ImageDecoder().decodeGray(file.bytes).image.pixels
}

@Suite("CCITT fax decoding")
struct CCITTFaxDecodingTests {
    static let codings: [CCITTEncoder.Coding] = [
        .modifiedHuffman,
        .group3(twoDimensionalEvery: nil, byteAlignedEOL: false), .group3(twoDimensionalEvery: nil, byteAlignedEOL: true),
        .group3(twoDimensionalEvery: 2, byteAlignedEOL: false), .group3(twoDimensionalEvery: 4, byteAlignedEOL: true),
        .group4,
    ]

    /// Widths of one pixel, of a few bytes, and past 2560 (extended make-up codes, several per run).
    @Test(arguments: codings, [1, 9, 64, 300, 2700])
    func codedPicturesDecodeToTheirPixels(coding: CCITTEncoder.Coding, width: Int) throws {
        let pixels = bilevelPicture(width: width, height: 24, seed: UInt64(width))
        let file = TIFFFile.bilevel(width: width, height: 24, pixels: pixels, coding: coding)
        #expect(try decodeGray(file) == gray(pixels))
    }

    /// Each strip is coded on its own: its first 2-D row refers to an imaginary white row.
    @Test func eachStripStartsAgainstAWhiteRow() throws {
        let width = 40, height = 10
        let pixels = bilevelPicture(width: width, height: height, seed: 5)
        let strips = stride(from: 0, to: height, by: 3).map { top in
            let rows = min(3, height - top)
            return CCITTEncoder.encode(Array(pixels[top * width..<(top + rows) * width]), width: width, height: rows, coding: .group4)
        }
        let file = TIFFFile(width: width, height: height, bits: 1, photometric: 0, compression: 4, rowsPerStrip: 3, chunks: strips)
        #expect(try decodeGray(file) == gray(pixels))
    }

    @Test func damagedCodesGiveTypedErrors() throws {
        func strip(_ data: [UInt8], compression: Int = 4, width: Int = 8) -> TIFFFile {
            TIFFFile(width: width, height: 2, bits: 1, photometric: 0, compression: compression, chunks: [data])
        }
        // Seven zero bits start no mode code.
        #expect(throws: ImageError.corrupt(.tiff, "no CCITT mode code starts at bit 0 of its strip or tile")) {
            try decodeGray(strip([0, 0]))
        }
        // White run 10 ("00111") in a row of 8 pixels.
        #expect(throws: ImageError.corrupt(.tiff, "a CCITT run passes the end of its row")) {
            try decodeGray(strip([0x38], compression: 2))
        }
        // The extension code 0000001 with 111: uncompressed mode.
        #expect(throws: ImageError.unsupportedFormat("a CCITT-compressed TIFF using uncompressed mode")) {
            try decodeGray(strip([0x03, 0xC0]))
        }
        let pixels = bilevelPicture(width: 30, height: 20, seed: 3)
        let coded = CCITTEncoder.encode(pixels, width: 30, height: 20, coding: .group4)
        let cut = TIFFFile(width: 30, height: 20, bits: 1, photometric: 0, compression: 4, chunks: [Array(coded.prefix(coded.count / 2))])
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(cut) }
    }

    /// Random bytes as CCITT data: decoding ends, with a typed error or with a whole image, and never runs on.
    @Test(arguments: [2, 3, 4])
    func garbageEndsWithAnErrorOrAnImage(compression: Int) throws {
        var random = SeededGenerator(seed: UInt64(compression))
        var errors = 0
        for round in 0..<200 {
            let data = (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var file = TIFFFile(width: 50, height: 40, bits: 1, photometric: 0, compression: compression, chunks: [data])
            if compression == 3, round % 2 == 1 { file.set(TIFFFile.Field(292, type: 4, [1])) }
            do throws(ImageError) {
                #expect(try ImageDecoder().decodeGray(file.bytes).image.pixels.count == 50 * 40)
            } catch {
                errors += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(errors > 0)
        // All one bits are V0 codes for T.6, one a row against a white reference: a white image.
        let ones = TIFFFile(width: 50, height: 40, bits: 1, photometric: 0, compression: 4, chunks: [[UInt8](repeating: 0xFF, count: 5)])
        #expect(try decodeGray(ones) == [UInt8](repeating: 255, count: 50 * 40))
    }
}
