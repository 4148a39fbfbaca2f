/// GIF's and TIFF's LZW compression for tests: the codes an encoder emits for a run of palette indices (GIF) or
/// bytes (TIFF, minimum code size 8), with the code widths a decoder reads them at, and the packing of codes
/// into bytes (least significant bit first for GIF, most significant first for TIFF).
public enum LZWEncoder {
    /// One code and the number of bits it is written with.
    public struct Code: Equatable, Sendable {
        public let value: Int
        public let width: Int

        public init(_ value: Int, width: Int) {
            self.value = value
            self.width = width
        }
    }

    /// The codes for `indices` (each below 2^`minimumCodeSize`): a clear code, the compressed strings, the end
    /// code. When the table is full it either clears (as most encoders do) or, with `clearWhenFull` false,
    /// goes on with 12-bit codes and no new strings (a deferred clear). `clearEvery` clears after that many
    /// string codes besides. With `earlyChange` (TIFF), codes widen one code before the table reaches the next
    /// power of two.
    public static func codes(_ indices: [UInt8], minimumCodeSize: Int, clearWhenFull: Bool = true,
                             clearEvery: Int? = nil, earlyChange: Bool = false) -> [Code] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var codes = [Code(clear, width: minimumCodeSize + 1)]
        var strings: [Int: Int] = [:]
        var next = end + 1
        // The decoder adds its string for a code one code later than the encoder, and widens its codes when
        // its own table reaches the next power of two: the widths follow the decoder's table.
        var decoderNext = end + 1, width = minimumCodeSize + 1, sinceClear = 0

        func emit(_ code: Int) {
            codes.append(Code(code, width: width))
            if sinceClear > 0, decoderNext < 4096 {
                decoderNext += 1
                if decoderNext == (1 << width) - (earlyChange ? 1 : 0), width < 12 { width += 1 }
            }
            sinceClear += 1
        }
        func emitClear() {
            codes.append(Code(clear, width: width))
            strings = [:]
            next = end + 1
            decoderNext = end + 1
            width = minimumCodeSize + 1
            sinceClear = 0
        }

        guard var current = indices.first.map(Int.init) else { return codes + [Code(end, width: width)] }
        for index in indices.dropFirst() {
            let key = current << 8 | Int(index)
            if let code = strings[key] {
                current = code
                continue
            }
            emit(current)
            if next < 4096 {
                strings[key] = next
                next += 1
            }
            current = Int(index)
            if (next == 4096 && clearWhenFull) || clearEvery.map({ sinceClear >= $0 }) == true { emitClear() }
        }
        emit(current)
        codes.append(Code(end, width: width))
        return codes
    }

    /// `codes` packed into bytes, least significant bit first (or with `msbFirst`, most significant first),
    /// the last byte padded with zeros.
    public static func pack(_ codes: [Code], msbFirst: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [], buffer = 0, bitCount = 0
        for code in codes {
            buffer = msbFirst ? buffer << code.width | code.value : buffer | code.value << bitCount
            bitCount += code.width
            while bitCount >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: msbFirst ? buffer >> (bitCount - 8) : buffer))
                if !msbFirst { buffer >>= 8 }
                bitCount -= 8
            }
            if msbFirst { buffer &= (1 << bitCount) - 1 }
        }
        if bitCount > 0 { bytes.append(UInt8(truncatingIfNeeded: msbFirst ? buffer << (8 - bitCount) : buffer)) }
        return bytes
    }

    /// `bytes` compressed as a TIFF strip: a clear code, codes widening early, the end code, packed most
    /// significant bit first.
    public static func tiff(_ bytes: [UInt8]) -> [UInt8] {
        pack(codes(bytes, minimumCodeSize: 8, earlyChange: true), msbFirst: true)
    }
}
