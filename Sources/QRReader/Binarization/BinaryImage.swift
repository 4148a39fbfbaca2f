/// A thresholded image: one byte per pixel, 1 = dark, 0 = light.
struct BinaryImage: Sendable {
    let width: Int
    let height: Int
    private(set) var bits: [UInt8]

    init(width: Int, height: Int, bits: [UInt8]) {
        precondition(bits.count == width * height, "bit count does not match size")
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// An image whose bits `fill` writes, every one of them: into the storage `recycler` holds when it has
    /// this size, else into new memory.
    init(width: Int, height: Int, reusing recycler: BitRecycler?, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        let count = width * height
        if var bits = recycler?.take(count: count) {
            bits.withUnsafeMutableBytes(fill)
            self.init(width: width, height: height, bits: bits)
        } else {
            self.init(width: width, height: height, bits: [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                fill(UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            })
        }
    }

    /// Whether integer pixel (x, y) lies inside.
    @inline(__always)
    func contains(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Whether the pixel is dark; pixels outside count as light (the quiet zone continues).
    @inline(__always)
    func isDark(_ x: Int, _ y: Int) -> Bool {
        contains(x, y) && bits.withUnsafeBufferPointer { $0[y * width + x] } != 0
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
        return bits.withUnsafeBufferPointer { $0[Int(y) * width + Int(x)] } != 0
    }

    /// Whether `other` has the same size and the same pixels. Compares 32 pixels at a time, as four
    /// machine words (a plain element loop, with its early exit, is not vectorised, nor is SIMD equality).
    func isIdentical(to other: BinaryImage) -> Bool {
        guard width == other.width, height == other.height else { return false }
        return bits.withUnsafeBytes { a in
            other.bits.withUnsafeBytes { b in
                let count = a.count, vectorEnd = count - count % 32
                var offset = 0
                while offset < vectorEnd {
                    @inline(__always) func differs(_ word: Int) -> UInt64 {
                        a.loadUnaligned(fromByteOffset: offset + 8 * word, as: UInt64.self)
                            ^ b.loadUnaligned(fromByteOffset: offset + 8 * word, as: UInt64.self)
                    }
                    if differs(0) | differs(1) | differs(2) | differs(3) != 0 { return false }
                    offset += 32
                }
                return a[vectorEnd...].elementsEqual(b[vectorEnd...])
            }
        }
    }

    /// Whether `other`'s bits are this image's, not a copy.
    func sharesStorage(with other: BinaryImage) -> Bool {
        bits.withUnsafeBufferPointer { a in other.bits.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    /// The image with dark and light swapped.
    func inverted() -> BinaryImage {
        BinaryImage(width: width, height: height, bits: bits.map { $0 ^ 1 })
    }
}
