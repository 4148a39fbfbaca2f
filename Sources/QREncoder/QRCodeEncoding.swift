import QRCore

extension QRCode {
    /// Encodes text in the fewest bits: optimal numeric / alphanumeric / byte segments (and kanji if
    /// `options.kanji`), byte mode in UTF-8 without ECI unless the options say otherwise, in the smallest
    /// allowed version.
    ///
    /// ```swift
    /// let code = try QRCode.encode("https://example.com", options: .init(errorCorrectionLevel: .quartile))
    /// ```
    public static func encode(_ text: String, options: EncodingOptions = EncodingOptions()) throws(EncoderError) -> QRCode {
        let (charset, eci) = try options.resolvedCharset()
        let optimizer = try SegmentOptimizer(text: text, charset: charset, kanji: options.kanji)
        return try fit(options: options) { version in
            (eci.map { [$0] } ?? []) + optimizer.segments(version: version)
        }
    }

    /// Encodes raw bytes as one byte segment (preceded by the options' ECI designator, if any).
    public static func encode(bytes: [UInt8], options: EncodingOptions = EncodingOptions()) throws(EncoderError) -> QRCode {
        let (_, eci) = try options.resolvedCharset()
        let segments = (eci.map { [$0] } ?? []) + [Segment.bytes(bytes)]
        return try fit(options: options) { _ in segments }
    }

    /// Encodes explicit segments, in order. The options' charset, ECI and kanji settings do not apply:
    /// the segments say everything.
    public static func encode(segments: [Segment], options: EncodingOptions = EncodingOptions()) throws(EncoderError) -> QRCode {
        try fit(options: options) { _ in segments }
    }

    /// Builds the symbol in the smallest allowed version that holds the segments `segmentsFor` gives for it.
    static func fit(options: EncodingOptions, segmentsFor: (Version) -> [Segment]) throws(EncoderError) -> QRCode {
        let versions = try options.validatedVersions()
        let mask = try options.validatedMask()
        var level = options.errorCorrectionLevel
        var cache: [Int: [Segment]] = [:]  // segments depend only on the version's size group
        func segments(_ version: Version) -> [Segment] {
            let group = version.number <= 9 ? 0 : version.number <= 26 ? 1 : 2
            if let cached = cache[group] { return cached }
            let computed = segmentsFor(version)
            cache[group] = computed
            return computed
        }
        for version in versions {
            let chosen = segments(version)
            guard let bits = Segment.totalBits(chosen, version: version), bits <= version.dataBits(level) else { continue }
            if options.boostErrorCorrection {
                for higher in ErrorCorrectionLevel.allCases where higher > level && bits <= version.dataBits(higher) {
                    level = higher
                }
            }
            return SymbolBuilder.build(chosen, version: version, level: level, mask: mask)
        }
        let largest = versions[versions.count - 1]
        let needed = Segment.totalBits(segments(largest), version: largest) ?? Int.max
        throw .dataTooLong(requiredBits: needed, capacityBits: largest.dataBits(level), version: largest, level: level)
    }
}
