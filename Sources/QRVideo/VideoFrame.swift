import QRImage

/// One frame of a video stream: its luminance and where it sits in the stream.
public struct VideoFrame: Sendable, Equatable {
    /// Position in the stream, counted from 0.
    public let index: Int
    /// Stream time of the frame: `index` frame intervals after the first.
    public let timestamp: Duration
    /// How long the frame lasts: one frame interval.
    public let duration: Duration
    /// Pixels per row (at least 1).
    public let width: Int
    /// Rows (at least 1).
    public let height: Int
    /// 8-bit luminance (0 = black), row-major: pixel (x, y) at `y * width + x`.
    public let luminance: [UInt8]

    /// A frame from luminance pixels; nil unless `luminance` holds exactly `width` × `height` pixels.
    public init?(index: Int, timestamp: Duration, duration: Duration, width: Int, height: Int, luminance: [UInt8]) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, count == luminance.count else { return nil }
        self.init(unchecked: index, timestamp: timestamp, duration: duration, width: width, height: height, luminance: luminance)
    }

    /// Frame `index` of a stream at `frameRate`, its timestamp and duration taken from the rate.
    public init?(index: Int, frameRate: FrameRate, width: Int, height: Int, luminance: [UInt8]) {
        self.init(index: index, timestamp: frameRate.timestamp(ofFrame: index), duration: frameRate.frameDuration,
                  width: width, height: height, luminance: luminance)
    }

    /// A frame from a gray image, e.g. a camera snapshot decoded from JPEG.
    public init(index: Int, timestamp: Duration, duration: Duration, image: GrayImage) {
        self.init(unchecked: index, timestamp: timestamp, duration: duration, width: image.width, height: image.height,
                  luminance: image.pixels)
    }

    init(unchecked index: Int, timestamp: Duration, duration: Duration, width: Int, height: Int, luminance: [UInt8]) {
        self.index = index
        self.timestamp = timestamp
        self.duration = duration
        self.width = width
        self.height = height
        self.luminance = luminance
    }
}
