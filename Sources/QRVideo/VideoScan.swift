import QRReader

/// The scans of a stream of frames (see ``VideoScanner/scan(_:)``). Iterate it once.
public struct VideoScan<Frames: AsyncSequence & Sendable>: AsyncSequence, Sendable where Frames.Element == VideoFrame {
    public typealias Element = FrameScan

    private let frames: Frames
    private let scanner: VideoScanner

    init(frames: Frames, scanner: VideoScanner) {
        self.frames = frames
        self.scanner = scanner
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(frames: frames, scanner: scanner) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let scanner: VideoScanner
        private let frames: Frames
        /// `.everyFrame`: frames are pulled one at a time.
        private var upstream: Frames.AsyncIterator?
        /// `.latestFrame`: a task drains the stream into a one-frame slot; started by the first `next()`.
        private var pump: Pump?
        private var filter: RepeatFilter
        private var statistics = VideoScanStatistics()
        private var done = false

        init(frames: Frames, scanner: VideoScanner) {
            self.scanner = scanner
            self.frames = frames
            filter = RepeatFilter(window: scanner.repeatAfter)
            if scanner.pacing == .everyFrame { upstream = frames.makeAsyncIterator() }
        }

        /// The next decoded frame's scan; nil at the end of the stream or once the task is cancelled.
        public mutating func next() async throws -> FrameScan? {
            guard !done, !Task.isCancelled else { return nil }
            let frame: VideoFrame?
            do {
                frame = try await nextFrame()
            } catch {
                done = true
                throw error
            }
            guard let frame else {
                done = true
                return nil
            }
            return scan(frame)
        }

        private mutating func nextFrame() async throws -> VideoFrame? {
            if var iterator = upstream {
                // Put back after the call so that a stateful iterator keeps its position.
                defer { upstream = iterator }
                let frame = try await iterator.next()
                if frame != nil { statistics.framesRead += 1 }
                return frame
            }
            let pump = self.pump ?? Pump(frames)
            self.pump = pump
            let frame = try await pump.slot.take()
            (statistics.framesRead, statistics.framesSkipped) = pump.slot.counts
            return frame
        }

        private mutating func scan(_ frame: VideoFrame) -> FrameScan {
            let reader = QRCodeReader(options: scanner.readerOptions(for: frame))
            let clock = ContinuousClock()
            let start = clock.now
            let report = reader.readReport(luminance: frame.luminance, width: frame.width, height: frame.height)
            let decodeTime = clock.now - start
            // Every decoded frame counts, one without codes too: it puts the codes seen before out of sight.
            let news = filter.admit(report.results.map(\.text), at: frame.timestamp)
            let newCodes = zip(report.results, news).filter(\.1).map(\.0)
            statistics.framesDecoded += 1
            if report.timedOut { statistics.framesTimedOut += 1 }
            statistics.codesReported += newCodes.count
            return FrameScan(frameIndex: frame.index, timestamp: frame.timestamp, width: frame.width,
                             height: frame.height, codes: report.results, newCodes: newCodes, decodeTime: decodeTime,
                             timedOut: report.timedOut, statistics: statistics)
        }
    }
}

/// Drains a stream into a ``LatestFrameSlot`` as fast as frames arrive; stops when the scan that owns it is gone.
private final class Pump: Sendable {
    let slot: LatestFrameSlot
    private let task: Task<Void, Never>

    init<Frames: AsyncSequence & Sendable>(_ frames: Frames) where Frames.Element == VideoFrame {
        let slot = LatestFrameSlot()
        self.slot = slot
        task = Task {
            do {
                for try await frame in frames {
                    if Task.isCancelled { break }
                    slot.put(frame)
                }
                slot.finish()
            } catch {
                slot.finish(throwing: error)
            }
        }
    }

    deinit { task.cancel() }
}
