/// A style choice that may keep a code from scanning, returned rather than refused.
public enum StyleWarning: Sendable, Hashable, CustomStringConvertible {
    /// WCAG contrast ratio between dark and light modules below `minimumContrast`.
    case lowContrast(ratio: Double)
    /// Dark modules lighter than light ones.
    case inverted
    /// The background is not opaque, so the surface behind decides the contrast.
    case transparentBackground(alpha: UInt8)
    /// Fewer than the 4 quiet-zone modules the standard asks for.
    case narrowQuietZone(Int)

    /// Below about 3:1 many phone cameras fail to separate dark from light modules.
    public static let minimumContrast = 3.0

    public var description: String {
        switch self {
        case let .lowContrast(ratio):
            let rounded = (ratio * 10).rounded() / 10
            return "The contrast between foreground and background is only \(rounded):1; "
                + "below about 3:1 the code may not scan."
        case .inverted:
            return "The foreground is lighter than the background: inverted codes are not read by many scanners."
        case let .transparentBackground(alpha):
            return alpha == 0
                ? "The background is transparent: the code scans only when placed on a light, plain surface."
                : "The background is translucent (alpha \(alpha)/255): the surface behind it affects scanning."
        case let .narrowQuietZone(modules):
            return "A quiet zone of \(modules) module\(modules == 1 ? "" : "s") is below the 4 the standard asks for; "
                + "the code may not scan next to other content."
        }
    }
}
