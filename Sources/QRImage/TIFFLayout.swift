/// What a TIFF directory says about its image, checked: the size within the limits, a sample layout and
/// compression QRKit decodes, and strips or tiles that the file lists and holds.
struct TIFFLayout {
    let width: Int
    let height: Int
    let samplesPerPixel: Int
    let bitsPerSample: Int
    let compression: Compression
    let photometric: Photometric
    /// The sample holding alpha, and whether the colour samples are premultiplied by it (ExtraSamples 1)
    /// rather than straight (2).
    let alpha: (sample: Int, associated: Bool)?
    /// Whether each sample has its own strips or tiles (PlanarConfiguration 2).
    let planar: Bool
    /// Whether rows hold differences from the pixel to the left (Predictor 2).
    let differenced: Bool
    /// Whether the bits of each byte are stored least significant first (FillOrder 2).
    let reversedBits: Bool
    /// The palette of photometric 3.
    let colorTable: ColorTable?
    /// Whether the chunks are tiles, of a fixed size and padded past the image's edges, rather than strips, as
    /// wide as the image (the last may have fewer rows).
    let tiled: Bool
    let chunkWidth: Int
    let chunkHeight: Int
    let chunksAcross: Int
    let chunksDown: Int
    private let offsets: TIFFDirectory.Field
    private let byteCounts: TIFFDirectory.Field?

    /// How the strips or tiles are compressed.
    enum Compression: Equatable {
        case none
        case packBits
        case lzw
        case deflate
        case ccitt(CCITTFaxDecoder.Coding)

        init(_ value: Int, t4Options: Int) throws(ImageError) {
            switch value {
            case 1: self = .none
            case 2: self = .ccitt(.modifiedHuffman)
            case 3: self = .ccitt(.group3(twoDimensional: t4Options & 1 != 0))
            case 4: self = .ccitt(.group4)
            case 5: self = .lzw
            case 8, 32946: self = .deflate
            case 32773: self = .packBits
            case 6, 7: throw .unsupportedFormat("JPEG-compressed TIFF (convert it to JPEG or PNG first)")
            default:
                let names = [9: "JBIG", 34712: "JPEG 2000", 34925: "LZMA", 50000: "Zstandard", 50001: "WebP"]
                throw .unsupportedFormat("TIFF with compression \(value)" + (names[value].map { " (\($0))" } ?? ""))
            }
        }

        /// The most bytes `byteCount` bytes of data can give, for chunks of rows of `rowBytes` bytes.
        func maxOutput(byteCount: Int, rowBytes: Int) -> Int {
            switch self {
            case .none: return byteCount
            case .packBits: return PackBits.maxOutput(byteCount: byteCount)
            case .lzw: return LZWDecoder.maxOutput(byteCount: byteCount, minimumCodeSize: 8)
            case .deflate: return Inflate.maxOutput(byteCount: byteCount)
            case .ccitt:
                // Every coded row takes at least one bit.
                let (bytes, overflow) = (byteCount * 8).multipliedReportingOverflow(by: rowBytes)
                return overflow ? .max : bytes
            }
        }
    }

    /// How samples make colours (PhotometricInterpretation).
    enum Photometric: Int {
        case whiteIsZero = 0, blackIsZero = 1, rgb = 2, palette = 3, cmyk = 5

        /// Samples per pixel that make the colour; any others are extra samples.
        var colorSamples: Int {
            switch self {
            case .whiteIsZero, .blackIsZero, .palette: 1
            case .rgb: 3
            case .cmyk: 4
            }
        }

        init(_ value: Int) throws(ImageError) {
            if let photometric = Photometric(rawValue: value) {
                self = photometric
                return
            }
            let names = [4: "transparency-mask", 6: "YCbCr", 8: "CIELab", 9: "ICCLab", 10: "ITULab",
                         32803: "colour filter array", 32844: "LogL", 32845: "LogLuv", 34892: "linear raw"]
            throw .unsupportedFormat(names[value].map { "\($0) TIFF" } ?? "TIFF with photometric interpretation \(value)")
        }
    }

