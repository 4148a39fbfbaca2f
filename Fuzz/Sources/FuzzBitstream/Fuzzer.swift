// The bitstream parser on arbitrary data codewords (what Reed–Solomon correction hands it): the first byte
// picks the symbology and version, the rest are the codewords.
import FuzzerSupport
@testable import QRReader
import QRCore

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    guard bytes.count > 1 else { return }
    let selector = Int(bytes[0]), codewords = Array(bytes[1...])
    let format: BitstreamFormat? = switch selector % 4 {
    case 0: Version(1 + selector / 4 % 40).map { .qr($0) }
    case 1: MicroQRVersion(1 + selector / 4 % 4).map { .microQR($0) }
    case 2: Model1Version(1 + selector / 4 % 14).map { .model1($0) }
    default: RMQRVersion(selector / 4 % 32).map { .rMQR($0) }
    }
    guard let format else { return }
    if let payload = try? BitstreamParser.parse(codewords, format: format) {
        _ = payload.text.utf8.count
    }
}
