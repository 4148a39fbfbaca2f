// Y4M streams as `qr watch` reads them from a pipe: header, frame markers and planes.
import FuzzerSupport
import QRVideo

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    var reader = Y4MReader(bytes: bytes, maxPixels: 1 << 20)
    // A stream of N bytes holds at most N frames; more would be a reader that does not advance.
    for _ in 0...bytes.count {
        guard case .some(.some) = try? reader.nextFrame() else { return }
    }
    preconditionFailure("more frames than bytes")
}
