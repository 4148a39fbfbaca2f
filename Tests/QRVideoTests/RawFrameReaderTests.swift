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
    /// Which of `sightings` (text, stream time in milliseconds) a fresh filter reports.
    func news(window: Duration, _ sightings: [(String, Int)]) -> [Bool] {
        var filter = RepeatFilter(window: window)
        return sightings.map { filter.admit($0.0, at: .milliseconds($0.1)) }
    }

    @Test func sameTextWithinTheWindowOfStreamTimeIsNotNews() {
        let sightings = [("A", 0), ("A", 1000), ("B", 1000),
                         // Held in view: every sighting renews it, so it stays old news.
                         ("A", 5000), ("A", 10_000),
                         // Out of sight for exactly the window: the same sighting; any longer: news again.
                         ("A", 15_000), ("A", 20_001), ("B", 20_001)]
        #expect(news(window: .seconds(5), sightings) == [true, false, true, false, false, false, true, true])
    }

    @Test func zeroWindowReportsEverySightingAtALaterTime() {
        #expect(news(window: .zero, [("A", 0), ("A", 0), ("A", 40)]) == [true, false, true])
    }
}
