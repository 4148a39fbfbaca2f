/// A Y4M colour space (`C` tag): how the planes after the luma plane are laid out. Only luma is used, so
/// the others are skipped by their size.
public struct Y4MColorSpace: Sendable, Hashable, CustomStringConvertible {
    /// The planes that follow the luma plane.
    public enum Chroma: Sendable, Hashable {
        /// None: gray.
        case none
        /// Cb and Cr at a quarter of the width.
        case subsampled411
        /// Cb and Cr at half the width and half the height.
        case subsampled420
        /// Cb and Cr at half the width.
        case subsampled422
        /// Cb and Cr at full size.
        case full444
        /// Cb, Cr and alpha at full size.
        case full444Alpha
    }

    /// The name as written after `C`, e.g. `420jpeg` or `mono16`.
    public let name: String
    /// The planes after luma.
    public let chroma: Chroma
    /// Bits per sample, 8…16; samples above 8 bits take two bytes, little-endian.
    public let bitDepth: Int

    /// 4:2:0 with JPEG chroma siting: what Y4M readers assume when the header names no colour space.
    public static let default420 = Y4MColorSpace(name: "420jpeg", chroma: .subsampled420, bitDepth: 8)

    private init(name: String, chroma: Chroma, bitDepth: Int) {
        self.name = name
        self.chroma = chroma
        self.bitDepth = bitDepth
    }

    /// The colour space named `name` (case-insensitive): `mono`, `mono9`…`mono16`, `411`, `420`, `420jpeg`,
    /// `420paldv`, `420mpeg2`, `422`, `444`, `444alpha`, or `420p9`…`444p16`; nil for anything else.
    public init?(name: String) {
        let lower = name.lowercased()
        let eightBit: [String: Chroma] = [
            "mono": .none, "411": .subsampled411, "420": .subsampled420, "420jpeg": .subsampled420,
            "420paldv": .subsampled420, "420mpeg2": .subsampled420, "422": .subsampled422, "444": .full444,
            "444alpha": .full444Alpha,
        ]
        if let chroma = eightBit[lower] {
            self.init(name: lower, chroma: chroma, bitDepth: 8)
            return
        }
        let deep: [String: Chroma] = ["mono": .none, "420p": .subsampled420, "422p": .subsampled422, "444p": .full444]
        for (prefix, chroma) in deep where lower.hasPrefix(prefix) {
            let digits = lower.dropFirst(prefix.count)
            guard digits.count <= 2, digits.allSatisfy(\.isASCIIDigit), let depth = Int(digits), (9...16).contains(depth) else {
                continue
            }
            self.init(name: lower, chroma: chroma, bitDepth: depth)
            return
        }
        return nil
    }

    /// Bytes per sample.
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// Bytes of the planes after luma in a `width` × `height` frame.
    public func otherPlanesBytes(width: Int, height: Int) -> Int {
        let halfWidth = (width + 1) / 2
        let samples: Int
        switch chroma {
        case .none: samples = 0
        case .subsampled411: samples = 2 * ((width + 3) / 4) * height
        case .subsampled420: samples = 2 * halfWidth * ((height + 1) / 2)
        case .subsampled422: samples = 2 * halfWidth * height
        case .full444: samples = 2 * width * height
        case .full444Alpha: samples = 3 * width * height
        }
        return samples * bytesPerSample
    }

    public var description: String { name }
}
