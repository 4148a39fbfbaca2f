import QRCore

/// Splits text into the sequence of numeric, alphanumeric, byte and (optionally) kanji segments with the
/// smallest total bit length, by dynamic programming over exact bit costs.
///
/// The state after each character is the mode of the open segment and, for numeric and alphanumeric, how
/// many characters of its last group are pending (digits pack 3 into 10 bits, alphanumerics 2 into 11), so
/// costs are exact rather than averaged per character. Units are stored flat and the tables are
/// preallocated: encoding a short URL makes only a handful of allocations.
struct SegmentOptimizer {
    /// Every unit's bytes in the byte-mode charset, concatenated; unit i is `bytes[offsets[i]..<offsets[i+1]]`.
    private(set) var bytes: [UInt8] = []
    private var offsets: [Int32] = [0]
    /// Per unit: bit 0 digit, bit 1 alphanumeric, bit 2 kanji-capable.
    private var flags: [UInt8] = []
    /// Per unit: its Shift_JIS pair when kanji-capable.
    private var kanjiCodes: [UInt16] = []

    /// Number of units (Unicode scalars, or bytes for raw data).
    var count: Int { flags.count }

    /// Prepares `text` for segmentation: byte mode uses `charset`; kanji mode is considered only if `kanji`.
    init(text: String, charset: Charset, kanji: Bool) throws(EncoderError) {
        let scalars = text.unicodeScalars
        bytes.reserveCapacity(scalars.count)
        offsets.reserveCapacity(scalars.count + 1)
        flags.reserveCapacity(scalars.count)
        kanjiCodes.reserveCapacity(scalars.count)
        let wide = charset == .utf16BE || charset == .utf16LE || charset == .utf32BE || charset == .utf32LE
        for scalar in scalars {
            var flag: UInt8 = 0
            var kanjiCode: UInt16 = 0
            if scalar.isASCII && !wide {
                let ascii = UInt8(scalar.value)
                bytes.append(ascii)
                if (48...57).contains(ascii) { flag |= 1 }
                if AlphanumericCharset.value(of: ascii) != nil { flag |= 2 }
            } else if charset == .utf8 {
                UTF8.encode(scalar) { bytes.append($0) }
            } else if charset == .isoLatin1 && scalar.value < 256 {
                bytes.append(UInt8(scalar.value))
            } else if let encoded = charset.encode(String(scalar)), !encoded.isEmpty {
                bytes += encoded
            } else {
                throw .unencodableCharacter(String(scalar), charset: charset)
            }
            if kanji, !scalar.isASCII, let sjis = Charset.shiftJIS.encode(String(scalar)), sjis.count == 2,
               KanjiMode.isKanji(sjis[0], sjis[1]) {
                flag |= 4
                kanjiCode = UInt16(sjis[0]) << 8 | UInt16(sjis[1])
            }
            offsets.append(Int32(bytes.count))
            flags.append(flag)
            kanjiCodes.append(kanjiCode)
        }
    }

