import QRCore

extension QRCode {
    /// Splits text over linked symbols (Structured Append, ISO/IEC 18004 §8): each symbol is an ordinary QR
    /// code carrying its position, the count and the parity of the whole message; readers join them.
    ///
    /// - Parameter count: the number of symbols, 2…16, or nil for as few as needed (a single plain symbol
    ///   when everything fits in one).
    /// - Returns: the symbols in order, all of the same version and level, with balanced contents.
    public static func encodeStructuredAppend(_ text: String, count: Int? = nil,
                                              options: EncodingOptions = EncodingOptions()) throws(EncoderError) -> [QRCode] {
        let (charset, eci) = try options.resolvedCharset()
        let optimizer = try SegmentOptimizer(text: text, charset: charset, kanji: options.kanji)
        return try split(optimizer, eci: eci, count: count, options: options)
    }

    /// Splits raw bytes over linked symbols, as ``encodeStructuredAppend(_:count:options:)`` does for text.
    public static func encodeStructuredAppend(bytes: [UInt8], count: Int? = nil,
                                              options: EncodingOptions = EncodingOptions()) throws(EncoderError) -> [QRCode] {
        let (_, eci) = try options.resolvedCharset()
        return try split(SegmentOptimizer(bytes: bytes), eci: eci, count: count, options: options)
    }

    private static func split(_ optimizer: SegmentOptimizer, eci: Segment?, count: Int?,
                              options: EncodingOptions) throws(EncoderError) -> [QRCode] {
        let versions = try options.validatedVersions()
        let mask = try options.validatedMask()
        let level = options.errorCorrectionLevel
        if let count, !(2...16).contains(count) {
            throw .cannotSplit("the number of symbols must be 2…16, not \(count).")
        }
        if count == nil {
            let single = try? fit(options: options) { version in
                (eci.map { [$0] } ?? []) + optimizer.segments(version: version)
            }
            if let single { return [single] }
        }
        let headerBits = 20 + (eci.flatMap { $0.bitCount(version: .min) } ?? 0)
        // As few symbols as needed: what the largest allowed version takes.
        let largest = versions[versions.count - 1]
        guard let fewest = partition(optimizer, budget: largest.dataBits(level) - headerBits, version: largest)?.count,
              fewest <= (count ?? 16)
        else {
            throw .cannotSplit("the data does not fit in \(count ?? 16) symbols of version \(largest) at level \(level).")
        }
        let count = count ?? Swift.max(2, fewest)
        if optimizer.count < count {
            throw .cannotSplit("\(optimizer.count) characters cannot fill \(count) symbols.")
        }
        let parity = optimizer.bytes.reduce(UInt8(0), ^)

        for version in versions {
            let budget = version.dataBits(level) - headerBits
            guard partition(optimizer, budget: budget, version: version).map({ $0.count <= count }) == true else { continue }
            // Balance: the smallest budget that still needs no more than `count` symbols.
            var low = 0, high = budget
            while low < high {
                let middle = (low + high) / 2
                if let trial = partition(optimizer, budget: middle, version: version), trial.count <= count {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            var parts = partition(optimizer, budget: low, version: version) ?? []
            // Too few parts (very short data): halve the longest until there are `count`.
            while parts.count < count, let longest = parts.indices.max(by: { parts[$0].count < parts[$1].count }) {
                let range = parts[longest]
                let middle = range.lowerBound + range.count / 2
                parts.replaceSubrange(longest...longest, with: [range.lowerBound..<middle, middle..<range.upperBound])
            }
            return parts.enumerated().map { index, range in
                let segments = (eci.map { [$0] } ?? []) + optimizer.segments(range, version: version)
                let header = StructuredAppendInfo(index: index, count: parts.count, parity: parity)
                return SymbolBuilder.build(segments, header: header, version: version, level: level, mask: mask)
            }
        }
        throw .cannotSplit("the data does not fit in \(count) symbols of version \(largest) at level \(level).")
    }

    /// Greedy partition of all units into runs whose cheapest encoding fits `budget` bits, or nil if a
    /// single unit does not fit.
    private static func partition(_ optimizer: SegmentOptimizer, budget: Int, version: Version) -> [Range<Int>]? {
        var parts: [Range<Int>] = []
        var start = 0
        var running = optimizer.startRunningCost()
        var index = 0
        while index < optimizer.count {
            var trial = running
            optimizer.feed(unit: index, into: &trial, version: version)
            if trial.bits <= budget {
                running = trial
                index += 1
            } else {
                guard index > start else { return nil }
                parts.append(start..<index)
                start = index
                running = optimizer.startRunningCost()
            }
        }
        if index > start { parts.append(start..<index) }
        return parts
    }
}
