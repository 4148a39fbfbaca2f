/// A GIF file built field by field for tests: one image, optional extension blocks before it, and LZW data
/// from ``LZWEncoder`` (or any bytes a test wants to feed the decoder).
public struct GIFFile: Sendable {
    public var signature = "GIF89a"
    public var screenWidth: Int
    public var screenHeight: Int
    /// RGB triples; the count must be a power of two from 2 to 256.
    public var globalTable: [UInt8]?
    /// Complete extension blocks written before the image, such as ``graphicControl(transparentIndex:)``.
    public var extensions: [[UInt8]] = []
    public var left = 0
    public var top = 0
    public var width: Int
    public var height: Int
    public var localTable: [UInt8]?
    /// Whether the rows are stored in the 4-pass interlaced order.
    public var interlaced = false
    public var minimumCodeSize: Int
    /// The LZW bytes, split into sub-blocks of `subBlockSize` when written.
    public var imageData: [UInt8]
    public var subBlockSize = 255

    /// A screen-filling image of `indices` (row-major, top row first) compressed by ``LZWEncoder``; with
    /// `interlaced`, the rows are written in the interlaced order.
    public init(width: Int, height: Int, indices: [UInt8], globalTable: [UInt8]?, minimumCodeSize: Int = 8,
                interlaced: Bool = false, clearWhenFull: Bool = true, clearEvery: Int? = nil) {
        screenWidth = width
        screenHeight = height
        self.width = width
        self.height = height
        self.globalTable = globalTable
        self.minimumCodeSize = minimumCodeSize
        self.interlaced = interlaced
        let rows = interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0, to: height, by: $1)) }
            : Array(0..<height)
        let stored = rows.flatMap { indices[$0 * width..<($0 + 1) * width] }
        imageData = LZWEncoder.pack(LZWEncoder.codes(stored, minimumCodeSize: minimumCodeSize,
                                                     clearWhenFull: clearWhenFull, clearEvery: clearEvery))
    }

    /// A gray image as a GIF with a 256-level gray table.
    public static func gray(width: Int, height: Int, pixels: [UInt8], interlaced: Bool = false) -> GIFFile {
        GIFFile(width: width, height: height, indices: pixels, globalTable: (0...255).flatMap { [UInt8($0), UInt8($0), UInt8($0)] },
                interlaced: interlaced)
    }

    /// A Graphic Control Extension, transparent at `transparentIndex` if given.
    public static func graphicControl(transparentIndex: Int?) -> [UInt8] {
        [0x21, 0xF9, 4, transparentIndex == nil ? 0 : 1, 0, 0, UInt8(transparentIndex ?? 0), 0]
    }

    /// A Comment Extension holding `text` in sub-blocks of at most 255 bytes.
    public static func comment(_ text: String) -> [UInt8] {
        [0x21, 0xFE] + subBlocks(Array(text.utf8), size: 255)
    }

    /// A NETSCAPE2.0 Application Extension (the animation loop count).
    public static let loopExtension: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]

    /// The file, ending with the trailer.
    public var bytes: [UInt8] {
        let screen = [screenWidth, screenHeight].flatMap { littleEndian($0, count: 2) }
        var out = Array(signature.utf8) + screen
        out += [globalTable.map { 0xF0 | sizeBits($0) } ?? 0, 0, 0] + (globalTable ?? [])
        out += extensions.flatMap { $0 }
        out += [0x2C] + [left, top, width, height].flatMap { littleEndian($0, count: 2) }
        out += [(localTable.map { 0x80 | sizeBits($0) } ?? 0) | (interlaced ? 0x40 : 0)] + (localTable ?? [])
        out += [UInt8(minimumCodeSize)] + Self.subBlocks(imageData, size: subBlockSize)
        return out + [0x3B]
    }

    private static func subBlocks(_ data: [UInt8], size: Int) -> [UInt8] {
        stride(from: 0, to: data.count, by: size).flatMap { start -> [UInt8] in
            let block = data[start..<min(start + size, data.count)]
            return [UInt8(block.count)] + block
        } + [0]
    }

    /// Bits 0–2 of a descriptor's flags for a table of `table.count / 3` entries: 2^(n+1) entries.
    private func sizeBits(_ table: [UInt8]) -> UInt8 {
        UInt8((table.count / 3).trailingZeroBitCount - 1)
    }

}
