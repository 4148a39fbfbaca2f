import Foundation
import QRCore
import QRImage
import QRReader
import Testing
@testable import QRVideo

@Suite("Scanning a generated video")
struct VideoScanTests {
    @Test func everyCodeIsReportedOnceInOrderOfAppearance() async throws {
        let video = TestVideo.threeCodes()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qrkit-video-\(UUID().uuidString).y4m")
        try Data(try video.y4m()).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }

        let frames = VideoFrames(Y4MReader(fileDescriptor: handle.fileDescriptor))
        var reported: [(frame: Int, timestamp: Duration, text: String, center: Point)] = []
        var alphaSeenAgain = false
        var last: VideoScanStatistics?
        for try await scan in VideoScanner(pacing: .everyFrame).scan(frames) {
            for code in scan.newCodes { reported.append((scan.frameIndex, scan.timestamp, code.text, code.center)) }
            alphaSeenAgain = alphaSeenAgain || scan.frameIndex >= 76 && scan.codes.contains { $0.text == "ALPHA-1" }
            last = scan.statistics
        }

        #expect(reported.map(\.text) == ["ALPHA-1", "bravo two", "Charlie #3"])
        for detection in reported {
            // Reported while on screen, where it was drawn, with the frame's stream time (15 fps).
            let expected = try #require(video.center(of: detection.text, inFrame: detection.frame))
            #expect(detection.center.distance(to: expected) < 6, "\(detection)")
            #expect(detection.timestamp == .milliseconds(detection.frame * 1000) / 15)
        }
        // The first code came back within the repeat window: read, but not reported again.
        #expect(alphaSeenAgain)
        #expect(last == VideoScanStatistics(read: 90, decoded: 90, skipped: 0, reported: 3))
    }

    /// A web page's camera frames arrive as messages; an `AsyncStream` hands them to the scanner.
    @Test func framesPushedIntoAnAsyncStream() async throws {
        let video = TestVideo.threeCodes(frameCount: 30)
        let (frames, camera) = AsyncStream.makeStream(of: VideoFrame.self, bufferingPolicy: .bufferingNewest(1))
        let rate = try #require(FrameRate(numerator: 15, denominator: 1))
        var texts: [String] = []
        // Live pacing, but without a time budget, so that a loaded machine cannot change the result.
        var scans = VideoScanner(options: ReaderOptions(accuracy: .fast, timeBudget: .seconds(3600))).scan(frames).makeAsyncIterator()
        for index in 10..<30 {
            let image = try GrayImage(width: video.width, height: video.height, pixels: try video.frame(index))
            camera.yield(VideoFrame(index: index, timestamp: rate.timestamp(ofFrame: index), duration: rate.frameDuration, image: image))
            // One frame at a time, so that none is skipped and the result does not depend on timing.
            let scan = try #require(try await scans.next())
            #expect(scan.frameIndex == index)
            texts += scan.newCodes.map(\.text)
        }
        camera.finish()
        let end = try await scans.next()
        #expect(end == nil)
        #expect(texts == ["ALPHA-1"])
    }

    @Test func regionOfInterestLimitsTheSearch() async throws {
        let video = TestVideo.threeCodes()
        let frames = VideoFrames(Y4MReader(bytes: try video.y4m()))
        // Only the right half: the code resting there is found, the others only while they cross it.
        var options = ReaderOptions(accuracy: .fast, regionOfInterest: .normalized(Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)))
        options.tryInverted = false
        var texts: [String] = []
        for try await scan in VideoScanner(options: options, pacing: .everyFrame).scan(frames) {
            texts += scan.newCodes.map(\.text)
            for code in scan.codes { #expect(code.center.x >= 160 && code.center.y >= 120) }
        }
        #expect(texts.contains("Charlie #3"))
        #expect(!texts.contains("ALPHA-1"))
    }
}
