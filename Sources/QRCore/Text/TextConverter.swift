#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level charset conversion through the C library's iconv, which every Linux system carries with
/// tables for all the legacy charsets QR codes meet (Shift_JIS, GB18030, Big5, EUC-KR, ISO-8859-x, …).
enum TextConverter {
    /// `input` converted from charset `from` to charset `to`, or nil if it is invalid or unrepresentable.
    static func convert(_ input: [UInt8], from: String, to: String) -> [UInt8]? {
        guard let descriptor = iconv_open(to, from), Int(bitPattern: descriptor) != -1 else { return nil }
        defer { iconv_close(descriptor) }
        if input.isEmpty { return [] }
        var source = input.map { CChar(bitPattern: $0) }
        // Worst case growth is 4 bytes per input byte (to UTF-32) plus a byte-order mark.
        var output = [CChar](repeating: 0, count: input.count * 4 + 8)
        let written: Int? = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress
                var outLeft = outBuffer.count
                guard iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else {
                    return nil
                }
                // Flush any shift state.
                guard iconv(descriptor, nil, nil, &outPointer, &outLeft) != -1 else { return nil }
                return outBuffer.count - outLeft
            }
        }
        guard let count = written else { return nil }
        return output[0..<count].map { UInt8(bitPattern: $0) }
    }
}
