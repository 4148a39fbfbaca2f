/// One image file directory (IFD) of a TIFF file, classic or BigTIFF (``TIFFHeader``), in either byte order:
/// the fields of one page.
///
/// Only the fields of ``Tag`` are kept; their values are read where they lie, on demand, so a field claiming
/// millions of values costs nothing until they are used. Every value lies inside the file: a field reaching
/// past its end is `.truncated`.
struct TIFFDirectory {
    /// The tags the decoder reads.
    enum Tag: Int, CaseIterable {
        case imageWidth = 256, imageLength = 257, bitsPerSample = 258, compression = 259
        case photometricInterpretation = 262, fillOrder = 266, stripOffsets = 273, orientation = 274
        case samplesPerPixel = 277, rowsPerStrip = 278, stripByteCounts = 279, planarConfiguration = 284
        case t4Options = 292, predictor = 317, colorMap = 320
        case tileWidth = 322, tileLength = 323, tileOffsets = 324, tileByteCounts = 325
        case extraSamples = 338, sampleFormat = 339

        /// The name the TIFF specification gives the field.
        var name: String {
            let caseName = String(describing: self)
            return caseName.prefix(1).uppercased() + caseName.dropFirst()
        }
    }

    /// Where a field's values lie and how wide each is.
    struct Field {
        let tag: Tag
        let count: Int
        /// Bytes per value: 1 (BYTE), 2 (SHORT), 4 (LONG) or 8 (LONG8).
        let size: Int
        let offset: Int
    }

    let bytes: [UInt8]
    let bigEndian: Bool
    private let fields: [Tag: Field]

    /// Reads the directory at `directory` of `bytes`, a file with `header`.
    init(_ bytes: [UInt8], header: TIFFHeader, at directory: Int) throws(ImageError) {
        self.bytes = bytes
        bigEndian = header.bigEndian
        guard directory < bytes.count else { throw .truncated(.tiff) }
        var reader = ByteReader(bytes, format: .tiff, position: directory, bigEndian: bigEndian)
        let entryCount = try header.entryCount(&reader)
        let entrySize = header.entrySize, inlineSize = header.offsetSize
        guard entryCount <= (bytes.count - reader.position) / entrySize else { throw .truncated(.tiff) }

        var fields: [Tag: Field] = [:]
        for index in 0..<entryCount {
            reader.position = directory + header.entryCountSize + index * entrySize
            // Fields the decoder does not read are skipped unchecked; a repeated tag keeps its first entry.
            guard let tag = Tag(rawValue: try reader.uint16()), fields[tag] == nil else { continue }
            let type = try reader.uint16()
            let count = try header.unsigned(&reader)
            guard let size = [1: 1, 3: 2, 4: 4, 16: 8][type] else {
                throw .corrupt(.tiff, "the \(tag.name) field has type \(type), not an unsigned integer type")
            }
            guard count <= bytes.count / size else { throw .truncated(.tiff) }
            let offset = count * size <= inlineSize ? reader.position : try header.unsigned(&reader)
            guard offset <= bytes.count - count * size else { throw .truncated(.tiff) }
            fields[tag] = Field(tag: tag, count: count, size: size, offset: offset)
        }
        self.fields = fields
    }

    subscript(tag: Tag) -> Field? { fields[tag] }

    /// Value `index` of `field`, which must be below its count; values past `Int.max` read as `Int.max`.
    func value(_ field: Field, at index: Int) -> Int {
        let start = field.offset + index * field.size
        var value: UInt64 = 0
        for k in 0..<field.size {
            let byte = UInt64(bytes[start + (bigEndian ? k : field.size - 1 - k)])
            value = value << 8 | byte
        }
        return Int(clamping: value)
    }

    /// The first value of `tag`, or `defaultValue` when the field is absent or empty.
    func value(_ tag: Tag, default defaultValue: Int) -> Int {
        guard let field = fields[tag], field.count > 0 else { return defaultValue }
        return value(field, at: 0)
    }

    /// The first value of a field the file must have.
    func required(_ tag: Tag) throws(ImageError) -> Int {
        guard let field = fields[tag], field.count > 0 else { throw .corrupt(.tiff, "the \(tag.name) field is missing") }
        return value(field, at: 0)
    }

    /// Every value of `tag` (none when absent); only for fields of a few values per sample.
    func values(_ tag: Tag, atMost limit: Int) -> [Int] {
        guard let field = fields[tag] else { return [] }
        return (0..<min(field.count, limit)).map { value(field, at: $0) }
    }
}
