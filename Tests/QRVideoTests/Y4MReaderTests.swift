import Foundation
import Testing
@testable import QRVideo

/// All frames of a reader.
func allFrames(_ reader: inout some FrameReader) throws(VideoStreamError) -> [VideoFrame] {
    var frames: [VideoFrame] = []
    while let frame = try reader.nextFrame() { frames.append(frame) }
    return frames
}

/// The error reading `bytes` as Y4M ends with, or nil if it reads cleanly.
func y4mError(_ bytes: [UInt8]) -> VideoStreamError? {
    var reader = Y4MReader(bytes: bytes)
    do {
        _ = try allFrames(&reader)
        return nil
    } catch {
        return error
    }
}

@Suite("Y4M stream parsing")
struct Y4MReaderTests {
    /// Every 8-bit colour space with its size of the other planes, for an odd 5 × 3 frame (chroma sizes round up).
    static let eightBitSpaces: [(tag: String, other: Int)] = [
        ("Cmono", 0), ("C411", 2 * 2 * 3), ("C420", 2 * 3 * 2), ("C420jpeg", 2 * 3 * 2), ("C420paldv", 2 * 3 * 2),
        ("C420mpeg2", 2 * 3 * 2), ("C422", 2 * 3 * 3), ("C444", 2 * 5 * 3), ("C444alpha", 3 * 5 * 3),
        ("", 2 * 3 * 2), ("XYSCSS=422", 2 * 3 * 3),
    ]

    @Test(arguments: eightBitSpaces)
    func lumaOfEveryColorSpace(_ space: (tag: String, other: Int)) throws {
        let frames = (0..<3).map { lumaPattern(width: 5, height: 3, index: $0) }
        let writer = Y4MWriter(width: 5, height: 3, tags: "F30:1 " + space.tag, otherPlanesBytes: space.other)
        var reader = Y4MReader(bytes: writer.stream(frames))
        let read = try allFrames(&reader)
        #expect(read.map(\.luminance) == frames)
        #expect(read.map(\.index) == [0, 1, 2])
        #expect(read.allSatisfy { $0.width == 5 && $0.height == 3 })
    }

    @Test(arguments: [("Cmono16", 0, 16), ("Cmono10", 0, 10), ("C420p10", 2 * 3 * 2, 10), ("C422p12", 2 * 3 * 3, 12),
                      ("C444p16", 2 * 5 * 3, 16), ("XYSCSS=420P9", 2 * 3 * 2, 9)])
    func highBitDepthKeepsTheTopEightBits(_ tag: String, otherSamples: Int, depth: Int) throws {
        let samples: [UInt16] = (0..<15).map { UInt16($0 * 1000 % (1 << depth)) }
        let expected = samples.map { UInt8($0 >> (depth - 8)) }
        let little = samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let writer = Y4MWriter(width: 5, height: 3, tags: tag, otherPlanesBytes: 2 * otherSamples)
        var reader = Y4MReader(bytes: writer.stream([little, little]))
        let read = try allFrames(&reader)
        #expect(read.map(\.luminance) == [expected, expected])
        #expect(reader.header?.colorSpace.bitDepth == depth)
    }

    @Test func headerTags() throws {
        let writer = Y4MWriter(width: 4, height: 2, tags: "F30000:1001 It A10:11 C420mpeg2 XYSCSS=420MPEG2 XCOLORRANGE=LIMITED Zunknown",
                               otherPlanesBytes: 4)
        var reader = Y4MReader(bytes: writer.stream([lumaPattern(width: 4, height: 2, index: 0)]))
        _ = try reader.nextFrame()
        let header = try #require(reader.header)
        #expect(header.width == 4 && header.height == 2)
        #expect(header.frameRate == FrameRate(numerator: 30000, denominator: 1001))
        #expect(header.interlacing == .topFieldFirst)
        #expect(header.pixelAspectRatio == Y4MHeader.PixelAspectRatio(numerator: 10, denominator: 11))
        #expect(header.colorSpace.name == "420mpeg2")
        #expect(header.extensions == ["YSCSS=420MPEG2", "COLORRANGE=LIMITED"])
    }

