import Testing
import QRTestSupport
import QRImage

/// A fixed pseudo-random run of values up to `maximum`.
private func pattern(_ length: Int, maximum: Int, seed: UInt64 = 13) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    return (0..<length).map { _ in UInt8(Int.random(in: 0...maximum, using: &random)) }
}

private func decodeRGBA(_ file: TIFFFile) throws -> [UInt8] {
    try ImageDecoder().decodeRGBA(file.bytes).image.pixels
}

private func decodeGray(_ file: TIFFFile) throws -> [UInt8] {
    try ImageDecoder().decodeGray(file.bytes).image.pixels
}

/// Samples of `channels` per pixel (1 gray, 3 RGB) as opaque RGBA.
private func opaque(_ samples: [UInt8], channels: Int) -> [UInt8] {
    stride(from: 0, to: samples.count, by: channels).flatMap { i -> [UInt8] in
        channels == 1 ? [samples[i], samples[i], samples[i], 255] : Array(samples[i..<i + 3]) + [255]
    }
}

/// Rows of `width` values of `bits` bits each, packed most significant bit first, each row padded to a byte.
private func pack(_ values: [UInt8], width: Int, bits: Int) -> [UInt8] {
    stride(from: 0, to: values.count, by: width).flatMap { start -> [UInt8] in
        var row = [UInt8](repeating: 0, count: (width * bits + 7) / 8)
        for x in 0..<width {
            let bit = x * bits
            row[bit / 8] |= values[start + x] << UInt8(8 - bits - bit % 8)
        }
        return row
    }
}

