import QRCore

/// How text or bytes become a symbol: error-correction level, version and mask choice, character set.
public struct EncodingOptions: Sendable, Equatable {
    /// The error-correction level (default M, as Core Image's `CIQRCodeGenerator`).
    public var errorCorrectionLevel: ErrorCorrectionLevel
    /// The versions that may be used; the smallest that fits is chosen.
    public var versions: ClosedRange<Int>
    /// A forced mask 0…7, or nil to choose by the standard's penalty rules.
    public var mask: Int?
    /// Raise the error-correction level as far as the data still fits in the chosen version.
    public var boostErrorCorrection: Bool
    /// The charset of byte segments; nil means the one `eci` designates, else UTF-8.
    public var charset: Charset?
    /// An ECI assignment number to write before the data (e.g. 26 for UTF-8), or nil for none.
    public var eci: Int?
    /// Consider kanji mode for characters Shift_JIS double-byte can carry.
    public var kanji: Bool

    public init(errorCorrectionLevel: ErrorCorrectionLevel = .medium, versions: ClosedRange<Int> = 1...40,
                mask: Int? = nil, boostErrorCorrection: Bool = false, charset: Charset? = nil,
                eci: Int? = nil, kanji: Bool = false) {
        self.errorCorrectionLevel = errorCorrectionLevel
        self.versions = versions
        self.mask = mask
        self.boostErrorCorrection = boostErrorCorrection
        self.charset = charset
        self.eci = eci
        self.kanji = kanji
    }

    /// Options for exactly one version.
    public static func version(_ number: Int, level: ErrorCorrectionLevel = .medium) -> EncodingOptions {
        EncodingOptions(errorCorrectionLevel: level, versions: number...number)
    }

    /// The allowed versions, validated.
    func validatedVersions() throws(EncoderError) -> [Version] {
        guard let low = Version(versions.lowerBound), let high = Version(versions.upperBound) else {
            throw .invalidVersion(versions.lowerBound == versions.upperBound
                ? "\(versions.lowerBound)" : "\(versions.lowerBound)-\(versions.upperBound)")
        }
        return Version.all.filter { $0 >= low && $0 <= high }
    }

    /// The forced mask, validated.
    func validatedMask() throws(EncoderError) -> MaskPattern? {
        guard let mask else { return nil }
        guard let pattern = MaskPattern(mask) else { throw .invalidMask(mask) }
        return pattern
    }

    /// The byte-mode charset and the ECI segment to write, checked against each other.
    func resolvedCharset() throws(EncoderError) -> (charset: Charset, eci: Segment?) {
        guard let eci else { return (charset ?? .utf8, nil) }
        guard let designated = Charset.forECI(eci) else { throw .invalidECI(eci) }
        if let charset, !charset.eciAssignments.contains(eci) { throw .charsetConflict(eci: eci, charset: charset) }
        return (designated, try Segment.eci(eci))
    }
}
