import QRCore
import QREncoder
import QRRender

/// The options of `GET|POST /api/encode`, validated, from query parameters and form or JSON fields.
///
/// Fields: `text` (required), `level` L/M/Q/H, `version` N or MIN-MAX, `mask` 0…7, `boost`, `moduleSize`
/// (px per module) or `size` (target px), `quietZone` (modules), `foreground`, `background` (CSS colours),
/// `logoShare` (percent of the symbol area, with a logo file), `format` png/svg/json.
struct EncodeParameters: Sendable {
    /// More text than any symbol holds (7,089 digits); longer text is refused before it is encoded.
    static let maximumTextBytes = 10_000
    static let maximumModuleSize = 64
    static let maximumQuietZone = 40
    /// Widest image rendered, so one request cannot ask for hundreds of megabytes of pixels.
    static let maximumImageSide = 4096
    static let defaultModuleSize = 8

    var text: String
    var options = EncodingOptions()
    var sizing: RenderStyle.Sizing = .moduleSize(defaultModuleSize)
    var quietZone = 4
    var foreground = Color.black
    var background = Color.white
    /// The logo file, if one was sent.
    var logo: [UInt8]?
    /// Share of the symbol area for the logo (0 < share ≤ 0.5), or nil for the largest that fits.
    var logoShare: Double?
    /// The format asked for with `format`, or nil to follow `Accept`.
    var format: EncodeFormat?

    init(fields given: [String: String], logo: [UInt8]?) throws(APIError) {
        // Forms send fields left blank as empty strings: they mean "not given" (the text excepted).
        let fields = given.filter { $0.key == "text" || !$0.value.trimmingSpaces().isEmpty }
        guard let text = fields["text"], !text.isEmpty else {
            throw .badRequest("missing_text", "Give the text to encode in the “text” field.")
        }
        guard text.utf8.count <= Self.maximumTextBytes else {
            throw APIError(status: .unprocessableContent, code: "data_too_long",
                           message: "The text has \(text.utf8.count) bytes; a QR code holds at most 7,089 digits, "
                               + "4,296 alphanumeric characters or 2,953 bytes.")
        }
        self.text = text
        self.logo = logo

        // A logo hides modules, so level H unless the client chose a level.
        if let level = fields["level"] {
            guard let parsed = ErrorCorrectionLevel(level) else {
                throw Self.invalid("level", level, "L, M, Q or H")
            }
            options.errorCorrectionLevel = parsed
        } else if logo != nil {
            options.errorCorrectionLevel = .high
        }
        if let version = fields["version"] { options.versions = try Self.versions(version) }
        if let mask = fields["mask"] {
            guard let value = Int(mask), (0...7).contains(value) else { throw Self.invalid("mask", mask, "0…7") }
            options.mask = value
        }
        if let boost = fields["boost"] {
            guard let value = Bool(flag: boost) else { throw Self.invalid("boost", boost, "true or false") }
            options.boostErrorCorrection = value
        }
        switch (fields["moduleSize"], fields["size"]) {
        case (_?, _?):
            throw .badRequest("invalid_parameter", "Give moduleSize or size, not both.")
        case let (moduleSize?, nil):
            sizing = .moduleSize(try Self.integer("moduleSize", moduleSize, in: 1...Self.maximumModuleSize))
        case let (nil, size?):
            sizing = .targetSize(try Self.integer("size", size, in: 21...Self.maximumImageSide))
        case (nil, nil):
            break
        }
        if let quietZone = fields["quietZone"] {
            self.quietZone = try Self.integer("quietZone", quietZone, in: 0...Self.maximumQuietZone)
        }
        do {
            if let color = fields["foreground"] { foreground = try Color(parsing: color) }
            if let color = fields["background"] { background = try Color(parsing: color) }
        } catch {
            throw .from(error)
        }
        if let share = fields["logoShare"] {
            guard let percent = Double(share), percent > 0, percent <= 50 else {
                throw Self.invalid("logoShare", share, "a percentage above 0 and at most 50")
            }
            logoShare = percent / 100
        }
        if let format = fields["format"] {
            guard let parsed = EncodeFormat(rawValue: format.lowercased()) else {
                throw Self.invalid("format", format, "png, svg or json")
            }
            self.format = parsed
        }
    }

    /// The render style, logo excepted (it is fitted to the encoded symbol later).
    var style: RenderStyle {
        RenderStyle(sizing: sizing, quietZone: quietZone, foreground: foreground, background: background)
    }

    private static func versions(_ text: String) throws(APIError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces()) }
        switch parts.count {
        case 1:
            if let version = parts[0], (1...40).contains(version) { return version...version }
        case 2:
            if let low = parts[0], let high = parts[1], 1 <= low, low <= high, high <= 40 { return low...high }
        default:
            break
        }
        throw invalid("version", text, "a version 1…40 or a range such as 5-10")
    }

    private static func integer(_ name: String, _ text: String, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let value = Int(text.trimmingSpaces()), range.contains(value) else {
            throw invalid(name, text, "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func invalid(_ name: String, _ value: String, _ expected: String) -> APIError {
        .badRequest("invalid_parameter", "\(name) must be \(expected), not “\(value.prefix(40))”.")
    }
}
