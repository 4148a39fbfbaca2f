import QREncoder

/// Renders symbols for a terminal with Unicode half blocks: each text line holds two module rows
/// (▀ upper dark, ▄ lower dark, █ both, space neither).
///
/// With `ansiColors` (the default) every line sets explicit colours — black on white from the fixed
/// 256-colour cube, which themes do not remap — so the code scans on dark and light themes alike, and
/// resets them at the end of the line. Without colours the blocks are drawn in the terminal's text colour,
/// which suits light themes; `invert` swaps dark and light so a plain code reads correctly on dark themes
/// (with colours, `invert` gives a white-on-black code).
public enum TerminalRenderer {
    /// The text to print, one line per two module rows (the last row pairs with a blank one when the
    /// count is odd), each line ending with a newline; throws only for a quiet zone outside 0…1000.
    public static func render(_ code: QRCode, quietZone: Int = 4, invert: Bool = false,
                              ansiColors: Bool = true) throws(RenderError) -> String {
        let side = try RenderStyle.sideInModules(symbolSize: code.size, quietZone: quietZone)
        // Ink: the cells drawn with block characters. Rows beyond the last one are blank.
        func ink(_ column: Int, _ row: Int) -> Bool {
            guard row < side else { return false }
            return code[column - quietZone, row - quietZone] != invert
        }
        // Black (16) ink on a white (231) background.
        let colors = "\u{1B}[38;5;16;48;5;231m"
        var output = ""
        for row in stride(from: 0, to: side, by: 2) {
            if ansiColors { output += colors }
            for column in 0..<side {
                switch (ink(column, row), ink(column, row + 1)) {
                case (true, true): output += "█"
                case (true, false): output += "▀"
                case (false, true): output += "▄"
                case (false, false): output += " "
                }
            }
            if ansiColors { output += "\u{1B}[0m" }
            output += "\n"
        }
        return output
    }
}
