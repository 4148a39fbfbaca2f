// The encoder on arbitrary text and options, as `qr make` and `qr serve`'s /api/encode take them, and every
// symbol it makes read back by the symbol decoder: where the payload's reading is defined (UTF-8 text without
// kanji, raw bytes, or a declared ECI), the same text or bytes must come back.
import FuzzerSupport
import QRCore
import QREncoder
@testable import QRReader

@main enum Fuzzer {
    static func main() { runFuzzer(tryInput) }
}

func tryInput(_ bytes: [UInt8]) {
    guard bytes.count >= 3 else { return }
    let flags = bytes[0], choice = Int(bytes[1]), payload = Array(bytes[3...])
    let levels: [ErrorCorrectionLevel] = [.low, .medium, .quartile, .high]
    let charset = choice % 8 == 0 ? nil : Charset.all[choice % Charset.all.count]
    let declares = choice & 0x80 != 0
    let options = EncodingOptions(errorCorrectionLevel: levels[Int(flags & 3)], versions: (1 + Int(bytes[2]) % 40)...40,
                                  mask: flags & 0x20 != 0 ? Int(flags >> 2 & 7) : nil, boostErrorCorrection: flags & 0x40 != 0,
                                  charset: charset, eci: declares ? charset?.eciAssignment ?? 26 : nil,
                                  kanji: flags & 0x80 != 0)
    let rawBytes = choice & 0x40 != 0
    let text = String(decoding: payload, as: UTF8.self)
    let made = rawBytes ? try? QRCode.encode(bytes: payload, options: options) : try? QRCode.encode(text, options: options)
    guard let code = made else { return }
    guard let read = SymbolDecoder.decode(code.modules) else { preconditionFailure("a symbol the encoder made does not decode") }
    if rawBytes {
        precondition(read.payload.bytes == payload, "bytes read back differ")
    } else if declares || (charset == nil && !options.kanji) {
        precondition(read.payload.text == text, "text read back differs")
    }
}
