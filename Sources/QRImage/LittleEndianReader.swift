/// A bounds-checked cursor over little-endian binary data (GIF and BMP files): reading past the end throws
/// `.truncated` for the format being decoded, so a short file is refused wherever it ends.
struct LittleEndianReader {
    let bytes: [UInt8]
    let format: ImageFormat
    var position: Int

    init(_ bytes: [UInt8], format: ImageFormat, position: Int = 0) {
        self.bytes = bytes
        self.format = format
        self.position = position
    }

    mutating func skip(_ count: Int) throws(ImageError) {
        guard count <= bytes.count - position else { throw .truncated(format) }
        position += count
    }

    mutating func byte() throws(ImageError) -> Int {
        guard position < bytes.count else { throw .truncated(format) }
        position += 1
        return Int(bytes[position - 1])
    }

    mutating func uint16() throws(ImageError) -> Int {
        let low = try byte(), high = try byte()
        return low | high << 8
    }

    mutating func uint32() throws(ImageError) -> UInt32 {
        let low = try uint16(), high = try uint16()
        return UInt32(low | high << 16)
    }

    /// A signed 32-bit field (BMP's width and height), widened so that even `Int32.min` can be negated.
    mutating func int32() throws(ImageError) -> Int {
        Int(Int32(bitPattern: try uint32()))
    }
}
