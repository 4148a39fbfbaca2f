// The reader on arbitrary pixels: the first two bytes give the picture's size (16–143 px a side), the rest
// its grey levels, repeated to fill it; the third byte's low bit picks the fast or thorough reader.
import FuzzerSupport
import QRReader

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    guard bytes.count > 3 else { return }
    let width = 16 + Int(bytes[0]) % 128, height = 16 + Int(bytes[1]) % 128
    let body = bytes[3...]
    let pixels = (0..<width * height).map { body[body.startIndex + $0 % body.count] }
    let options = ReaderOptions(accuracy: bytes[2] & 1 == 0 ? .thorough : .fast)
    for result in QRCodeReader(options: options).read(luminance: pixels, width: width, height: height) {
        // Positions are numbers a caller can draw with.
        for corner in result.corners.corners {
            precondition(corner.x.isFinite && corner.y.isFinite, "corner not finite")
        }
    }
}
