/// TIFF decoding (TIFF 6.0 and BigTIFF, either byte order), written in Swift like GIF's and BMP's: one page of
/// the file (``TIFFPages``), the first unless another is asked for; the others are not decoded.
///
/// Strips or tiles, chunky or planar, uncompressed, PackBits, LZW, Deflate or CCITT (Modified Huffman, T.4
/// 1-D and 2-D, T.6), with horizontal differencing (Predictor 2) of 8- and 16-bit samples. Pixels of 1, 2, 4,
/// 8 or 16 bits per sample (16 read as their high byte) are gray (WhiteIsZero, BlackIsZero), RGB, palette
/// or CMYK (turned to RGB), with straight or premultiplied alpha from ExtraSamples (delivered straight, so
/// gray conversion composites it onto white). The Orientation field is reported like a JPEG's Exif
/// orientation; each page has its own. Choices on damaged or unusual files:
/// - JPEG-compressed TIFF, YCbCr and other photometric interpretations, signed, floating-point and other
///   sample layouts are refused as unsupported formats, by name;
/// - data past the end of a strip or tile is ignored; data that ends before it, a strip or tile that is
///   missing or lies past the end of the file, is `.truncated`;
/// - CCITT's uncompressed mode (bit 1 of T4Options and T6Options, T6Options' only option) is refused where
///   the data uses it;
/// - the Predictor field of uncompressed and PackBits data is ignored, as libtiff does.
enum TIFFDecoding {
    /// Decodes page `page` (from 0) of `bytes`, whose pages are `pages`; a page the file does not have is
    /// `.invalidArgument`.
    static func decode(_ bytes: [UInt8], page: Int, of pages: TIFFPages, limits: ImageLimits)
        throws(ImageError) -> (DecodedPixels, ExifOrientation) {
        guard pages.directories.indices.contains(page) else { throw .pageOutOfRange(page, count: pages.count) }
        let directory = try TIFFDirectory(bytes, header: pages.header, at: pages.directories[page])
        let layout = try TIFFLayout(directory, limits: limits)
        // Every strip or tile must be able to hold its pixels before any memory is committed to them.
        for index in 0..<layout.chunkCount { _ = try layout.data(ofChunk: index, in: directory) }
        let samples = try keptSamples(directory, layout: layout)
        let orientation = ExifOrientation(rawValue: directory.value(.orientation, default: 1)) ?? .up
        return (TIFFColor.pixels(samples, layout: layout), orientation)
    }

    /// The colour samples (and alpha) of every pixel, interleaved, 8 bits each: palette indices, or levels
    /// scaled to 0…255 as stored (WhiteIsZero not yet inverted, premultiplied alpha not yet undone).
    private static func keptSamples(_ directory: TIFFDirectory, layout: TIFFLayout) throws(ImageError) -> [UInt8] {
        let kept = layout.photometric.colorSamples + (layout.alpha == nil ? 0 : 1)
        // Where each sample of a pixel goes among the kept ones, or -1 for samples that are dropped.
        var destination = [Int](repeating: -1, count: layout.samplesPerPixel)
        for sample in 0..<layout.photometric.colorSamples { destination[sample] = sample }
        if let alpha = layout.alpha { destination[alpha.sample] = kept - 1 }
        let levels = Levels(bitsPerSample: layout.bitsPerSample, indexed: layout.photometric == .palette)

        var samples = [UInt8](repeating: 0, count: layout.width * layout.height * kept)
        // The first strip or tile is the largest: later strips may only have fewer rows.
        var chunk = [UInt8](repeating: 0, count: layout.chunk(0).rows * layout.chunkRowBytes)
        try directory.bytes.withUnsafeBufferPointer { (file) throws(ImageError) in
            try chunk.withUnsafeMutableBufferPointer { (buffer) throws(ImageError) in
                try samples.withUnsafeMutableBufferPointer { (samples) throws(ImageError) in
                    for index in 0..<layout.chunkCount {
                        let data = try layout.data(ofChunk: index, in: directory)
                        let decoded = UnsafeMutableBufferPointer(rebasing: buffer[0..<data.expected])
                        let stored = UnsafeBufferPointer(rebasing: file[data.range]), rows = layout.chunk(index).rows
                        if layout.reversedBits {
                            try stored.map { bitReversed[Int($0)] }.withUnsafeBufferPointer { (input) throws(ImageError) in
                                try decompress(input, layout: layout, rows: rows, into: decoded)
                            }
                        } else {
                            try decompress(stored, layout: layout, rows: rows, into: decoded)
                        }
                        if layout.differenced { undoDifferencing(decoded, layout: layout, bigEndian: directory.bigEndian) }
                        place(UnsafeBufferPointer(decoded), chunk: index, layout: layout, bigEndian: directory.bigEndian,
                              destination: destination, kept: kept, levels: levels, into: samples)
                    }
                }
            }
        }
        return samples
    }

