/// A bounds-checked cursor over binary data (GIF and BMP files, little-endian; TIFF files, in either byte
/// order): reading past the end throws `.truncated` for the format being decoded, so a short file is refused
/// wherever it ends.
struct ByteReader {
    let bytes: [UInt8]
    let format: ImageFormat
    var position: Int
    /// Whether multi-byte fields store their most significant byte first (TIFF's "MM").
    let bigEndian: Bool

    init(_ bytes: [UInt8], format: ImageFormat, position: Int = 0, bigEndian: Bool = false) {
        self.bytes = bytes
        self.format = format
        self.position = position
        self.bigEndian = bigEndian
    }

    mutating func skip(_ count: Int) throws(ImageError) {
        guard count >= 0, count <= bytes.count - position else { throw .truncated(format) }
        position += count
    }

    mutating func byte() throws(ImageError) -> Int {
        guard position < bytes.count else { throw .truncated(format) }
        position += 1
        return Int(bytes[position - 1])
    }

    mutating func uint16() throws(ImageError) -> Int {
        let first = try byte(), second = try byte()
        return bigEndian ? first << 8 | second : first | second << 8
    }

    mutating func uint32() throws(ImageError) -> UInt32 {
        let first = try uint16(), second = try uint16()
        return UInt32(bigEndian ? first << 16 | second : first | second << 16)
    }

    /// A 64-bit field (BigTIFF's offsets and counts).
    mutating func uint64() throws(ImageError) -> UInt64 {
        let first = UInt64(try uint32()), second = UInt64(try uint32())
        return bigEndian ? first << 32 | second : first | second << 32
    }

    /// A signed 32-bit field (BMP's width and height), widened so that even `Int32.min` can be negated.
    mutating func int32() throws(ImageError) -> Int {
        Int(Int32(bitPattern: try uint32()))
    }
}
