/// zlib data for tests without a compressor: `bytes` in stored (uncompressed) Deflate blocks, with the zlib
/// header and Adler-32 checksum, as TIFF's Deflate compression holds it.
public func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
        let block = bytes[start..<min(bytes.count, start + 65535)]
        start += block.count
        out += [start == bytes.count ? 1 : 0] + littleEndian(block.count, count: 2) + littleEndian(~block.count, count: 2) + block
    } while start < bytes.count
    var a = 1, b = 0
    for byte in bytes {
        a = (a + Int(byte)) % 65521
        b = (b + a) % 65521
    }
    return out + bigEndian(b << 16 | a, count: 4)
}
