// Symbol decoding from a module matrix (format and version information, unmasking, codeword placement,
// Reed–Solomon, bitstream): a valid symbol made by the encoder, with the fuzzer's bytes flipping modules,
// so that corrections succeed often enough to reach the parser; or, when the first byte is odd, a matrix of
// the fuzzer's own bits.
import FuzzerSupport
@testable import QRReader
import QREncoder
import QRCore

let base: [BitMatrix] = ["QRKit", "https://example.com/fuzz?q=0123456789", String(repeating: "Ab9", count: 60)]
    .compactMap { try? QRCode.encode($0).modules }

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    guard bytes.count > 2 else { return }
    var modules: BitMatrix
    if bytes[0] & 1 == 0 {
        modules = base[Int(bytes[1]) % base.count]
        // Each further pair of bytes flips one module.
        for pair in stride(from: 2, to: bytes.count - 1, by: 2) {
            let index = (Int(bytes[pair]) << 8 | Int(bytes[pair + 1])) % modules.storage.count
            modules.storage[index] ^= 1
        }
    } else {
        // Side 11–177: Micro QR, QR, and sizes between.
        let side = 11 + Int(bytes[1]) % 167
        modules = BitMatrix(width: side, height: side)
        for index in modules.storage.indices {
            let byte = bytes[2 + index / 8 % (bytes.count - 2)]
            modules.storage[index] = byte >> (index % 8) & 1
        }
    }
    _ = SymbolDecoder.decode(modules)
    _ = Model1Decoder.decode(modules)
    if let format = MicroQRDecoder.readFormat({ x, y in modules[x, y] }) {
        _ = MicroQRDecoder.decode(modules, format: format)
    }
}
