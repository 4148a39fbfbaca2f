import Foundation

/// Parameters of a URL query string (`application/x-www-form-urlencoded`: `+` is a space, `%XX` a byte).
struct QueryString: Sendable {
    /// Values by name; when a name repeats, the last value wins.
    let values: [String: String]

    /// Where the parameters came from, for error messages.
    enum Source {
        case query, formBody
    }

    /// An empty query when `query` is nil. `source` says where it came from: a URL's query or a form body.
    init(_ query: String?, from source: Source = .query) throws(APIError) {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], from: source)
            let value = parts.count > 1 ? try Self.decode(parts[1], from: source) : ""
            values[name] = value
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring, from source: Source) throws(APIError) -> String {
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
            let (code, what) = source == .query ? ("invalid_query", "query string") : ("invalid_form", "form body")
            throw .badRequest(code, "The \(what) has invalid percent-encoding near “\(text.prefix(40))”.")
        }
        return decoded
    }
}
