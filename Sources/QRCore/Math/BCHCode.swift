/// A short systematic BCH code of the kind QR symbols use to protect format and version information:
/// `dataBits` of data followed by the remainder of `data · x^k` divided by `generator`, then XOR `mask`.
public struct BCHCode: Sendable {
    /// Number of data bits.
    public let dataBits: Int
    /// Total number of bits in a codeword.
    public let totalBits: Int
    /// Generator polynomial as a bit pattern (its degree is `totalBits − dataBits`).
    public let generator: Int
    /// Pattern XORed onto every codeword (0 for none).
    public let mask: Int
    /// The masked codeword of every data value, indexed by the value: readers decode format information
    /// many times per candidate symbol.
    @usableFromInline let codewords: [Int]

    public init(dataBits: Int, totalBits: Int, generator: Int, mask: Int = 0) {
        self.dataBits = dataBits
        self.totalBits = totalBits
        self.generator = generator
        self.mask = mask
        codewords = (0..<(1 << dataBits)).map { Self.encode($0, dataBits: dataBits, totalBits: totalBits, generator: generator, mask: mask) }
    }

    /// The masked codeword for `data`.
    public func encode(_ data: Int) -> Int {
        data >= 0 && data < codewords.count
            ? codewords[data] : Self.encode(data, dataBits: dataBits, totalBits: totalBits, generator: generator, mask: mask)
    }

    private static func encode(_ data: Int, dataBits: Int, totalBits: Int, generator: Int, mask: Int) -> Int {
        let checkBits = totalBits - dataBits
        var remainder = data << checkBits
        for bit in stride(from: totalBits - 1, through: checkBits, by: -1) where remainder & (1 << bit) != 0 {
            remainder ^= generator << (bit - checkBits)
        }
        return ((data << checkBits) | remainder) ^ mask
    }

    /// The data value among `candidates` whose codeword is nearest to `received` (Hamming distance), if that
    /// distance is at most `maximumDistance`; ties resolve to the first candidate. Candidates outside
    /// 0..<2^dataBits are ignored.
    @inlinable
    public func decode(_ received: Int, candidates: some Sequence<Int>, maximumDistance: Int)
        -> (data: Int, distance: Int)?
    {
        var best: (data: Int, distance: Int)?
        for data in candidates where data >= 0 && data < codewords.count {
            let distance = (codewords[data] ^ received).nonzeroBitCount
            if distance <= maximumDistance, distance < (best?.distance ?? Int.max) {
                best = (data, distance)
            }
        }
        return best
    }

    /// QR format information: 2 bits of level and 3 of mask, BCH(15,5), masked with 101010000010010.
    public static let qrFormat = BCHCode(dataBits: 5, totalBits: 15, generator: 0x537, mask: 0x5412)
    /// Micro QR format information: 3 bits of symbol number and 2 of mask, masked with 100010001000101.
    public static let microQRFormat = BCHCode(dataBits: 5, totalBits: 15, generator: 0x537, mask: 0x4445)
    /// QR version information: 6 bits of version, BCH(18,6), unmasked.
    public static let qrVersion = BCHCode(dataBits: 6, totalBits: 18, generator: 0x1F25)
    /// rMQR format information beside the finder pattern: 6 bits, BCH(18,6), masked with 011111101010110010.
    public static let rMQRFormatLeft = BCHCode(dataBits: 6, totalBits: 18, generator: 0x1F25, mask: 0x1FAB2)
    /// rMQR format information beside the finder sub-pattern, masked with 100000101001111011.
    public static let rMQRFormatRight = BCHCode(dataBits: 6, totalBits: 18, generator: 0x1F25, mask: 0x20A7B)
}
