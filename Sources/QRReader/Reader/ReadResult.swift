import QRCore

/// One code found in an image.
public struct ReadResult: Sendable, Equatable {
    /// The decoded text.
    public var text: String
    /// The raw payload bytes (see ``DecodedPayload/bytes``).
    public var bytes: [UInt8]
    /// The charset of the byte segments, declared by ECI or guessed.
    public var charset: Charset?
    /// Whether `charset` was guessed.
    public var charsetGuessed: Bool
    /// The kind of symbol.
    public var symbology: Symbology
    /// The version number within the symbology: 1…40 for QR codes, 1…4 for Micro QR M1…M4.
    public var version: Int
    /// The version as people write it: "7", "M3", "R13x77".
    public var versionName: String
    /// Modules across, without the quiet zone: 45 for version 7, 77 for R13x77.
    public var columns: Int
    /// Modules down, without the quiet zone: 45 for version 7, 13 for R13x77.
    public var rows: Int
    /// Error-correction level.
    public var errorCorrectionLevel: ErrorCorrectionLevel
    /// Data mask.
    public var mask: Int
    /// Whether the symbol was mirrored (seen from behind, or printed transposed).
    public var mirrored: Bool
    /// Whether it was light on dark.
    public var inverted: Bool
    /// Structured Append header, if any.
    public var structuredAppend: StructuredAppendInfo?
    /// For a message joined from Structured Append symbols: the symbols, in order.
    public var parts: [ReadResult]
    /// ECI assignment numbers in the data.
    public var eciAssignments: [Int]
    /// FNC1 (GS1 / industry) mark, if any.
    public var fnc1: DecodedPayload.FNC1?
    /// The symbol's corners in image pixels (origin top-left): its own top-left, top-right, bottom-right
    /// and bottom-left, so clockwise on screen unless mirrored.
    public var corners: Quadrilateral
    /// Codewords repaired by error correction.
    public var correctedCodewords: Int
    /// Codewords the symbol's error correction could repair in all (errors only).
    public var correctableCodewords: Int

    /// The axis-aligned bounding rectangle of the corners.
    public var bounds: Rect { corners.boundingRect }
    /// The centre of the symbol.
    public var center: Point { corners.center }

    /// The same result with its corners, and its parts', moved by `offset`.
    func moved(by offset: Point) -> ReadResult {
        var moved = self
        moved.corners = corners.map { $0 + offset }
        moved.parts = parts.map { $0.moved(by: offset) }
        return moved
    }
}
