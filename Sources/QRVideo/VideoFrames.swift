import Dispatch
import Synchronization

/// The frames of a ``FrameReader`` as an `AsyncSequence`.
///
/// Each `next()` reads one frame on a dispatch queue of its own, so that waiting for a pipe or a camera never
/// blocks Swift's concurrency threads. Nothing is read before it is asked for: a consumer that falls behind
/// makes the writer of a pipe wait rather than letting frames pile up. Iterate it once.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    public typealias Failure = VideoStreamError

    private let source: Source

    /// The frames of `reader`, which from now on only this sequence uses.
    public init(_ reader: some FrameReader) {
        source = Source(reader)
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Element = VideoFrame
        public typealias Failure = VideoStreamError

        fileprivate let source: Source

        public mutating func next() async throws(VideoStreamError) -> VideoFrame? {
            try await source.next()
        }
    }

    /// The reader, shared by the iterator and the queue that runs its blocking reads.
    fileprivate final class Source: Sendable {
        private let reader: Mutex<any FrameReader>
        private let queue = DispatchQueue(label: "QRVideo.VideoFrames")

        init(_ reader: some FrameReader) {
            self.reader = Mutex(reader)
        }

        func next() async throws(VideoStreamError) -> VideoFrame? {
            let result: Result<VideoFrame?, VideoStreamError> = await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: self.reader.withLock { reader in
                        Result { () throws(VideoStreamError) in try reader.nextFrame() }
                    })
                }
            }
            return try result.get()
        }
    }
}
