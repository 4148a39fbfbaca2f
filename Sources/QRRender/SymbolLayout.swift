import QREncoder

/// The checked geometry of one rendering: the symbol, its quiet zone, the module size and the logo.
/// Grid coordinates include the quiet zone: the symbol's module (0, 0) is grid cell (quietZone, quietZone).
struct SymbolLayout {
    let code: QRCode
    let quietZone: Int
    let moduleSize: Int
    /// Modules per side including the quiet zone.
    let modulesPerSide: Int
    /// Pixels per side: modulesPerSide × moduleSize.
    let pixelsPerSide: Int
    /// The logo and where it goes, already validated against the symbol's error correction.
    let logo: (logo: Logo, placement: LogoPlacement)?

    init(code: QRCode, style: RenderStyle) throws(RenderError) {
        self.code = code
        quietZone = style.quietZone
        modulesPerSide = try RenderStyle.sideInModules(symbolSize: code.size, quietZone: style.quietZone)
        moduleSize = try style.moduleSize(forSymbolSize: code.size)
        let (side, overflow) = modulesPerSide.multipliedReportingOverflow(by: moduleSize)
        guard !overflow else { throw .invalidStyle("a module size of \(moduleSize) px is too large") }
        pixelsPerSide = side
        logo = try style.logo.map { (logo) throws(RenderError) in (logo, try LogoPlacement.validate(code: code, logo: logo)) }
    }

    /// Whether grid cell (column, row) is drawn dark: a dark module of the symbol not under the logo.
    func isDark(column: Int, row: Int) -> Bool {
        let x = column - quietZone, y = row - quietZone
        if let placement = logo?.placement, placement.coveredArea.contains(x: x, y: y) { return false }
        return code[x, y]
    }

    /// A rectangle of modules (symbol coordinates) in pixels of the rendered image.
    func pixelRect(of area: ModuleRect) -> (x: Int, y: Int, width: Int, height: Int) {
        ((area.x + quietZone) * moduleSize, (area.y + quietZone) * moduleSize, area.width * moduleSize,
         area.height * moduleSize)
    }
}
