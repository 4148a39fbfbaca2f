import Testing
import QRTestSupport
import QRImage

/// Eight colours as RGB triples.
private let colours: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255, 255, 255, 255]

/// A fixed pseudo-random run of values up to `maximum`.
private func pattern(_ length: Int, maximum: Int, seed: UInt64 = 11) -> [Int] {
    var random = SeededGenerator(seed: seed)
    return (0..<length).map { _ in Int.random(in: 0...maximum, using: &random) }
}

/// `indices` looked up in `palette`, as opaque RGBA.
private func rgba(_ indices: [UInt8], _ palette: [UInt8]) -> [UInt8] {
    indices.flatMap { Array(palette[3 * Int($0)..<3 * Int($0) + 3]) + [255] }
}

/// RGB samples as opaque RGBA.
private func opaque(_ rgb: [UInt8]) -> [UInt8] {
    rows(rgb, width: 3).flatMap { pixel -> [UInt8] in pixel + [255] }
}

/// Rows of `width` items each from a row-major list.
private func rows<T>(_ items: [T], width: Int) -> [[T]] {
    stride(from: 0, to: items.count, by: width).map { Array(items[$0..<$0 + width]) }
}

private func decodeRGBA(_ bmp: BMPFile, limits: ImageLimits = ImageLimits()) throws -> [UInt8] {
    try ImageDecoder(limits: limits).decodeRGBA(bmp.bytes).image.pixels
}

/// A 32-bit bitmap of little-endian `pixels`.
private func bitmap32(width: Int, height: Int, pixels: [UInt32]) -> BMPFile {
    BMPFile(width: width, height: height, bitsPerPixel: 32,
            rows: rows(pixels, width: width).map { $0.flatMap { littleEndian(Int($0), count: 4) } })
}

@Suite("BMP decoding")
struct BMPDecodingTests {
    /// 13 pixels a row: every depth's rows end mid-word and are padded.
    @Test(arguments: [1, 4, 8])
    func paletteDepthsBottomUpAndTopDown(depth: Int) throws {
        let count = min(1 << depth, 8)
        let indices = pattern(13 * 5, maximum: count - 1).map(UInt8.init)
        var bmp = BMPFile(width: 13, height: 5, bitsPerPixel: depth,
                          rows: rows(indices, width: 13).map { BMPFile.pack($0, depth: depth) }, palette: Array(colours.prefix(3 * count)))
        bmp.colorsUsed = depth == 1 ? 0 : count
        let decoded = try ImageDecoder().decodeRGBA(bmp.bytes)
        #expect(decoded.format == .bmp && decoded.orientation == .up)
        #expect(decoded.image.pixels == rgba(indices, colours))
        bmp.topDown = true
        #expect(try decodeRGBA(bmp) == rgba(indices, colours))
    }

    @Test func grayPalettesDecodeToGray() throws {
        let pixels = pattern(7 * 6, maximum: 255).map(UInt8.init)
        #expect(try ImageDecoder().decodeGray(BMPFile.gray(width: 7, height: 6, pixels: pixels).bytes).image.pixels == pixels)
        let bits = pattern(9 * 2, maximum: 1).map(UInt8.init)
        let oneBit = BMPFile(width: 9, height: 2, bitsPerPixel: 1, rows: rows(bits, width: 9).map { BMPFile.pack($0, depth: 1) },
                             palette: [0, 0, 0, 255, 255, 255])
        #expect(try ImageDecoder().decodeGray(oneBit.bytes).image.pixels == bits.map { $0 * 255 })
    }

    /// Indices past the palette take entry 0's colour: the chosen behaviour for this damage.
    @Test func indexPastThePaletteTakesEntryZero() throws {
        var bmp = BMPFile(width: 3, height: 1, bitsPerPixel: 8, rows: [[1, 2, 200]], palette: Array(colours.prefix(6)))
        bmp.colorsUsed = 2
        #expect(try decodeRGBA(bmp) == rgba([1, 0, 0], colours))
    }

    /// 5 pixels of 3 bytes: 15 bytes a row, padded to 16.
    @Test func twentyFourBitsTopDownAndBottomUp() throws {
        let rgb = pattern(5 * 3 * 3, maximum: 255).map(UInt8.init)
        var bmp = BMPFile.rgb(width: 5, height: 3, pixels: rgb)
        let expected = opaque(rgb)
        #expect(try decodeRGBA(bmp) == expected)
        bmp.topDown = true
        #expect(try decodeRGBA(bmp) == expected)
    }

