@testable import QRReader

/// Binary images of one byte per pixel, as tests draw and compare them (the reader never needs them).
extension BinaryImage {
    /// An image from one byte per pixel, row-major (non-zero is dark).
    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count does not match size")
        let zero = SIMD16<UInt8>(repeating: 0), one = SIMD16<UInt8>(repeating: 1)
        self.init(width: width, height: height, reusing: nil) { words in
            pixels.withUnsafeBytes { pixels in
                for y in 0..<height {
                    let start = y * width
                    Self.packRow(into: words, row: y, width: width, sixteen: { x in
                        zero.replacing(with: one, where: pixels.loadUnaligned(fromByteOffset: start + x, as: SIMD16<UInt8>.self) .!= zero)
                    }, one: { x in pixels[start + x] != 0 })
                }
            }
        }
    }

    /// The pixels, one byte each (1 = dark), row-major.
    var pixels: [UInt8] {
        withBits { bits in
            (0..<(width * height)).map { UInt8(truncatingIfNeeded: bits[($0 / width) &* rowBits &+ $0 % width]) }
        }
    }
}
