import Testing
import QRTestSupport
import QRImage

/// The value of IHDR's bit depth and colour type bytes.
private func header(_ png: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) { (png[24], png[25]) }

private func hasChunk(_ png: [UInt8], _ type: String) -> Bool {
    let needle = Array(type.utf8)
    return png.indices.dropLast(3).contains { Array(png[$0..<$0 + 4]) == needle }
}

@Suite("PNG encoding and decoding")
struct PNGCodecTests {
    @Test(arguments: [1, 2, 4, 8])
    func grayRoundTripsAtEveryDepth(bitDepth: Int) throws {
        let step = 255 / ((1 << bitDepth) - 1)
        let levels = (1 << bitDepth)
        // 11 pixels wide, so rows end mid-byte at the low depths.
        let pixels = (0..<(11 * 5)).map { UInt8(($0 * 7 % levels) * step) }
        let image = try GrayImage(width: 11, height: 5, pixels: pixels)
        let png = try PNGEncoder.encode(image, bitDepth: bitDepth)
        #expect(header(png) == (UInt8(bitDepth), 0))
        let decoded = try ImageDecoder().decodeGray(png)
        #expect(decoded.format == .png)
        #expect(decoded.orientation == .up)
        #expect(decoded.image == image)
        let rgba = try ImageDecoder().decodeRGBA(png).image
        #expect(rgba == RGBAImage(image))
    }

    @Test func grayDepthsRefuseValuesTheyCannotHold() throws {
        let image = try GrayImage(width: 2, height: 1, pixels: [0, 128])
        #expect(throws: ImageError.self) { try PNGEncoder.encode(image, bitDepth: 1) }
        #expect(throws: ImageError.self) { try PNGEncoder.encode(image, bitDepth: 3) }
        #expect(try PNGEncoder.encode(try GrayImage(width: 2, height: 1, pixels: [0, 85]), bitDepth: 2).count > 0)
    }

    @Test(arguments: [(2, 1), (4, 2), (16, 4), (200, 8)])
    func paletteRoundTripsAtEveryDepth(colors: Int, expectedDepth: Int) throws {
        let palette = (0..<colors).map { (i: Int) -> RGBAPixel in
            let alpha: UInt8 = i == 1 ? 0 : i % 3 == 0 ? 100 : 255
            return RGBAPixel(red: UInt8(i), green: UInt8(255 - i), blue: UInt8(i * 7 % 256), alpha: alpha)
        }
        let width = 13, height = 7
        let indices = (0..<(width * height)).map { UInt8($0 * 5 % colors) }
        let image = try IndexedImage(width: width, height: height, indices: indices, palette: palette)
        let png = try PNGEncoder.encode(image)
        #expect(header(png) == (UInt8(expectedDepth), 3))
        #expect(hasChunk(png, "tRNS"))
        #expect(try ImageDecoder().decodeRGBA(png).image == image.rgbaImage)
    }

    @Test func opaquePalettesHaveNoTransparencyChunk() throws {
        let image = try IndexedImage(width: 2, height: 1, indices: [0, 1], palette: [.white, .black])
        let png = try PNGEncoder.encode(image)
        #expect(header(png) == (1, 3))
        #expect(!hasChunk(png, "tRNS"))
        #expect(try ImageDecoder().decodeGray(png).image.pixels == [255, 0])
    }

    @Test func rgbaRoundTripsWithStraightAlpha() throws {
        var random = SeededGenerator(seed: 7)
        let pixels = (0..<(17 * 9 * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let image = try RGBAImage(width: 17, height: 9, pixels: pixels)
        let png = try PNGEncoder.encode(image)
        #expect(header(png) == (8, 6))
        #expect(try ImageDecoder().decodeRGBA(png).image == image)
        // Gray decoding composites the alpha onto white.
        #expect(try ImageDecoder().decodeGray(png).image == GrayImage(image))
    }

    /// Fixtures made by Fixtures/make-fixtures.py: 16-bit, gray + alpha, RGB, colour keys, Adam7.
    @Test(arguments: ["gray1-adam7", "gray2", "gray4-trns", "gray16", "gray16-adam7", "graya8", "graya16-adam7",
                      "rgb8", "rgb8-trns", "rgb16", "rgba8-adam7", "rgba16", "palette2-trns-adam7", "palette8-trns"])
    func decodesEveryPNGVariant(name: String) throws {
        let expected = try RGBAImage(width: 13, height: 11, pixels: Fixtures.bytes(name + ".rgba"))
        let png = try Fixtures.bytes(name + ".png")
        #expect(try ImageDecoder().decodeRGBA(png).image == expected)
        #expect(try ImageDecoder().decodeGray(png).image == GrayImage(expected))
        #expect(try ImageDecoder().decodeGray(png, conversion: .darkestChannel).image
            == GrayImage(expected, conversion: .darkestChannel))
    }

    @Test func pgmWriterRoundTrips() throws {
        let image = try GrayImage(width: 5, height: 3, pixels: (0..<15).map { UInt8($0 * 17) })
        let pgm = PNMEncoder.encodePGM(image)
        #expect(pgm.starts(with: Array("P5\n5 3\n255\n".utf8)))
        let decoded = try ImageDecoder().decodeGray(pgm)
        #expect(decoded.format == .pnm)
        #expect(decoded.image == image)
    }
}
