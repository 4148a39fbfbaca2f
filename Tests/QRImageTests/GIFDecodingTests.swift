import Testing
import QRTestSupport
import QRImage

/// Eight colours as a GIF table: RGB triples.
private let colours: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255, 255, 255, 255]
/// Four gray levels.
private let grays: [UInt8] = [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]

/// `indices` looked up in `table`, as opaque RGBA.
private func rgba(_ indices: [UInt8], _ table: [UInt8]) -> [UInt8] {
    indices.flatMap { Array(table[3 * Int($0)..<3 * Int($0) + 3]) + [255] }
}

/// A fixed pseudo-random run of indices below `count`.
private func pattern(_ length: Int, count: Int, seed: UInt64 = 7) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    return (0..<length).map { _ in UInt8.random(in: 0...UInt8(count - 1), using: &random) }
}

private func decodeRGBA(_ gif: GIFFile, limits: ImageLimits = ImageLimits()) throws -> RGBAImage {
    try ImageDecoder(limits: limits).decodeRGBA(gif.bytes).image
}

@Suite("GIF decoding")
struct GIFDecodingTests {
    @Test func colourImageDecodesExactly() throws {
        let indices = pattern(7 * 5, count: 8)
        let gif = GIFFile(width: 7, height: 5, indices: indices, globalTable: colours, minimumCodeSize: 3)
        let decoded = try ImageDecoder().decodeRGBA(gif.bytes)
        #expect(decoded.format == .gif && decoded.orientation == .up)
        #expect(decoded.image == (try RGBAImage(width: 7, height: 5, pixels: rgba(indices, colours))))
        var old = gif
        old.signature = "GIF87a"
        #expect(try decodeRGBA(old).pixels == rgba(indices, colours))
    }

