import CZlib

/// zlib-wrapped Deflate data (TIFF compressions 8 and 32946) inflated by zlib, which reports errors by return
/// value, never by longjmp.
enum Inflate {
    /// The most bytes `byteCount` bytes can inflate to: Deflate expands at most 1032 times.
    static func maxOutput(byteCount: Int) -> Int {
        (byteCount + 1) * 1032
    }

    /// Fills `out` from `input`; data past that is ignored, and a stream that ends first is `.truncated`.
    static func decode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                       format: ImageFormat) throws(ImageError) {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .outOfMemory }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.next_out = out.baseAddress
        var inputLeft = input.count, outputLeft = out.count
        while outputLeft > 0 {
            // zlib counts in 32 bits: larger buffers go in slices.
            let inputSlice = min(inputLeft, Int(UInt32.max)), outputSlice = min(outputLeft, Int(UInt32.max))
            stream.avail_in = UInt32(inputSlice)
            stream.avail_out = UInt32(outputSlice)
            let status = inflate(&stream, Z_NO_FLUSH)
            inputLeft -= inputSlice - Int(stream.avail_in)
            outputLeft -= outputSlice - Int(stream.avail_out)
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END, Z_BUF_ERROR:
                // The stream ended, or no progress is possible (the input ran out), before `out` was full.
                if outputLeft > 0 { throw .truncated(format) }
            case Z_MEM_ERROR:
                throw .outOfMemory
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .corrupt(format, "the Deflate data is invalid (\(message))")
            }
        }
    }
}
