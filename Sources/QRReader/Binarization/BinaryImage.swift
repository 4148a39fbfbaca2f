/// A thresholded image, one bit per pixel (1 = dark, 0 = light), each row in whole 64-bit words whose bits past
/// the width are light. With a byte per pixel every pass over a 12 MP photo wrote 12 MB (faulted in afresh on a
/// first read) and the finder scan read it back; its 1.5 MB of bits stay in the caches, and a run's end is found
/// 64 pixels at a time.
///
/// A pixel's bit index is `y * rowBits + x`: loops stepping along a line add `dy * rowBits + dx` to it, as
/// they would to a byte offset, and read it through ``Bits``.
struct BinaryImage: Sendable {
    let width: Int
    let height: Int
    /// 64-bit words per row.
    let wordsPerRow: Int
    private(set) var words: [UInt64]

    /// Bits from the start of one row to the start of the next.
    var rowBits: Int { wordsPerRow &* 64 }

    /// 64-bit words per row of an image `width` pixels wide.
    static func wordsPerRow(width: Int) -> Int { (width + 63) / 64 }

    /// An image whose words `fill` writes, every one of them (``wordsPerRow`` per row, row after row, the bits
    /// past the width light): into the storage `recycler` holds when it has this size, else into new memory.
    init(width: Int, height: Int, reusing recycler: BitRecycler?, fill: (UnsafeMutableBufferPointer<UInt64>) -> Void) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        wordsPerRow = Self.wordsPerRow(width: width)
        let count = wordsPerRow * height
        if var words = recycler?.take(count: count) {
            words.withUnsafeMutableBufferPointer { fill($0) }
            self.words = words
        } else {
            words = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
                fill(buffer)
                initialized = count
            }
        }
    }

    /// Whether integer pixel (x, y) lies inside.
    @inline(__always)
    func contains(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Whether the pixel is dark; pixels outside count as light (the quiet zone continues).
    @inline(__always)
    func isDark(_ x: Int, _ y: Int) -> Bool {
        contains(x, y) && withBits { $0[y &* rowBits &+ x] } != 0
    }

    /// Whether a point in pixel coordinates lies inside (non-finite points do not).
    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool {
        x >= 0 && y >= 0 && x < Double(width) && y < Double(height)
    }

    /// Whether the pixel under a point in pixel coordinates is dark; outside (or not finite) is light.
    @inline(__always)
    func isDark(at x: Double, _ y: Double) -> Bool {
        guard contains(x, y) else { return false }
        return withBits { $0[Int(y) &* rowBits &+ Int(x)] } != 0
    }

    /// The bits, for loops that read many of them (their indices unchecked: the caller keeps them inside).
    @inline(__always)
    func withBits<Result>(_ body: (Bits) -> Result) -> Result {
        words.withUnsafeBufferPointer { body(Bits(words: $0)) }
    }

    /// Whether `other` has the same size and the same pixels. Compares four words at a time (a plain element
    /// loop, with its early exit, is not vectorised).
    func isIdentical(to other: BinaryImage) -> Bool {
        guard width == other.width, height == other.height else { return false }
        return words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                let count = a.count, vectorEnd = count - count % 4
                var i = 0
                while i < vectorEnd {
                    if (a[i] ^ b[i]) | (a[i &+ 1] ^ b[i &+ 1]) | (a[i &+ 2] ^ b[i &+ 2]) | (a[i &+ 3] ^ b[i &+ 3]) != 0 { return false }
                    i &+= 4
                }
                return a[vectorEnd...].elementsEqual(b[vectorEnd...])
            }
        }
    }

    /// Whether `other`'s words are this image's, not a copy.
    func sharesStorage(with other: BinaryImage) -> Bool {
        words.withUnsafeBufferPointer { a in other.words.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    /// The bits of a ``BinaryImage`` by index (`y * rowBits + x`), read unchecked.
    struct Bits {
        let words: UnsafeBufferPointer<UInt64>

        /// The bit at `index`: 1 dark, 0 light.
        @inline(__always)
        subscript(index: Int) -> UInt64 {
            (words[index &>> 6] &>> UInt64(truncatingIfNeeded: index & 63)) & 1
        }

        /// Where the run of `color` (0 or 1) starting at bit `start` ends: the index of the first bit from
        /// `start` on that is not `color`, or `end` if every bit before `end` is (`end` at most the row's end).
        @inline(__always)
        func runEnd(from start: Int, to end: Int, color: UInt64) -> Int {
            // Set wherever a bit differs from the run's colour; the bits past the width differ from dark runs,
            // which `end` stops before anyway.
            let flip: UInt64 = 0 &- color
            var index = start
            while index < end {
                let differing = (words[index &>> 6] ^ flip) &>> UInt64(truncatingIfNeeded: index & 63)
                if differing != 0 { return min(end, index &+ differing.trailingZeroBitCount) }
                index = (index | 63) &+ 1
            }
            return end
        }
    }

    /// Writes row `y` of an image `width` pixels wide into `words`, the storage ``init(width:height:reusing:fill:)``
    /// fills: `sixteen(x)` gives pixels x ..< x + 16 as 0 or 1 in each byte, `one(x)` a single pixel of a row
    /// narrower than sixteen.
    @inline(__always)
    static func packRow(into words: UnsafeMutableBufferPointer<UInt64>, row y: Int, width: Int,
                        sixteen: (Int) -> SIMD16<UInt8>, one: (Int) -> Bool) {
        var x = 0, index = y &* wordsPerRow(width: width)
        while x &+ 64 <= width {
            words[index] = packed(sixteen(x)) | packed(sixteen(x &+ 16)) &<< 16 | packed(sixteen(x &+ 32)) &<< 32
                | packed(sixteen(x &+ 48)) &<< 48
            x &+= 64
            index &+= 1
        }
        guard x < width else { return }
        // The last word: its whole sixteens, then what is left read as the top bits of the row's last sixteen.
        var word: UInt64 = 0, bit: UInt64 = 0
        while x &+ 16 <= width {
            word |= packed(sixteen(x)) &<< bit
            x &+= 16
            bit &+= 16
        }
        if x < width && width >= 16 {
            word |= (packed(sixteen(width &- 16)) &>> UInt64(16 &- (width &- x))) &<< bit
        } else {
            for pixel in x..<width where one(pixel) { word |= 1 &<< UInt64(pixel) }
        }
        words[index] = word
    }

    /// Sixteen pixels as sixteen bits, the first lowest: `lanes` holds 0 or 1 in each byte. Each half's eight
    /// bytes are gathered into its top byte by one multiply: byte i moves to bit 56 + i, and no two
    /// products share a bit, so nothing carries.
    @inline(__always)
    static func packed(_ lanes: SIMD16<UInt8>) -> UInt64 {
        let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0102_0408_1020_4080
        return (halves[0] &* gather) &>> 56 | ((halves[1] &* gather) &>> 56) &<< 8
    }
}