    @Test func grayTableDecodesToGray() throws {
        let indices = pattern(6 * 4, count: 4)
        let gif = GIFFile(width: 6, height: 4, indices: indices, globalTable: grays, minimumCodeSize: 2)
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == indices.map { $0 * 85 })
    }

    /// Eleven rows use all four passes; the rows come back in picture order.
    @Test(arguments: [1, 2, 3, 4, 5, 8, 9, 11])
    func interlacedRowsReturnToTheirPlace(height: Int) throws {
        let indices = (0..<(3 * height)).map { UInt8($0 / 3 % 8) }
        let gif = GIFFile(width: 3, height: height, indices: indices, globalTable: colours, minimumCodeSize: 3, interlaced: true)
        #expect(try decodeRGBA(gif).pixels == rgba(indices, colours))
    }

    @Test func transparentColourComesOutTransparentAndWhiteInGray() throws {
        let indices: [UInt8] = [0, 1, 2, 3, 1, 0]
        var gif = GIFFile(width: 3, height: 2, indices: indices, globalTable: grays, minimumCodeSize: 2)
        gif.extensions = [GIFFile.graphicControl(transparentIndex: 1)]
        let image = try decodeRGBA(gif)
        #expect(image.pixels == [0, 0, 0, 255, 0, 0, 0, 0, 170, 170, 170, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255])
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [0, 255, 170, 255, 255, 0])
        // Without the transparency flag, the same extension changes nothing.
        gif.extensions = [GIFFile.graphicControl(transparentIndex: nil)]
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [0, 85, 170, 255, 85, 0])
    }

    @Test func screenTheFrameDoesNotCoverIsTransparent() throws {
        var gif = GIFFile(width: 2, height: 2, indices: [0, 1, 2, 3], globalTable: grays, minimumCodeSize: 2)
        (gif.screenWidth, gif.screenHeight, gif.left, gif.top) = (4, 3, 1, 1)
        let image = try decodeRGBA(gif)
        #expect(image.width == 4 && image.height == 3)
        #expect(image.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
                == [0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0])
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [255, 255, 255, 255, 255, 0, 85, 255, 255, 170, 255, 255])
    }

    @Test func frameReachingPastTheScreenIsClipped() throws {
        var gif = GIFFile(width: 3, height: 3, indices: [0, 1, 2, 3, 0, 1, 2, 3, 0], globalTable: grays, minimumCodeSize: 2)
        (gif.screenWidth, gif.screenHeight) = (2, 2)
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [0, 85, 255, 0])
        (gif.left, gif.top) = (1, 0)
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [255, 0, 255, 255])
        // A frame wholly outside the screen leaves it transparent.
        (gif.left, gif.top) = (5, 9)
        #expect(try ImageDecoder().decodeGray(gif.bytes).image.pixels == [255, 255, 255, 255])
    }

    @Test func localTableTakesPrecedenceOverTheGlobalOne() throws {
        let indices: [UInt8] = [0, 1, 2, 3]
        var gif = GIFFile(width: 4, height: 1, indices: indices, globalTable: grays, minimumCodeSize: 2)
        gif.localTable = Array(colours[0..<12])
        #expect(try decodeRGBA(gif).pixels == rgba(indices, colours))
        gif.globalTable = nil
        #expect(try decodeRGBA(gif).pixels == rgba(indices, colours))
    }

    @Test func extensionsBeforeTheImageAreSkippedAndLaterFramesIgnored() throws {
        let indices = pattern(5 * 5, count: 4)
        var gif = GIFFile(width: 5, height: 5, indices: indices, globalTable: grays, minimumCodeSize: 2)
        gif.extensions = [GIFFile.loopExtension, GIFFile.comment(String(repeating: "QR ", count: 200)),
                          [0x21, 0x01, 12] + [UInt8](repeating: 0, count: 12) + [3, 65, 66, 67, 0],  // plain text
                          GIFFile.graphicControl(transparentIndex: nil)]
        gif.subBlockSize = 1
        var bytes = gif.bytes
        // A second frame, all white, before the trailer: only the first is read.
        let second = GIFFile(width: 5, height: 5, indices: [UInt8](repeating: 3, count: 25), globalTable: nil, minimumCodeSize: 2)
        let secondFrame = Array(second.bytes.dropFirst(13).dropLast())
        bytes.insert(contentsOf: GIFFile.graphicControl(transparentIndex: 0) + secondFrame, at: bytes.count - 1)
        #expect(try ImageDecoder().decodeGray(bytes).image.pixels == indices.map { $0 * 85 })
    }

    @Test(arguments: [2, 3, 4, 5, 6, 7, 8])
    func everyMinimumCodeSize(minimumCodeSize: Int) throws {
        let count = 1 << minimumCodeSize
        let table = (0..<count).flatMap { i -> [UInt8] in [UInt8(i * 255 / (count - 1)), UInt8(i % 7 * 30), 9] }
        let indices = pattern(40 * 30, count: count, seed: UInt64(minimumCodeSize))
        let gif = GIFFile(width: 40, height: 30, indices: indices, globalTable: table, minimumCodeSize: minimumCodeSize)
        #expect(try decodeRGBA(gif).pixels == rgba(indices, table))
    }

    /// Random indices fill the table: codes widen to 9, 10, 11 and 12 bits, then the encoder clears, or with a
    /// deferred clear keeps going with 12-bit codes and a table that no longer grows.
    @Test(arguments: [true, false])
    func codesWidenToTwelveBitsAndTheTableFills(clearWhenFull: Bool) throws {
        let table = (0..<256).flatMap { i -> [UInt8] in [UInt8(i), UInt8(255 - i), UInt8(i / 2)] }
        let indices = pattern(160 * 120, count: 256)
        let codes = LZWEncoder.codes(indices, minimumCodeSize: 8, clearWhenFull: clearWhenFull)
        #expect(Set(codes.map(\.width)) == [9, 10, 11, 12])
        let clears = codes.filter { $0.value == 256 }.count
        #expect(clearWhenFull ? clears > 2 : clears == 1)
        let gif = GIFFile(width: 160, height: 120, indices: indices, globalTable: table, clearWhenFull: clearWhenFull)
        #expect(try decodeRGBA(gif).pixels == rgba(indices, table))
    }

    @Test func clearCodesMidStream() throws {
        let indices = pattern(30 * 20, count: 8)
        let gif = GIFFile(width: 30, height: 20, indices: indices, globalTable: colours, minimumCodeSize: 3, clearEvery: 5)
        #expect(try decodeRGBA(gif).pixels == rgba(indices, colours))
        // A stream without any clear code decodes too.
        var noClear = gif
        noClear.imageData = LZWEncoder.pack(Array(LZWEncoder.codes(indices, minimumCodeSize: 3).dropFirst()))
        #expect(try decodeRGBA(noClear).pixels == rgba(indices, colours))
    }

    /// Indices past the table take entry 0's colour: the chosen behaviour for this damage.
    @Test func pixelIndexPastTheTableTakesEntryZero() throws {
        let gif = GIFFile(width: 4, height: 1, indices: [1, 2, 3, 0], globalTable: [10, 20, 30, 40, 50, 60], minimumCodeSize: 2)
        #expect(try decodeRGBA(gif).pixels == [40, 50, 60, 255, 10, 20, 30, 255, 10, 20, 30, 255, 10, 20, 30, 255])
    }

    @Test func truncatedFilesAreRefused() throws {
        let indices = pattern(20 * 20, count: 4)
        var gif = GIFFile(width: 20, height: 20, indices: indices, globalTable: grays, minimumCodeSize: 2)
        gif.extensions = [GIFFile.comment("cut")]
        let bytes = gif.bytes
        let full = try ImageDecoder().decodeGray(bytes).image
        // Every cut after the signature and before the frame's last sub-block ends is truncated.
        for length in 6..<(bytes.count - 1) {
            #expect(throws: ImageError.truncated(.gif)) { try ImageDecoder().decodeGray(Array(bytes[0..<length])) }
        }
        // Only the trailer missing: the frame is whole.
        #expect(try ImageDecoder().decodeGray(Array(bytes.dropLast())).image == full)

        // Complete sub-blocks whose codes stop early: by the data's end, or by an end code.
        var short = gif
        short.imageData = LZWEncoder.pack(LZWEncoder.codes(Array(indices.prefix(399)), minimumCodeSize: 2))
        #expect(throws: ImageError.truncated(.gif)) { try decodeRGBA(short) }
        short.imageData = LZWEncoder.pack(Array(LZWEncoder.codes(indices, minimumCodeSize: 2).dropLast(20)))
        #expect(throws: ImageError.truncated(.gif)) { try decodeRGBA(short) }
        short.imageData = []
        #expect(throws: ImageError.truncated(.gif)) { try decodeRGBA(short) }
    }

    @Test func codesNotInTheTableAreCorrupt() {
        var gif = GIFFile(width: 4, height: 1, indices: [0, 1, 2, 3], globalTable: grays, minimumCodeSize: 2)
        // Clear (4), then 1, then 9: only codes up to 6 (the string being defined) are valid.
        gif.imageData = LZWEncoder.pack([.init(4, width: 3), .init(1, width: 3), .init(7, width: 3), .init(5, width: 3)])
        #expect(throws: ImageError.corrupt(.gif, "the LZW code 7 is not in the table (the next free code is 6)")) {
            try decodeRGBA(gif)
        }
        // The first code after a clear has no string to extend: it must be a single pixel.
        gif.imageData = LZWEncoder.pack([.init(4, width: 3), .init(6, width: 3), .init(5, width: 3)])
        #expect(throws: ImageError.corrupt(.gif, "the LZW code 6 is not in the table (the next free code is 6)")) {
            try decodeRGBA(gif)
        }
    }

    @Test func damagedHeadersAreRefused() {
        let gif = GIFFile(width: 2, height: 2, indices: [0, 1, 2, 3], globalTable: grays, minimumCodeSize: 2)
        var noTable = gif
        noTable.globalTable = nil
        #expect(throws: ImageError.corrupt(.gif, "the image has no colour table")) { try decodeRGBA(noTable) }
        for size in [0, 1, 9, 12] {
            var codeSize = gif
            codeSize.minimumCodeSize = size
            #expect(throws: ImageError.corrupt(.gif, "the LZW minimum code size \(size) is outside 2…8")) { try decodeRGBA(codeSize) }
        }
        var empty = gif
        empty.screenWidth = 0
        #expect(throws: ImageError.corrupt(.gif, "the image size 0×2 is empty")) { try decodeRGBA(empty) }
        empty = gif
        empty.height = 0
        #expect(throws: ImageError.corrupt(.gif, "the frame size 2×0 is empty")) { try decodeRGBA(empty) }
        let headerAndTable = Array(gif.bytes.prefix(13 + 12))
        #expect(throws: ImageError.corrupt(.gif, "the file holds no image")) { try ImageDecoder().decodeGray(headerAndTable + [0x3B]) }
        #expect(throws: ImageError.corrupt(.gif, "unexpected block type 0 at byte 25")) {
            try ImageDecoder().decodeGray(headerAndTable + [0x00, 0x2C])
        }
    }

    @Test func oversizeDimensionsAreRefusedBeforeAllocating() {
        // A 65535 × 65535 screen in a 13-byte file.
        let header = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        #expect(throws: ImageError.tooLarge(width: 65535, height: 65535, limit: 100_000_000)) { try ImageDecoder().decodeGray(header) }
        var gif = GIFFile(width: 2, height: 2, indices: [0, 1, 2, 3], globalTable: grays, minimumCodeSize: 2)
        #expect(throws: ImageError.tooLarge(width: 2, height: 2, limit: 3)) { try decodeRGBA(gif, limits: ImageLimits(maxPixels: 3)) }
        // A frame larger than the limit on a small screen is refused too.
        (gif.width, gif.height) = (65535, 65535)
        #expect(throws: ImageError.tooLarge(width: 65535, height: 65535, limit: 100_000_000)) { try decodeRGBA(gif) }
        // Within the limit, but more pixels than a few bytes of codes can produce: truncated, before allocating.
        (gif.width, gif.height) = (10_000, 10_000)
        #expect(throws: ImageError.truncated(.gif)) { try decodeRGBA(gif) }
    }

    @Test(arguments: ["qr-like", "interlaced", "transparent"])
    func filesWrittenByPillowMatchTheirPNG(name: String) throws {
        let gif = try ImageDecoder().decodeRGBA(try Fixtures.bytes(name + ".gif"))
        #expect(gif.format == .gif)
        #expect(gif.image == (try ImageDecoder().decodeRGBA(try Fixtures.bytes(name + ".png")).image))
        #expect(try ImageDecoder().decodeGray(try Fixtures.bytes(name + ".gif")).image
                == (try ImageDecoder().decodeGray(try Fixtures.bytes(name + ".png")).image))
    }
}
