import QRImage

/// An image placed over the centre of a symbol, relying on error correction to restore what it hides.
public struct Logo: Sendable, Hashable {
    /// The logo picture; its aspect ratio is kept.
    public let image: RGBAImage
    /// Largest share of the symbol's area (without quiet zone) the logo box may take, 0 < share ≤ 0.5.
    /// The padding ring comes on top of it.
    public let areaShare: Double
    /// Width in modules of the ring in the background colour around the logo box (0…10).
    public let padding: Int

    /// A logo taking at most 20 % of the symbol area by default, with a 1-module padding ring.
    /// Whether it fits a given symbol is checked by `LogoPlacement.validate(code:logo:)`.
    public init(image: RGBAImage, areaShare: Double = 0.2, padding: Int = 1) throws(RenderError) {
        guard areaShare > 0, areaShare <= 0.5 else {
            throw .invalidLogo("the area share must be above 0 and at most 0.5, not \(areaShare)")
        }
        guard (0...10).contains(padding) else { throw .invalidLogo("the padding must be 0…10 modules, not \(padding)") }
        self.image = image
        self.areaShare = areaShare
        self.padding = padding
    }
}
