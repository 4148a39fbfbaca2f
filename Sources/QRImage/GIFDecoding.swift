/// GIF decoding (GIF87a and GIF89a), written in Swift like PNM's: the first frame composited onto the logical
/// screen, as a still image.
///
/// The screen outside the frame and the frame's transparent colour come out transparent (delivered as RGBA,
/// which gray conversion composites onto white); otherwise the pixels are RGB, or gray when every colour of
/// the table is. Choices on damaged files:
/// - a frame reaching past the screen is clipped to it;
/// - a pixel index past the colour table takes entry 0's colour (see ``ColorTable``);
/// - a file with neither a global nor a local colour table, or an LZW minimum code size outside the
///   specification's 2…8, is refused as corrupt;
/// - data that ends before the frame's last pixel is `.truncated`; the blocks after the first frame
///   (further frames, the trailer) are not read.
enum GIFDecoding {
    /// Decodes `bytes`, which start with "GIF87a" or "GIF89a", to the first frame on its logical screen.
    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> DecodedPixels {
        // The 6-byte signature was checked by ImageFormat.sniff.
        var reader = ByteReader(bytes, format: .gif, position: 6)
        let screenWidth = try reader.uint16(), screenHeight = try reader.uint16()
        let screenFlags = try reader.byte()
        // The background colour index and aspect ratio: uncovered screen is transparent, as browsers show it.
        try reader.skip(2)
        guard screenWidth > 0, screenHeight > 0 else {
            throw .corrupt(.gif, "the image size \(screenWidth)×\(screenHeight) is empty")
        }
        guard limits.allowsPixels(width: screenWidth, height: screenHeight) else {
            throw .tooLarge(width: screenWidth, height: screenHeight, limit: limits.maxPixels)
        }
        let globalTable = try colorTable(flags: screenFlags, reader: &reader)

        let transparentIndex = try skipToFirstImage(&reader)
        let left = try reader.uint16(), top = try reader.uint16()
        let width = try reader.uint16(), height = try reader.uint16()
        let imageFlags = try reader.byte()
        guard width > 0, height > 0 else { throw .corrupt(.gif, "the frame size \(width)×\(height) is empty") }
        guard limits.allowsPixels(width: width, height: height) else {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        guard var table = try colorTable(flags: imageFlags, reader: &reader) ?? globalTable else {
            throw .corrupt(.gif, "the image has no colour table")
        }
        let minimumCodeSize = try reader.byte()
        guard (2...8).contains(minimumCodeSize) else {
            throw .corrupt(.gif, "the LZW minimum code size \(minimumCodeSize) is outside 2…8")
        }
        let data = try reader.subBlocks()
        guard width * height <= LZWDecoder.maxOutput(byteCount: data.count, minimumCodeSize: minimumCodeSize) else {
            throw .truncated(.gif)
        }
        var indices = [UInt8](repeating: 0, count: width * height)
        try LZWDecoder.decode(data, minimumCodeSize: minimumCodeSize, into: &indices)

        if let transparentIndex { table.makeTransparent(transparentIndex) }
        let coversScreen = left == 0 && top == 0 && width >= screenWidth && height >= screenHeight
        let channels = table.hasTransparency || !coversScreen ? 4 : table.isGray ? 1 : 3
        let rows = imageFlags & 0x40 != 0 ? interlacedRows(height: height) : Array(0..<height)
        let visibleWidth = max(0, min(width, screenWidth - left))
        var samples = [UInt8](repeating: 0, count: screenWidth * screenHeight * channels)
        samples.withUnsafeMutableBufferPointer { canvas in
            indices.withUnsafeBufferPointer { source in
                for (row, y) in rows.enumerated() where top + y < screenHeight && visibleWidth > 0 {
                    let start = ((top + y) * screenWidth + left) * channels
                    table.paint(UnsafeBufferPointer(rebasing: source[row * width..<row * width + visibleWidth]),
                                into: UnsafeMutableBufferPointer(rebasing: canvas[start..<start + visibleWidth * channels]),
                                channels: channels)
                }
            }
        }
        return DecodedPixels(width: screenWidth, height: screenHeight, channels: channels, samples: samples)
    }

    /// The colour table a descriptor's `flags` announce (bit 7; bits 0–2 give 2^(n+1) entries), read from
    /// `reader`, or nil when there is none.
    private static func colorTable(flags: Int, reader: inout ByteReader) throws(ImageError) -> ColorTable? {
        guard flags & 0x80 != 0 else { return nil }
        let count = 2 << (flags & 7)
        let table = try ColorTable(reader.bytes, at: reader.position, count: count, layout: .rgb, format: .gif)
        try reader.skip(count * 3)
        return table
    }

    /// Skips the extension blocks before the first image descriptor, leaving `reader` just past its separator;
    /// returns the transparent colour index of the Graphic Control Extension, if any applies to the image.
    private static func skipToFirstImage(_ reader: inout ByteReader) throws(ImageError) -> Int? {
        var transparentIndex: Int?
        while true {
            let introducer = try reader.byte()
            switch introducer {
            case 0x2C:
                return transparentIndex
            case 0x21:
                let label = try reader.byte()
                let data = try reader.subBlocks()
                // Graphic Control Extension: flags (bit 0: transparency), delay (2 bytes), transparent index.
                if label == 0xF9, data.count >= 4 {
                    transparentIndex = data[0] & 1 != 0 ? Int(data[3]) : nil
                }
            case 0x3B:
                throw .corrupt(.gif, "the file holds no image")
            default:
                throw .corrupt(.gif, "unexpected block type \(introducer) at byte \(reader.position - 1)")
            }
        }
    }

    /// The frame row of each row in stream order for an interlaced frame: every 8th row from 0, every 8th
    /// from 4, every 4th from 2, then every 2nd from 1.
    private static func interlacedRows(height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }
}

private extension ByteReader {
    /// The concatenated data of a chain of sub-blocks (a length byte, then that many bytes; a zero length ends
    /// the chain). A file that ends inside the chain is truncated.
    mutating func subBlocks() throws(ImageError) -> [UInt8] {
        var data: [UInt8] = []
        while true {
            let length = try byte()
            if length == 0 { return data }
            let start = position
            try skip(length)
            data += bytes[start..<position]
        }
    }
}