    init(_ directory: TIFFDirectory, limits: ImageLimits) throws(ImageError) {
        width = try directory.required(.imageWidth)
        height = try directory.required(.imageLength)
        guard width > 0, height > 0 else { throw .corrupt(.tiff, "the image size \(width)×\(height) is empty") }
        guard limits.allowsPixels(width: width, height: height) else {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        samplesPerPixel = directory.value(.samplesPerPixel, default: 1)
        guard (1...8).contains(samplesPerPixel) else {
            throw .unsupportedFormat("TIFF with \(samplesPerPixel) samples per pixel (at most 8 are read)")
        }
        // Two bytes for every sample must stay countable, whatever limit the caller set.
        _ = try ImageDimensions.sampleCount(width: width, height: height, channels: 2 * samplesPerPixel)
        bitsPerSample = try Self.bitsPerSample(directory, samplesPerPixel: samplesPerPixel)
        compression = try Compression(directory.value(.compression, default: 1),
                                      t4Options: directory.value(.t4Options, default: 0))
        // Without the field: fax data is WhiteIsZero, three or more samples RGB, anything else BlackIsZero.
        let isFax = if case .ccitt = compression { true } else { false }
        photometric = try Photometric(directory.value(.photometricInterpretation,
                                                      default: isFax ? 0 : samplesPerPixel >= 3 ? 2 : 1))
        guard samplesPerPixel >= photometric.colorSamples else {
            throw .corrupt(.tiff, "photometric interpretation \(photometric.rawValue) needs \(photometric.colorSamples) samples "
                           + "per pixel, not \(samplesPerPixel)")
        }
        if isFax, bitsPerSample != 1 || samplesPerPixel != 1 {
            throw .corrupt(.tiff, "CCITT compression needs one 1-bit sample per pixel, not \(samplesPerPixel) of \(bitsPerSample) bits")
        }
        // ExtraSamples lists the samples after the colour: 0 unspecified (ignored), 1 premultiplied alpha,
        // 2 straight alpha.
        let colorSamples = photometric.colorSamples
        let extras = directory.values(.extraSamples, atMost: samplesPerPixel - colorSamples)
        alpha = extras.firstIndex { $0 == 1 || $0 == 2 }.map { (colorSamples + $0, extras[$0] == 1) }

        let planarConfiguration = directory.value(.planarConfiguration, default: 1)
        guard planarConfiguration == 1 || planarConfiguration == 2 else {
            throw .corrupt(.tiff, "the planar configuration \(planarConfiguration) is neither 1 nor 2")
        }
        planar = planarConfiguration == 2 && samplesPerPixel > 1
        differenced = try Self.differenced(directory, compression: compression, bitsPerSample: bitsPerSample)
        let fillOrder = directory.value(.fillOrder, default: 1)
        guard fillOrder == 1 || fillOrder == 2 else { throw .corrupt(.tiff, "the fill order \(fillOrder) is neither 1 nor 2") }
        reversedBits = fillOrder == 2
        colorTable = photometric == .palette ? try Self.colorTable(directory, bitsPerSample: bitsPerSample) : nil

        tiled = directory[.tileOffsets] != nil
        if let tileOffsets = directory[.tileOffsets] {
            chunkWidth = try directory.required(.tileWidth)
            chunkHeight = try directory.required(.tileLength)
            guard chunkWidth > 0, chunkHeight > 0 else {
                throw .corrupt(.tiff, "the tile size \(chunkWidth)×\(chunkHeight) is empty")
            }
            // Tiles are decoded whole, padding and all: each must be a picture within the limits too.
            guard limits.allowsPixels(width: chunkWidth, height: chunkHeight) else {
                throw .tooLarge(width: chunkWidth, height: chunkHeight, limit: limits.maxPixels)
            }
            _ = try ImageDimensions.sampleCount(width: chunkWidth, height: chunkHeight, channels: 2 * samplesPerPixel)
            offsets = tileOffsets
            byteCounts = directory[.tileByteCounts]
        } else {
            guard let stripOffsets = directory[.stripOffsets] else { throw .corrupt(.tiff, "the StripOffsets field is missing") }
            let rowsPerStrip = directory.value(.rowsPerStrip, default: height)
            guard rowsPerStrip > 0 else { throw .corrupt(.tiff, "RowsPerStrip is 0") }
            chunkWidth = width
            chunkHeight = min(rowsPerStrip, height)
            offsets = stripOffsets
            byteCounts = directory[.stripByteCounts]
        }
        chunksAcross = (width - 1) / chunkWidth + 1
        chunksDown = (height - 1) / chunkHeight + 1
        let kind = tiled ? "tile" : "strip"
        // The counts come from the file, each value taking at least a byte of it: huge counts were refused there.
        guard offsets.count >= chunkCount else {
            throw .corrupt(.tiff, "the file lists \(offsets.count) \(kind) offsets for \(chunkCount) \(kind)s")
        }
        if let byteCounts {
            guard byteCounts.count >= chunkCount else {
                throw .corrupt(.tiff, "the file lists \(byteCounts.count) \(kind) byte counts for \(chunkCount) \(kind)s")
            }
        } else if compression != .none {
            throw .corrupt(.tiff, "the \(kind) byte counts are missing")
        }
    }

    /// BitsPerSample: one value for every sample (or one for all); QRKit reads 1, 2, 4, 8 and 16 bits of
    /// unsigned integers.
    private static func bitsPerSample(_ directory: TIFFDirectory, samplesPerPixel: Int) throws(ImageError) -> Int {
        let depths = directory.values(.bitsPerSample, atMost: samplesPerPixel)
        let depth = depths.first ?? 1
        guard depths.allSatisfy({ $0 == depth }) else {
            throw .unsupportedFormat("TIFF with samples of different sizes (\(depths.map(String.init).joined(separator: ", ")) bits)")
        }
        guard [1, 2, 4, 8, 16].contains(depth) else { throw .unsupportedFormat("TIFF with \(depth)-bit samples") }
        for format in directory.values(.sampleFormat, atMost: samplesPerPixel) {
            switch format {
            case 1, 4: continue  // unsigned integers; 4, "undefined", is read as such
            case 2: throw .unsupportedFormat("TIFF with signed integer samples")
            case 3: throw .unsupportedFormat("TIFF with floating-point samples")
            case 5, 6: throw .unsupportedFormat("TIFF with complex-number samples")
            default: throw .corrupt(.tiff, "the sample format \(format) is unknown")
            }
        }
        return depth
    }

    /// Whether Predictor 2 applies. As in libtiff, only the LZW and Deflate data are differenced.
    private static func differenced(_ directory: TIFFDirectory, compression: Compression,
                                    bitsPerSample: Int) throws(ImageError) -> Bool {
        guard compression == .lzw || compression == .deflate else { return false }
        switch directory.value(.predictor, default: 1) {
        case 1:
            return false
        case 2:
            guard bitsPerSample == 8 || bitsPerSample == 16 else {
                throw .unsupportedFormat("TIFF with horizontal differencing of \(bitsPerSample)-bit samples")
            }
            return true
        case 3:
            throw .unsupportedFormat("TIFF with floating-point prediction (predictor 3)")
        case let predictor:
            throw .corrupt(.tiff, "the predictor \(predictor) is unknown")
        }
    }

    /// ColorMap: the reds, then the greens, then the blues of every index, 16 bits each (the high byte is
    /// kept). A map with no value above 255 was written 8-bit by an old writer, as libtiff also assumes.
    private static func colorTable(_ directory: TIFFDirectory, bitsPerSample: Int) throws(ImageError) -> ColorTable {
        guard bitsPerSample <= 8 else { throw .corrupt(.tiff, "a palette image has \(bitsPerSample)-bit samples") }
        let count = 1 << bitsPerSample
        guard let field = directory[.colorMap], field.count >= 3 * count else {
            throw .corrupt(.tiff, "the ColorMap field is missing or holds fewer than \(3 * count) values")
        }
        let values = (0..<3 * count).map { directory.value(field, at: $0) }
        let shift = values.allSatisfy { $0 < 256 } ? 0 : 8
        let level = { (index: Int) in UInt8(truncatingIfNeeded: values[index] >> shift) }
        return try ColorTable(colors: (0..<count).map { (level($0), level(count + $0), level(2 * count + $0)) }, format: .tiff)
    }

    /// Strips or tiles in the file: a set per plane when planar.
    var chunkCount: Int { chunksAcross * chunksDown * (planar ? samplesPerPixel : 1) }

    /// Samples per pixel in one strip or tile.
    var chunkSamples: Int { planar ? 1 : samplesPerPixel }

    /// Bytes per row of a strip or tile.
    var chunkRowBytes: Int { (chunkWidth * chunkSamples * bitsPerSample + 7) / 8 }

    /// Where strip or tile `index` lies: its plane (the sample it holds when planar), first column and row,
    /// and its rows (a last strip may have fewer).
    func chunk(_ index: Int) -> (plane: Int, x: Int, y: Int, rows: Int) {
        let perPlane = chunksAcross * chunksDown, position = index % perPlane
        let x = position % chunksAcross * chunkWidth, y = position / chunksAcross * chunkHeight
        return (index / perPlane, x, y, tiled ? chunkHeight : min(chunkHeight, height - y))
    }

    /// The stored bytes of strip or tile `index` that lie in the file, and the bytes it decodes to.
    func data(ofChunk index: Int, in directory: TIFFDirectory) throws(ImageError) -> (range: Range<Int>, expected: Int) {
        let expected = chunk(index).rows * chunkRowBytes
        let offset = directory.value(offsets, at: index)
        let count = byteCounts.map { directory.value($0, at: index) } ?? expected
        guard offset < directory.bytes.count, count > 0 else { throw .truncated(.tiff) }
        let range = offset..<offset + min(count, directory.bytes.count - offset)
        guard compression.maxOutput(byteCount: range.count, rowBytes: chunkRowBytes) >= expected else {
            throw .truncated(.tiff)
        }
        return (range, expected)
    }
}
