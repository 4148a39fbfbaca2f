#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One part of a `multipart/form-data` body (RFC 7578).
struct MultipartPart: Equatable, Sendable {
    /// The form field name from `Content-Disposition`.
    let name: String
    /// The file name, for parts that carry a file.
    let filename: String?
    /// The part's `Content-Type`, if given.
    let contentType: String?
    /// The part's content.
    let body: [UInt8]

    /// The content as UTF-8 text, or nil when it is not valid UTF-8.
    var text: String? { String(validating: body, as: UTF8.self) }
}

/// Why a multipart body could not be parsed; the message says what was wrong.
struct MultipartError: Error, Equatable, Sendable, CustomStringConvertible {
    let description: String
}

/// A strict, bounded `multipart/form-data` parser for bodies already held in memory.
///
/// Work is linear in the body size: delimiters are found by scanning for CR with `memchr`, and the patterns
/// searched for are short or (a delimiter) hold a single CR, so failed matches never make the scan quadratic.
enum MultipartFormData {
    /// Parts beyond this are refused: a form here has a handful of fields.
    static let maximumParts = 64
    /// Largest header block of one part.
    static let maximumHeaderBytes = 8 << 10

    /// The parts of `body`, delimited by `boundary` (the `boundary` parameter of the content type).
    static func parse(_ body: [UInt8], boundary: String) throws(MultipartError) -> [MultipartPart] {
        guard isValidBoundary(boundary) else {
            throw MultipartError(description: "the boundary parameter must be 1 to 70 letters, digits or '()+_,-./:=? characters")
        }
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        return try body.withUnsafeBufferPointer { (bytes) throws(MultipartError) -> [MultipartPart] in
            // The first boundary starts the body or follows a preamble line.
            var position: Int
            if starts(bytes, at: 0, with: dashBoundary) {
                position = dashBoundary.count
            } else if let found = find(delimiter, from: 0, in: bytes) {
                position = found + delimiter.count
            } else {
                throw MultipartError(description: "the body does not contain the boundary from the content type")
            }
            var parts: [MultipartPart] = []
            while true {
                if starts(bytes, at: position, with: Array("--".utf8)) { break }
                position = try skipLineEnd(bytes, from: position)
                guard let end = find(delimiter, from: position, in: bytes) else {
                    throw MultipartError(description: "a part is not closed by a boundary (the body may be truncated)")
                }
                guard parts.count < maximumParts else {
                    throw MultipartError(description: "more than \(maximumParts) parts")
                }
                parts.append(try part(bytes, from: position, to: end))
                position = end + delimiter.count
            }
            guard !parts.isEmpty else { throw MultipartError(description: "the body has no parts") }
            return parts
        }
    }

    /// RFC 2046: 1…70 characters from a restricted set, not ending in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        let bytes = Array(boundary.utf8)
        return (1...70).contains(bytes.count) && bytes.allSatisfy(allowed.contains) && bytes.last != UInt8(ascii: " ")
    }

    /// After a boundary: optional transport padding (spaces, tabs), then CRLF.
    private static func skipLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(MultipartError) -> Int {
        var position = start
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") {
            position += 1
        }
        guard position + 1 < bytes.count, bytes[position] == 13, bytes[position + 1] == 10 else {
            throw MultipartError(description: "a boundary line does not end with CRLF")
        }
        return position + 2
    }

    /// One part between `start` and `end`: headers, an empty line, the content.
    private static func part(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        throws(MultipartError) -> MultipartPart {
        let headerEnd: Int
        let bodyStart: Int
        if starts(bytes, at: start, with: [13, 10]) {
            // No headers at all: then the part has no name either, refused below.
            headerEnd = start
            bodyStart = start + 2
        } else if let blank = find([13, 10, 13, 10], from: 0, in: UnsafeBufferPointer(
            rebasing: bytes[start..<min(end, start + maximumHeaderBytes + 4)])) {
            headerEnd = start + blank
            bodyStart = headerEnd + 4
        } else {
            throw MultipartError(description: "a part's headers are not followed by an empty line within \(maximumHeaderBytes) bytes")
        }
        guard let headerText = String(validating: bytes[start..<headerEnd], as: UTF8.self) else {
            throw MultipartError(description: "a part's headers are not UTF-8 text")
        }
        var disposition: String?
        var contentType: String?
        for line in headerText.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                throw MultipartError(description: "a part has a header line without a colon")
            }
            let value = String(line[line.index(after: colon)...].trimmingSpaces())
            switch line[..<colon].trimmingSpaces().lowercased() {
            case "content-disposition": disposition = value
            case "content-type": contentType = value
            default: break
            }
        }
        guard let disposition, let parsed = ContentDisposition(disposition), parsed.type == "form-data",
              let name = parsed.parameters["name"] else {
            throw MultipartError(description: "a part has no Content-Disposition: form-data header with a name")
        }
        return MultipartPart(name: name, filename: parsed.parameters["filename"], contentType: contentType,
                             body: Array(bytes[bodyStart..<end]))
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, with prefix: [UInt8]) -> Bool {
        guard position >= 0, position + prefix.count <= bytes.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }

    /// The index of the first occurrence of `pattern` (which starts with CR) at or after `start`.
    private static func find(_ pattern: [UInt8], from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !pattern.isEmpty else { return nil }
        var position = start
        while position + pattern.count <= bytes.count {
            guard let hit = memchr(base + position, Int32(pattern[0]), bytes.count - position) else { return nil }
            let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard index + pattern.count <= bytes.count else { return nil }
            if memcmp(base + index, pattern, pattern.count) == 0 { return index }
            position = index + 1
        }
        return nil
    }
}

/// `form-data; name="field"; filename="a.png"`: the disposition type and its parameters.
private struct ContentDisposition {
    let type: String
    let parameters: [String: String]

    init?(_ text: String) {
        let fields = ContentType.splitOutsideQuotes(text, separator: ";")
        guard let first = fields.first else { return nil }
        type = first.trimmingSpaces().lowercased()
        var parameters: [String: String] = [:]
        for field in fields.dropFirst() {
            let trimmed = field.trimmingSpaces()
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].trimmingSpaces().lowercased()
            var value = trimmed[trimmed.index(after: equals)...].trimmingSpaces()
            if value.first == "\"" {
                guard value.count >= 2, value.last == "\"" else { return nil }
                value = value.dropFirst().dropLast()
                // Browsers escape quotes in names as %22 or \"; keep the text as sent apart from \-escapes.
                var unescaped = ""
                var escaped = false
                for character in value {
                    if escaped || character != "\\" { unescaped.append(character); escaped = false } else { escaped = true }
                }
                parameters[name] = unescaped
            } else {
                parameters[name] = String(value)
            }
        }
        self.parameters = parameters
    }
}
