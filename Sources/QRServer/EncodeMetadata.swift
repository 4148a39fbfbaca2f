import Foundation
import QREncoder
import QRRender

/// What `/api/encode` tells about the code it made: in `X-QR-*` headers on every response, and as the body
/// with `format=json`.
struct EncodeMetadata: Encodable, Equatable, Sendable {
    let version: Int
    /// L, M, Q or H.
    let level: String
    let recoveryPercent: Int
    let mask: Int
    /// Modules per side of the symbol, without quiet zone.
    let modules: Int
    let quietZone: Int
    let moduleSize: Int
    /// Pixels per side of the PNG (and the SVG's width and height).
    let imageSize: Int
    let dataBitsUsed: Int
    let dataBitsCapacity: Int
    /// The logo's share of the symbol area in percent, when there is a logo.
    let logoSharePercent: Double?
    /// Style problems that may keep the code from scanning.
    let warnings: [String]
    /// The symbol's rows, `1` for dark modules, without quiet zone.
    let matrix: [String]

    init(code: QRCode, style: RenderStyle, moduleSize: Int, imageSize: Int) {
        version = code.version.number
        level = code.errorCorrectionLevel.letter
        recoveryPercent = code.errorCorrectionLevel.recoveryPercent
        mask = code.mask.rawValue
        modules = code.size
        quietZone = style.quietZone
        self.moduleSize = moduleSize
        self.imageSize = imageSize
        dataBitsUsed = code.dataBitsUsed
        dataBitsCapacity = code.dataBitsCapacity
        logoSharePercent = style.logo.map { ($0.areaShare * 1000).rounded() / 10 }
        warnings = style.warnings.map(\.description)
        matrix = code.modules.rowStrings
    }

    /// URI unreserved characters: everything else is percent-encoded, so header values stay ASCII.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The `X-QR-*` response headers; warnings are percent-encoded UTF-8 joined by newlines.
    var headers: [(name: String, value: String)] {
        var fields = [
            ("X-QR-Version", "\(version)"), ("X-QR-Level", level), ("X-QR-Mask", "\(mask)"),
            ("X-QR-Modules", "\(modules)"), ("X-QR-Module-Size", "\(moduleSize)"), ("X-QR-Image-Size", "\(imageSize)"),
            ("X-QR-Quiet-Zone", "\(quietZone)"), ("X-QR-Data-Bits", "\(dataBitsUsed)"),
            ("X-QR-Capacity-Bits", "\(dataBitsCapacity)"),
        ]
        if let logoSharePercent { fields.append(("X-QR-Logo-Share", "\(logoSharePercent)")) }
        if !warnings.isEmpty {
            let joined = warnings.joined(separator: "\n")
            fields.append(("X-QR-Warnings", joined.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""))
        }
        return fields
    }
}
