/// Pieces of JSON text shared by every JSON writer in the project (the symbol description of
/// `qr make --format json`, the JSON Lines of `qr read` and `qr watch`).
public enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, everything else
    /// (valid UTF-8, as every Swift string is, slashes included) copied as it is.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (``quoted(_:)``) to UTF-8 bytes.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case UInt8(ascii: "\n"): out += #"\n"#.utf8
            case UInt8(ascii: "\r"): out += #"\r"#.utf8
            case UInt8(ascii: "\t"): out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0..<0x20: out += #"\u00"#.utf8 + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Bytes as lower-case hexadecimal digits, two per byte, without separators.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
