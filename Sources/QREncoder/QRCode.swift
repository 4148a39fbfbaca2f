import QRCore

/// An encoded QR code symbol: its module matrix (no quiet zone) and how it was made.
public struct QRCode: Sendable, Hashable {
    /// The symbol's version.
    public let version: Version
    /// The error-correction level written in the format information.
    public let errorCorrectionLevel: ErrorCorrectionLevel
    /// The data mask applied.
    public let mask: MaskPattern
    /// The segments the data was encoded as, in order.
    public let segments: [Segment]
    /// Dark and light modules, `size` × `size`, without quiet zone.
    public let modules: BitMatrix
    /// Structured Append header, when this symbol is one part of a linked sequence.
    public let structuredAppend: StructuredAppendInfo?

    public init(version: Version, errorCorrectionLevel: ErrorCorrectionLevel, mask: MaskPattern,
                segments: [Segment], modules: BitMatrix, structuredAppend: StructuredAppendInfo? = nil) {
        self.version = version
        self.errorCorrectionLevel = errorCorrectionLevel
        self.mask = mask
        self.segments = segments
        self.modules = modules
        self.structuredAppend = structuredAppend
    }

    /// Modules per side (21 for version 1 … 177 for version 40).
    public var size: Int { modules.width }

    /// Whether the module at column `x`, row `y` is dark; false outside the symbol (the quiet zone).
    public subscript(x: Int, y: Int) -> Bool {
        modules.contains(x: x, y: y) && modules[x, y]
    }

    /// Bits of data the segments occupy (headers included, terminator and padding excluded).
    public var dataBitsUsed: Int { Segment.totalBits(segments, version: version) ?? 0 }

    /// Data bits the symbol can hold at its level.
    public var dataBitsCapacity: Int { version.dataBits(errorCorrectionLevel) }
}
