import QRReader

/// What the scanner found in one decoded frame.
public struct FrameScan: Sendable {
    /// The frame's position in the stream.
    public let frameIndex: Int
    /// The frame's stream time.
    public let timestamp: Duration
    /// The frame's width in pixels; `codes`' corners are in this frame's pixel space.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// Every code in the frame, whether reported before or not (e.g. to outline codes in a preview).
    public let codes: [ReadResult]
    /// The codes reported for the first time: not seen within the scanner's repeat window.
    public let newCodes: [ReadResult]
    /// How long decoding the frame took.
    public let decodeTime: Duration
    /// Whether the frame's time budget cut its search short (``ReadReport/timedOut``).
    public let timedOut: Bool
    /// Counts for the stream so far, this frame included.
    public let statistics: VideoScanStatistics
}

/// Counts for a scanned stream.
public struct VideoScanStatistics: Sendable, Hashable {
    /// Frames received from the stream.
    public var framesRead = 0
    /// Frames decoded.
    public var framesDecoded = 0
    /// Frames whose search the time budget cut short: a code in them may have been missed.
    public var framesTimedOut = 0
    /// Frames dropped unread because a newer frame arrived while the reader was busy.
    public var framesSkipped = 0
    /// Codes reported as new.
    public var codesReported = 0

    /// All counts zero.
    public init() {}
}
