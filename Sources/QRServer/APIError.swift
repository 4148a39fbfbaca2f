import Foundation
internal import HTTPTypes
internal import Hummingbird
import QREncoder
import QRImage
import QRRender

/// A request the server refuses, with the status, a stable machine-readable code and a message for the user.
///
/// Every refusal reaches the client as `{"error": {"status": 413, "code": "body_too_large", "message": "…"}}`.
struct APIError: Error, Equatable, Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    /// Extra response headers, such as `Retry-After` or `Allow`.
    var headers: [HTTPField] = []

    var description: String { "\(status.code) \(code): \(message)" }

    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    static func emptyBody(_ what: String) -> APIError {
        badRequest("empty_body", "The request body is empty: send \(what).")
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "body_too_large",
                 message: "The request body is larger than the limit of \(ByteCount(limit)).")
    }

    static func bodyTimeout(_ timeout: Duration) -> APIError {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        return APIError(status: .requestTimeout, code: "body_timeout",
                        message: "The request body did not arrive whole within \(String(format: "%g", seconds)) s; send it again.")
    }

    static func unsupportedMediaType(_ received: String, expected: String) -> APIError {
        APIError(status: .unsupportedMediaType, code: "unsupported_media_type",
                 message: "The content type \(received) is not accepted here: send \(expected).")
    }

    static func busy(retryAfterSeconds: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: "busy",
                 message: "The server is busy with other images; try again in a few seconds.",
                 headers: [HTTPField(name: .retryAfter, value: "\(retryAfterSeconds)")])
    }

    /// The refusal for a library error, keeping its user-facing description.
    static func from(_ error: ImageError) -> APIError {
        switch error {
        case .fileTooLarge:
            return APIError(status: .contentTooLarge, code: "image_too_large", message: error.description)
        case .tooLarge:
            return APIError(status: .unprocessableContent, code: "too_many_pixels", message: error.description)
        case .unsupportedFormat, .truncated, .corrupt:
            return APIError(status: .unprocessableContent, code: "undecodable_image", message: error.description)
        case .outOfMemory:
            return APIError(status: .serviceUnavailable, code: "out_of_memory", message: error.description)
        case .invalidArgument, .readFailed, .writeFailed:
            return APIError(status: .unprocessableContent, code: "image_error", message: error.description)
        }
    }

    static func from(_ error: EncoderError) -> APIError {
        switch error {
        case .dataTooLong:
            return APIError(status: .unprocessableContent, code: "data_too_long", message: error.description)
        default:
            return APIError(status: .badRequest, code: "invalid_encoding_option", message: error.description)
        }
    }

    static func from(_ error: RenderError) -> APIError {
        switch error {
        case let .image(imageError):
            return from(imageError)
        case .invalidColor:
            return APIError(status: .badRequest, code: "invalid_color", message: error.description)
        case .invalidStyle, .targetSizeTooSmall, .imageTooLarge:
            return APIError(status: .badRequest, code: "invalid_style", message: error.description)
        case .invalidLogo, .logoCoversFunctionPatterns, .logoTooLarge:
            return APIError(status: .unprocessableContent, code: "logo_does_not_fit", message: error.description)
        }
    }

    /// The JSON response for this refusal.
    func response() -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        for field in headers { fields.append(field) }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jsonBody())))
    }

    func jsonBody() -> Data {
        struct Envelope: Encodable {
            struct Detail: Encodable {
                let status: Int
                let code: String
                let message: String
            }
            let error: Detail
        }
        let envelope = Envelope(error: .init(status: status.code, code: code, message: message))
        // Encoding three plain fields cannot fail; the fallback keeps the signature non-throwing.
        return (try? JSONCoding.encoder.encode(envelope)) ?? Data(#"{"error":{}}"#.utf8)
    }
}

/// "20 MiB", "512 KiB" or "100 bytes": a byte count for messages.
struct ByteCount: CustomStringConvertible {
    let bytes: Int
    init(_ bytes: Int) { self.bytes = bytes }

    var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
