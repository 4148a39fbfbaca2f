import QRImage

/// How a symbol is drawn: size, quiet zone, colours and an optional logo.
public struct RenderStyle: Sendable, Hashable {
    /// How the pixel size of a module is chosen; always a whole number, so modules are never blurred.
    public enum Sizing: Sendable, Hashable {
        /// Exactly this many pixels per module (≥ 1).
        case moduleSize(Int)
        /// The largest whole module size for which the symbol with its quiet zone fits in this many pixels.
        case targetSize(Int)
    }

    /// Largest quiet zone accepted, in modules.
    public static let maximumQuietZone = 1000

    /// Module size or target size; 8 px per module by default.
    public var sizing: Sizing
    /// Light modules around the symbol on every side; the standard asks for 4.
    public var quietZone: Int
    /// Colour of dark modules, painted over the background.
    public var foreground: Color
    /// Colour of light modules, the quiet zone and the logo's padding.
    public var background: Color
    /// A logo over the centre of the symbol.
    public var logo: Logo?

    /// Black on white, 8 px per module, a 4-module quiet zone and no logo unless told otherwise.
    public init(sizing: Sizing = .moduleSize(8), quietZone: Int = 4, foreground: Color = .black,
                background: Color = .white, logo: Logo? = nil) {
        self.sizing = sizing
        self.quietZone = quietZone
        self.foreground = foreground
        self.background = background
        self.logo = logo
    }

    /// Pixels per module for a symbol of `symbolSize` modules per side.
    public func moduleSize(forSymbolSize symbolSize: Int) throws(RenderError) -> Int {
        let modules = try Self.sideInModules(symbolSize: symbolSize, quietZone: quietZone)
        switch sizing {
        case let .moduleSize(size):
            guard size >= 1 else { throw .invalidStyle("the module size must be at least 1 px, not \(size)") }
            return size
        case let .targetSize(target):
            guard target >= modules else { throw .targetSizeTooSmall(target: target, minimum: modules) }
            return target / modules
        }
    }

    /// Modules per side of the rendered image: the symbol plus the quiet zone on both sides.
    static func sideInModules(symbolSize: Int, quietZone: Int) throws(RenderError) -> Int {
        guard (0...maximumQuietZone).contains(quietZone) else {
            throw .invalidStyle("the quiet zone must be 0…\(maximumQuietZone) modules, not \(quietZone)")
        }
        return symbolSize + 2 * quietZone
    }

    /// The colour dark modules actually show: the foreground painted over the background.
    var darkColor: Color { foreground.composited(over: background) }

    /// Problems that may keep the code from scanning. Nothing is refused: the caller decides whether
    /// to go on (the CLI prints these to stderr).
    public var warnings: [StyleWarning] {
        var warnings: [StyleWarning] = []
        // Judge what a reader sees: the background on white paper, the foreground over it.
        let light = background.composited(over: .white)
        let dark = foreground.composited(over: light)
        let ratio = dark.contrastRatio(with: light)
        if ratio < StyleWarning.minimumContrast { warnings.append(.lowContrast(ratio: ratio)) }
        if dark.relativeLuminance > light.relativeLuminance { warnings.append(.inverted) }
        if background.alpha < 255 { warnings.append(.transparentBackground(alpha: background.alpha)) }
        if quietZone < 4 { warnings.append(.narrowQuietZone(quietZone)) }
        return warnings
    }
}
