/// CSS colour names accepted by `Color(parsing:)`: the 16 HTML 4 colours, orange, transparent, a few
/// common extended names, and "systemred" for the #FF3B30 used to mark detected codes.
enum CSSColorNames {
    static let table: [String: Color] = {
        var table: [String: Color] = [:]
        let hex: [(String, UInt32)] = [
            ("black", 0x000000), ("silver", 0xC0C0C0), ("gray", 0x808080), ("grey", 0x808080),
            ("white", 0xFFFFFF), ("maroon", 0x800000), ("red", 0xFF0000), ("purple", 0x800080),
            ("fuchsia", 0xFF00FF), ("magenta", 0xFF00FF), ("green", 0x008000), ("lime", 0x00FF00),
            ("olive", 0x808000), ("yellow", 0xFFFF00), ("navy", 0x000080), ("blue", 0x0000FF),
            ("teal", 0x008080), ("aqua", 0x00FFFF), ("cyan", 0x00FFFF), ("orange", 0xFFA500),
            ("darkred", 0x8B0000), ("darkblue", 0x00008B), ("darkgreen", 0x006400), ("darkgray", 0xA9A9A9),
            ("darkgrey", 0xA9A9A9), ("lightgray", 0xD3D3D3), ("lightgrey", 0xD3D3D3), ("brown", 0xA52A2A),
            ("pink", 0xFFC0CB), ("gold", 0xFFD700), ("indigo", 0x4B0082), ("violet", 0xEE82EE),
            ("crimson", 0xDC143C), ("rebeccapurple", 0x663399), ("systemred", 0xFF3B30),
        ]
        for (name, value) in hex {
            table[name] = Color(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
        table["transparent"] = .transparent
        return table
    }()
}
