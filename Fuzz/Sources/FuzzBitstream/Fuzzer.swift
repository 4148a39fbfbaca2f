// The bitstream parser on arbitrary data codewords (what Reed–Solomon correction hands it): the first byte
// picks the symbology and version, the rest are the codewords.
import FuzzerSupport
@testable import QRReader
import QRCore

@main enum Fuzzer {
    static func main() { runFuzzer(fuzzOne) }
}

func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(bytes[0]), codewords = Array(bytes[1...])
    let format: BitstreamFormat? = switch selector % 4 {
    case 0: Version(1 + selector / 4 % 40).map { .qr($0) }
    case 1: MicroQRVersion(1 + selector / 4 % 4).map { .microQR($0) }
    case 2: Model1Version(1 + selector / 4 % 14).map { .model1($0) }
    default: RMQRVersion(selector / 4 % 32).map { .rMQR($0) }
    }
    guard let format else { return 0 }
    if let payload = try? BitstreamParser.parse(codewords, format: format) {
        _ = payload.text.utf8.count
    }
    return 0
}
