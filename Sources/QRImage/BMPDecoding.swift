/// BMP decoding, written in Swift like PNM's: Windows bitmaps with a BITMAPINFOHEADER or a later version of it
/// (40, 52, 56, 108 or 124 bytes) and OS/2 bitmaps with a BITMAPCOREHEADER (12 bytes).
///
/// Palette images (1, 4 and 8 bits, uncompressed or RLE4/RLE8) come out RGB, or gray when the palette is;
/// 16- and 32-bit images follow their masks (5-5-5 and 8-8-8 without BI_BITFIELDS), with alpha when an alpha
/// mask is given — unless every pixel's alpha is 0, which writers that ignore the channel leave, so the image
/// is opaque, as browsers show it. Choices on damaged or unusual files:
/// - pixels RLE skips (delta, early end of line or bitmap) are palette index 0, the background;
/// - a pixel index past the palette takes entry 0's colour (see ``ColorTable``);
/// - embedded JPEG or PNG (BI_JPEG, BI_PNG) is refused as an unsupported format;
/// - the last row may lack its padding; any other shortfall of pixel data is `.truncated`.
enum BMPDecoding {
    /// The DIB header sizes QRKit reads: OS/2's BITMAPCOREHEADER and BITMAPINFOHEADER with its later versions.
    static let headerSizes: Set<Int> = [12, 40, 52, 56, 108, 124]