    private static func decompress(_ input: UnsafeBufferPointer<UInt8>, layout: TIFFLayout, rows: Int,
                                   into out: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
        switch layout.compression {
        case .none:
            // The layout checked that the data holds the whole chunk.
            _ = out.update(fromContentsOf: input.prefix(out.count))
        case .packBits:
            try PackBits.decode(input, into: out)
        case .lzw:
            // LZW written before TIFF 6.0 starts with a clear code packed least significant bit first.
            let old = input.count >= 2 && input[0] == 0 && input[1] & 1 != 0
            try LZWDecoder.decode(input, minimumCodeSize: 8, variant: old ? .oldTIFF : .tiff, into: out)
        case .deflate:
            try Inflate.decode(input, into: out, format: .tiff)
        case let .ccitt(coding):
            try CCITTFaxDecoder.decode(input, coding: coding, width: layout.chunkWidth, rows: rows, into: out)
        }
    }

    /// Predictor 2: each sample was stored as its difference from the same sample of the pixel to the left,
    /// modulo 2^bits (16-bit samples in the file's byte order).
    private static func undoDifferencing(_ data: UnsafeMutableBufferPointer<UInt8>, layout: TIFFLayout, bigEndian: Bool) {
        let rowBytes = layout.chunkRowBytes, step = layout.chunkSamples
        for rowStart in stride(from: 0, to: data.count, by: rowBytes) {
            if layout.bitsPerSample == 8 {
                for i in rowStart + step..<rowStart + rowBytes { data[i] &+= data[i - step] }
                continue
            }
            let (high, low) = bigEndian ? (0, 1) : (1, 0)
            for i in stride(from: rowStart + 2 * step, to: rowStart + rowBytes, by: 2) {
                let sum = (UInt16(data[i + high]) << 8 | UInt16(data[i + low]))
                    &+ (UInt16(data[i - 2 * step + high]) << 8 | UInt16(data[i - 2 * step + low]))
                data[i + high] = UInt8(sum >> 8)
                data[i + low] = UInt8(truncatingIfNeeded: sum)
            }
        }
    }

    /// Copies the samples of decoded chunk `index` that lie inside the image to their pixels among `samples`.
    private static func place(_ data: UnsafeBufferPointer<UInt8>, chunk index: Int, layout: TIFFLayout, bigEndian: Bool,
                              destination: [Int], kept: Int, levels: Levels, into samples: UnsafeMutableBufferPointer<UInt8>) {
        let (plane, left, top, rows) = layout.chunk(index)
        let bits = layout.bitsPerSample, step = layout.chunkSamples, rowBytes = layout.chunkRowBytes
        let columns = min(layout.chunkWidth, layout.width - left), visibleRows = min(rows, layout.height - top)
        // A 16-bit sample is read as its high byte: the first in big-endian files.
        let highByte = bigEndian ? 0 : 1
        let mask = (1 << min(bits, 8)) - 1
        if bits == 8, step == kept, !layout.planar {
            // Every sample kept, 8 bits each, so as it is: whole rows are copied.
            for row in 0..<visibleRows {
                let target = ((top + row) * layout.width + left) * kept
                _ = UnsafeMutableBufferPointer(rebasing: samples[target..<target + columns * kept])
                    .update(fromContentsOf: data[row * rowBytes..<row * rowBytes + columns * kept])
            }
            return
        }
        if bits == 1, step == 1, kept == 1 {
            // One-bit pixels (fax pages, bilevel scans): straight from the bits, without the general loop's work
            // per sample, which took half the time of reading a scanned page.
            let one = levels.value(1, sample: 0)
            for row in 0..<visibleRows {
                let source = row * rowBytes, target = (top + row) * layout.width + left
                for x in 0..<columns {
                    samples[target + x] = (data[source + x >> 3] << UInt8(x & 7)) & 0x80 == 0 ? 0 : one
                }
            }
            return
        }
        for row in 0..<visibleRows {
            let rowStart = row * rowBytes
            for x in 0..<columns {
                let pixel = ((top + row) * layout.width + left + x) * kept
                for s in 0..<step {
                    let target = destination[layout.planar ? plane : s]
                    guard target >= 0 else { continue }
                    let n = x * step + s
                    let value: Int
                    switch bits {
                    case 8: value = Int(data[rowStart + n])
                    case 16: value = Int(data[rowStart + 2 * n + highByte])
                    default:
                        let bit = n * bits
                        value = (Int(data[rowStart + bit >> 3]) >> (8 - bits - bit & 7)) & mask
                    }
                    samples[pixel + target] = levels.value(value, sample: target)
                }
            }
        }
    }

    /// Scales samples of fewer than 8 bits to 0…255; a palette index (kept sample 0) stays as it is.
    private struct Levels {
        let table: [UInt8]
        let indexed: Bool

        init(bitsPerSample: Int, indexed: Bool) {
            let maximum = (1 << min(bitsPerSample, 8)) - 1
            table = (0...255).map { UInt8(min($0, maximum) * 255 / maximum) }
            self.indexed = indexed
        }

        func value(_ value: Int, sample: Int) -> UInt8 {
            indexed && sample == 0 ? UInt8(value) : table[value]
        }
    }

    /// Each byte with its bits in reverse order (FillOrder 2).
    private static let bitReversed: [UInt8] = (0...255).map { byte in
        (0..<8).reduce(0) { reversed, bit in reversed | UInt8((byte >> bit) & 1) << (7 - bit) }
    }
}
