/// The 8-byte header of a classic TIFF file (magic 42, 32-bit offsets) or the 16-byte one of a BigTIFF file
/// (magic 43, 64-bit offsets), in either byte order, with the sizes every directory of the file is read with.
struct TIFFHeader: Sendable {
    /// Whether multi-byte fields store their most significant byte first ("MM").
    let bigEndian: Bool
    /// Whether offsets and counts are 64-bit (BigTIFF).
    let big: Bool
    /// Where the first image file directory (IFD) starts; never 0, not necessarily inside the file.
    let firstDirectory: Int

    /// Reads the header of `bytes`, which start with "II" or "MM".
    init(_ bytes: [UInt8]) throws(ImageError) {
        bigEndian = bytes.starts(with: [0x4D, 0x4D])
        var reader = ByteReader(bytes, format: .tiff, position: 2, bigEndian: bigEndian)
        let magic = try reader.uint16()
        switch magic {
        case 42:
            big = false
        case 43:
            big = true
            guard try reader.uint16() == 8, try reader.uint16() == 0 else {
                throw .corrupt(.tiff, "the BigTIFF header does not give 8-byte offsets")
            }
        default:
            throw .corrupt(.tiff, "the version number \(magic) is neither 42 (TIFF) nor 43 (BigTIFF)")
        }
        firstDirectory = big ? Int(clamping: try reader.uint64()) : Int(try reader.uint32())
        guard firstDirectory > 0 else { throw .corrupt(.tiff, "the file holds no image") }
    }

    /// Bytes of a directory's entry count: 2, or 8 in BigTIFF.
    var entryCountSize: Int { big ? 8 : 2 }

    /// Bytes of a directory entry: 12, or 20 in BigTIFF.
    var entrySize: Int { big ? 20 : 12 }

    /// Bytes of an offset, a value count or the values kept in an entry itself: 4, or 8 in BigTIFF.
    var offsetSize: Int { big ? 8 : 4 }

    /// An offset or count at the reader's position; values past `Int.max` read as `Int.max`.
    func unsigned(_ reader: inout ByteReader) throws(ImageError) -> Int {
        big ? Int(clamping: try reader.uint64()) : Int(try reader.uint32())
    }

    /// A directory's entry count at the reader's position.
    func entryCount(_ reader: inout ByteReader) throws(ImageError) -> Int {
        big ? Int(clamping: try reader.uint64()) : try reader.uint16()
    }
}