@Suite("TIFF decoding")
struct TIFFDecodingTests {
    /// Files libtiff wrote (through Pillow; see make-tiff-fixtures.py) decode to their PNG's pixels.
    @Test(arguments: ["none", "packbits", "lzw", "lzw-predictor", "deflate", "deflate-predictor16", "gray16", "gray16-mm",
                      "mh", "g3", "g3-2d", "g4", "g4-fillorder2", "1bit-blackiszero", "1bit-whiteiszero", "rgb", "rgba",
                      "palette", "cmyk", "orientation"])
    func filesWrittenByLibtiffMatchTheirPNG(name: String) throws {
        let tiff = try Fixtures.bytes("tiff-\(name).tif"), png = try Fixtures.bytes("tiff-\(name).png")
        let decoded = try ImageDecoder().decodeRGBA(tiff)
        #expect(decoded.format == .tiff)
        #expect(decoded.orientation == (name == "orientation" ? .right : .up))
        #expect(decoded.image == (try ImageDecoder().decodeRGBA(png).image))
        #expect(try ImageDecoder().decodeGray(tiff).image == (try ImageDecoder().decodeGray(png).image))
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func bothByteOrdersClassicAndBigTIFF(bigEndian: Bool, bigTIFF: Bool) throws {
        let rgb = pattern(9 * 4 * 3, maximum: 255)
        var file = TIFFFile.rgbLZW(width: 9, height: 4, pixels: rgb, predictor: true)
        (file.bigEndian, file.bigTIFF) = (bigEndian, bigTIFF)
        // Fields the decoder does not read (ASCII Software, UNDEFINED XMP) are skipped.
        file.set(TIFFFile.Field(305, type: 2, Array("QRKit test\0".utf8).map(Int.init)))
        file.set(TIFFFile.Field(700, type: 7, [60, 120, 47, 62]))
        #expect(try decodeRGBA(file) == opaque(rgb, channels: 3))
    }

    /// 16-bit samples are read as their high byte, which comes first in "MM" files; horizontal differencing
    /// works on whole 16-bit samples, carries included.
    @Test(arguments: [false, true])
    func sixteenBitSamplesWithDifferencingInEitherByteOrder(bigEndian: Bool) throws {
        let width = 7, height = 3
        let levels = (0..<width * height).map { 300 + $0 * 3001 % 65000 }
        var data: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let difference = (levels[i] - (x == 0 ? 0 : levels[i - 1]) + 65536) % 65536
                data += bigEndian ? QRTestSupport.bigEndian(difference, count: 2) : littleEndian(difference, count: 2)
            }
        }
        var file = TIFFFile(width: width, height: height, bits: 16, photometric: 1, compression: 5, chunks: [LZWEncoder.tiff(data)])
        file.bigEndian = bigEndian
        file.set(TIFFFile.Field(317, [2]))
        #expect(try decodeGray(file) == levels.map { UInt8($0 >> 8) })
    }

    /// Levels of 1, 2 and 4 bits fill 0…255; WhiteIsZero turns them over. 13 pixels a row end mid-byte.
    @Test(arguments: [1, 2, 4])
    func smallDepthsScaleToTheFullRange(bits: Int) throws {
        let maximum = (1 << bits) - 1
        let levels = pattern(13 * 3, maximum: maximum)
        let scaled = levels.map { UInt8(Int($0) * 255 / maximum) }
        var file = TIFFFile(width: 13, height: 3, bits: bits, photometric: 1, chunks: [pack(levels, width: 13, bits: bits)])
        #expect(try decodeGray(file) == scaled)
        file.set(TIFFFile.Field(262, [0]))
        #expect(try decodeGray(file) == scaled.map { 255 - $0 })
        // FillOrder 2 stores each byte's bits in reverse: only 1-bit data is written so in practice.
        if bits == 1 {
            file.chunks = [pack(levels, width: 13, bits: 1).map { (byte: UInt8) -> UInt8 in
                var reversed: UInt8 = 0
                for bit in 0..<8 where byte & (1 << bit) != 0 { reversed |= 0x80 >> bit }
                return reversed
            }]
            file.set(TIFFFile.Field(266, [2]))
            #expect(try decodeGray(file) == scaled.map { 255 - $0 })
        }
    }

    /// Planar configuration 2: every sample has its own strips (here 3 strips of 2 rows for each of R, G, B).
    @Test func planarSamplesMatchChunkyOnes() throws {
        let width = 5, height = 5
        let rgb = pattern(width * height * 3, maximum: 255)
        let planes = (0..<3).map { plane in stride(from: plane, to: rgb.count, by: 3).map { rgb[$0] } }
        let strips = planes.flatMap { plane in
            stride(from: 0, to: height, by: 2).map { Array(plane[$0 * width..<min(height, $0 + 2) * width]) }
        }
        var file = TIFFFile(width: width, height: height, samples: 3, photometric: 2, rowsPerStrip: 2, chunks: strips)
        file.set(TIFFFile.Field(284, [2]))
        #expect(try decodeRGBA(file) == opaque(rgb, channels: 3))
        // With too few strips for three planes, the file is damaged.
        file.chunks.removeLast()
        #expect(throws: ImageError.corrupt(.tiff, "the file lists 8 strip offsets for 9 strips")) { try decodeRGBA(file) }
    }

    /// 20×18 pixels in 16×16 tiles: the right and bottom tiles are padded, and the padding is dropped.
    @Test(arguments: [1, 5])
    func tilesCoverTheImageAndTheirPaddingIsDropped(compression: Int) throws {
        let width = 20, height = 18, tile = 16
        let gray = pattern(width * height, maximum: 254)
        var tiles: [[UInt8]] = []
        for top in stride(from: 0, to: height, by: tile) {
            for left in stride(from: 0, to: width, by: tile) {
                let data = (0..<tile * tile).map { i -> UInt8 in
                    let x = left + i % tile, y = top + i / tile
                    return x < width && y < height ? gray[y * width + x] : 255  // padding
                }
                tiles.append(compression == 5 ? LZWEncoder.tiff(data) : data)
            }
        }
        var file = TIFFFile(width: width, height: height, photometric: 1, compression: compression, chunks: tiles)
        file.tiled = true
        file.remove(278)
        file.set(TIFFFile.Field(322, [tile]))
        file.set(TIFFFile.Field(323, [tile]))
        #expect(try decodeGray(file) == gray)
    }

    /// ExtraSamples 1: colour premultiplied by alpha is divided by it again (and composited onto white for gray).
    @Test func premultipliedAlphaIsUndone() throws {
        let straight: [[Int]] = [[200, 100, 50, 255], [200, 100, 50, 128], [255, 0, 0, 64], [9, 9, 9, 0], [0, 0, 255, 200]]
        let premultiplied = straight.flatMap { p in p.prefix(3).map { UInt8(($0 * p[3] + 127) / 255) } + [UInt8(p[3])] }
        var file = TIFFFile(width: 5, height: 1, samples: 4, photometric: 2, chunks: [premultiplied])
        file.set(TIFFFile.Field(338, [1]))
        let decoded = try decodeRGBA(file)
        for (i, p) in straight.enumerated() {
            #expect(decoded[4 * i + 3] == UInt8(p[3]))
            for c in 0..<3 where p[3] > 0 {
                #expect(abs(Int(decoded[4 * i + c]) - p[c]) <= 2, "pixel \(i) channel \(c): \(decoded[4 * i + c]) for \(p[c])")
            }
        }
        // On white: the premultiplied colour plus white where it is transparent.
        let onWhite = straight.map { p in p.prefix(3).map { ($0 * p[3] + 255 * (255 - p[3]) + 127) / 255 } }
        let gray = try decodeGray(file)
        for (i, rgb) in onWhite.enumerated() {
            #expect(abs(Int(gray[i]) - (77 * rgb[0] + 150 * rgb[1] + 29 * rgb[2] + 128) / 256) <= 2)
        }
    }

    /// ExtraSamples 2 (straight alpha) on gray composites onto white; 0 (unspecified) samples are ignored.
    @Test func straightAlphaAndUnspecifiedExtraSamples() throws {
        var file = TIFFFile(width: 3, height: 1, samples: 2, photometric: 1, chunks: [[0, 255, 0, 0, 100, 128]])
        file.set(TIFFFile.Field(338, [2]))
        #expect(try decodeGray(file) == [0, 255, 177])
        #expect(try decodeRGBA(file) == [0, 0, 0, 255, 0, 0, 0, 0, 100, 100, 100, 128])
        file.set(TIFFFile.Field(338, [0]))
        #expect(try decodeGray(file) == [0, 0, 100])
        file.remove(338)
        #expect(try decodeGray(file) == [0, 0, 100])
    }

    /// ColorMap holds 16-bit levels (the high byte is kept); a map with no level above 255 was written with
    /// 8-bit levels by an old writer.
    @Test func palettesWithSixteenAndEightBitColorMaps() throws {
        let indices = pattern(6 * 2, maximum: 15)
        let colors: [[Int]] = (0..<16).map { [($0 * 17) % 256, ($0 * 50) % 256, 255 - $0 * 16] }
        var file = TIFFFile(width: 6, height: 2, bits: 4, photometric: 3, chunks: [pack(indices, width: 6, bits: 4)])
        let expected: [UInt8] = indices.flatMap { index -> [UInt8] in colors[Int(index)].map { UInt8($0) } + [255] }
        for scale in [257, 1] {
            file.set(TIFFFile.Field(320, (0..<3).flatMap { c in colors.map { $0[c] * scale } }))
            #expect(try decodeRGBA(file) == expected)
        }
    }

    @Test(arguments: [(1, ExifOrientation.up), (3, .down), (6, .right), (8, .left), (5, .leftMirrored), (0, .up), (9, .up)])
    func orientationFieldIsReported(value: Int, orientation: ExifOrientation) throws {
        var file = TIFFFile.gray(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        file.set(TIFFFile.Field(274, [value]))
        let decoded = try ImageDecoder().decodeGray(file.bytes)
        #expect(decoded.orientation == orientation)
        #expect(decoded.image.pixels == [1, 2, 3, 4, 5, 6])  // stored, not turned
    }

    /// Data before TIFF 6.0 packed its LZW codes least significant bit first, like GIF, without early change.
    @Test func oldStyleLZWIsRead() throws {
        let gray = pattern(40 * 30, maximum: 255)
        let data = LZWEncoder.pack(LZWEncoder.codes(gray, minimumCodeSize: 8))
        let file = TIFFFile(width: 40, height: 30, photometric: 1, compression: 5, chunks: [data])
        #expect(try decodeGray(file) == gray)
    }

    @Test func deflateAndMissingByteCounts() throws {
        let gray = pattern(12 * 5, maximum: 255)
        var file = TIFFFile(width: 12, height: 5, photometric: 1, compression: 8, chunks: [zlibStored(gray)])
        #expect(try decodeGray(file) == gray)
        file.set(TIFFFile.Field(259, [32946]))
        #expect(try decodeGray(file) == gray)
        // Only uncompressed strips can do without byte counts: their size follows from the image's.
        file.byteCounts = []
        #expect(throws: ImageError.corrupt(.tiff, "the strip byte counts are missing")) { try decodeGray(file) }
        var plain = TIFFFile.gray(width: 12, height: 5, pixels: gray)
        plain.byteCounts = []
        #expect(try decodeGray(plain) == gray)
    }

    @Test func shortOrMissingDataIsTruncated() throws {
        let gray = pattern(12 * 5, maximum: 255)
        var plain = TIFFFile.gray(width: 12, height: 5, pixels: gray, rowsPerStrip: 2)
        plain.byteCounts = [24, 24, 11]
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(plain) }
        plain.byteCounts = [24, 0, 12]
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(plain) }
        plain.byteCounts = nil
        plain.offsetShift = 10_000  // every strip offset past the end of the file
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(plain) }

        let lzw = LZWEncoder.tiff(gray), deflate = zlibStored(gray)
        for (compression, data) in [(5, lzw), (8, deflate)] {
            let cut = TIFFFile(width: 12, height: 5, photometric: 1, compression: compression, chunks: [Array(data.prefix(data.count / 2))])
            #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(cut) }
        }
        let packBits = TIFFFile(width: 12, height: 5, photometric: 1, compression: 32773, chunks: [[0x7F] + Array(gray.prefix(20))])
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(packBits) }
        // An end code before the last pixel.
        let early = LZWEncoder.pack([LZWEncoder.Code(256, width: 9), LZWEncoder.Code(7, width: 9), LZWEncoder.Code(257, width: 9)],
                                    msbFirst: true)
        #expect(throws: ImageError.truncated(.tiff)) { try decodeGray(TIFFFile(width: 2, height: 1, photometric: 1, compression: 5, chunks: [early])) }
    }

    @Test func damagedCompressedDataIsCorrupt() throws {
        var deflate = zlibStored([1, 2, 3, 4])
        deflate[1] = 0x02  // the zlib header's check bits no longer add up
        #expect(throws: ImageError.corrupt(.tiff, "the Deflate data is invalid (incorrect header check)")) {
            try decodeGray(TIFFFile(width: 2, height: 2, photometric: 1, compression: 8, chunks: [deflate]))
        }
        let lzw = LZWEncoder.pack([LZWEncoder.Code(256, width: 9), LZWEncoder.Code(300, width: 9)], msbFirst: true)
        #expect(throws: ImageError.corrupt(.tiff, "the LZW code 300 is not in the table (the next free code is 258)")) {
            try decodeGray(TIFFFile(width: 2, height: 2, photometric: 1, compression: 5, chunks: [lzw]))
        }
    }

    @Test func unsupportedVariantsAreRefusedByName() throws {
        let cases: [(tag: Int, value: Int, message: String)] = [
            (259, 7, "JPEG-compressed TIFF (convert it to JPEG or PNG first)"),
            (259, 6, "JPEG-compressed TIFF (convert it to JPEG or PNG first)"),
            (259, 50000, "TIFF with compression 50000 (Zstandard)"),
            (259, 12345, "TIFF with compression 12345"),
            (262, 6, "YCbCr TIFF"),
            (262, 8, "CIELab TIFF"),
            (262, 77, "TIFF with photometric interpretation 77"),
            (339, 3, "TIFF with floating-point samples"),
            (339, 2, "TIFF with signed integer samples"),
            (258, 12, "TIFF with 12-bit samples"),
            (277, 9, "TIFF with 9 samples per pixel (at most 8 are read)"),
        ]
        for (tag, value, message) in cases {
            var file = TIFFFile.gray(width: 4, height: 4, pixels: [UInt8](repeating: 9, count: 16))
            file.set(TIFFFile.Field(tag, [value]))
            #expect(throws: ImageError.unsupportedFormat(message)) { try decodeGray(file) }
        }
        var predicted = TIFFFile.rgbLZW(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 12))
        predicted.set(TIFFFile.Field(317, [3]))
        #expect(throws: ImageError.unsupportedFormat("TIFF with floating-point prediction (predictor 3)")) { try decodeGray(predicted) }
        #expect(ImageError.unsupportedFormat("JPEG-compressed TIFF (convert it to JPEG or PNG first)").description
                == "Unsupported image format: JPEG-compressed TIFF (convert it to JPEG or PNG first). "
                + "QRKit reads PNG, JPEG, GIF, BMP, TIFF and PNM (PBM/PGM/PPM) images.")
    }

    @Test func damagedDirectoriesAreCorrupt() throws {
        let good = TIFFFile.gray(width: 4, height: 3, pixels: [UInt8](repeating: 7, count: 12))
        func damaged(_ change: (inout TIFFFile) -> Void) -> TIFFFile {
            var file = good
            change(&file)
            return file
        }
        let cases: [(TIFFFile, ImageError)] = [
            (damaged { $0.set(TIFFFile.Field(256, [0])) }, .corrupt(.tiff, "the image size 0×3 is empty")),
            (damaged { $0.remove(256) }, .corrupt(.tiff, "the ImageWidth field is missing")),
            (damaged { $0.set(TIFFFile.Field(256, type: 5, [4, 1])) },
             .corrupt(.tiff, "the ImageWidth field has type 5, not an unsigned integer type")),
            (damaged { $0.set(TIFFFile.Field(278, [0])) }, .corrupt(.tiff, "RowsPerStrip is 0")),
            (damaged { $0.set(TIFFFile.Field(262, [3])) },
             .corrupt(.tiff, "the ColorMap field is missing or holds fewer than 768 values")),
            (damaged { $0.set(TIFFFile.Field(259, [4])) },
             .corrupt(.tiff, "CCITT compression needs one 1-bit sample per pixel, not 1 of 8 bits")),
            (damaged { $0.set(TIFFFile.Field(262, [2])) },
             .corrupt(.tiff, "photometric interpretation 2 needs 3 samples per pixel, not 1")),
            (damaged { $0.set(TIFFFile.Field(284, [3])) }, .corrupt(.tiff, "the planar configuration 3 is neither 1 nor 2")),
        ]
        for (file, error) in cases {
            #expect(throws: error) { try decodeGray(file) }
        }
        var noImage = good.bytes
        noImage[4..<8] = [0, 0, 0, 0]
        #expect(throws: ImageError.corrupt(.tiff, "the file holds no image")) { try ImageDecoder().decodeGray(noImage) }
        var badBigTIFF = good
        badBigTIFF.bigTIFF = true
        var badHeader = badBigTIFF.bytes
        badHeader[4] = 4
        #expect(throws: ImageError.corrupt(.tiff, "the BigTIFF header does not give 8-byte offsets")) {
            try ImageDecoder().decodeGray(badHeader)
        }
    }

    /// A strip count the file cannot list, tiles larger than the pixel limit, or a field longer than the file,
    /// end the decoding before anything is allocated for them (LimitsTests checks the image size itself).
    @Test func hugeClaimsAreRefusedBeforeAllocating() throws {
        var tall = TIFFFile.gray(width: 1, height: 1, pixels: [0])
        tall.set(TIFFFile.Field(257, type: 4, [1_000_000]))
        tall.set(TIFFFile.Field(278, type: 4, [1]))
        #expect(throws: ImageError.corrupt(.tiff, "the file lists 1 strip offsets for 1000000 strips")) { try decodeGray(tall) }

        var tiled = TIFFFile.gray(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 16))
        tiled.tiled = true
        tiled.set(TIFFFile.Field(322, type: 4, [1 << 20]))
        tiled.set(TIFFFile.Field(323, type: 4, [1 << 20]))
        #expect(throws: ImageError.tooLarge(width: 1 << 20, height: 1 << 20, limit: 100_000_000)) { try decodeGray(tiled) }

        // StripOffsets claiming 2^31 values: patch the count of its entry (tag 273, type LONG).
        var bytes = TIFFFile.gray(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 16)).bytes
        let entry = try #require(bytes.indices.dropLast(8).first { Array(bytes[$0..<$0 + 4]) == [0x11, 0x01, 4, 0] })
        bytes[entry + 4..<entry + 8] = [0, 0, 0, 0x80]
        #expect(throws: ImageError.truncated(.tiff)) { try ImageDecoder().decodeGray(bytes) }
    }

    @Test func formatIsSniffedByItsHeader() throws {
        for header: [UInt8] in [[0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2B, 0], [0x4D, 0x4D, 0, 0x2B]] {
            #expect(try ImageFormat.sniff(header + [0, 0, 0, 0]) == .tiff)
        }
        #expect(throws: ImageError.truncated(.tiff)) { try ImageDecoder().decodeGray([0x49, 0x49, 0x2A, 0]) }
    }
}
