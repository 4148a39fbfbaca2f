import QRImage

/// The stream header of a Y4M (YUV4MPEG2) stream, as `ffmpeg -f yuv4mpegpipe` writes it:
/// `YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL`.
public struct Y4MHeader: Sendable, Hashable {
    /// How the fields of a frame were captured (`I` tag).
    public enum Interlacing: Character, Sendable, Hashable {
        case progressive = "p"
        case topFieldFirst = "t"
        case bottomFieldFirst = "b"
        case mixed = "m"
        case unknown = "?"
    }

    /// A pixel's width relative to its height (`A` tag); 0:0 means unknown.
    public struct PixelAspectRatio: Sendable, Hashable {
        /// Width units…
        public let numerator: Int
        /// …per this many height units.
        public let denominator: Int
    }

    /// The signature every Y4M stream starts with.
    static let magic = Array("YUV4MPEG2".utf8)

    /// Pixels per row (`W`).
    public let width: Int
    /// Rows (`H`).
    public let height: Int
    /// Frame rate (`F`); 25 fps when the header gives none or `F0:0`.
    public let frameRate: FrameRate
    /// Interlacing (`I`); progressive when not given.
    public let interlacing: Interlacing
    /// Pixel aspect ratio (`A`), if given.
    public let pixelAspectRatio: PixelAspectRatio?
    /// Colour space (`C`, else the `XYSCSS` extension); 420jpeg when not given.
    public let colorSpace: Y4MColorSpace
    /// The `X` extension tags, without their `X`, e.g. `COLORRANGE=FULL`.
    public let extensions: [String]

    /// Bytes of each frame's luma plane.
    public var lumaBytes: Int { width * height * colorSpace.bytesPerSample }
    /// Bytes of each frame's other planes, skipped.
    public var otherPlanesBytes: Int { colorSpace.otherPlanesBytes(width: width, height: height) }

    /// Parses a header line (without its newline). Frames over `maxPixels` pixels are refused, so that no
    /// frame memory is committed to an absurd size.
    public init(parsing line: [UInt8], maxPixels: Int = ImageLimits().maxPixels) throws(VideoStreamError) {
        guard line.starts(with: Self.magic), line.count == Self.magic.count || line[Self.magic.count] == 0x20 else {
            throw .notY4M(found: VideoStreamError.excerpt(line))
        }
        var width: Int?, height: Int?
        var frameRate = FrameRate.default
        var interlacing = Interlacing.progressive
        var aspect: PixelAspectRatio?
        var colorSpaceName: String?, subsamplingName: String?
        var extensions: [String] = []
        for token in line.dropFirst(Self.magic.count).split(separator: 0x20) {
            let text = String(decoding: token, as: UTF8.self)
            let value = String(text.dropFirst())
            switch text.first {
            case "W": width = try Self.dimension(value, tag: text)
            case "H": height = try Self.dimension(value, tag: text)
            case "F":
                guard let (n, d) = Self.ratio(value) else { throw .invalidHeaderTag(text) }
                // 0:0 is the format's "unknown"; anything else must be a real rate.
                if n != 0 || d != 0 {
                    guard let rate = FrameRate(numerator: n, denominator: d) else { throw .invalidHeaderTag(text) }
                    frameRate = rate
                }
            case "I":
                guard value.count == 1, let mode = value.first.flatMap(Interlacing.init(rawValue:)) else {
                    throw .invalidHeaderTag(text)
                }
                interlacing = mode
            case "A":
                guard let (n, d) = Self.ratio(value) else { throw .invalidHeaderTag(text) }
                aspect = PixelAspectRatio(numerator: n, denominator: d)
            case "C": colorSpaceName = value
            case "X":
                extensions.append(value)
                if value.hasPrefix("YSCSS=") { subsamplingName = String(value.dropFirst("YSCSS=".count)) }
            default:
                // Unknown tags are for other readers, as the format intends.
                continue
            }
        }
        guard let width else { throw .missingHeaderTag("W") }
        guard let height else { throw .missingHeaderTag("H") }
        guard width <= maxPixels / height else { throw .frameTooLarge(width: width, height: height, limit: maxPixels) }
        let colorSpace: Y4MColorSpace
        if let colorSpaceName {
            guard let named = Y4MColorSpace(name: colorSpaceName) else { throw .unsupportedColorSpace(colorSpaceName) }
            colorSpace = named
        } else if let subsamplingName {
            guard let named = Y4MColorSpace(name: subsamplingName) else { throw .unsupportedColorSpace(subsamplingName) }
            colorSpace = named
        } else {
            colorSpace = .default420
        }
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.interlacing = interlacing
        self.pixelAspectRatio = aspect
        self.colorSpace = colorSpace
        self.extensions = extensions
    }

    /// A width or height: 1…999999999 (larger values are refused with the pixel limit, not by overflow).
    private static func dimension(_ value: String, tag: String) throws(VideoStreamError) -> Int {
        guard (1...9).contains(value.count), value.allSatisfy(\.isASCIIDigit), let number = Int(value), number > 0 else {
            throw .invalidHeaderTag(tag)
        }
        return number
    }

    /// `n:d` with both parts non-negative and at most 10 digits.
    private static func ratio(_ value: String) -> (Int, Int)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...10).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
        return (n, d)
    }
}
