/// Plays frames at their own pace: each frame is released when its timestamp comes due on the wall clock,
/// counted from the first frame, as a camera would deliver it. For treating a file as live input.
public struct RealtimeFrames<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == VideoFrame {
    public typealias Element = VideoFrame

    private let base: Base

    /// Plays `base` at the pace of its timestamps.
    public init(_ base: Base) {
        self.base = base
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var origin: (instant: ContinuousClock.Instant, timestamp: Duration)?

        init(base: Base.AsyncIterator) {
            self.base = base
        }

        /// The next frame once it is due; nil at the end of `base` or when the task is cancelled.
        public mutating func next() async throws -> VideoFrame? {
            guard let frame = try await base.next() else { return nil }
            let clock = ContinuousClock()
            guard let origin else {
                origin = (clock.now, frame.timestamp)
                return frame
            }
            do {
                try await clock.sleep(until: origin.instant + (frame.timestamp - origin.timestamp))
            } catch {
                return nil
            }
            return frame
        }
    }
}
