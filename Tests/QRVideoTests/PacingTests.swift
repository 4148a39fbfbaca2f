import QRReader
import Synchronization
import Testing
@testable import QRVideo

/// Small blank frames from memory that record how many were asked for; frames from `gateIndex` on wait
/// until the test opens the gate, and `exhausted` fires when the consumer has been told the stream ended.
final class ObservedFrames: AsyncSequence, Sendable {
    typealias Element = VideoFrame

    private struct State {
        var produced = 0
        var gateOpen = false
        var gateWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let count: Int
    let gateIndex: Int
    let failure: VideoStreamError?
    private let state = Mutex(State())
    let exhausted: AsyncStream<Void>
    private let exhaustedContinuation: AsyncStream<Void>.Continuation

    init(count: Int, gateIndex: Int = .max, failure: VideoStreamError? = nil) {
        self.count = count
        self.gateIndex = gateIndex
        self.failure = failure
        (exhausted, exhaustedContinuation) = AsyncStream.makeStream()
    }

    var produced: Int { state.withLock { $0.produced } }

    func openGate() {
        let waiters = state.withLock { state in
            state.gateOpen = true
            defer { state.gateWaiters = [] }
            return state.gateWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func waitForGate() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.gateOpen { state.gateWaiters.append(continuation) }
                return state.gateOpen
            }
            if open { continuation.resume() }
        }
    }

    func next() async throws -> VideoFrame? {
        let index = produced
        if index >= gateIndex { await waitForGate() }
        guard index < count else {
            exhaustedContinuation.yield()
            if let failure { throw failure }
            return nil
        }
        state.withLock { $0.produced += 1 }
        return VideoFrame(index: index, frameRate: .default, width: 32, height: 32,
                          luminance: [UInt8](repeating: 200, count: 32 * 32))
    }

    struct Iterator: AsyncIteratorProtocol {
        let frames: ObservedFrames
        func next() async throws -> VideoFrame? { try await frames.next() }
    }

    func makeAsyncIterator() -> Iterator { Iterator(frames: self) }
}

@Suite("Frame pacing")
struct PacingTests {
    @Test func oneSlotKeepsOnlyTheNewestFrame() async throws {
        let slot = LatestFrameSlot()
        for index in 0..<5 {
            slot.put(try #require(VideoFrame(index: index, frameRate: .default, width: 1, height: 1, luminance: [0])))
        }
        #expect(slot.counts == (received: 5, skipped: 4))
        let newest = try await slot.take()
        #expect(newest?.index == 4)
        slot.finish(throwing: VideoStreamError.emptyStream)
        await #expect(throws: VideoStreamError.emptyStream) { try await slot.take() }
        let afterError = try await slot.take()
        #expect(afterError == nil)
    }

    @Test func everyFrameReadsOnlyWhatIsAskedFor() async throws {
        let frames = ObservedFrames(count: 10)
        var scans = VideoScanner(pacing: .everyFrame).scan(frames).makeAsyncIterator()
        for expected in 0..<10 {
            let scan = try #require(try await scans.next())
            #expect(scan.frameIndex == expected)
            // Back-pressure: nothing is read ahead of the consumer.
            #expect(frames.produced == expected + 1)
            #expect(scan.statistics == VideoScanStatistics(read: expected + 1, decoded: expected + 1, skipped: 0))
        }
        let end = try await scans.next()
            #expect(end == nil)
    }

    @Test func slowConsumerOfLiveFramesHoldsOnlyOnePendingFrame() async throws {
        let frames = ObservedFrames(count: 100, gateIndex: 1)
        var scans = VideoScanner(pacing: .latestFrame).scan(frames).makeAsyncIterator()
        let first = try #require(try await scans.next())
        #expect(first.frameIndex == 0)
        // The consumer stalls while the other 99 frames arrive; then it gets only the newest.
        frames.openGate()
        for await _ in frames.exhausted { break }
        let second = try #require(try await scans.next())
        #expect(second.frameIndex == 99)
        #expect(second.statistics == VideoScanStatistics(read: 100, decoded: 2, skipped: 98))
        let end = try await scans.next()
            #expect(end == nil)
    }

    @Test func streamErrorsArriveAfterTheFramesBeforeThem() async throws {
        for pacing in [VideoScanner.Pacing.everyFrame, .latestFrame] {
            let frames = ObservedFrames(count: 3, failure: .truncatedFrame(index: 3, received: 5, expected: 1024))
            var scans = VideoScanner(pacing: pacing).scan(frames).makeAsyncIterator()
            var indices: [Int] = []
            await #expect(throws: VideoStreamError.truncatedFrame(index: 3, received: 5, expected: 1024)) {
                while let scan = try await scans.next() { indices.append(scan.frameIndex) }
            }
            // Live pacing may skip frames, but always delivers the last one before the error.
            #expect(indices.last == 2)
            if pacing == .everyFrame { #expect(indices == [0, 1, 2]) }
            let end = try await scans.next()
            #expect(end == nil)
        }
    }

    @Test func liveDecodesGetAboutOneFrameInterval() throws {
        let frame = { (rate: FrameRate) in try #require(VideoFrame(index: 0, frameRate: rate, width: 1, height: 1, luminance: [0])) }
        let slow = try frame(try #require(FrameRate(numerator: 2, denominator: 1)))
        let fast = try frame(try #require(FrameRate(numerator: 30, denominator: 1)))
        let live = VideoScanner()
        #expect(live.options.accuracy == .fast)
        #expect(live.readerOptions(for: slow).timeBudget == .milliseconds(500))
        #expect(live.readerOptions(for: fast).timeBudget == VideoScanner.minimumLiveTimeBudget)
        #expect(VideoScanner(pacing: .everyFrame).readerOptions(for: slow).timeBudget == nil)
        let chosen = VideoScanner(options: ReaderOptions(accuracy: .fast, timeBudget: .milliseconds(7)))
        #expect(chosen.readerOptions(for: slow).timeBudget == .milliseconds(7))
    }

    @Test func realtimePlaybackKeepsEveryFrameInOrder() async throws {
        let fast = try #require(FrameRate(numerator: 1000, denominator: 1))
        let bytes = (0..<5).flatMap { lumaPattern(width: 4, height: 2, index: $0) }
        var played: [Int] = []
        for try await frame in RealtimeFrames(VideoFrames(try RawFrameReader(bytes: bytes, width: 4, height: 2, frameRate: fast))) {
            played.append(frame.index)
        }
        #expect(played == [0, 1, 2, 3, 4])
    }
}

extension VideoScanStatistics {
    init(read: Int, decoded: Int, skipped: Int, reported: Int = 0) {
        self.init()
        framesRead = read
        framesDecoded = decoded
        framesSkipped = skipped
        codesReported = reported
    }
}
