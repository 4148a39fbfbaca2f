/// PackBits, TIFF's byte-oriented run-length coding (compression 32773): a header byte n, then n + 1 literal
/// bytes (n 0…127), one byte repeated 1 − n times (n −127…−1), or nothing (n −128).
enum PackBits {
    /// The most bytes `byteCount` bytes can expand to: a two-byte repeat yields at most 128.
    static func maxOutput(byteCount: Int) -> Int {
        (byteCount / 2 + 1) * 128
    }

    /// Fills `out` from `input`; input after that is ignored, and input that ends first is `.truncated`.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
        var read = 0, written = 0
        while written < out.count {
            guard read < input.count else { throw .truncated(.tiff) }
            let header = Int(Int8(bitPattern: input[read]))
            read += 1
            if header >= 0 {
                let count = header + 1
                guard count <= input.count - read else { throw .truncated(.tiff) }
                for k in 0..<min(count, out.count - written) { out[written + k] = input[read + k] }
                read += count
                written += count
            } else if header != -128 {
                guard read < input.count else { throw .truncated(.tiff) }
                let value = input[read]
                read += 1
                for k in 0..<min(1 - header, out.count - written) { out[written + k] = value }
                written += 1 - header
            }
        }
    }
}
