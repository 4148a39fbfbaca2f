import QRCore
import QRImage

/// Why a symbol could not be rendered as asked, with a message that says what to change.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Colour text that is neither a hex colour nor a known name.
    case invalidColor(String, reason: String)
    /// A style value out of range (module size, quiet zone, target size…).
    case invalidStyle(String)
    /// A target size too small for even 1 pixel per module.
    case targetSizeTooSmall(target: Int, minimum: Int)
    /// The output would have more pixels than `limit`.
    case imageTooLarge(side: Int, limit: Int)
    /// A logo parameter out of range.
    case invalidLogo(String)
    /// The logo with its padding would hide function patterns readers need.
    case logoCoversFunctionPatterns([String], largestFittingShare: Double?)
    /// The logo would destroy more codewords in one block than the level can restore with a safety margin.
    case logoTooLarge(coveredCodewords: Int, worstBlock: Int, correctable: Int, allowed: Int,
                      level: ErrorCorrectionLevel, largestFittingShare: Double?)
    /// An image operation (logo scaling, PNG encoding) failed.
    case image(ImageError)

    public var description: String {
        switch self {
        case let .invalidColor(text, reason):
            return "“\(text)” is not a colour (\(reason)). Use #RGB, #RRGGBB, #RRGGBBAA or a CSS name such as "
                + "black, white, red, navy, orange or transparent."
        case let .invalidStyle(detail):
            return "Invalid style: \(detail)."
        case let .targetSizeTooSmall(target, minimum):
            return "A size of \(target) px is too small: this symbol with its quiet zone is \(minimum) modules wide, "
                + "so it needs at least \(minimum) px (1 px per module). Modules are never fractions of a pixel, "
                + "which would blur them."
        case let .imageTooLarge(side, limit):
            return "The image would be \(side)×\(side) px, more than the limit of \(limit) pixels; use a smaller size or module size."
        case let .invalidLogo(detail):
            return "Invalid logo: \(detail)."
        case let .logoCoversFunctionPatterns(patterns, share):
            return "The logo with its padding would cover the \(Self.list(patterns)), which readers need to find "
                + "and sample the symbol. "
                + Self.shareAdvice(share, otherwise: "No logo size fits this symbol; use another version or no logo.")
        case let .logoTooLarge(covered, worst, correctable, allowed, level, share):
            let alternative = level == .high ? "a larger version" : "error-correction level H"
            return "The logo covers \(covered) codewords, up to \(worst) in one error-correction block, but level "
                + "\(level) can restore only \(correctable) per block (\(allowed) keeping a margin for real-world "
                + "damage). "
                + Self.shareAdvice(share, otherwise: "No logo size fits this symbol; use \(alternative).",
                                   alternative: alternative)
        case let .image(error):
            return error.description
        }
    }

    private static func shareAdvice(_ share: Double?, otherwise: String, alternative: String? = nil) -> String {
        guard let share else { return otherwise }
        let percent = Int((share * 100).rounded())
        return "Use a smaller logo share (\(percent) % or less fits this symbol)"
            + (alternative.map { " or \($0)." } ?? ".")
    }

    private static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }
}