    @Test func missingOrUnknownRateMeans25FramesPerSecond() throws {
        for tags in ["Cmono", "F0:0 Cmono"] {
            let header = try Y4MHeader(parsing: Array("YUV4MPEG2 W8 H8 \(tags)".utf8))
            #expect(header.frameRate == .default)
            #expect(header.frameRate.framesPerSecond == 25)
        }
    }

    @Test func timestampsFollowTheFrameRate() throws {
        let writer = Y4MWriter(width: 2, height: 1, tags: "F30000:1001 Cmono")
        var reader = Y4MReader(bytes: writer.stream(Array(repeating: [1, 2], count: 4)))
        let frames = try allFrames(&reader)
        // 1001/30000 s per frame, exactly.
        #expect(frames[3].timestamp == .microseconds(100_100))
        #expect(frames[1].duration == frames[1].timestamp)
    }

    @Test func frameHeadersWithParameters() throws {
        let writer = Y4MWriter(width: 3, height: 2, tags: "F25:1 Cmono")
        let frames = [[UInt8](repeating: 9, count: 6), [UInt8](repeating: 10, count: 6)]
        var reader = Y4MReader(bytes: writer.stream(frames, frameHeader: "FRAME Ip XFOO=bar"))
        #expect(try allFrames(&reader).map(\.luminance) == frames)
    }

