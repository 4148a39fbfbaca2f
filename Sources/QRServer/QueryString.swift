import Foundation

/// Parameters of a URL query string (`application/x-www-form-urlencoded`: `+` is a space, `%XX` a byte).
struct QueryString: Sendable {
    /// Values by name; when a name repeats, the last value wins.
    let values: [String: String]

    /// An empty query when `query` is nil.
    init(_ query: String?) throws(APIError) {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            values[name] = value
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) throws(APIError) -> String {
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
            throw .badRequest("invalid_query", "The query string has invalid percent-encoding near “\(text.prefix(40))”.")
        }
        return decoded
    }
}
