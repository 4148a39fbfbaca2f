/// A palette of up to 256 colours (a GIF colour table, a BMP palette, a TIFF colour map) that turns pixel indices
/// into samples.
struct ColorTable {
    /// How the file stores one entry.
    enum Layout {
        /// GIF: red, green, blue.
        case rgb
        /// OS/2 BMP: blue, green, red.
        case bgr
        /// Windows BMP: blue, green, red, reserved.
        case bgrx

        var entrySize: Int { self == .bgrx ? 4 : 3 }
    }

    /// RGBA of every index a byte can hold, entry i at 4i. Indices past the file's table take entry 0's colour
    /// rather than failing: damaged pixel data then still shows, and lookups never leave the table.
    private var rgba = [UInt8](repeating: 0, count: 256 * 4)
    /// Whether every colour the file lists is gray, so an opaque image can be delivered as one channel.
    let isGray: Bool
    /// Whether an entry was made transparent (``makeTransparent(_:)``).
    private(set) var hasTransparency = false

    /// The `count` entries at `offset`; throws `.truncated(format)` if the data ends inside them.
    init(_ bytes: [UInt8], at offset: Int, count: Int, layout: Layout, format: ImageFormat) throws(ImageError) {
        guard offset + count * layout.entrySize <= bytes.count else { throw .truncated(format) }
        let colors = (0..<count).map { index in
            let entry = offset + index * layout.entrySize
            return layout == .rgb ? (bytes[entry], bytes[entry + 1], bytes[entry + 2]) : (bytes[entry + 2], bytes[entry + 1], bytes[entry])
        }
        try self.init(colors: colors, format: format)
    }

    /// A table of 1 to 256 colours (TIFF's ColorMap, already read).
    init(colors: [(red: UInt8, green: UInt8, blue: UInt8)], format: ImageFormat) throws(ImageError) {
        guard (1...256).contains(colors.count) else { throw .corrupt(format, "the colour table has \(colors.count) entries") }
        var gray = true
        for index in 0..<256 {
            let (red, green, blue) = colors[index < colors.count ? index : 0]
            rgba[4 * index] = red
            rgba[4 * index + 1] = green
            rgba[4 * index + 2] = blue
            rgba[4 * index + 3] = 255
            gray = gray && red == green && green == blue
        }
        isGray = gray
    }

    /// Makes pixels of `index` fully transparent (GIF's transparent colour index).
    mutating func makeTransparent(_ index: Int) {
        guard (0..<256).contains(index) else { return }
        rgba.replaceSubrange(4 * index..<4 * index + 4, with: [0, 0, 0, 0])
        hasTransparency = true
    }

    /// Writes the colours of `indices` to `destination` as 1 (gray: the red sample), 3 (RGB) or 4 (RGBA) channels.
    func paint(_ indices: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableBufferPointer<UInt8>, channels: Int) {
        rgba.withUnsafeBufferPointer { table in
            switch channels {
            case 1:
                for i in indices.indices { destination[i] = table[Int(indices[i]) &* 4] }
            case 3:
                for i in indices.indices {
                    let entry = Int(indices[i]) &* 4, out = 3 &* i
                    destination[out] = table[entry]
                    destination[out &+ 1] = table[entry &+ 1]
                    destination[out &+ 2] = table[entry &+ 2]
                }
            default:
                for i in indices.indices {
                    let entry = Int(indices[i]) &* 4, out = 4 &* i
                    for k in 0..<4 { destination[out &+ k] = table[entry &+ k] }
                }
            }
        }
    }
}
