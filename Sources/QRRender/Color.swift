#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import QRImage

/// An sRGB colour with 8-bit channels and straight alpha, parsed from CSS-style text.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// Red, green and blue, 0…255 (sRGB).
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0 = fully transparent, 255 = opaque.
    public var alpha: UInt8

    /// A colour from its channels, opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black, opaque white and fully transparent.
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// #FF3B30, the red used to outline detected codes.
    public static let markRed = Color(red: 0xFF, green: 0x3B, blue: 0x30)

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` (the `#` may be left out of the 6- and 8-digit
    /// forms, since shells treat it as a comment) or a CSS colour name, ignoring case and surrounding spaces.
    public init(parsing text: String) throws(RenderError) {
        let trimmed = text.trimmingSpaces().lowercased()
        if let named = CSSColorNames.table[trimmed] {
            self = named
            return
        }
        var digits = Substring(trimmed)
        let hasHash = digits.first == "#"
        if hasHash { digits = digits.dropFirst() }
        let values = digits.map { $0.hexDigitValue }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw .invalidColor(text, reason: hasHash ? "“\(digits)” is not hexadecimal" : "unknown colour name")
        }
        let v = values.map { UInt8($0 ?? 0) }
        switch (v.count, hasHash) {
        case (3, true), (4, true):
            self.init(red: v[0] * 17, green: v[1] * 17, blue: v[2] * 17, alpha: v.count == 4 ? v[3] * 17 : 255)
        case (6, _), (8, _):
            self.init(red: v[0] << 4 | v[1], green: v[2] << 4 | v[3], blue: v[4] << 4 | v[5],
                      alpha: v.count == 8 ? v[6] << 4 | v[7] : 255)
        default:
            throw .invalidColor(text, reason: hasHash ? "hex colours have 3, 4, 6 or 8 digits" : "unknown colour name")
        }
    }

    /// The colour as an image pixel.
    public var pixel: RGBAPixel { RGBAPixel(red: red, green: green, blue: blue, alpha: alpha) }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for channel in alpha == 255 ? [red, green, blue] : [red, green, blue, alpha] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 15)])
        }
        return text
    }

    /// The opaque `#RRGGBB` part, for SVG fill attributes (alpha goes to fill-opacity).
    var opaqueHex: String { Color(red: red, green: green, blue: blue).hex }

    public var description: String { hex }

    /// WCAG 2 relative luminance of the colour's RGB (alpha ignored), 0 (black) … 1 (white).
    public var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio of the RGB of two colours, 1 (identical) … 21 (black on white).
    /// Composite translucent colours first (`composited(over:)`) to judge what is actually seen.
    public func contrastRatio(with other: Color) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (Swift.max(a, b) + 0.05) / (Swift.min(a, b) + 0.05)
    }

    /// `self` painted over `background`.
    public func composited(over background: Color) -> Color {
        let p = pixel.composited(over: background.pixel)
        return Color(red: p.red, green: p.green, blue: p.blue, alpha: p.alpha)
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
