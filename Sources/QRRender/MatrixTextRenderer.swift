import QREncoder

/// Renders symbols as text: one line per module row, top to bottom, `1` for dark and `0` for light,
/// quiet zone included.
public enum MatrixTextRenderer {
    /// `quietZone + size + quietZone` lines, each ending with a newline; throws only for a quiet zone
    /// outside 0…1000.
    public static func render(_ code: QRCode, quietZone: Int = 4) throws(RenderError) -> String {
        let side = try RenderStyle.sideInModules(symbolSize: code.size, quietZone: quietZone)
        var output: [UInt8] = []
        output.reserveCapacity(side * (side + 1))
        for row in 0..<side {
            for column in 0..<side {
                output.append(code[column - quietZone, row - quietZone] ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            }
            output.append(UInt8(ascii: "\n"))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
