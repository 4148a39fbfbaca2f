import QRImage

/// Reads a Y4M (YUV4MPEG2) stream frame by frame, keeping only the luma plane of each.
///
/// ```swift
/// var reader = Y4MReader(fileDescriptor: STDIN_FILENO)   // ffmpeg … -f yuv4mpegpipe -pix_fmt gray -
/// while let frame = try reader.nextFrame() { … }
/// ```
public struct Y4MReader: FrameReader {
    /// The longest stream or frame header line accepted; ffmpeg's are under 100 bytes.
    public static let maximumHeaderLength = 4096

    /// The stream header; nil until the first frame has been asked for.
    public private(set) var header: Y4MHeader?
    private var input: ByteInput
    private let maxPixels: Int
    private var nextIndex = 0
    private var finished = false

    /// Reads from `fileDescriptor`, which the caller keeps open and closes. Nothing is read until
    /// ``nextFrame()`` is called. Frames over `maxPixels` pixels are refused.
    public init(fileDescriptor: Int32, maxPixels: Int = ImageLimits().maxPixels) {
        input = ByteInput(fileDescriptor: fileDescriptor)
        self.maxPixels = maxPixels
    }

    /// Reads a whole stream held in memory.
    public init(bytes: [UInt8], maxPixels: Int = ImageLimits().maxPixels) {
        input = ByteInput(bytes: bytes)
        self.maxPixels = maxPixels
    }

    public mutating func nextFrame() throws(VideoStreamError) -> VideoFrame? {
        guard !finished else { return nil }
        do throws(VideoStreamError) {
            let frame = try readFrame()
            finished = frame == nil
            return frame
        } catch {
            finished = true
            throw error
        }
    }

    private mutating func readFrame() throws(VideoStreamError) -> VideoFrame? {
        let header: Y4MHeader
        if let known = self.header {
            header = known
        } else {
            header = try readHeader()
            self.header = header
        }
        let index = nextIndex
        let frameBytes = header.lumaBytes + header.otherPlanesBytes
        switch try input.readLine(limit: Self.maximumHeaderLength) {
        case .unterminated([]):
            return nil
        case let .unterminated(partial):
            guard Self.isFrameHeader(partial) || Self.frameMagic.starts(with: partial) else {
                throw .badFrameHeader(index: index, found: VideoStreamError.excerpt(partial))
            }
            throw .truncatedFrame(index: index, received: 0, expected: frameBytes)
        case let .tooLong(prefix):
            guard Self.isFrameHeader(prefix) else { throw .badFrameHeader(index: index, found: VideoStreamError.excerpt(prefix)) }
            throw .headerTooLong(limit: Self.maximumHeaderLength)
        case let .complete(line):
            // Parameters after "FRAME" (interlacing, extensions) do not change the luma plane.
            guard Self.isFrameHeader(line) else { throw .badFrameHeader(index: index, found: VideoStreamError.excerpt(line)) }
        }
        let raw = try input.read(count: header.lumaBytes)
        guard raw.count == header.lumaBytes else {
            throw .truncatedFrame(index: index, received: raw.count, expected: frameBytes)
        }
        let skipped = try input.skip(count: header.otherPlanesBytes)
        guard skipped == header.otherPlanesBytes else {
            throw .truncatedFrame(index: index, received: raw.count + skipped, expected: frameBytes)
        }
        nextIndex += 1
        let luminance = header.colorSpace.bitDepth > 8 ? Self.eightBit(raw, depth: header.colorSpace.bitDepth) : raw
        return VideoFrame(unchecked: index, timestamp: header.frameRate.timestamp(ofFrame: index),
                          duration: header.frameRate.frameDuration, width: header.width, height: header.height,
                          luminance: luminance)
    }

    private mutating func readHeader() throws(VideoStreamError) -> Y4MHeader {
        switch try input.readLine(limit: Self.maximumHeaderLength) {
        case .unterminated([]):
            throw .emptyStream
        case let .unterminated(partial):
            guard Y4MHeader.magic.starts(with: partial.prefix(Y4MHeader.magic.count)) else {
                throw .notY4M(found: VideoStreamError.excerpt(partial))
            }
            throw .truncatedHeader
        case let .tooLong(prefix):
            guard prefix.starts(with: Y4MHeader.magic) else { throw .notY4M(found: VideoStreamError.excerpt(prefix)) }
            throw .headerTooLong(limit: Self.maximumHeaderLength)
        case let .complete(line):
            return try Y4MHeader(parsing: line, maxPixels: maxPixels)
        }
    }

    /// `FRAME`, alone or followed by a space and parameters.
    private static func isFrameHeader(_ line: [UInt8]) -> Bool {
        line.starts(with: frameMagic) && (line.count == frameMagic.count || line[frameMagic.count] == 0x20)
    }

    private static let frameMagic = Array("FRAME".utf8)

    /// Little-endian samples of `depth` bits reduced to their top 8 bits (out-of-range values clamp to white).
    private static func eightBit(_ raw: [UInt8], depth: Int) -> [UInt8] {
        let shift = UInt32(depth - 8)
        return [UInt8](unsafeUninitializedCapacity: raw.count / 2) { output, initialized in
            raw.withUnsafeBufferPointer { input in
                for i in 0..<raw.count / 2 {
                    let sample = UInt32(input[2 * i]) | UInt32(input[2 * i + 1]) << 8
                    output[i] = UInt8(min(255, sample >> shift))
                }
            }
            initialized = raw.count / 2
        }
    }
}
