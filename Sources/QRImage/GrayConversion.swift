/// How colour becomes gray for the reader.
public enum GrayConversion: Sendable, Hashable {
    /// Integer ITU-R BT.601 luma, (77 R + 150 G + 29 B) / 256: what libjpeg computes and what scanners see.
    /// Dark colours stay dark (#8B0000 dark red becomes 42).
    case luminance
    /// The darkest of R, G and B, so light-coloured codes (yellow, cyan on white) keep their contrast:
    /// pure yellow #FFFF00 becomes 0 instead of 226.
    case darkestChannel

    /// The gray value of an opaque colour.
    @inlinable
    public func gray(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        switch self {
        case .luminance:
            let weighted: Int = 77 * Int(red) + 150 * Int(green) + 29 * Int(blue)
            return UInt8((weighted + 128) >> 8)
        case .darkestChannel:
            return Swift.min(red, green, blue)
        }
    }

    /// A sample with coverage `alpha` composited onto white.
    static func onWhite(_ value: UInt8, alpha: UInt8) -> UInt8 {
        let a = Int(alpha)
        let mixed: Int = Int(value) * a + 255 * (255 - a)
        return UInt8((mixed + 127) / 255)
    }
}
