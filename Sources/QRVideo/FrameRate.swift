/// Frames per second as a fraction (`30000/1001` for NTSC), so that timestamps stay exact over long streams.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames…
    public let numerator: Int
    /// …per this many seconds.
    public let denominator: Int

    /// 25 fps: what ffmpeg assumes for streams that do not say.
    public static let `default` = FrameRate(uncheckedNumerator: 25, denominator: 1)

    /// `numerator` frames per `denominator` seconds; nil unless both are in 1…2³¹−1 (the range Y4M writers use).
    public init?(numerator: Int, denominator: Int) {
        guard (1...Int(Int32.max)).contains(numerator), (1...Int(Int32.max)).contains(denominator) else { return nil }
        self.init(uncheckedNumerator: numerator, denominator: denominator)
    }

    private init(uncheckedNumerator numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses `30`, `29.97`, `30000/1001` or `30000:1001`.
    public init?(parsing text: String) {
        for separator: Character in ["/", ":"] where text.contains(separator) {
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
            self.init(numerator: n, denominator: d)
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }),
              let whole = Int(parts[0]) else { return nil }
        guard parts.count == 2, let fraction = Int(parts[1]) else {
            self.init(numerator: whole, denominator: 1)
            return
        }
        var scale = 1
        for _ in 0..<parts[1].count { scale *= 10 }
        self.init(numerator: whole * scale + fraction, denominator: scale)
    }

    /// The time of frame `index` (counted from 0), rounded down to the attosecond.
    public func timestamp(ofFrame index: Int) -> Duration {
        let total = Int128(index) * Int128(denominator)
        let seconds = total / Int128(numerator)
        let remainder = total % Int128(numerator)
        let attoseconds = remainder * 1_000_000_000_000_000_000 / Int128(numerator)
        return Duration(secondsComponent: Int64(clamping: seconds), attosecondsComponent: Int64(attoseconds))
    }

    /// How long each frame lasts.
    public var frameDuration: Duration { timestamp(ofFrame: 1) }

    /// Frames per second as a decimal number.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    public var description: String {
        denominator == 1 ? "\(numerator) fps" : "\(numerator)/\(denominator) fps"
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
