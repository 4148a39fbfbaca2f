import Testing
import QRImage

private func hasMarker(_ jpeg: [UInt8], _ marker: UInt8) -> Bool {
    jpeg.indices.dropLast().contains { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker }
}

@Suite("JPEG encoding and decoding")
struct JPEGCodecTests {
    @Test(arguments: [false, true])
    func colourRoundTripStaysClose(progressive: Bool) throws {
        let picture = try samplePicture()
        let jpeg = try JPEGEncoder.encode(picture, quality: 95, progressive: progressive)
        // SOF0 for baseline, SOF2 for progressive.
        #expect(hasMarker(jpeg, progressive ? 0xC2 : 0xC0))
        #expect(!hasMarker(jpeg, progressive ? 0xC0 : 0xC2))
        let decoded = try ImageDecoder().decodeRGBA(jpeg)
        #expect(decoded.format == .jpeg)
        #expect(decoded.orientation == .up)
        #expect(decoded.image.width == picture.width && decoded.image.height == picture.height)
        #expect(decoded.image.isOpaque)
        #expect(maxDifference(decoded.image.pixels, picture.pixels) <= 12)
    }

    @Test(arguments: [false, true])
    func grayRoundTripStaysClose(progressive: Bool) throws {
        let gray = GrayImage(try samplePicture())
        let jpeg = try JPEGEncoder.encode(gray, quality: 95, progressive: progressive)
        let decoded = try ImageDecoder().decodeGray(jpeg).image
        #expect(maxDifference(decoded.pixels, gray.pixels) <= 4)
        // A gray JPEG decodes to equal R, G and B.
        let rgba = try ImageDecoder().decodeRGBA(jpeg).image
        #expect(rgba == RGBAImage(decoded))
    }

    @Test func grayDecodingOfColourUsesLuminanceOrDarkestChannel() throws {
        let picture = try samplePicture()
        let jpeg = try JPEGEncoder.encode(picture, quality: 95)
        let luminance = try ImageDecoder().decodeGray(jpeg).image
        #expect(maxDifference(luminance.pixels, GrayImage(picture).pixels) <= 8)
        let darkest = try ImageDecoder().decodeGray(jpeg, conversion: .darkestChannel).image
        #expect(maxDifference(darkest.pixels, GrayImage(picture, conversion: .darkestChannel).pixels) <= 12)
    }

    @Test func alphaIsCompositedOntoWhite() throws {
        let clear = try RGBAImage(width: 16, height: 16, color: .clear)
        let decoded = try ImageDecoder().decodeGray(JPEGEncoder.encode(clear)).image
        #expect(decoded.pixels.allSatisfy { $0 >= 250 })
    }

    @Test func qualityIsChecked() throws {
        let gray = try GrayImage(width: 8, height: 8)
        #expect(throws: ImageError.self) { try JPEGEncoder.encode(gray, quality: 0) }
        #expect(throws: ImageError.self) { try JPEGEncoder.encode(gray, quality: 101) }
        let small = try JPEGEncoder.encode(GrayImage(try samplePicture()), quality: 10)
        let large = try JPEGEncoder.encode(GrayImage(try samplePicture()), quality: 100)
        #expect(small.count < large.count)
    }
}

@Suite("CMYK JPEG")
struct CMYKJPEGTests {
    /// cmyk.jpg (made by Fixtures/make-fixtures.py with Pillow): quadrants red, green, blue, white.
    @Test func adobeCMYKIsConvertedToRGB() throws {
        let decoded = try ImageDecoder().decodeRGBA(Fixtures.bytes("cmyk.jpg")).image
        let expected: [(Int, Int, RGBAPixel)] = [
            (3, 3, RGBAPixel(red: 255, green: 0, blue: 0)), (12, 3, RGBAPixel(red: 0, green: 160, blue: 0)),
            (3, 12, RGBAPixel(red: 0, green: 0, blue: 255)), (12, 12, .white),
        ]
        for (x, y, colour) in expected {
            let pixel = decoded[x, y]
            #expect(maxDifference([pixel.red, pixel.green, pixel.blue, pixel.alpha],
                                  [colour.red, colour.green, colour.blue, colour.alpha]) <= 8)
        }
        // Gray decoding of CMYK goes through RGB and the chosen conversion.
        let gray = try ImageDecoder().decodeGray(Fixtures.bytes("cmyk.jpg")).image
        #expect(abs(Int(gray[3, 3]) - 77) <= 6 && gray[12, 12] >= 247)
    }
}
