import QRCore

/// Splits text into the sequence of numeric, alphanumeric, byte and (optionally) kanji segments with the
/// smallest total bit length, by dynamic programming over exact bit costs.
///
/// The state after each character is the mode of the open segment and, for numeric and alphanumeric, how
/// many characters of its last group are pending (digits pack 3 into 10 bits, alphanumerics 2 into 11), so
/// costs are exact rather than averaged per character.
struct SegmentOptimizer {
    /// One Unicode scalar of the input with what each mode needs to carry it.
    struct Unit {
        /// Its bytes in the byte-mode charset.
        let bytes: [UInt8]
        let isDigit: Bool
        let isAlphanumeric: Bool
        /// Its Shift_JIS pair when kanji mode may carry it.
        let kanji: (UInt8, UInt8)?
    }

    let units: [Unit]

    /// Prepares `text` for segmentation: byte mode uses `charset`; kanji mode is considered only if `kanji`.
    init(text: String, charset: Charset, kanji: Bool) throws(EncoderError) {
        var units: [Unit] = []
        units.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let ascii = scalar.isASCII ? UInt8(scalar.value) : nil
            let bytes: [UInt8]
            if let ascii, charset != .utf16BE, charset != .utf16LE, charset != .utf32BE, charset != .utf32LE {
                bytes = [ascii]
            } else if let encoded = charset.encode(String(scalar)), !encoded.isEmpty {
                bytes = encoded
            } else {
                throw .unencodableCharacter(String(scalar), charset: charset)
            }
            var kanjiPair: (UInt8, UInt8)?
            if kanji, ascii == nil, let sjis = Charset.shiftJIS.encode(String(scalar)), sjis.count == 2,
               KanjiMode.isKanji(sjis[0], sjis[1]) {
                kanjiPair = (sjis[0], sjis[1])
            }
            units.append(Unit(bytes: bytes,
                              isDigit: ascii.map { (48...57).contains($0) } ?? false,
                              isAlphanumeric: ascii.flatMap { AlphanumericCharset.value(of: $0) } != nil,
                              kanji: kanjiPair))
        }
        self.units = units
    }

    /// Prepares raw bytes: byte mode only, one unit per byte.
    init(bytes: [UInt8]) {
        units = bytes.map { Unit(bytes: [$0], isDigit: false, isAlphanumeric: false, kanji: nil) }
    }

    // DP states: the mode of the open segment, with pending group size for numeric and alphanumeric.
    private enum State: Int, CaseIterable {
        case numeric0, numeric1, numeric2, alphanumeric0, alphanumeric1, byte, kanji

        var mode: SegmentMode {
            switch self {
            case .numeric0, .numeric1, .numeric2: .numeric
            case .alphanumeric0, .alphanumeric1: .alphanumeric
            case .byte: .byte
            case .kanji: .kanji
            }
        }
    }

    private static let unreachable = Int.max / 4

    /// Bits to add `unit` to an open segment in `state`, and the state after, or nil if the mode cannot carry it.
    private func extend(_ state: State, with unit: Unit) -> (cost: Int, next: State)? {
        switch state {
        case .numeric0: return unit.isDigit ? (4, .numeric1) : nil
        case .numeric1: return unit.isDigit ? (3, .numeric2) : nil
        case .numeric2: return unit.isDigit ? (3, .numeric0) : nil
        case .alphanumeric0: return unit.isAlphanumeric ? (6, .alphanumeric1) : nil
        case .alphanumeric1: return unit.isAlphanumeric ? (5, .alphanumeric0) : nil
        case .byte: return (unit.bytes.count * 8, .byte)
        case .kanji: return unit.kanji != nil ? (13, .kanji) : nil
        }
    }

    /// The state a new segment of `mode` is in before its first character.
    private static func openingState(_ mode: SegmentMode) -> State {
        switch mode {
        case .numeric: .numeric0
        case .alphanumeric: .alphanumeric0
        case .kanji: .kanji
        default: .byte
        }
    }

    private static let modes: [SegmentMode] = [.numeric, .alphanumeric, .byte, .kanji]

    /// Running minimum cost of encoding a growing run of units, for greedy splitting (Structured Append).
    struct RunningCost {
        fileprivate var costs: [Int]
        /// Bits of the cheapest segmentation of the units fed so far (0 before any).
        fileprivate(set) var bits = 0
    }

    /// A fresh running cost.
    func startRunningCost() -> RunningCost {
        RunningCost(costs: [Int](repeating: Self.unreachable, count: State.allCases.count))
    }

    /// Feeds one more unit into a running cost for symbols of `version`'s size group.
    func feed(_ unit: Unit, into running: inout RunningCost, version: Version) {
        let isFirst = running.costs.allSatisfy { $0 >= Self.unreachable }
        running.costs = step(from: running.costs, isFirst: isFirst, unit: unit, version: version).costs
        running.bits = running.costs.min() ?? Self.unreachable
    }

    private func step(from costs: [Int], isFirst: Bool, unit: Unit, version: Version)
        -> (costs: [Int], from: [(state: Int, newSegment: Bool)])
    {
        var next = [Int](repeating: Self.unreachable, count: costs.count)
        var from = [(state: Int, newSegment: Bool)](repeating: (-1, false), count: costs.count)
        // Continue the open segment (preferred on ties: fewer segments).
        if !isFirst {
            for state in State.allCases where costs[state.rawValue] < Self.unreachable {
                guard let (cost, target) = extend(state, with: unit) else { continue }
                let total = costs[state.rawValue] + cost
                if total < next[target.rawValue] {
                    next[target.rawValue] = total
                    from[target.rawValue] = (state.rawValue, false)
                }
            }
        }
        // Or open a new segment after the cheapest previous state.
        var best = (cost: 0, state: -1)
        if !isFirst, let cheapest = costs.enumerated().min(by: { $0.element < $1.element }) {
            best = (cheapest.element, cheapest.offset)
        }
        for mode in Self.modes {
            guard let (cost, target) = extend(Self.openingState(mode), with: unit) else { continue }
            let total = best.cost + 4 + mode.characterCountBits(version: version) + cost
            if total < next[target.rawValue] {
                next[target.rawValue] = total
                from[target.rawValue] = (best.state, true)
            }
        }
        return (next, from)
    }

    /// The cheapest segments for `units[range]` in symbols of `version`'s size group, segments longer than
    /// their count indicator allows split in two.
    func segments(_ range: Range<Int>? = nil, version: Version) -> [Segment] {
        let range = range ?? units.indices
        guard !range.isEmpty else { return [] }
        var costs = [Int](repeating: Self.unreachable, count: State.allCases.count)
        var trace: [[(state: Int, newSegment: Bool)]] = []
        trace.reserveCapacity(range.count)
        for (offset, index) in range.enumerated() {
            let result = step(from: costs, isFirst: offset == 0, unit: units[index], version: version)
            costs = result.costs
            trace.append(result.from)
        }
        // Walk back, recording where segments start and in which mode.
        var state = costs.enumerated().min { $0.element < $1.element }?.offset ?? 0
        var starts: [(offset: Int, mode: SegmentMode)] = []
        for offset in stride(from: range.count - 1, through: 0, by: -1) {
            let (previous, isNew) = trace[offset][state]
            if isNew { starts.append((offset, State(rawValue: state)?.mode ?? .byte)) }
            state = previous
        }
        starts.reverse()
        var result: [Segment] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].offset : range.count
            let slice = units[(range.lowerBound + start.offset)..<(range.lowerBound + end)]
            result += makeSegments(start.mode, slice, version: version)
        }
        return result
    }

    /// Segments of `mode` for `slice`, split where the character count indicator would overflow.
    private func makeSegments(_ mode: SegmentMode, _ slice: ArraySlice<Unit>, version: Version) -> [Segment] {
        let limit = (1 << mode.characterCountBits(version: version)) - 1
        var result: [Segment] = []
        var chunk: [UInt8] = []
        var count = 0
        func flush() {
            guard count > 0 else { return }
            switch mode {
            case .numeric, .alphanumeric:
                // Only ASCII digits or alphanumerics reach here, so the constructors cannot fail.
                let text = String(decoding: chunk, as: UTF8.self)
                if let segment = mode == .numeric ? try? Segment.numeric(text) : try? Segment.alphanumeric(text) {
                    result.append(segment)
                }
            case .kanji:
                if let segment = try? Segment.kanji(shiftJIS: chunk) { result.append(segment) }
            default:
                result.append(.bytes(chunk))
            }
            chunk.removeAll(keepingCapacity: true)
            count = 0
        }
        for unit in slice {
            let piece: [UInt8] = mode == .kanji ? unit.kanji.map { [$0.0, $0.1] } ?? [] : unit.bytes
            let added = mode == .byte ? piece.count : 1
            if count + added > limit { flush() }
            chunk += piece
            count += added
        }
        flush()
        return result
    }
}
