import QRImage

/// Reads raw 8-bit gray frames of a known size back to back, as `ffmpeg … -f rawvideo -pix_fmt gray -` writes
/// them: no headers, so the size and frame rate come from the caller.
public struct RawFrameReader: FrameReader {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The rate the frames' timestamps are counted in.
    public let frameRate: FrameRate
    private var input: ByteInput
    private var nextIndex = 0
    private var finished = false

    /// Reads from `fileDescriptor`, which the caller keeps open and closes. Sizes over `maxPixels` pixels are
    /// refused here, before any frame memory is allocated.
    public init(fileDescriptor: Int32, width: Int, height: Int, frameRate: FrameRate = .default,
                maxPixels: Int = ImageLimits().maxPixels) throws(VideoStreamError) {
        try self.init(input: ByteInput(fileDescriptor: fileDescriptor), width: width, height: height,
                      frameRate: frameRate, maxPixels: maxPixels)
    }

    /// Reads frames held in memory.
    public init(bytes: [UInt8], width: Int, height: Int, frameRate: FrameRate = .default,
                maxPixels: Int = ImageLimits().maxPixels) throws(VideoStreamError) {
        try self.init(input: ByteInput(bytes: bytes), width: width, height: height, frameRate: frameRate,
                      maxPixels: maxPixels)
    }

    private init(input: ByteInput, width: Int, height: Int, frameRate: FrameRate, maxPixels: Int) throws(VideoStreamError) {
        guard width > 0, height > 0 else { throw .invalidFrameSize(width: width, height: height) }
        guard width <= maxPixels / height else { throw .frameTooLarge(width: width, height: height, limit: maxPixels) }
        self.input = input
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    public mutating func nextFrame() throws(VideoStreamError) -> VideoFrame? {
        guard !finished else { return nil }
        let luminance: [UInt8]
        do throws(VideoStreamError) {
            luminance = try input.read(count: width * height)
        } catch {
            finished = true
            throw error
        }
        if luminance.isEmpty {
            finished = true
            return nil
        }
        guard luminance.count == width * height else {
            finished = true
            throw .truncatedFrame(index: nextIndex, received: luminance.count, expected: width * height)
        }
        defer { nextIndex += 1 }
        return VideoFrame(unchecked: nextIndex, timestamp: frameRate.timestamp(ofFrame: nextIndex),
                          duration: frameRate.frameDuration, width: width, height: height, luminance: luminance)
    }
}
