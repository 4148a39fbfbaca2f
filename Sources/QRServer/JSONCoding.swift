import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import NIOCore

/// How API responses are written as JSON.
enum JSONCoding {
    /// Stable key order for readable, diffable output; unescaped slashes so URLs in decoded text stay legible.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON response that is never cached (results describe one upload).
    static func response(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
