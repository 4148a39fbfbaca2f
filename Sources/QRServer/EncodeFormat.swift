/// What `/api/encode` returns: a PNG, an SVG, or the symbol's description as JSON.
enum EncodeFormat: String, CaseIterable, Sendable {
    case png, svg, json

    var contentType: String {
        switch self {
        case .png: "image/png"
        case .svg: "image/svg+xml; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }

    /// The format an `Accept` header prefers: highest quality wins, PNG on ties (so `image/*`, `*/*` and an
    /// `<img>` element's list all get PNG), PNG when nothing matches or no header was sent.
    static func negotiate(accept: String?) -> EncodeFormat {
        guard let accept else { return .png }
        var quality: [EncodeFormat: Double] = [:]
        for range in ContentType.splitOutsideQuotes(accept, separator: ",") {
            guard let type = ContentType(String(range)) else { continue }
            let q = type.parameters["q"].flatMap(Double.init) ?? 1
            for format in allCases where format.matches(type) {
                quality[format] = max(quality[format] ?? 0, q)
            }
        }
        let best = allCases.max { (quality[$0] ?? 0, $0.tieRank) < (quality[$1] ?? 0, $1.tieRank) }
        guard let best, (quality[best] ?? 0) > 0 else { return .png }
        return best
    }

    private func matches(_ range: ContentType) -> Bool {
        switch (range.type, range.subtype) {
        case ("*", "*"): return self == .png
        case ("image", "*"): return self != .json
        case ("image", "png"): return self == .png
        case ("image", "svg+xml"): return self == .svg
        case ("application", "json"): return self == .json
        default: return false
        }
    }

    /// Higher wins a tie in quality.
    private var tieRank: Int {
        switch self {
        case .png: 2
        case .svg: 1
        case .json: 0
        }
    }
}
