import QRKit

/// A JSON value as `qr` prints it: one line, object keys sorted, strings as ``JSONText/quoted(_:)`` writes
/// them. Written directly rather than through Foundation's `JSONSerialization`, whose sorted-key output
/// compares keys through locales and took several times longer per line than decoding a small image.
enum JSONValue {
    case null
    case bool(Bool)
    case int(Int)
    /// Written as an integer when it is one, and as `null` when it is not finite (JSON has no infinities).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value as one line of JSON text.
    var text: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null:
            out += "null".utf8
        case let .bool(value):
            out += (value ? "true" : "false").utf8
        case let .int(value):
            out += String(value).utf8
        case let .double(value):
            if !value.isFinite {
                out += "null".utf8
            } else if value == value.rounded(), abs(value) < 1e15 {
                out += String(Int(value)).utf8
            } else {
                // Swift's description is the shortest text that reads back as the same double, and valid JSON.
                out += value.description.utf8
            }
        case let .string(value):
            JSONText.appendQuoted(value, to: &out)
        case let .array(values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key, default: .null].write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
