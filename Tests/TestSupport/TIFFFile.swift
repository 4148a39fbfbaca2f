/// A TIFF file built field by field for tests: either byte order, classic or BigTIFF, one image of strips or
/// tiles whose stored bytes a test gives (compressed with ``LZWEncoder``, ``CCITTEncoder`` or by hand).
///
/// The header comes first, then the strips or tiles, then the directory and the values that do not fit in
/// their entries, so a file cut short loses its directory first.
public struct TIFFFile: Sendable {
    /// One directory entry: a tag, a field type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 16 LONG8…) and its values.
    public struct Field: Sendable {
        public var tag: Int
        public var type: Int
        public var values: [Int]

        public init(_ tag: Int, type: Int = 3, _ values: [Int]) {
            self.tag = tag
            self.type = type
            self.values = values
        }
    }

    public var bigEndian = false
    public var bigTIFF = false
    /// Every field but the strip or tile offsets and byte counts, which are written for `chunks`.
    public var fields: [Field]
    /// The stored strips or tiles, in file order.
    public var chunks: [[UInt8]]
    /// Whether `chunks` are tiles (TileOffsets, TileByteCounts) rather than strips.
    public var tiled = false
    /// Replaces the byte counts written for `chunks`; an empty list leaves the field out.
    public var byteCounts: [Int]?
    /// Moved past the end of the file by this many bytes (a damaged file).
    public var offsetShift = 0

    /// An image of `samples` samples per pixel of `bits` bits each: the size, depth, compression, photometric
    /// interpretation and `rowsPerStrip` fields (unless tiled, set tile fields instead).
    public init(width: Int, height: Int, bits: Int = 8, samples: Int = 1, photometric: Int, compression: Int = 1,
                rowsPerStrip: Int? = nil, chunks: [[UInt8]]) {
        fields = [Field(256, type: 4, [width]), Field(257, type: 4, [height]),
                  Field(258, [Int](repeating: bits, count: samples)), Field(259, [compression]),
                  Field(262, [photometric]), Field(277, [samples]), Field(278, type: 4, [rowsPerStrip ?? height])]
        self.chunks = chunks
    }

    /// An 8-bit gray image, uncompressed, in strips of `rowsPerStrip` rows.
    public static func gray(width: Int, height: Int, pixels: [UInt8], rowsPerStrip: Int? = nil) -> TIFFFile {
        let rows = rowsPerStrip ?? height
        let strips = stride(from: 0, to: height, by: rows).map { Array(pixels[$0 * width..<min(height, $0 + rows) * width]) }
        return TIFFFile(width: width, height: height, photometric: 1, rowsPerStrip: rows, chunks: strips)
    }

    /// An 8-bit RGB image (3 samples a pixel, row-major), one LZW strip.
    public static func rgbLZW(width: Int, height: Int, pixels: [UInt8], predictor: Bool = false) -> TIFFFile {
        var data = pixels
        if predictor {
            for y in 0..<height {
                for i in stride(from: (y + 1) * width * 3 - 1, through: y * width * 3 + 3, by: -1) {
                    data[i] = pixels[i] &- pixels[i - 3]
                }
            }
        }
        var file = TIFFFile(width: width, height: height, samples: 3, photometric: 2, compression: 5,
                            chunks: [LZWEncoder.tiff(data)])
        if predictor { file.set(Field(317, [2])) }
        return file
    }

    /// A black and white image (1 for black) as one CCITT strip, white on zero bits (WhiteIsZero).
    public static func bilevel(width: Int, height: Int, pixels: [UInt8], coding: CCITTEncoder.Coding) -> TIFFFile {
        let compression: Int, options: Field?
        switch coding {
        case .modifiedHuffman: (compression, options) = (2, nil)
        case let .group3(k, aligned): (compression, options) = (3, Field(292, type: 4, [(k == nil ? 0 : 1) | (aligned ? 4 : 0)]))
        case .group4: (compression, options) = (4, nil)
        }
        var file = TIFFFile(width: width, height: height, bits: 1, photometric: 0, compression: compression,
                            chunks: [CCITTEncoder.encode(pixels, width: width, height: height, coding: coding)])
        if let options { file.set(options) }
        return file
    }

    /// Adds `field`, or replaces the field of its tag.
    public mutating func set(_ field: Field) {
        fields.removeAll { $0.tag == field.tag }
        fields.append(field)
    }

    /// Removes the field of `tag`.
    public mutating func remove(_ tag: Int) {
        fields.removeAll { $0.tag == tag }
    }

    public var bytes: [UInt8] {
        let headerSize = bigTIFF ? 16 : 8
        let body = self.body(at: headerSize, nextDirectory: 0)
        return header(firstDirectory: body.directory) + body.bytes
    }

    /// The header: byte order, magic number (and BigTIFF's offset size), the first directory's offset.
    func header(firstDirectory: Int) -> [UInt8] {
        var out = Array((bigEndian ? "MM" : "II").utf8) + integer(bigTIFF ? 43 : 42, 2)
        if bigTIFF { out += integer(8, 2) + integer(0, 2) }
        return out + integer(firstDirectory, bigTIFF ? 8 : 4)
    }

    /// `value` in the file's byte order, `count` bytes long.
    func integer(_ value: Int, _ count: Int) -> [UInt8] {
        bigEndian ? QRTestSupport.bigEndian(value, count: count) : littleEndian(value, count: count)
    }

    /// The strips or tiles, then the directory (ending with `nextDirectory`) and its values, for a file where
    /// they start at offset `base`; `directory` is where the directory starts in that file.
    func body(at base: Int, nextDirectory: Int) -> (bytes: [UInt8], directory: Int) {
        let offsetSize = bigTIFF ? 8 : 4
        var chunkOffsets: [Int] = [], data: [UInt8] = []
        for chunk in chunks {
            chunkOffsets.append(base + data.count + offsetShift)
            data += chunk
        }
        if data.count % 2 == 1 { data.append(0) }
        let directory = base + data.count
        let offsetType = bigTIFF ? 16 : 4
        let counts = byteCounts ?? chunks.map(\.count)
        let all = (fields + [Field(tiled ? 324 : 273, type: offsetType, chunkOffsets)]
                   + (counts.isEmpty ? [] : [Field(tiled ? 325 : 279, type: offsetType, counts)]))
            .sorted { $0.tag < $1.tag }

        let entrySize = bigTIFF ? 20 : 12
        var values = directory + (bigTIFF ? 8 : 2) + all.count * entrySize + offsetSize
        var entries: [UInt8] = [], overflow: [UInt8] = []
        for field in all {
            let size = [1: 1, 2: 1, 3: 2, 4: 4, 7: 1, 16: 8][field.type] ?? 4
            let encoded = field.values.flatMap { integer($0, size) }
            entries += integer(field.tag, 2) + integer(field.type, 2) + integer(field.values.count, offsetSize)
            if encoded.count <= offsetSize {
                entries += encoded + [UInt8](repeating: 0, count: offsetSize - encoded.count)
            } else {
                entries += integer(values, offsetSize)
                overflow += encoded
                values += encoded.count
            }
        }
        let out = data + integer(all.count, bigTIFF ? 8 : 2) + entries + integer(nextDirectory, offsetSize) + overflow
        return (out, directory)
    }
}
