import QRCore

/// Why data could not be encoded, with a message that says what would fit.
public enum EncoderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data needs `requiredBits` but the largest allowed symbol holds `capacityBits`.
    case dataTooLong(requiredBits: Int, capacityBits: Int, version: Version, level: ErrorCorrectionLevel)
    /// A version outside 1…40, or an empty range.
    case invalidVersion(String)
    /// A mask outside 0…7.
    case invalidMask(Int)
    /// A character the mode cannot carry.
    case invalidCharacter(String, mode: SegmentMode)
    /// Shift_JIS bytes that are not valid kanji-mode characters.
    case invalidKanjiBytes(String)
    /// A character the chosen charset cannot represent.
    case unencodableCharacter(String, charset: Charset)
    /// An ECI assignment number outside 0…999999 or one QRKit has no charset for.
    case invalidECI(Int)
    /// The ECI designator and the charset disagree.
    case charsetConflict(eci: Int, charset: Charset)
    /// An unknown charset name.
    case unknownCharset(String)
    /// Structured Append cannot split the data as asked.
    case cannotSplit(String)

    public var description: String {
        switch self {
        case let .dataTooLong(required, capacity, version, level):
            return "The data needs \(required) bits, but the largest allowed symbol, version \(version) at level "
                + "\(level), holds \(capacity) bits (\(Self.capacityText(version: version, level: level))). "
                + (level > .low ? "Use a lower error-correction level, less data" : "Use less data")
                + ", or split it over linked symbols (Structured Append: qr make --split)."
        case let .invalidVersion(text):
            return "Invalid version \(text): versions are 1…40, or a range such as 5-10."
        case let .invalidMask(mask):
            return "Invalid mask \(mask): masks are 0…7."
        case let .invalidCharacter(character, mode):
            return "\(Self.describe(character)) cannot be written in \(mode) mode."
        case let .invalidKanjiBytes(detail):
            return "Invalid Shift_JIS data for kanji mode: \(detail)."
        case let .unencodableCharacter(character, charset):
            return "\(Self.describe(character)) cannot be written in \(charset.name); use UTF-8 (the default) or another charset."
        case let .invalidECI(value):
            return "ECI assignment \(value) is not supported; known ones: 3 (ISO-8859-1), 20 (Shift_JIS), 26 (UTF-8), …"
        case let .charsetConflict(eci, charset):
            let designated = Charset.forECI(eci)?.name ?? "another charset"
            return "ECI \(eci) designates \(designated), but the charset is \(charset.name)."
        case let .unknownCharset(name):
            return "Unknown charset \"\(name)\"; try UTF-8, ISO-8859-1 or Shift_JIS."
        case let .cannotSplit(reason):
            return "Cannot split the data into linked symbols: \(reason)"
        }
    }

    /// "7,089 digits, 4,296 alphanumeric characters or 2,953 bytes"-style capacity of a symbol.
    static func capacityText(version: Version, level: ErrorCorrectionLevel) -> String {
        let bits = version.dataBits(level)
        func maxCount(_ mode: SegmentMode) -> Int {
            let available = bits - 4 - mode.characterCountBits(version: version)
            switch mode {
            case .numeric: return available / 10 * 3 + (available % 10 >= 7 ? 2 : available % 10 >= 4 ? 1 : 0)
            case .alphanumeric: return available / 11 * 2 + (available % 11 >= 6 ? 1 : 0)
            case .kanji: return available / 13
            default: return available / 8
            }
        }
        return "\(maxCount(.numeric)) digits, \(maxCount(.alphanumeric)) alphanumeric characters, "
            + "\(maxCount(.byte)) bytes or \(maxCount(.kanji)) kanji"
    }

    private static func describe(_ character: String) -> String {
        let codes = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
        return "The character “\(character)” (\(codes.joined(separator: " ")))"
    }
}
