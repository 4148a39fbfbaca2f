/// The variable-length-code LZW of GIF and TIFF: codes of 3 to 12 bits with clear and end-of-information codes,
/// packed and widened as each format's ``Variant`` says. The string table is flat (prefix, last byte, first byte
/// and length per code), so each code's string is written straight into the output, back to front, with no
/// allocation per code.
enum LZWDecoder {
    /// Codes are at most 12 bits wide, so the table holds at most 4096 entries.
    static let maxCodes = 4096

    /// How a format packs its codes.
    struct Variant {
        /// Codes are packed most significant bit first (TIFF) rather than least significant bit first (GIF).
        let msbFirst: Bool
        /// Codes widen one code before the table reaches the next power of two (TIFF's "early change").
        let earlyChange: Bool
        /// The format named in errors.
        let format: ImageFormat

        static let gif = Variant(msbFirst: false, earlyChange: false, format: .gif)
        static let tiff = Variant(msbFirst: true, earlyChange: true, format: .tiff)
        /// TIFF's LZW as written before TIFF 6.0 (libtiff's "old-style" codes): GIF's packing.
        static let oldTIFF = Variant(msbFirst: false, earlyChange: false, format: .tiff)
    }

    /// The most pixels `byteCount` bytes of codes can produce: every code takes at least
    /// `minimumCodeSize + 1` bits and stands for at most `maxCodes` pixels. A header claiming more is truncated
    /// data, refused before the pixels are allocated.
    static func maxOutput(byteCount: Int, minimumCodeSize: Int) -> Int {
        byteCount * 8 / (minimumCodeSize + 1) * maxCodes
    }

    /// Fills `output` (one palette index per pixel) from the GIF codes in `data`.
    static func decode(_ data: [UInt8], minimumCodeSize: Int, into output: inout [UInt8]) throws(ImageError) {
        try output.withUnsafeMutableBufferPointer { (out) throws(ImageError) in
            try data.withUnsafeBufferPointer { (input) throws(ImageError) in
                try decode(input, minimumCodeSize: minimumCodeSize, variant: .gif, into: out)
            }
        }
    }

    /// Fills `out` from the codes in `input`. Codes after the last byte of `out` are ignored; data that ends,
    /// or an end code that comes, before `out` is full is `.truncated`, and a code not yet in the table is
    /// `.corrupt`.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, variant: Variant,
                       into out: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
        switch decodeCodes(input, minimumCodeSize: minimumCodeSize, variant: variant, into: out) {
        case .complete: return
        case .ended: throw .truncated(variant.format)
        case let .invalid(code, available):
            throw .corrupt(variant.format, "the LZW code \(code) is not in the table (the next free code is \(available))")
        }
    }

    /// How the codes ran out: with every pixel written, too early, or at a code not in the table.
    private enum Outcome {
        case complete
        case ended
        case invalid(code: Int, available: Int)
    }

    /// The decoding loop, over raw buffers so that the per-pixel work has no bounds checks in release builds.
    private static func decodeCodes(_ input: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, variant: Variant,
                                    into out: UnsafeMutableBufferPointer<UInt8>) -> Outcome {
        let clear = 1 << minimumCodeSize, end = clear + 1
        // Fixed-size tables that every code indexes (codes are below maxCodes by their width).
        let prefix = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: maxCodes)
        let last = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maxCodes)
        let first = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maxCodes)
        let length = UnsafeMutableBufferPointer<Int>.allocate(capacity: maxCodes)
        defer {
            prefix.deallocate()
            last.deallocate()
            first.deallocate()
            length.deallocate()
        }
        prefix.initialize(repeating: 0)
        last.initialize(repeating: 0)
        first.initialize(repeating: 0)
        length.initialize(repeating: 1)
        for code in 0..<clear {
            last[code] = UInt8(truncatingIfNeeded: code)
            first[code] = last[code]
        }
        var width = minimumCodeSize + 1, next = end + 1, previous = -1
        var bits: UInt64 = 0, bitCount = 0, position = 0, written = 0
        let pixelCount = out.count, tableSize = maxCodes
        let msbFirst = variant.msbFirst, widenEarly = variant.earlyChange ? 1 : 0
        while written < pixelCount {
            while bitCount < width {
                guard position < input.count else { return .ended }
                // MSB-first: new bytes enter at the bottom and codes are taken from the top of the unread bits.
                bits = msbFirst ? bits &<< 8 | UInt64(input[position]) : bits | UInt64(input[position]) &<< UInt64(bitCount)
                position += 1
                bitCount += 8
            }
            let mask: UInt64 = (1 &<< UInt64(width)) &- 1
            let code: Int
            if msbFirst {
                code = Int(truncatingIfNeeded: (bits &>> UInt64(bitCount - width)) & mask)
            } else {
                code = Int(truncatingIfNeeded: bits & mask)
                bits &>>= UInt64(width)
            }
            bitCount -= width

            if code == clear {
                width = minimumCodeSize + 1
                next = end + 1
                previous = -1
                continue
            }
            if code == end { return .ended }
            if previous < 0 {
                // The first code after a clear has no predecessor to extend: it must be a single pixel.
                guard code < clear else { return .invalid(code: code, available: next) }
            } else {
                // `code == next` is the string being defined now: the previous one plus its own first byte.
                guard code <= next else { return .invalid(code: code, available: next) }
                // A full table stops growing (a "deferred clear"): codes stay 12 bits until the encoder clears.
                if next < tableSize {
                    prefix[next] = UInt16(truncatingIfNeeded: previous)
                    first[next] = first[previous]
                    last[next] = first[code == next ? previous : code]
                    length[next] = length[previous] + 1
                    next += 1
                    if next == (1 &<< width) - widenEarly, width < 12 { width += 1 }
                }
            }
            // Write the string back to front, first skipping the part past the last pixel, if any.
            let stringEnd = written + length[code]
            var index = stringEnd - 1, link = code
            while index >= pixelCount {
                link = Int(prefix[link])
                index -= 1
            }
            while index >= written {
                out[index] = last[link]
                link = Int(prefix[link])
                index -= 1
            }
            written = stringEnd
            previous = code
        }
        return .complete
    }
}
