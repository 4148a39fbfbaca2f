/// One 8-bit-per-channel colour with straight (not premultiplied) alpha.
public struct RGBAPixel: Sendable, Hashable {
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
    public static let black = RGBAPixel(red: 0, green: 0, blue: 0)
    public static let white = RGBAPixel(red: 255, green: 255, blue: 255)
    public static let clear = RGBAPixel(red: 0, green: 0, blue: 0, alpha: 0)

    /// `self` painted over `background` (Porter–Duff source-over, straight alpha).
    public func composited(over background: RGBAPixel) -> RGBAPixel {
        if alpha == 255 { return self }
        if alpha == 0 { return background }
        if background.alpha == 0 { return self }
        let sa = Int(alpha), da = Int(background.alpha)
        // Alpha scaled by 255 to keep everything in integers.
        let outAlpha255 = sa * 255 + da * (255 - sa)
        func channel(_ s: UInt8, _ d: UInt8) -> UInt8 {
            UInt8((Int(s) * sa * 255 + Int(d) * da * (255 - sa) + outAlpha255 / 2) / outAlpha255)
        }
        return RGBAPixel(red: channel(red, background.red), green: channel(green, background.green),
                         blue: channel(blue, background.blue), alpha: UInt8((outAlpha255 + 127) / 255))
    }
}