    /// Decodes `bytes`, which start with "BM" and one of ``headerSizes``.
    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> DecodedPixels {
        let header = try Header(bytes)
        let width = header.width, height = header.height
        guard limits.allowsPixels(width: width, height: height) else {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        if header.bitsPerPixel <= 8 {
            let indices = header.compression == Compression.rle8 || header.compression == Compression.rle4
                ? try runLengthIndices(bytes, header: header) : try unpackedIndices(bytes, header: header)
            let table = try header.colorTable(bytes)
            let channels = table.isGray ? 1 : 3
            var samples = [UInt8](repeating: 0, count: width * height * channels)
            samples.withUnsafeMutableBufferPointer { canvas in
                indices.withUnsafeBufferPointer { source in
                    table.paint(source, into: canvas, channels: channels)
                }
            }
            return DecodedPixels(width: width, height: height, channels: channels, samples: samples)
        }
        return try directColor(bytes, header: header)
    }

    /// The `compression` values of the info header.
    private enum Compression {
        static let rgb = 0, rle8 = 1, rle4 = 2, bitfields = 3, jpeg = 4, png = 5, alphaBitfields = 6
    }

    /// What the file and DIB headers say about the pixels.
    private struct Header {
        let width: Int
        let height: Int
        /// Whether the first row stored is the top one (a negative height); BMP rows are normally bottom-up.
        let topDown: Bool
        let bitsPerPixel: Int
        let compression: Int
        /// Red, green, blue and alpha masks of 16- and 32-bit pixels; an alpha mask of 0 means opaque.
        let masks: [UInt32]
        let paletteOffset: Int
        let paletteLayout: ColorTable.Layout
        let paletteCount: Int
        let pixelOffset: Int

        init(_ bytes: [UInt8]) throws(ImageError) {
            // "BM" and the header size were checked by ImageFormat.sniff.
            var reader = ByteReader(bytes, format: .bmp, position: 10)
            pixelOffset = Int(try reader.uint32())
            let headerSize = Int(try reader.uint32())
            let signedHeight: Int
            var colorsUsed = 0
            var masks: [UInt32] = []
            if headerSize == 12 {
                width = try reader.uint16()
                signedHeight = try reader.uint16()
                try reader.skip(2)  // planes
                bitsPerPixel = try reader.uint16()
                compression = Compression.rgb
                paletteLayout = .bgr
            } else {
                guard BMPDecoding.headerSizes.contains(headerSize) else {
                    throw .corrupt(.bmp, "the header size \(headerSize) is not one of a known BMP header")
                }
                width = try reader.int32()
                signedHeight = try reader.int32()
                try reader.skip(2)  // planes
                bitsPerPixel = try reader.uint16()
                compression = Int(try reader.uint32())
                try reader.skip(12)  // image size, resolution
                colorsUsed = Int(try reader.uint32())
                try reader.skip(4)  // important colours
                // Masks sit inside V2+ headers (alpha from V3 on); after a 40-byte header only with BI_BITFIELDS.
                let maskCount = headerSize >= 56 ? 4 : headerSize == 52 ? 3
                    : compression == Compression.alphaBitfields ? 4 : compression == Compression.bitfields ? 3 : 0
                for _ in 0..<maskCount { masks.append(try reader.uint32()) }
                paletteLayout = .bgrx
            }
            paletteOffset = 14 + headerSize + (headerSize == 40 ? masks.count * 4 : 0)
            topDown = signedHeight < 0
            height = abs(signedHeight)
            guard width > 0, height > 0 else { throw .corrupt(.bmp, "the image size \(width)×\(height) is empty") }
            try Self.checkDepth(bitsPerPixel, compression: compression)
            self.masks = Self.effectiveMasks(masks, bitsPerPixel: bitsPerPixel, compression: compression)

            guard pixelOffset >= paletteOffset else {
                throw .corrupt(.bmp, "the pixel data offset \(pixelOffset) lies inside the headers")
            }
            guard pixelOffset <= bytes.count else { throw .truncated(.bmp) }
            // The palette lies between the headers and the pixels; a count past the depth's range is damage.
            let listed = colorsUsed == 0 || colorsUsed > 1 << min(bitsPerPixel, 8) ? 1 << min(bitsPerPixel, 8) : colorsUsed
            paletteCount = min(listed, (pixelOffset - paletteOffset) / paletteLayout.entrySize)
        }

        /// Refuses the depth and compression combinations BMP does not define.
        private static func checkDepth(_ bitsPerPixel: Int, compression: Int) throws(ImageError) {
            let valid: Bool
            switch compression {
            case Compression.rgb: valid = [1, 4, 8, 16, 24, 32].contains(bitsPerPixel)
            case Compression.rle8: valid = bitsPerPixel == 8
            case Compression.rle4: valid = bitsPerPixel == 4
            case Compression.bitfields, Compression.alphaBitfields: valid = bitsPerPixel == 16 || bitsPerPixel == 32
            case Compression.jpeg, Compression.png:
                throw .unsupportedFormat("a BMP holding a \(compression == Compression.jpeg ? "JPEG" : "PNG") image")
            default: throw .corrupt(.bmp, "the compression type \(compression) is unknown")
            }
            guard valid else {
                throw .corrupt(.bmp, "\(bitsPerPixel) bits per pixel do not go with compression type \(compression)")
            }
        }

        /// The masks that apply: the file's with BI_BITFIELDS, else the depth's defaults (5-5-5, 8-8-8), with
        /// the alpha mask of a V3+ header on 32-bit pixels.
        private static func effectiveMasks(_ masks: [UInt32], bitsPerPixel: Int, compression: Int) -> [UInt32] {
            let alpha = masks.count == 4 ? masks[3] : 0
            if compression == Compression.bitfields || compression == Compression.alphaBitfields {
                return Array(masks.prefix(3)) + [alpha]
            }
            return bitsPerPixel == 16 ? [0x7C00, 0x03E0, 0x001F, 0] : [0xFF_0000, 0xFF00, 0xFF, bitsPerPixel == 32 ? alpha : 0]
        }

        func colorTable(_ bytes: [UInt8]) throws(ImageError) -> ColorTable {
            try ColorTable(bytes, at: paletteOffset, count: paletteCount, layout: paletteLayout, format: .bmp)
        }

        /// Bytes per stored row: rows are padded to a multiple of 4 bytes.
        var stride: Int { (width * bitsPerPixel + 31) / 32 * 4 }

        /// The image row the `row`-th stored row holds.
        func imageRow(_ row: Int) -> Int { topDown ? row : height - 1 - row }

        /// Refuses a file too short for its uncompressed rows (the last of which may lack its padding).
        func checkPixelDataLength(_ byteCount: Int) throws(ImageError) {
            let (rows, overflow) = stride.multipliedReportingOverflow(by: height - 1)
            guard !overflow, byteCount - pixelOffset - rows >= (width * bitsPerPixel + 7) / 8 else {
                throw .truncated(.bmp)
            }
        }
    }

    /// The palette indices of uncompressed 1-, 4- and 8-bit rows (most significant bits first), top row first.
    private static func unpackedIndices(_ bytes: [UInt8], header: Header) throws(ImageError) -> [UInt8] {
        try header.checkPixelDataLength(bytes.count)
        let width = header.width, depth = header.bitsPerPixel
        let mask = (1 << depth) - 1
        var indices = [UInt8](repeating: 0, count: width * header.height)
        for row in 0..<header.height {
            let start = header.pixelOffset + row * header.stride, out = header.imageRow(row) * width
            if depth == 8 {
                indices[out..<out + width] = bytes[start..<start + width]
                continue
            }
            for x in 0..<width {
                let bit = x * depth
                indices[out + x] = UInt8((Int(bytes[start + bit / 8]) >> (8 - depth - bit % 8)) & mask)
            }
        }
        return indices
    }

    /// The palette indices of RLE8 or RLE4 data, top row first. Runs are a count and an index (RLE4: two
    /// alternating indices); a zero count escapes to end of line (0), end of bitmap (1), a delta (2, then
    /// right and up), or a literal run of that many indices, padded to an even number of bytes. Pixels past
    /// the right or top edge are dropped.
    private static func runLengthIndices(_ bytes: [UInt8], header: Header) throws(ImageError) -> [UInt8] {
        let width = header.width, height = header.height
        let nibbles = header.compression == Compression.rle4
        var indices = [UInt8](repeating: 0, count: width * height)
        var reader = ByteReader(bytes, format: .bmp, position: header.pixelOffset)
        var x = 0, row = 0
        func put(_ index: Int) {
            if x < width, row < height { indices[header.imageRow(row) * width + x] = UInt8(index) }
            x += 1
        }
        while row < height {
            let count = try reader.byte(), value = try reader.byte()
            if count > 0 {
                for i in 0..<count { put(nibbles ? (i % 2 == 0 ? value >> 4 : value & 15) : value) }
                continue
            }
            switch value {
            case 0:
                x = 0
                row += 1
            case 1:
                return indices
            case 2:
                x += try reader.byte()
                row += try reader.byte()
            default:
                var byte = 0
                for i in 0..<value {
                    if !nibbles || i % 2 == 0 { byte = try reader.byte() }
                    put(nibbles ? (i % 2 == 0 ? byte >> 4 : byte & 15) : byte)
                }
                let used = nibbles ? (value + 1) / 2 : value
                try reader.skip(used % 2)
            }
        }
        return indices
    }

    /// 16-, 24- and 32-bit pixels as RGB, or RGBA when an alpha mask applies and some pixel's alpha is not 0.
    private static func directColor(_ bytes: [UInt8], header: Header) throws(ImageError) -> DecodedPixels {
        try header.checkPixelDataLength(bytes.count)
        let width = header.width, height = header.height
        let channels = header.masks[3] == 0 ? 3 : 4
        let masked = header.masks.map(MaskedChannel.init)
        let bytesPerPixel = header.bitsPerPixel / 8
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        var alphaSeen: UInt8 = 0
        samples.withUnsafeMutableBufferPointer { samples in
            bytes.withUnsafeBufferPointer { bytes in
                for row in 0..<height {
                    let start = header.pixelOffset + row * header.stride
                    var out = header.imageRow(row) * width * channels
                    for x in 0..<width {
                        let at = start + x * bytesPerPixel
                        if bytesPerPixel == 3 {
                            samples[out] = bytes[at + 2]
                            samples[out + 1] = bytes[at + 1]
                            samples[out + 2] = bytes[at]
                        } else {
                            var pixel = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8
                            if bytesPerPixel == 4 { pixel |= UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
                            for channel in 0..<channels { samples[out + channel] = masked[channel].value(of: pixel) }
                            if channels == 4 { alphaSeen |= samples[out + 3] }
                        }
                        out += channels
                    }
                }
            }
        }
        if channels == 4, alphaSeen == 0 {
            for i in Swift.stride(from: 3, to: samples.count, by: 4) { samples[i] = 255 }
        }
        return DecodedPixels(width: width, height: height, channels: channels, samples: samples)
    }

    /// One channel of a 16- or 32-bit pixel: the bits under `mask`, scaled to 0…255. Masks need not be
    /// contiguous or disjoint; a zero mask reads as 0.
    private struct MaskedChannel {
        let mask: UInt32
        let shift: UInt32
        let maximum: UInt64

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = UInt64(mask >> shift)
        }

        func value(of pixel: UInt32) -> UInt8 {
            let value = UInt64((pixel & mask) >> shift)
            if maximum == 255 || maximum == 0 { return UInt8(truncatingIfNeeded: value) }
            return UInt8((value * 255 + maximum / 2) / maximum)
        }
    }
}
