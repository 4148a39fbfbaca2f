/// Why an image could not be read, written or processed, with a message meant for the user.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data is not in a format QRKit reads; the text names what it looks like.
    case unsupportedFormat(String)
    /// The data ends before the image does.
    case truncated(ImageFormat)
    /// The data is damaged or invalid; the text holds the codec's explanation.
    case corrupt(ImageFormat, String)
    /// The image has more pixels than `limit` allows; refused before its pixels are allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The file or data has `bytes` bytes, more than `limit`.
    case fileTooLarge(path: String?, bytes: Int, limit: Int)
    /// Not enough memory to process the image.
    case outOfMemory
    /// A parameter passed to an image function is out of range (a programming or usage error).
    case invalidArgument(String)
    /// Reading `path` failed; `reason` is the system's explanation.
    case readFailed(path: String, reason: String)
    /// Writing `path` failed; `reason` is the system's explanation. The target was left untouched.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedFormat(what):
            return "Unsupported image format: \(what). QRKit reads PNG, JPEG, GIF, BMP, TIFF and PNM (PBM/PGM/PPM) images."
        case let .truncated(format):
            return "The \(format) image is truncated: the data ends before the image does."
        case let .corrupt(format, detail):
            return "The \(format) image is damaged: \(detail)."
        case let .tooLarge(width, height, limit):
            return "The image is \(width)×\(height) pixels, more than the limit of \(limit) pixels."
        case let .fileTooLarge(path, bytes, limit):
            let subject = path.map { "\"\($0)\"" } ?? "The image data"
            return "\(subject) has \(bytes) bytes, more than the limit of \(limit) bytes."
        case .outOfMemory:
            return "Not enough memory to process the image."
        case let .invalidArgument(detail):
            return "Invalid argument: \(detail)."
        case let .readFailed(path, reason):
            return "Cannot read \"\(path)\": \(reason)."
        case let .writeFailed(path, reason):
            return "Cannot write \"\(path)\": \(reason)."
        }
    }
}

extension ImageError {
    /// The refusal of page `page` (counted from 0) of an image of `count` pages.
    static func pageOutOfRange(_ page: Int, count: Int) -> ImageError {
        .invalidArgument("page \(page) (counted from 0) was asked for, but the image has \(count == 1 ? "one page" : "\(count) pages")")
    }
}
