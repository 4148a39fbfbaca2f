import CImageCodecs

/// Runs the C shim's functions and turns their status codes into typed errors.
enum CodecCall {
    /// Calls a C decoder, copies its malloc'd pixels into Swift memory and frees them.
    static func decode(_ format: ImageFormat, limits: ImageLimits,
                       _ body: (UnsafeMutablePointer<qrc_pixels>, UnsafeMutablePointer<CChar>) -> qrc_status)
        throws(ImageError) -> DecodedPixels {
        var result = qrc_pixels()
        let message = MessageBuffer()
        defer { message.release() }
        let status = body(&result, message.pointer)
        defer { qrc_free(result.pixels) }
        let width = Int(result.width), height = Int(result.height)
        switch status {
        case QRC_OK: break
        case QRC_TRUNCATED: throw .truncated(format)
        case QRC_TOO_LARGE: throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        case QRC_OUT_OF_MEMORY: throw .outOfMemory
        default: throw .corrupt(format, message.text.isEmpty ? "unknown error" : message.text)
        }
        guard let pixels = result.pixels else { throw .corrupt(format, "the decoder returned no pixels") }
        let count = width * height * Int(result.channels)
        return DecodedPixels(width: width, height: height, channels: Int(result.channels),
                             samples: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Calls a C encoder and copies its malloc'd output.
    static func encode(_ format: ImageFormat,
                       _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
                                UnsafeMutablePointer<CChar>) -> qrc_status) throws(ImageError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let message = MessageBuffer()
        defer { message.release() }
        let status = body(&output, &size, message.pointer)
        defer { qrc_free(output) }
        switch status {
        case QRC_OK: break
        case QRC_OUT_OF_MEMORY: throw .outOfMemory
        default: throw .invalidArgument("the \(format) encoder refused the image: \(message.text)")
        }
        guard let output else { throw .invalidArgument("the \(format) encoder returned no data") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

/// A zeroed buffer of QRC_MESSAGE_CAPACITY characters the C functions write their messages into.
private struct MessageBuffer {
    let pointer: UnsafeMutablePointer<CChar>

    init() {
        pointer = .allocate(capacity: Int(QRC_MESSAGE_CAPACITY))
        pointer.initialize(repeating: 0, count: Int(QRC_MESSAGE_CAPACITY))
    }

    /// The message up to its NUL (the C side always terminates it within the capacity).
    var text: String {
        let bytes = UnsafeBufferPointer(start: pointer, count: Int(QRC_MESSAGE_CAPACITY))
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func release() { pointer.deallocate() }
}
