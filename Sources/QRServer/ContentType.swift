/// A parsed `Content-Type` (or `Accept` media range): `type/subtype; name=value; …`, lower-cased except for
/// parameter values, which keep their case (multipart boundaries are case-sensitive).
struct ContentType: Equatable, Sendable {
    let type: String
    let subtype: String
    let parameters: [String: String]

    /// `type/subtype`, the part that says what the content is.
    var essence: String { "\(type)/\(subtype)" }

    /// Parses a header value; nil when it is not `token/token` followed by well-formed parameters.
    init?(_ text: String) {
        var fields = Self.splitOutsideQuotes(text, separator: ";")
        guard let first = fields.first else { return nil }
        fields.removeFirst()
        let essence = first.trimmingSpaces().lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard essence.count == 2, Self.isToken(essence[0]), Self.isToken(essence[1]) else { return nil }
        type = String(essence[0])
        subtype = String(essence[1])
        var parameters: [String: String] = [:]
        for field in fields {
            let trimmed = field.trimmingSpaces()
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].lowercased()
            guard Self.isToken(Substring(name)), let value = Self.parameterValue(trimmed[trimmed.index(after: equals)...])
            else { return nil }
            parameters[name] = value
        }
        self.parameters = parameters
    }

    /// A token or a quoted string with backslash escapes.
    private static func parameterValue(_ raw: Substring) -> String? {
        guard raw.first == "\"" else { return isToken(raw) ? String(raw) : nil }
        var value = ""
        var escaped = false
        var closed = false
        for character in raw.dropFirst() {
            if closed { return nil }
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                closed = true
            } else {
                value.append(character)
            }
        }
        return closed ? value : nil
    }

    /// RFC 9110 token characters.
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }

    /// Splits at `separator`s that are not inside a quoted string.
    static func splitOutsideQuotes(_ text: String, separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return Substring(self[first...last])
    }
}
