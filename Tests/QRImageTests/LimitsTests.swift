import Testing
import QRImage
import QRTestSupport

@Suite("Size limits")
struct LimitsTests {
    @Test func pngHeaderClaimingTenGigapixelsIsRefusedBeforeAllocating() {
        // Signature, then the start of an IHDR chunk: length 13, "IHDR", width 100000, height 100000.
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0]
        #expect(header.count == 24)
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(header)
        }
    }

    @Test func pngHeaderClaimingTheLargestDimensionsIsRefusedWithoutOverflow() {
        // Width and height 2^32 - 1 each: their product does not fit in 64 bits (found by Fuzz/FuzzImage).
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: ImageError.tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(header)
        }
        #expect(!ImageLimits().allowsPixels(width: .max, height: 2))
        #expect(ImageLimits(maxPixels: 12).allowsPixels(width: 4, height: 3))
    }

    @Test func pngLimitIsConfigurable() throws {
        let png = try smallPNG()
        let decoder = ImageDecoder(limits: ImageLimits(maxPixels: 100))
        #expect(throws: ImageError.tooLarge(width: 12, height: 9, limit: 100)) { try decoder.decodeRGBA(png) }
        #expect(try ImageDecoder(limits: ImageLimits(maxPixels: 108)).decodeRGBA(png).image.width == 12)
    }

    @Test func jpegHeaderClaimingHugeSizeIsRefused() throws {
        var jpeg = try smallJPEG()
        // Patch the SOF0 frame header: FF C0, length, precision, then height and width.
        let sof = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 5...sof + 8] = [0xEA, 0x60, 0xEA, 0x60]  // 60000 × 60000
        #expect(throws: ImageError.tooLarge(width: 60_000, height: 60_000, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(jpeg)
        }
        #expect(throws: ImageError.tooLarge(width: 24, height: 16, limit: 300)) {
            try ImageDecoder(limits: ImageLimits(maxPixels: 300)).decodeGray(try smallJPEG())
        }
    }

    @Test func pnmHeaderClaimingHugeSizeIsRefused() {
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(Array("P5 100000 100000 255\n".utf8))
        }
    }

    @Test func tiffHeaderClaimingHugeSizeIsRefused() throws {
        var file = TIFFFile.gray(width: 1, height: 1, pixels: [0])
        file.set(TIFFFile.Field(256, type: 4, [100_000]))
        file.set(TIFFFile.Field(257, type: 4, [100_000]))
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(file.bytes)
        }
        // BigTIFF sizes are 64-bit: their product is checked, not computed.
        file.bigTIFF = true
        file.set(TIFFFile.Field(256, type: 16, [1 << 40]))
        file.set(TIFFFile.Field(257, type: 16, [1 << 40]))
        #expect(throws: ImageError.tooLarge(width: 1 << 40, height: 1 << 40, limit: 100_000_000)) {
            try ImageDecoder().decodeGray(file.bytes)
        }
        #expect(throws: ImageError.tooLarge(width: 10, height: 7, limit: 69)) {
            try ImageDecoder(limits: ImageLimits(maxPixels: 69)).decodeGray(try smallTIFF())
        }
        #expect(try ImageDecoder(limits: ImageLimits(maxPixels: 70)).decodeGray(try smallTIFF()).image.width == 10)
    }

    /// A chain of 20,000 directories (empty ones, 6 bytes each): the page count stops at 10,000, read without
    /// decoding any of them, and the last page counted is as damaged as the others.
    @Test func tiffPagesAreCappedAtTenThousand() throws {
        var bytes: [UInt8] = Array("II".utf8) + littleEndian(42, count: 2) + littleEndian(8, count: 4)
        for index in 0..<20_000 {
            bytes += littleEndian(0, count: 2) + littleEndian(index == 19_999 ? 0 : 8 + (index + 1) * 6, count: 4)
        }
        #expect(try ImageDecoder().pageCount(bytes) == 10_000)
        #expect(throws: ImageError.corrupt(.tiff, "the ImageWidth field is missing")) { try ImageDecoder().decodeGray(bytes, page: 9_999) }
        #expect(throws: ImageError.invalidArgument("page 10000 (counted from 0) was asked for, but the image has 10000 pages")) {
            try ImageDecoder().decodeGray(bytes, page: 10_000)
        }
    }

    @Test func dataSizeLimit() throws {
        let png = try smallPNG()
        let decoder = ImageDecoder(limits: ImageLimits(maxFileSize: 10))
        #expect(throws: ImageError.fileTooLarge(path: nil, bytes: png.count, limit: 10)) { try decoder.decodeGray(png) }
    }

    @Test func unknownFormatsAreNamed() {
        let cases: [([UInt8], String)] = [
            (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), "WebP"), ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "HEIF/HEIC"),
            (Array("  <svg xmlns".utf8), "SVG/XML (render it to PNG first)"), ([], "the data is empty"),
            ([0xDE, 0xAD, 0xBE, 0xEF, 0x00], "unknown signature DE AD BE EF"),
        ]
        for (bytes, name) in cases {
            #expect(throws: ImageError.unsupportedFormat(name)) { try ImageDecoder().decodeRGBA(bytes) }
        }
        // The file name plays no part: a PNG is a PNG whatever it is called, and the message says so.
        #expect(ImageError.unsupportedFormat("WebP").description.contains("PNG, JPEG, GIF, BMP, TIFF and PNM"))
    }
}
