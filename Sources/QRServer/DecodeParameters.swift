import QRCore
import QRImage
import QRReader

/// The query parameters of `POST /api/decode`, validated.
///
/// - `accuracy`: `fast` or `thorough` (default).
/// - `region`: `x,y,w,h`, fractions of the displayed image (all ≤ 1) or pixels; only there is searched.
/// - `max`: stop after this many codes (1…100).
/// - `inverted`: `false` to skip looking for light-on-dark codes.
/// - `mixed_polarity`: `true` to look for light-on-dark codes beside dark-on-light ones found too (slower).
/// - `downscale`: `false` to skip reading shrunk copies of the image.
/// - `preview`: `true` to also get, for an image browsers cannot show (PNM, TIFF), a PNG of it as displayed.
struct DecodeParameters: Equatable, Sendable {
    /// Most codes reported for one image.
    static let maximumCodes = 100

    var accuracy: ReaderOptions.Accuracy = .thorough
    var region: ReaderOptions.RegionOfInterest?
    var maximumCodes: Int?
    var tryInverted = true
    var mixedPolarity = false
    var tryDownscale = true
    var preview = false

    init(query given: QueryString) throws(APIError) {
        // Parameters left blank mean "not given".
        let query = given.values.filter { !$0.value.trimmingSpaces().isEmpty }
        if let text = query["accuracy"] {
            guard let accuracy = ReaderOptions.Accuracy(rawValue: text.lowercased()) else {
                throw .badRequest("invalid_parameter", "accuracy must be fast or thorough, not “\(text.prefix(40))”.")
            }
            self.accuracy = accuracy
        }
        if let text = query["region"] {
            region = try Self.region(text)
        }
        if let text = query["max"] {
            guard let count = Int(text), (1...Self.maximumCodes).contains(count) else {
                throw .badRequest("invalid_parameter", "max must be a whole number from 1 to \(Self.maximumCodes), not “\(text.prefix(40))”.")
            }
            maximumCodes = count
        }
        tryInverted = try Self.flag("inverted", in: query) ?? true
        mixedPolarity = try Self.flag("mixed_polarity", in: query) ?? false
        tryDownscale = try Self.flag("downscale", in: query) ?? true
        preview = try Self.flag("preview", in: query) ?? false
    }

    /// The query's `name` parameter as a flag, nil when not given.
    private static func flag(_ name: String, in query: [String: String]) throws(APIError) -> Bool? {
        guard let text = query[name] else { return nil }
        guard let flag = Bool(flag: text) else {
            throw .badRequest("invalid_parameter", "\(name) must be true or false, not “\(text.prefix(40))”.")
        }
        return flag
    }

    /// `x,y,w,h`: fractions when all four are at most 1, else pixels (the `qr read --roi` convention).
    private static func region(_ text: String) throws(APIError) -> ReaderOptions.RegionOfInterest {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces()) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1_000_000 }), w > 0, h > 0 else {
            throw .badRequest("invalid_parameter",
                              "region must be x,y,w,h with non-negative numbers and a positive width and height, "
                                  + "as fractions of the image (all at most 1) or pixels, not “\(text.prefix(60))”.")
        }
        let rect = Rect(x: x, y: y, width: w, height: h)
        return [x, y, w, h].allSatisfy({ $0 <= 1 }) ? .normalized(rect) : .pixels(rect)
    }

    /// Reader options for an image stored as `width` × `height` pixels and displayed with `orientation`:
    /// the region, given in the displayed image, is turned into the stored frame the reader searches.
    func readerOptions(storedWidth: Int, storedHeight: Int, orientation: ExifOrientation,
                       timeBudget: Duration) -> ReaderOptions {
        var storedRegion: ReaderOptions.RegionOfInterest?
        if let region {
            let displayed = orientation.orientedSize(width: storedWidth, height: storedHeight)
            let pixels: Rect
            switch region {
            case let .normalized(r):
                pixels = Rect(x: r.minX * Double(displayed.width), y: r.minY * Double(displayed.height),
                              width: r.width * Double(displayed.width), height: r.height * Double(displayed.height))
            case let .pixels(r):
                pixels = r
            }
            let corners = [Point(pixels.minX, pixels.minY), Point(pixels.maxX, pixels.maxY)].map {
                orientation.storedPoint(fromDisplay: $0, storedWidth: storedWidth, storedHeight: storedHeight)
            }
            storedRegion = .pixels(Rect(bounding: corners))
        }
        return ReaderOptions(accuracy: accuracy, regionOfInterest: storedRegion, maximumCodes: maximumCodes,
                             tryInverted: tryInverted, mixedPolarity: mixedPolarity, tryDownscale: tryDownscale, timeBudget: timeBudget)
    }
}

extension Bool {
    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`, any case), as forms and query strings send them.
    init?(flag text: String) {
        switch text.lowercased() {
        case "true", "1", "yes", "on": self = true
        case "false", "0", "no", "off": self = false
        default: return nil
        }
    }
}