    @Test func sixteenBitsAsFiveFiveFiveOrBitfields() throws {
        // White, pure red, green and blue, then a mid value in each layout.
        let fives: [UInt16] = [0x7FFF, 0x7C00, 0x03E0, 0x001F, 0b0_10000_01000_00001]
        let bmp = BMPFile(width: 5, height: 1, bitsPerPixel: 16, rows: [fives.flatMap { littleEndian(Int($0), count: 2) }])
        #expect(try decodeRGBA(bmp) == [255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 132, 66, 8, 255])
        let sixes: [UInt16] = [0xFFFF, 0xF800, 0x07E0, 0x001F, 0b10000_100000_00001]
        var bitfields = BMPFile(width: 5, height: 1, bitsPerPixel: 16, rows: [sixes.flatMap { littleEndian(Int($0), count: 2) }])
        bitfields.compression = 3
        bitfields.masks = [0xF800, 0x07E0, 0x001F]
        #expect(try decodeRGBA(bitfields) == [255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 132, 130, 8, 255])
    }

    @Test func thirtyTwoBitsWithAndWithoutAlpha() throws {
        let pixels: [UInt32] = [0x80FF_0000, 0x0000_FF00, 0xFF00_00FF, 0x4012_3456]
        let colour: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 0x12, 0x34, 0x56]
        func withAlpha(_ alphas: [UInt8]) -> [UInt8] {
            (0..<4).flatMap { i -> [UInt8] in Array(colour[3 * i..<3 * i + 3]) + [alphas[i]] }
        }
        // A 40-byte header without BI_BITFIELDS: the fourth byte is padding.
        var bmp = bitmap32(width: 2, height: 2, pixels: pixels)
        #expect(try decodeRGBA(bmp) == withAlpha([255, 255, 255, 255]))
        // A V5 header's alpha mask applies.
        bmp.headerSize = 124
        bmp.masks = [0, 0, 0, 0xFF00_0000]
        #expect(try decodeRGBA(bmp) == withAlpha([0x80, 0, 0xFF, 0x40]))
        // BI_BITFIELDS with alpha, and BI_ALPHABITFIELDS after a 40-byte header.
        bmp.compression = 3
        bmp.masks = [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000]
        #expect(try decodeRGBA(bmp) == withAlpha([0x80, 0, 0xFF, 0x40]))
        bmp.headerSize = 40
        bmp.compression = 6
        #expect(try decodeRGBA(bmp) == withAlpha([0x80, 0, 0xFF, 0x40]))
        // Alpha 0 everywhere: a writer that ignored the channel; the image is opaque.
        let zeroAlpha = pixels.map { $0 & 0xFF_FFFF }
        var opaque = bitmap32(width: 2, height: 2, pixels: zeroAlpha)
        (opaque.headerSize, opaque.masks) = (124, [0, 0, 0, 0xFF00_0000])
        #expect(try decodeRGBA(opaque) == withAlpha([255, 255, 255, 255]))
    }

    @Test func unusualMasksScaleAndNeverCrash() throws {
        // 10-10-10 bits, scaled to 8.
        var bmp = bitmap32(width: 2, height: 1, pixels: [0x3FF0_0000, 0x0008_0000])
        (bmp.compression, bmp.masks) = (3, [0x3FF0_0000, 0x000F_FC00, 0x0000_03FF])
        #expect(try decodeRGBA(bmp) == [255, 0, 0, 255, 0, 128, 0, 255])
        // A zero mask reads 0; overlapping and scattered masks read whatever bits they cover.
        bmp.masks = [0, 0xFFFF_FFFF, 0x0F0F_0F0F]
        let pixels = try decodeRGBA(bmp)
        #expect(pixels[0] == 0 && pixels[4] == 0 && pixels[3] == 255)
        #expect(pixels[1] == UInt8((0x3FF0_0000 * 255 + 0x7FFF_FFFF) / 0xFFFF_FFFF))
    }

    @Test(arguments: [40, 52, 56, 108, 124])
    func everyInfoHeaderVersion(headerSize: Int) throws {
        let rgb = pattern(3 * 2 * 3, maximum: 255).map(UInt8.init)
        var bmp = BMPFile.rgb(width: 3, height: 2, pixels: rgb)
        bmp.headerSize = headerSize
        #expect(try decodeRGBA(bmp) == opaque(rgb))
        let indices: [UInt8] = [0, 5, 7, 2]
        var paletted = BMPFile(width: 4, height: 1, bitsPerPixel: 8, rows: [indices], palette: colours)
        paletted.headerSize = headerSize
        #expect(try decodeRGBA(paletted) == rgba(indices, colours))
    }

    @Test func os2CoreHeader() throws {
        let indices = pattern(6 * 3, maximum: 7).map(UInt8.init)
        var bmp = BMPFile(width: 6, height: 3, bitsPerPixel: 8, rows: rows(indices, width: 6), palette: colours)
        bmp.headerSize = 12
        #expect(try decodeRGBA(bmp) == rgba(indices, colours))
        var four = BMPFile(width: 6, height: 3, bitsPerPixel: 4, rows: rows(indices, width: 6).map { BMPFile.pack($0, depth: 4) },
                           palette: colours + [UInt8](repeating: 0, count: 24))
        four.headerSize = 12
        #expect(try decodeRGBA(four) == rgba(indices, colours))
        let rgb = pattern(4 * 2 * 3, maximum: 255).map(UInt8.init)
        var deep = BMPFile.rgb(width: 4, height: 2, pixels: rgb)
        deep.headerSize = 12
        #expect(try decodeRGBA(deep) == opaque(rgb))
    }

    @Test func runLengthEncodedWithDeltaAndEndOfLine() throws {
        var rle8 = BMPFile(width: 4, height: 3, bitsPerPixel: 8, rows: [], palette: colours)
        rle8.compression = 1
        rle8.pixelData = [2, 1,  // the bottom row: two of 1
                          0, 2, 1, 1,  // a delta of 1 right and 1 up
                          1, 2,  // one 2
                          0, 0,  // end of line
                          0, 3, 3, 1, 2, 0,  // a literal run of three, padded to an even length
                          1, 3,  // one 3
                          0, 1]  // end of bitmap
        // Pixels the delta and the end of line skip are index 0.
        #expect(try decodeRGBA(rle8) == rgba([3, 1, 2, 3, 0, 0, 0, 2, 1, 1, 0, 0], colours))

        var rle4 = BMPFile(width: 5, height: 2, bitsPerPixel: 4, rows: [], palette: colours)
        rle4.compression = 2
        rle4.pixelData = [5, 0x12, 0, 0, 0, 3, 0x34, 0x50, 0, 1]
        #expect(try decodeRGBA(rle4) == rgba([3, 4, 5, 0, 0, 1, 2, 1, 2, 1], colours))

        // Runs past the right edge are dropped; data may end once the last row is done.
        var long = BMPFile(width: 4, height: 1, bitsPerPixel: 8, rows: [], palette: colours)
        long.compression = 1
        long.pixelData = [10, 1, 0, 0]
        #expect(try decodeRGBA(long) == rgba([1, 1, 1, 1], colours))
        long.pixelData = [0, 2, 200, 200]
        #expect(try decodeRGBA(long) == rgba([0, 0, 0, 0], colours))
        for data: [UInt8] in [[3, 1], [3], [0, 5, 1, 2], [0, 2, 1]] {
            long.pixelData = data
            #expect(throws: ImageError.truncated(.bmp)) { try decodeRGBA(long) }
        }
    }

    @Test func negativeHeightsDownToInt32Min() throws {
        var bmp = BMPFile(width: 1, height: 1 << 31, bitsPerPixel: 8, rows: [], palette: colours)
        bmp.topDown = true
        #expect(Array(bmp.bytes[22..<26]) == [0, 0, 0, 0x80])
        #expect(throws: ImageError.tooLarge(width: 1, height: 1 << 31, limit: 100_000_000)) { try decodeRGBA(bmp) }
        #expect(throws: ImageError.truncated(.bmp)) { try decodeRGBA(bmp, limits: ImageLimits(maxPixels: .max)) }
        var wide = BMPFile(width: 1 << 31, height: 1, bitsPerPixel: 32, rows: [])
        wide.topDown = true
        #expect(throws: ImageError.corrupt(.bmp, "the image size -2147483648×1 is empty")) { try decodeRGBA(wide) }
    }

    @Test func truncatedFilesAreRefused() throws {
        for bmp in [BMPFile.rgb(width: 5, height: 4, pixels: pattern(60, maximum: 255).map(UInt8.init)),
                    BMPFile.gray(width: 5, height: 4, pixels: pattern(20, maximum: 255).map(UInt8.init))] {
            let bytes = bmp.bytes
            let full = try ImageDecoder().decodeRGBA(bytes).image
            // From the shortest file the sniffer takes for a BMP; only the last row's padding may be missing.
            let complete = bytes.count - (bmp.bitsPerPixel == 24 ? 1 : 3)
            for length in 26..<complete {
                #expect(throws: ImageError.truncated(.bmp)) { try ImageDecoder().decodeRGBA(Array(bytes[0..<length])) }
            }
            for length in complete...bytes.count {
                #expect(try ImageDecoder().decodeRGBA(Array(bytes[0..<length])).image == full)
            }
        }
    }

    @Test func unsupportedAndInvalidHeaders() {
        var bmp = BMPFile(width: 2, height: 2, bitsPerPixel: 8, rows: [[0, 1], [1, 0]], palette: colours)
        bmp.compression = 4
        #expect(throws: ImageError.unsupportedFormat("a BMP holding a JPEG image")) { try decodeRGBA(bmp) }
        bmp.compression = 5
        #expect(throws: ImageError.unsupportedFormat("a BMP holding a PNG image")) { try decodeRGBA(bmp) }
        bmp.compression = 9
        #expect(throws: ImageError.corrupt(.bmp, "the compression type 9 is unknown")) { try decodeRGBA(bmp) }
        bmp.compression = 2
        #expect(throws: ImageError.corrupt(.bmp, "8 bits per pixel do not go with compression type 2")) { try decodeRGBA(bmp) }
        bmp.compression = 0
        bmp.bitsPerPixel = 2
        #expect(throws: ImageError.corrupt(.bmp, "2 bits per pixel do not go with compression type 0")) { try decodeRGBA(bmp) }
        bmp.bitsPerPixel = 8
        bmp.width = 0
        #expect(throws: ImageError.corrupt(.bmp, "the image size 0×2 is empty")) { try decodeRGBA(bmp) }
        bmp.width = 2
        var bytes = bmp.bytes
        bytes[10] = 20
        #expect(throws: ImageError.corrupt(.bmp, "the pixel data offset 20 lies inside the headers")) { try ImageDecoder().decodeRGBA(bytes) }
        // No palette entries between the headers and the pixels.
        bytes[10...11] = [54, 0]
        #expect(throws: ImageError.corrupt(.bmp, "the colour table has 0 entries")) { try ImageDecoder().decodeRGBA(bytes) }
    }

    @Test func textStartingWithBMIsNotABitmap() {
        let text = Array("BM is a fine name for a file that is not a bitmap".utf8)
        #expect(throws: ImageError.unsupportedFormat("unknown signature 42 4D 20 69")) { try ImageDecoder().decodeRGBA(text) }
        // An OS/2 2.x header (64 bytes) is not one QRKit reads.
        var bmp = BMPFile(width: 2, height: 2, bitsPerPixel: 24, rows: [[UInt8](repeating: 0, count: 6), [UInt8](repeating: 0, count: 6)])
        bmp.headerSize = 64
        #expect(throws: ImageError.unsupportedFormat("unknown signature 42 4D 5E 00")) { try decodeRGBA(bmp) }
    }

    @Test func hugeDimensionsAreRefusedBeforeAllocating() {
        let bmp = BMPFile(width: 100_000, height: 100_000, bitsPerPixel: 24, rows: [])
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) { try decodeRGBA(bmp) }
    }

    @Test(arguments: ["bmp1", "bmp4", "bmp8", "bmp24", "bmp32", "rle8"])
    func filesMatchTheirPNG(name: String) throws {
        let bmp = try ImageDecoder().decodeRGBA(try Fixtures.bytes(name + ".bmp"))
        #expect(bmp.format == .bmp)
        #expect(bmp.image == (try ImageDecoder().decodeRGBA(try Fixtures.bytes(name + ".png")).image))
    }
}
