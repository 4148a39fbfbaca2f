import Testing
import QRImage

private func decodeGray(_ text: String, _ raster: [UInt8] = []) throws -> GrayImage {
    try ImageDecoder().decodeGray(Array(text.utf8) + raster).image
}

@Suite("PNM decoding")
struct PNMDecodingTests {
    @Test func plainBitmapWithCommentsAndPackedBits() throws {
        // In P1 the separators between bits are optional; 1 is black.
        let image = try decodeGray("P1\n# a comment\n3 2 # trailing comment\n101\n0 1 0\n")
        #expect(image.width == 3 && image.height == 2)
        #expect(image.pixels == [0, 255, 0, 255, 0, 255])
    }

    @Test func rawBitmapRowsArePadded() throws {
        // 10 pixels per row: two bytes per row, the last 6 bits padding.
        let image = try decodeGray("P4\n10 2\n", [0b1010_0000, 0b1100_0000, 0b0000_0000, 0b0111_1111])
        #expect(image.pixels == [0, 255, 0, 255, 255, 255, 255, 255, 0, 0,
                                 255, 255, 255, 255, 255, 255, 255, 255, 255, 0])
    }

    @Test func plainGraymapScalesByMaxval() throws {
        let image = try decodeGray("P2 4 1 15\n0 5 10 15\n")
        #expect(image.pixels == [0, 85, 170, 255])
    }

    @Test func rawGraymapsOfOneAndTwoBytesPerSample() throws {
        #expect(try decodeGray("P5 3 1 255\n", [0, 128, 255]).pixels == [0, 128, 255])
        #expect(try decodeGray("P5 3 1 100\n", [0, 50, 100]).pixels == [0, 128, 255])
        // maxval above 255: big-endian 16-bit samples.
        #expect(try decodeGray("P5 3 1 65535\n", [0, 0, 0x80, 0x00, 0xFF, 0xFF]).pixels == [0, 128, 255])
    }

    @Test func pixmapsPlainAndRaw() throws {
        let plain = try ImageDecoder().decodeRGBA(Array("P3 2 1 255\n255 0 0  0 0 255\n".utf8)).image
        #expect(plain.pixels == [255, 0, 0, 255, 0, 0, 255, 255])
        let raw = try ImageDecoder().decodeRGBA(Array("P6 1 1 1000\n".utf8) + [0x03, 0xE8, 0, 0, 0x01, 0xF4]).image
        #expect(raw.pixels == [255, 0, 128, 255])
        #expect(try ImageDecoder().decodeGray(Array("P6 1 1 255\n".utf8) + [255, 255, 0]).image.pixels == [226])
    }

    @Test func invalidFilesThrowTypedErrors() throws {
        #expect(throws: ImageError.corrupt(.pnm, "a sample value 16 exceeds the maximum 15")) {
            try decodeGray("P2 1 1 15\n16\n")
        }
        #expect(throws: ImageError.corrupt(.pnm, "the maximum sample value 0 is outside 1…65535")) {
            try decodeGray("P5 1 1 0\n", [0])
        }
        #expect(throws: ImageError.corrupt(.pnm, "the image size 0×3 is empty")) { try decodeGray("P5 0 3 255\n") }
        #expect(throws: ImageError.truncated(.pnm)) { try decodeGray("P5 4 4 255\n", [1, 2, 3]) }
        #expect(throws: ImageError.truncated(.pnm)) { try decodeGray("P2 2 2 255\n1 2 3") }
        #expect(throws: ImageError.truncated(.pnm)) { try decodeGray("P5 4") }
        #expect(throws: ImageError.self) { try decodeGray("P1 2 1\n02\n") }
        #expect(throws: ImageError.self) { try decodeGray("P5 2 1 255x", [0, 0]) }
        #expect(throws: ImageError.self) { try decodeGray("P5 99999999999 1 255\n") }
    }
}
