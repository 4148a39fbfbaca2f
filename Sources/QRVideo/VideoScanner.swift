import QRReader

/// Reads QR codes from a stream of video frames: frames in, one ``FrameScan`` per decoded frame out.
///
/// ```swift
/// let frames = VideoFrames(Y4MReader(fileDescriptor: STDIN_FILENO))
/// for try await scan in VideoScanner().scan(frames) {
///     for code in scan.newCodes { print(scan.timestamp, code.text) }
/// }
/// ```
///
/// Any `AsyncSequence` of ``VideoFrame`` works, e.g. an `AsyncStream` fed with camera frames by a web socket.
public struct VideoScanner: Sendable {
    /// How frames are taken from the stream when decoding is slower than the stream.
    public enum Pacing: Sendable, Hashable {
        /// Decode every frame: the next frame is asked for only when the last one is done, so a slow reader
        /// slows the stream down. For files, and pipes whose writer can wait. No time budget unless the
        /// reader options set one, so the results do not depend on the machine's speed.
        case everyFrame
        /// For live input: frames are taken as they arrive and only the newest waiting one is kept; frames
        /// replaced while the reader was busy are skipped and counted. Memory stays at one pending frame
        /// however slow the reader is. Unless the reader options set a time budget, each decode gets one
        /// frame interval, but at least ``minimumLiveTimeBudget``: a budget that ran out inside the
        /// reader's first pass would waste every frame on a slow machine.
        case latestFrame
    }

    /// The least time a live frame's decode is given by default (100 ms).
    public static let minimumLiveTimeBudget = Duration.milliseconds(100)

    /// The reader's options; fast accuracy by default, as video needs.
    public var options: ReaderOptions
    /// A text seen again within this much stream time after it was last seen is not reported again.
    public var repeatAfter: Duration
    /// How frames are taken from the stream; `.latestFrame` (live input) by default.
    public var pacing: Pacing

    /// A scanner with the fast reader, a five-second repeat window and live pacing unless told otherwise.
    public init(options: ReaderOptions = ReaderOptions(accuracy: .fast), repeatAfter: Duration = .seconds(5),
                pacing: Pacing = .latestFrame) {
        self.options = options
        self.repeatAfter = repeatAfter
        self.pacing = pacing
    }

    /// The scans of `frames`, one per decoded frame. Iterating stops at the end of `frames`, rethrows its
    /// error after the frames before it, and ends early when the iterating task is cancelled.
    public func scan<Frames: AsyncSequence & Sendable>(_ frames: Frames) -> VideoScan<Frames> where Frames.Element == VideoFrame {
        VideoScan(frames: frames, scanner: self)
    }

    /// The reader options for `frame`: a live stream's decode is limited to about one frame interval.
    func readerOptions(for frame: VideoFrame) -> ReaderOptions {
        var frameOptions = options
        if pacing == .latestFrame && frameOptions.timeBudget == nil {
            frameOptions.timeBudget = max(frame.duration, Self.minimumLiveTimeBudget)
        }
        return frameOptions
    }
}