    @Test func badMagic() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        guard case let .notY4M(found)? = y4mError(png) else {
            Issue.record("PNG data read as Y4M")
            return
        }
        #expect(found.hasPrefix("bytes 89 50 4e 47"))
        #expect(y4mError(Array("YUV4MPEG W2 H2\nFRAME\n1234".utf8)) == .notY4M(found: "\"YUV4MPEG W2 H2\""))
        #expect(y4mError(Array("P5\n2 2\n255\n".utf8)) == .notY4M(found: "\"P5\""))
        // Binary data without a newline for longer than a header may be.
        #expect(y4mError([UInt8](repeating: 0, count: 10_000))?.description.contains("not a Y4M") == true)
        #expect(VideoStreamError.notY4M(found: "\"P5\"").description == "The input is not a Y4M (YUV4MPEG2) stream: it starts with \"P5\".")
    }

    @Test func emptyAndTruncatedHeaders() {
        #expect(y4mError([]) == .emptyStream)
        #expect(y4mError(Array("YUV4MPEG2 W2 H2 Cmo".utf8)) == .truncatedHeader)
        #expect(y4mError(Array("YUV4".utf8)) == .truncatedHeader)
        #expect(y4mError(Array(("YUV4MPEG2 W2 H2 X" + String(repeating: "a", count: 5000) + "\n").utf8)) == .headerTooLong(limit: 4096))
    }

    @Test func missingAndInvalidTags() {
        #expect(y4mError(Array("YUV4MPEG2 H2 Cmono\n".utf8)) == .missingHeaderTag("W"))
        #expect(y4mError(Array("YUV4MPEG2 W2 Cmono\n".utf8)) == .missingHeaderTag("H"))
        #expect(VideoStreamError.missingHeaderTag("H").description == "The Y4M header has no height (tag H).")
        for bad in ["W0", "W-3", "Wx", "W1234567890", "F30:0", "F0:1", "F30", "Ix", "A1", "Fa:b"] {
            let error = y4mError(Array("YUV4MPEG2 W2 H2 Cmono \(bad)\n".utf8))
            #expect(error == .invalidHeaderTag(bad), "\(bad)")
        }
        for space in ["C410", "Crgb", "C420p17", "C444alphap10", "C420jpegp10"] {
            #expect(y4mError(Array("YUV4MPEG2 W2 H2 \(space)\n".utf8)) == .unsupportedColorSpace(String(space.dropFirst())))
        }
        #expect(VideoStreamError.unsupportedColorSpace("410").description.contains("-pix_fmt gray"))
    }

    @Test func absurdSizesAreRefusedBeforeAllocating() {
        #expect(y4mError(Array("YUV4MPEG2 W100000 H100000 Cmono\n".utf8))
                == .frameTooLarge(width: 100_000, height: 100_000, limit: 100_000_000))
        #expect(y4mError(Array("YUV4MPEG2 W999999999 H999999999 C444alpha\nFRAME\n".utf8))
                == .frameTooLarge(width: 999_999_999, height: 999_999_999, limit: 100_000_000))
        var small = Y4MReader(bytes: Array("YUV4MPEG2 W100 H100 Cmono\nFRAME\n".utf8), maxPixels: 9_999)
        #expect(throws: VideoStreamError.frameTooLarge(width: 100, height: 100, limit: 9_999)) { try small.nextFrame() }
    }

    @Test func truncatedFrames() throws {
        let writer = Y4MWriter(width: 4, height: 4, tags: "C420", otherPlanesBytes: 8)
        let whole = writer.stream([lumaPattern(width: 4, height: 4, index: 0), lumaPattern(width: 4, height: 4, index: 1)])
        let frameLength = 6 + 16 + 8
        // Cut in the luma plane, in the chroma planes, and inside the second FRAME line.
        #expect(y4mError(Array(whole.dropLast(frameLength - 6 - 10))) == .truncatedFrame(index: 1, received: 10, expected: 24))
        #expect(y4mError(Array(whole.dropLast(3))) == .truncatedFrame(index: 1, received: 21, expected: 24))
        #expect(y4mError(Array(whole.dropLast(frameLength - 3))) == .truncatedFrame(index: 1, received: 0, expected: 24))
        #expect(VideoStreamError.truncatedFrame(index: 1, received: 21, expected: 24).description
                == "The stream ends in the middle of frame 1: 21 of its 24 bytes arrived.")
        // The frame before the cut is still delivered.
        var reader = Y4MReader(bytes: Array(whole.dropLast(3)))
        let first = try? reader.nextFrame()
        #expect(first?.index == 0)
        #expect(throws: VideoStreamError.self) { try reader.nextFrame() }
        let afterError = try reader.nextFrame()
        #expect(afterError == nil)
    }

    @Test func wrongFrameSizeShowsAsBadFrameHeader() {
        // Header says 4×4 gray; the frames are really 4×5, so the second FRAME line is not where expected.
        let writer = Y4MWriter(width: 4, height: 4, tags: "Cmono")
        let frames = [[UInt8](repeating: 65, count: 20), [UInt8](repeating: 65, count: 20)]
        #expect(y4mError(writer.stream(frames)) == .badFrameHeader(index: 1, found: "\"AAAAFRAME\""))
    }

    @Test func readsIncrementallyFromAPipe() async throws {
        // Frames larger than the read buffer, written in uneven pieces: reads must join them up.
        let width = 400, height = 300
        let writer = Y4MWriter(width: width, height: height, tags: "F30:1 C420jpeg", otherPlanesBytes: 2 * 200 * 150)
        let frames = (0..<4).map { lumaPattern(width: width, height: height, index: $0) }
        let bytes = writer.stream(frames)
        let pipe = Pipe()
        let output = pipe.fileHandleForWriting
        let feeder = Task.detached {
            var offset = 0, piece = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                output.write(Data(bytes[offset..<end]))
                offset = end
                piece = piece * 7 % 100_003 + 1
            }
            try output.close()
        }
        var read: [[UInt8]] = []
        for try await frame in VideoFrames(Y4MReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor)) {
            read.append(frame.luminance)
        }
        try await feeder.value
        #expect(read == frames)
    }
}
