/// Reads bits, most significant first, from a byte sequence; reading past the end is reported, not trapped.
public struct BitReader: Sendable {
    private let bytes: [UInt8]
    /// Bits consumed so far.
    public private(set) var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bits left to read.
    public var remaining: Int { bytes.count * 8 - position }

    /// The next `length` bits without consuming them, or nil if fewer remain.
    public func peek(_ length: Int) -> Int? {
        var copy = self
        return copy.read(length)
    }

    /// The next `length` bits (0…32) as an integer, or nil if fewer remain.
    public mutating func read(_ length: Int) -> Int? {
        guard length >= 0, length <= 32, length <= remaining else { return nil }
        var value = 0
        for _ in 0..<length {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | Int(bit)
            position += 1
        }
        return value
    }
}
