import QRCore

/// What a symbol's data codewords say: the text, the raw bytes and how they were encoded.
public struct DecodedPayload: Sendable, Equatable {
    /// The decoded text (byte segments in their declared or guessed charset, kanji as Shift_JIS).
    public var text: String
    /// The payload bytes of every segment in order: ASCII for numeric and alphanumeric, raw bytes, and the
    /// Shift_JIS / GB 2312 bytes of kanji and hanzi segments.
    public var bytes: [UInt8]
    /// The charset the byte segments were read in, if there were any.
    public var charset: Charset?
    /// Whether `charset` was guessed (no ECI designator) rather than declared.
    public var charsetGuessed: Bool
    /// ECI assignment numbers found, in order.
    public var eciAssignments: [Int]
    /// The modes of the segments, in order.
    public var modes: [SegmentMode]
    /// The Structured Append header, if the symbol is part of a sequence.
    public var structuredAppend: StructuredAppendInfo?
    /// FNC1 in first position (GS1 data) or second position (with its application indicator).
    public var fnc1: FNC1?

    /// The FNC1 marks of ISO/IEC 18004 §7.4.8.
    public enum FNC1: Sendable, Equatable {
        /// GS1 element strings; alphanumeric "%" stands for the group separator.
        case gs1
        /// An industry application identified by its indicator.
        case industry(applicationIndicator: Int)
    }
}
