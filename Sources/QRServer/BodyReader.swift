internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// Reads a request body into memory without ever holding more than the limit.
enum BodyReader {
    /// The whole body, or 413 as soon as it is known to exceed `limit` bytes: at once from `Content-Length`,
    /// else while it streams in.
    static func collect(_ request: Request, limit: Int) async throws(APIError) -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw .bodyTooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw .bodyTooLarge(limit: limit)
        } catch {
            throw .badRequest("unreadable_body", "The request body could not be read to its end.")
        }
    }
}
