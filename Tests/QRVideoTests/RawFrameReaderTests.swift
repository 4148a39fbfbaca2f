import Testing
@testable import QRVideo

@Suite("Raw gray frames")
struct RawFrameReaderTests {
    @Test func framesBackToBack() throws {
        let frames = (0..<3).map { lumaPattern(width: 6, height: 4, index: $0) }
        var reader = try RawFrameReader(bytes: frames.flatMap { $0 }, width: 6, height: 4,
                                        frameRate: try #require(FrameRate(numerator: 10, denominator: 1)))
        let read = try allFrames(&reader)
        #expect(read.map(\.luminance) == frames)
        #expect(read.map(\.timestamp) == [.zero, .milliseconds(100), .milliseconds(200)])
    }

    @Test func emptyInputHasNoFrames() throws {
        var reader = try RawFrameReader(bytes: [], width: 6, height: 4)
        #expect(try allFrames(&reader).isEmpty)
    }

    @Test func partialLastFrameIsAnError() throws {
        var reader = try RawFrameReader(bytes: [UInt8](repeating: 1, count: 24 + 10), width: 6, height: 4)
        let first = try reader.nextFrame()
        #expect(first?.index == 0)
        #expect(throws: VideoStreamError.truncatedFrame(index: 1, received: 10, expected: 24)) { try reader.nextFrame() }
        let afterError = try reader.nextFrame()
        #expect(afterError == nil)
    }

    @Test func sizesAreCheckedBeforeReading() {
        #expect(throws: VideoStreamError.invalidFrameSize(width: 0, height: 4)) { try RawFrameReader(bytes: [], width: 0, height: 4) }
        #expect(throws: VideoStreamError.invalidFrameSize(width: 4, height: -1)) { try RawFrameReader(bytes: [], width: 4, height: -1) }
        #expect(throws: VideoStreamError.frameTooLarge(width: 1 << 40, height: 1 << 40, limit: 100_000_000)) {
            try RawFrameReader(bytes: [], width: 1 << 40, height: 1 << 40)
        }
    }
}

@Suite("Frame rates")
struct FrameRateTests {
    @Test func parsing() {
        #expect(FrameRate(parsing: "30") == FrameRate(numerator: 30, denominator: 1))
        #expect(FrameRate(parsing: "29.97") == FrameRate(numerator: 2997, denominator: 100))
        #expect(FrameRate(parsing: "30000/1001") == FrameRate(numerator: 30000, denominator: 1001))
        #expect(FrameRate(parsing: "25:1") == FrameRate(numerator: 25, denominator: 1))
        for bad in ["0", "-5", "abc", "1/0", "30/", "1e3", "", ".5", "3.", "99999999999"] {
            #expect(FrameRate(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func timestampsAreExact() throws {
        let ntsc = try #require(FrameRate(numerator: 30000, denominator: 1001))
        #expect(ntsc.timestamp(ofFrame: 30000) == .seconds(1001))
        #expect(ntsc.timestamp(ofFrame: 0) == .zero)
        #expect(ntsc.frameDuration == Duration(secondsComponent: 0, attosecondsComponent: 33_366_666_666_666_666))
        #expect(ntsc.description == "30000/1001 fps")
    }
}

@Suite("Repeat filter")
struct RepeatFilterTests {
    /// Which texts of each decoded frame (stream time in milliseconds, texts shown) a fresh filter reports.
    func news(window: Duration, _ frames: [(Int, [String])]) -> [[String]] {
        var filter = RepeatFilter(window: window)
        return frames.map { time, texts in
            zip(texts, filter.admit(texts, at: .milliseconds(time))).filter(\.1).map(\.0)
        }
    }

    @Test(arguments: [Duration.zero, .milliseconds(30), .seconds(5)])
    func aCodeInSightInEveryFrameIsReportedOnce(window: Duration) {
        let frames = (0..<250).map { ($0 * 40, ["A"]) }
        #expect(news(window: window, frames).joined().count == 1)
    }

    @Test func aCodeOutOfSightForLongerThanTheWindowIsNewsAgain() {
        let frames = [(0, ["A"]), (1000, ["A", "B"]), (1040, []),
                      // Out of sight for exactly the window since last seen: the same sighting.
                      (6000, ["A"]), (6040, []),
                      // Any longer: news again, and B, gone since 1000, too.
                      (11_041, ["A", "B"])]
        #expect(news(window: .seconds(5), frames) == [["A"], ["B"], [], [], [], ["A", "B"]])
    }

    @Test func zeroWindowReportsACodeAgainAfterAnyFrameWithoutIt() {
        #expect(news(window: .zero, [(0, ["A", "A"]), (40, ["A"]), (80, []), (120, ["A"])]) == [["A"], [], [], ["A"]])
    }
}
