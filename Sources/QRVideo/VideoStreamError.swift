/// Why a video stream could not be read, with a message meant for the user.
public enum VideoStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is empty: not even a stream header arrived.
    case emptyStream
    /// The input does not start with the Y4M signature; `found` shows how it starts.
    case notY4M(found: String)
    /// The stream ends inside the Y4M header line.
    case truncatedHeader
    /// The stream header or a frame header line is longer than `limit` bytes (or never ends).
    case headerTooLong(limit: Int)
    /// The Y4M header lacks a required tag: `W` (width) or `H` (height).
    case missingHeaderTag(Character)
    /// A Y4M header tag has a value that cannot be used, e.g. `W0` or `F30:0`.
    case invalidHeaderTag(String)
    /// The Y4M colour space is not one QRKit reads.
    case unsupportedColorSpace(String)
    /// A frame size that cannot be used (zero or negative).
    case invalidFrameSize(width: Int, height: Int)
    /// Frames of `width` × `height` exceed `limit` pixels; refused before any frame memory is allocated.
    case frameTooLarge(width: Int, height: Int, limit: Int)
    /// Frame `index` does not begin with a `FRAME` header; `found` shows what was there.
    case badFrameHeader(index: Int, found: String)
    /// The stream ends inside frame `index`, after `received` of its `expected` bytes.
    case truncatedFrame(index: Int, received: Int, expected: Int)
    /// The operating system refused to read the input.
    case readFailed(String)

    public var description: String {
        switch self {
        case .emptyStream:
            return "The video stream is empty: no Y4M header arrived."
        case let .notY4M(found):
            return "The input is not a Y4M (YUV4MPEG2) stream: it starts with \(found)."
        case .truncatedHeader:
            return "The video stream ends inside its Y4M header."
        case let .headerTooLong(limit):
            return "A Y4M header line is longer than \(limit) bytes: the stream is damaged or not Y4M."
        case let .missingHeaderTag(tag):
            let name = tag == "W" ? "width" : tag == "H" ? "height" : "\(tag)"
            return "The Y4M header has no \(name) (tag \(tag))."
        case let .invalidHeaderTag(tag):
            return "The Y4M header tag \"\(tag)\" is invalid."
        case let .unsupportedColorSpace(name):
            return "The Y4M colour space \"\(name)\" is not supported: QRKit reads mono, 411, 420 (jpeg, paldv, mpeg2), "
                + "422, 444 and 444alpha, 8 to 16 bits. Convert with ffmpeg's -pix_fmt gray."
        case let .invalidFrameSize(width, height):
            return "The frame size \(width)×\(height) is invalid: width and height must be at least 1."
        case let .frameTooLarge(width, height, limit):
            return "Frames of \(width)×\(height) pixels are larger than the limit of \(limit) pixels."
        case let .badFrameHeader(index, found):
            return "Frame \(index) does not start with a FRAME header (found \(found)): the stream is damaged, "
                + "or the frame size or colour space in its header is wrong."
        case let .truncatedFrame(index, received, expected):
            return "The stream ends in the middle of frame \(index): \(received) of its \(expected) bytes arrived."
        case let .readFailed(reason):
            return "Cannot read the video stream: \(reason)."
        }
    }

    /// Up to 16 bytes shown as text when printable ASCII, else as hex, for messages about unexpected data.
    static func excerpt(_ bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(16))
        if head.isEmpty { return "nothing" }
        if head.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return "\"" + String(decoding: head, as: UTF8.self) + "\""
        }
        let digits = Array("0123456789abcdef")
        return "bytes " + head.map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
    }
}