    /// Prepares raw bytes: byte mode only, one unit per byte.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        offsets = (0...bytes.count).map { Int32($0) }
        flags = [UInt8](repeating: 0, count: bytes.count)
        kanjiCodes = [UInt16](repeating: 0, count: bytes.count)
    }

    /// The bytes of unit `index` in the byte-mode charset.
    func bytes(ofUnit index: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[index])..<Int(offsets[index + 1])] }

    // DP states: the mode of the open segment, with pending group size for numeric and alphanumeric.
    // 0…2 numeric with 0…2 pending digits, 3…4 alphanumeric with 0…1 pending, 5 byte, 6 kanji.
    private static let stateCount = 7
    private static let stateModes: [SegmentMode] = [.numeric, .numeric, .numeric, .alphanumeric, .alphanumeric, .byte, .kanji]
    /// The state each mode opens in, and which flag bit it needs (nil: any unit).
    private static let openings: [(mode: SegmentMode, state: Int)] = [(.numeric, 0), (.alphanumeric, 3), (.byte, 5), (.kanji, 6)]
    private static let unreachable = Int.max / 4
    /// Costs are bits × `bitUnit` + segments: the fewest bits, and among equal bit counts the fewest segments
    /// (a plain byte segment rather than a byte-and-numeric mix of the same length, as other encoders write).
    private static let bitUnit = 1 << 24

    /// Bits to add unit `index` to an open segment in `state`, and the state after; nil if its mode cannot carry it.
    @inline(__always)
    private func extend(_ state: Int, unit index: Int) -> (cost: Int, next: Int)? {
        let flag = flags[index]
        switch state {
        case 0: return flag & 1 != 0 ? (4, 1) : nil
        case 1: return flag & 1 != 0 ? (3, 2) : nil
        case 2: return flag & 1 != 0 ? (3, 0) : nil
        case 3: return flag & 2 != 0 ? (6, 4) : nil
        case 4: return flag & 2 != 0 ? (5, 3) : nil
        case 5: return (Int(offsets[index + 1] - offsets[index]) * 8, 5)
        default: return flag & 4 != 0 ? (13, 6) : nil
        }
    }

    /// One DP step: the costs after unit `index` from the costs before it (`previous` empty for the first
    /// unit); `from` gets each state's predecessor, with 8 added when the unit opens a new segment.
    @inline(__always)
    private func step(_ previous: UnsafePointer<Int>?, into next: UnsafeMutablePointer<Int>,
                      from: UnsafeMutablePointer<Int8>?, unit index: Int, countBits: [Int]) {
        for s in 0..<Self.stateCount { next[s] = Self.unreachable }
        var cheapest = 0, cheapestState = -1
        if let previous {
            cheapest = Self.unreachable
            for s in 0..<Self.stateCount where previous[s] < Self.unreachable {
                if previous[s] < cheapest { cheapest = previous[s]; cheapestState = s }
                guard let (cost, target) = extend(s, unit: index) else { continue }
                let total = previous[s] + cost * Self.bitUnit
                if total < next[target] {
                    next[target] = total
                    from?[target] = Int8(s)
                }
            }
        }
        for (k, opening) in Self.openings.enumerated() {
            guard let (cost, target) = extend(opening.state, unit: index) else { continue }
            let total = cheapest + (4 + countBits[k] + cost) * Self.bitUnit + 1
            if total < next[target] {
                next[target] = total
                from?[target] = Int8(cheapestState) + 8
            }
        }
    }

    /// Character count indicator lengths of the opening modes in `version`.
    private static func countBits(_ version: Version) -> [Int] { openings.map { $0.mode.characterCountBits(version: version) } }

    /// Running minimum cost of encoding a growing run of units, for greedy splitting (Structured Append).
    struct RunningCost {
        fileprivate var costs = [Int](repeating: SegmentOptimizer.unreachable, count: SegmentOptimizer.stateCount)
        fileprivate var started = false
        /// Bits of the cheapest segmentation of the units fed so far (0 before any).
        fileprivate(set) var bits = 0
    }

    /// A fresh running cost.
    func startRunningCost() -> RunningCost { RunningCost() }

    /// Feeds unit `index` into a running cost for symbols of `version`'s size group.
    func feed(unit index: Int, into running: inout RunningCost, version: Version) {
        let countBits = Self.countBits(version)
        var next = [Int](repeating: 0, count: Self.stateCount)
        running.costs.withUnsafeBufferPointer { previous in
            next.withUnsafeMutableBufferPointer { out in
                step(running.started ? previous.baseAddress : nil, into: out.baseAddress!, from: nil, unit: index, countBits: countBits)
            }
        }
        running.costs = next
        running.started = true
        running.bits = (next.min() ?? Self.unreachable) / Self.bitUnit
    }

    /// The cheapest segments for units `range` in symbols of `version`'s size group, segments longer than
    /// their count indicator allows split.
    func segments(_ range: Range<Int>? = nil, version: Version) -> [Segment] {
        let range = range ?? 0..<count
        guard !range.isEmpty else { return [] }
        let countBits = Self.countBits(version)
        let n = range.count, states = Self.stateCount
        var costs = [Int](repeating: 0, count: (n + 1) * states)
        var trace = [Int8](repeating: -1, count: n * states)
        costs.withUnsafeMutableBufferPointer { cost in
            trace.withUnsafeMutableBufferPointer { from in
                for offset in 0..<n {
                    step(offset == 0 ? nil : UnsafePointer(cost.baseAddress! + offset * states),
                         into: cost.baseAddress! + (offset + 1) * states, from: from.baseAddress! + offset * states,
                         unit: range.lowerBound + offset, countBits: countBits)
                }
            }
        }
        // Walk back from the cheapest final state, recording where segments start and in which mode.
        var state = 0
        for s in 1..<states where costs[n * states + s] < costs[n * states + state] { state = s }
        var starts: [(offset: Int, mode: SegmentMode)] = []
        for offset in stride(from: n - 1, through: 0, by: -1) {
            let link = Int(trace[offset * states + state])
            if link >= 7 { starts.append((offset, Self.stateModes[state])) }
            state = link >= 7 ? link - 8 : link
        }
        starts.reverse()
        var result: [Segment] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].offset : n
            result += makeSegments(start.mode, (range.lowerBound + start.offset)..<(range.lowerBound + end), version: version)
        }
        return result
    }

    /// Segments of `mode` for units `units`, split where the character count indicator would overflow.
    private func makeSegments(_ mode: SegmentMode, _ units: Range<Int>, version: Version) -> [Segment] {
        let limit = (1 << mode.characterCountBits(version: version)) - 1
        var result: [Segment] = []
        var chunk: [UInt8] = []
        var characters = 0
        func flush() {
            guard characters > 0 else { return }
            let count = mode == .kanji ? chunk.count / 2 : chunk.count
            result.append(Segment(mode: mode, characterCount: count, payload: chunk))
            chunk.removeAll(keepingCapacity: true)
            characters = 0
        }
        for index in units {
            let added = mode == .byte ? Int(offsets[index + 1] - offsets[index]) : 1
            if characters + added > limit { flush() }
            if mode == .kanji {
                chunk += [UInt8(kanjiCodes[index] >> 8), UInt8(kanjiCodes[index] & 0xFF)]
            } else {
                chunk += bytes(ofUnit: index)
            }
            characters += added
        }
        flush()
        return result
    }
}
