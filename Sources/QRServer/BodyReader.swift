internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// Reads a request body into memory without ever holding more than the limit, or waiting longer than the
/// timeout for it.
enum BodyReader {
    /// The whole body; 413 as soon as it is known to exceed `limit` bytes (at once from `Content-Length`, else
    /// while it streams in); 408 when it has not arrived whole within `timeout`. An admitted request holds
    /// one of the server's few admission slots while its body arrives: without the deadline, a handful of
    /// clients that announce a body and then send nothing would keep every image request waiting.
    static func collect(_ request: Request, limit: Int, timeout: Duration) async throws(APIError) -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw .bodyTooLarge(limit: limit)
        }
        let outcome: Result<[UInt8], APIError> = await withTaskGroup(of: Result<[UInt8], APIError>?.self) { group in
            group.addTask {
                do {
                    let buffer = try await request.body.collect(upTo: limit)
                    return .success(Array(buffer.readableBytesView))
                } catch is NIOTooManyBytesError {
                    return .failure(.bodyTooLarge(limit: limit))
                } catch {
                    return .failure(.badRequest("unreadable_body", "The request body could not be read to its end."))
                }
            }
            group.addTask {
                // Cancelled (nil) once the body is in; a timeout only when the sleep ran its course.
                guard (try? await Task.sleep(for: timeout)) != nil else { return nil }
                return .failure(.bodyTimeout(timeout))
            }
            // The first outcome wins and the other task is cancelled: cancelling the body's collection ends
            // its read, and the connection, whose request was never read to its end, is closed.
            var first: Result<[UInt8], APIError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(.bodyTimeout(timeout))
        }
        return try outcome.get()
    }
}
