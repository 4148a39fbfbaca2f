/// The Structured Append header of one symbol in a sequence (ISO/IEC 18004 §8).
public struct StructuredAppendInfo: Sendable, Hashable {
    /// Position of this symbol, 0-based.
    public let index: Int
    /// Number of symbols in the sequence, 2…16.
    public let count: Int
    /// XOR of every byte of the whole message, identical in all symbols of the sequence.
    public let parity: UInt8

    public init(index: Int, count: Int, parity: UInt8) {
        self.index = index
        self.count = count
        self.parity = parity
    }
}
