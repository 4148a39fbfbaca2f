import QRCore
import QREncoder

/// Renders a symbol's description as JSON:
///
/// ```
/// {"version": 1, "level": "M", "mask": 2, "size": 21, "quiet_zone": 4,
///  "matrix": ["1111111010…", …],
///  "segments": [{"mode": "byte", "char_count": 5, "text": "hello"}],
///  "structured_append": {"index": 0, "count": 2, "parity": 37}}
/// ```
///
/// `matrix` holds the symbol's rows without quiet zone (`quiet_zone` only records the one requested).
/// Segments carry `text` when their payload is readable — numeric and alphanumeric always, byte segments in
/// the charset of the preceding ECI (UTF-8 without one), kanji as Shift_JIS — and `data_hex` otherwise.
/// ECI segments carry only their assignment number, as `char_count`. `structured_append` is present only
/// for symbols of a sequence.
public enum JSONRenderer {
    /// The JSON text (2-space indented, keys in the order above, ending with a newline); throws only for
    /// a quiet zone outside 0…1000.
    public static func render(_ code: QRCode, quietZone: Int = 4) throws(RenderError) -> String {
        _ = try RenderStyle.sideInModules(symbolSize: code.size, quietZone: quietZone)
        var lines = [
            "{",
            #"  "version": \#(code.version.number),"#,
            #"  "level": "\#(code.errorCorrectionLevel.letter)","#,
            #"  "mask": \#(code.mask.rawValue),"#,
            #"  "size": \#(code.size),"#,
            #"  "quiet_zone": \#(quietZone),"#,
            #"  "matrix": ["#,
        ]
        let rows = code.modules.rowStrings
        for (i, row) in rows.enumerated() { lines.append(#"    "\#(row)""# + (i + 1 < rows.count ? "," : "")) }
        lines.append("  ],")
        lines.append(#"  "segments": ["#)
        let segments = segmentObjects(code.segments)
        for (i, segment) in segments.enumerated() { lines.append("    " + segment + (i + 1 < segments.count ? "," : "")) }
        if let sequence = code.structuredAppend {
            lines.append("  ],")
            lines.append(#"  "structured_append": {"index": \#(sequence.index), "count": \#(sequence.count), "#
                + #""parity": \#(sequence.parity)}"#)
        } else {
            lines.append("  ]")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object per segment, decoding byte payloads in the charset the latest ECI designates.
    private static func segmentObjects(_ segments: [Segment]) -> [String] {
        var charset = Charset.utf8
        return segments.map { segment in
            var text: String?
            switch segment.mode {
            case .eci:
                charset = Charset.forECI(segment.characterCount) ?? .utf8
                return #"{"mode": "eci", "char_count": \#(segment.characterCount)}"#
            case .numeric, .alphanumeric:
                text = String(validating: segment.payload, as: UTF8.self)
            case .byte:
                text = charset.decode(segment.payload)
            case .kanji:
                text = Charset.shiftJIS.decode(segment.payload)
            default:
                text = nil
            }
            let content = text.map { #""text": \#(JSONText.quoted($0))"# } ?? #""data_hex": "\#(JSONText.hex(segment.payload))""#
            return #"{"mode": "\#(modeName(segment.mode))", "char_count": \#(segment.characterCount), \#(content)}"#
        }
    }

    private static func modeName(_ mode: SegmentMode) -> String {
        switch mode {
        case .terminator: "terminator"
        case .numeric: "numeric"
        case .alphanumeric: "alphanumeric"
        case .structuredAppend: "structured_append"
        case .byte: "byte"
        case .fnc1FirstPosition: "fnc1_first"
        case .eci: "eci"
        case .kanji: "kanji"
        case .fnc1SecondPosition: "fnc1_second"
        case .hanzi: "hanzi"
        }
    }
}
