// Y4M streams as `qr watch` reads them from a pipe: header, frame markers and planes.
import FuzzerSupport
import QRVideo

@main enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var reader = Y4MReader(bytes: Array(UnsafeBufferPointer(start: data, count: size)), maxPixels: 1 << 20)
    // A stream of N bytes holds at most N frames; more would be a reader that does not advance.
    for _ in 0...size {
        guard case .some(.some) = try? reader.nextFrame() else { return 0 }
    }
    preconditionFailure("more frames than bytes")
}
