/// A character set that byte segments of a QR code can be written in, with its ECI assignment numbers
/// (AIM ECI specification) and conversion to and from Swift strings.
public struct Charset: Hashable, Sendable, CustomStringConvertible {
    /// The usual name, e.g. "UTF-8", "ISO-8859-1", "Shift_JIS".
    public let name: String
    /// ECI assignment numbers that designate this charset, the preferred one first (empty if none).
    public let eciAssignments: [Int]
    /// The name iconv knows it by.
    let converterName: String
    /// Other names users may type.
    let aliases: [String]

    init(_ name: String, eci: [Int], converter: String? = nil, aliases: [String] = []) {
        self.name = name
        eciAssignments = eci
        converterName = converter ?? name
        self.aliases = aliases
    }

    /// The ECI assignment number to write for this charset, if it has one.
    public var eciAssignment: Int? { eciAssignments.first }

    public var description: String { name }

    public static let utf8 = Charset("UTF-8", eci: [26], aliases: ["utf8"])
    public static let isoLatin1 = Charset("ISO-8859-1", eci: [3, 1], aliases: ["latin1", "latin-1", "iso8859-1"])
    /// Shift_JIS as Windows extends it (code page 932): a superset that keeps ASCII in the low half.
    public static let shiftJIS = Charset("Shift_JIS", eci: [20], converter: "CP932",
                                         aliases: ["sjis", "shift-jis", "cp932", "windows-31j"])
    public static let ascii = Charset("US-ASCII", eci: [27, 170], converter: "ASCII", aliases: ["ascii"])
    public static let gb18030 = Charset("GB18030", eci: [32, 29], aliases: ["gb2312", "gb-18030"])
    public static let gbk = Charset("GBK", eci: [31], aliases: ["cp936"])
    public static let big5 = Charset("Big5", eci: [28], converter: "BIG5", aliases: ["big-5"])
    public static let eucKR = Charset("EUC-KR", eci: [30], converter: "CP949", aliases: ["euckr", "cp949"])
    public static let utf16BE = Charset("UTF-16BE", eci: [25], aliases: ["utf16be", "utf-16"])
    public static let utf16LE = Charset("UTF-16LE", eci: [33], aliases: ["utf16le"])
    public static let utf32BE = Charset("UTF-32BE", eci: [34], aliases: ["utf32be"])
    public static let utf32LE = Charset("UTF-32LE", eci: [35], aliases: ["utf32le"])
    public static let cp437 = Charset("CP437", eci: [2, 0], aliases: ["ibm437"])

    /// Every charset QRKit can read or write.
    public static let all: [Charset] = {
        var list: [Charset] = [utf8, isoLatin1, shiftJIS, ascii, gb18030, gbk, big5, eucKR,
                               utf16BE, utf16LE, utf32BE, utf32LE, cp437]
        // ISO-8859-n is ECI n + 2 (there is no ISO-8859-12, so ECI 14 is unassigned).
        for part in 2...16 where part != 12 {
            list.append(Charset("ISO-8859-\(part)", eci: [part + 2], aliases: ["iso8859-\(part)"]))
        }
        for (code, eci) in [(1250, 21), (1251, 22), (1252, 23), (1256, 24)] {
            list.append(Charset("windows-\(code)", eci: [eci], converter: "CP\(code)", aliases: ["cp\(code)"]))
        }
        return list
    }()

    /// The charset an ECI assignment number designates, if QRKit knows it.
    public static func forECI(_ assignment: Int) -> Charset? {
        all.first { $0.eciAssignments.contains(assignment) }
    }

    /// The charset with this name or alias (case-insensitive; "_" and "-" are interchangeable).
    public static func named(_ text: String) -> Charset? {
        func normal(_ s: String) -> String { String(s.lowercased().map { $0 == "_" ? "-" : $0 }) }
        let key = normal(text)
        return all.first { normal($0.name) == key || $0.aliases.contains { normal($0) == key } }
    }

    /// `text` in this charset, or nil if some character cannot be represented.
    public func encode(_ text: String) -> [UInt8]? {
        switch self {
        case .utf8: return Array(text.utf8)
        case .isoLatin1:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.unicodeScalars.count)
            for scalar in text.unicodeScalars {
                guard scalar.value < 256 else { return nil }
                bytes.append(UInt8(scalar.value))
            }
            return bytes
        default:
            return TextConverter.convert(Array(text.utf8), from: "UTF-8", to: converterName)
        }
    }

    /// `bytes` read in this charset, or nil if they are not valid in it.
    public func decode(_ bytes: [UInt8]) -> String? {
        switch self {
        case .utf8: return String(validating: bytes, as: UTF8.self)
        case .isoLatin1: return String(bytes.map { Character(Unicode.Scalar($0)) })
        default:
            guard let utf8 = TextConverter.convert(bytes, from: converterName, to: "UTF-8") else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}
