/// A BMP file built field by field for tests: any header version, depth, compression and row order.
public struct BMPFile: Sendable {
    public var width: Int
    public var height: Int
    public var bitsPerPixel: Int
    /// 12 (OS/2 core header), 40, 52, 56, 108 or 124.
    public var headerSize = 40
    /// Stores the top row first and writes a negative height.
    public var topDown = false
    public var compression: UInt32 = 0
    /// Written after a 40-byte header, or into the mask fields of larger headers (as many as they hold).
    public var masks: [UInt32] = []
    /// RGB triples.
    public var palette: [UInt8] = []
    /// The colours-used field; 0 means 2^bitsPerPixel.
    public var colorsUsed = 0
    /// Each row's packed pixel bytes, top row first, without padding.
    public var rows: [[UInt8]]
    /// Replaces the padded rows (RLE data).
    public var pixelData: [UInt8]?

    public init(width: Int, height: Int, bitsPerPixel: Int, rows: [[UInt8]], palette: [UInt8] = []) {
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.rows = rows
        self.palette = palette
    }

    /// A gray image as an 8-bit BMP with a 256-level gray palette.
    public static func gray(width: Int, height: Int, pixels: [UInt8]) -> BMPFile {
        BMPFile(width: width, height: height, bitsPerPixel: 8,
                rows: (0..<height).map { Array(pixels[$0 * width..<($0 + 1) * width]) },
                palette: (0...255).flatMap { [UInt8($0), UInt8($0), UInt8($0)] })
    }

    /// RGB pixels (3 samples each, row-major) as a 24-bit BMP.
    public static func rgb(width: Int, height: Int, pixels: [UInt8]) -> BMPFile {
        let rows = (0..<height).map { y -> [UInt8] in
            (0..<width).flatMap { x -> [UInt8] in
                let i = 3 * (y * width + x)
                return [pixels[i + 2], pixels[i + 1], pixels[i]]
            }
        }
        return BMPFile(width: width, height: height, bitsPerPixel: 24, rows: rows)
    }

    /// Palette indices of `depth` bits each packed into bytes, most significant bits first.
    public static func pack(_ indices: [UInt8], depth: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (indices.count * depth + 7) / 8)
        for (i, index) in indices.enumerated() {
            let bit = i * depth
            bytes[bit / 8] |= index << (8 - depth - bit % 8)
        }
        return bytes
    }

    /// The file: rows padded to 4 bytes and stored bottom-up unless `topDown`.
    public var bytes: [UInt8] {
        let stride = (width * bitsPerPixel + 31) / 32 * 4
        let stored = pixelData ?? (topDown ? rows : rows.reversed()).flatMap { row in
            row + [UInt8](repeating: 0, count: max(0, stride - row.count))
        }
        var dib: [UInt8] = littleEndian(headerSize, count: 4)
        if headerSize == 12 {
            dib += [width, height, 1, bitsPerPixel].flatMap { littleEndian($0, count: 2) }
        } else {
            dib += [width, topDown ? -height : height].flatMap { littleEndian($0, count: 4) }
            dib += [1, bitsPerPixel].flatMap { littleEndian($0, count: 2) }
            dib += [Int(compression), stored.count, 2835, 2835, colorsUsed, 0].flatMap { littleEndian($0, count: 4) }
            if headerSize > 40 {
                dib += (masks + [0, 0, 0, 0]).prefix(headerSize >= 56 ? 4 : 3).flatMap { littleEndian(Int($0), count: 4) }
                dib += [UInt8](repeating: 0, count: headerSize - dib.count)
            } else {
                dib += masks.flatMap { littleEndian(Int($0), count: 4) }
            }
        }
        let padding: [UInt8] = headerSize == 12 ? [] : [0]
        let entries = Swift.stride(from: 0, to: palette.count, by: 3).flatMap { i -> [UInt8] in
            let entry: [UInt8] = [palette[i + 2], palette[i + 1], palette[i]]
            return entry + padding
        }
        let offset = 14 + dib.count + entries.count
        let fileHeader = Array("BM".utf8) + [offset + stored.count, 0, offset].flatMap { littleEndian($0, count: 4) }
        return fileHeader + dib + entries + stored
    }
}
