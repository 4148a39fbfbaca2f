/// An append-only sequence of bits, most significant bit first, packed into bytes.
public struct BitBuffer: Sendable, Equatable {
    /// The packed bytes; the last one is zero-padded.
    public private(set) var bytes: [UInt8] = []
    /// Number of bits appended.
    public private(set) var count = 0

    public init() {}

    /// Appends the `length` low bits of `value`, most significant first.
    public mutating func append(_ value: Int, bits length: Int) {
        precondition(length >= 0 && length <= 32 && (length == 32 || value >> length == 0),
                     "value does not fit in the bit length")
        var left = length
        while left > 0 {
            let used = count & 7
            if used == 0 { bytes.append(0) }
            let free = 8 - used
            let take = Swift.min(free, left)
            let chunk = (value >> (left - take)) & ((1 << take) - 1)
            bytes[bytes.count - 1] |= UInt8(chunk << (free - take))
            count += take
            left -= take
        }
    }

    /// Appends one bit.
    public mutating func appendBit(_ bit: Bool) {
        if count % 8 == 0 { bytes.append(0) }
        if bit { bytes[count / 8] |= 0x80 >> UInt8(count % 8) }
        count += 1
    }

    /// Appends another buffer's bits.
    public mutating func append(_ other: BitBuffer) {
        for i in 0..<other.count { appendBit(other[i]) }
    }

    /// The bit at `index`.
    public subscript(index: Int) -> Bool { bytes[index / 8] & (0x80 >> UInt8(index % 8)) != 0 }
}
